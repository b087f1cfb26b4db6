// Race benchmark case `last_group_fence_after_ticket` (ok; kind: cross-group-visibility). See MANIFEST.toml.
// Built with (in tests/races/): fxc last_group_fence_after_ticket_ok.hlsl -E main -T cs_5_0 -Fo last_group_fence_after_ticket_ok.dxbc -Fc last_group_fence_after_ticket_ok.asm (fxc: tools/fxc/setup.sh)
// CORRECT TWIN: the DeviceMemoryBarrier sits between the partial store and
// the ticket's InterlockedAdd, so the store is ordered before the ticket
// (compute-model.md §6.1.4, §6.1.6). (The _bug twin calls it after the
// atomic, where it orders nothing the ticket signals.)
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
    DeviceMemoryBarrier();
    uint prev;
    InterlockedAdd(counter[0], 1, prev);
    if (prev == NG - 1) {
      uint total = 0;
      [loop] for (uint i = 0; i < NG; i++) total += partial[i];
      result[0] = total;
    }
  }
}
