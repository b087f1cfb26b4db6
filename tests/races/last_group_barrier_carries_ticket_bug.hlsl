// Race benchmark case `last_group_barrier_carries_ticket` (bug; kind: cross-group-visibility). See MANIFEST.toml.
// Built with (in tests/races/): fxc last_group_barrier_carries_ticket_bug.hlsl -E main -T cs_5_0 -Fo last_group_barrier_carries_ticket_bug.dxbc -Fc last_group_barrier_carries_ticket_bug.asm (fxc: tools/fxc/setup.sh)
// SEEDED BUG: thread 0 writes its group's eight partials, fences them
// (DeviceMemoryBarrier) and takes the ticket; it tells the group through
// groupshared memory whether it is the last group, and threads 0..7 of the
// last group read the partials. The barrier between the ticket and their
// reads is GroupMemoryBarrierWithGroupSync, which fences groupshared memory
// only: the UAV reads of threads 1..7 are not ordered after thread 0's
// atomic (compute-model.md §6.1.2, §6.1.6), so they may read stale partials.
globallycoherent RWStructuredBuffer<uint> partial : register(u0);
RWStructuredBuffer<uint> counter : register(u1);
RWStructuredBuffer<uint> result : register(u2);
static const uint NG = 4;
groupshared uint last;
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    [loop] for (uint i = 0; i < 8; i++) partial[gid.x * 8 + i] = gid.x * 100 + i;
    DeviceMemoryBarrier();
    uint prev;
    InterlockedAdd(counter[0], 1, prev);
    last = prev == NG - 1 ? 1 : 0;
  }
  GroupMemoryBarrierWithGroupSync();
  if (last != 0 && t < 8) {
    uint total = 0;
    [loop] for (uint g = 0; g < NG; g++) total += partial[g * 8 + t];
    result[t] = total;
  }
}
