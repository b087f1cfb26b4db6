// Race benchmark case `last_group_fence_after_ticket` (bug; kind: cross-group-visibility). See MANIFEST.toml.
// Built with (in tests/races/): fxc last_group_fence_after_ticket_bug.hlsl -E main -T cs_5_0 -Fo last_group_fence_after_ticket_bug.dxbc -Fc last_group_fence_after_ticket_bug.asm (fxc: tools/fxc/setup.sh)
// SEEDED BUG: the 'last group' reduction stores its partial, takes the ticket
// with InterlockedAdd, and only then calls DeviceMemoryBarrier. A fence orders
// the thread's own accesses on either side of it (compute-model.md §6.1.2):
// placed after the atomic, it does not order the partial store before the
// ticket, so the last group may read a stale partial (§6.1.4, §6.1.6).
globallycoherent RWStructuredBuffer<uint> partial : register(u0);
RWStructuredBuffer<uint> counter : register(u1);
RWStructuredBuffer<uint> result : register(u2);
static const uint NG = 4;
groupshared uint sum;
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) sum = 0;
  GroupMemoryBarrierWithGroupSync();
  InterlockedAdd(sum, t + gid.x);
  GroupMemoryBarrierWithGroupSync();
  if (t == 0) {
    partial[gid.x] = sum;
    uint prev;
    InterlockedAdd(counter[0], 1, prev);
    DeviceMemoryBarrier();
    if (prev == NG - 1) {
      uint total = 0;
      [loop] for (uint i = 0; i < NG; i++) total += partial[i];
      result[0] = total;
    }
  }
}
