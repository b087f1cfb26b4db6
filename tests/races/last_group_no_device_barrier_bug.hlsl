// Race benchmark case `last_group_no_device_barrier` (bug; kind: cross-group-visibility). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc last_group_no_device_barrier_bug.hlsl -E main -T cs_5_0 -Fo last_group_no_device_barrier_bug.dxbc -Fc last_group_no_device_barrier_bug.asm
// BUG: The 'last group' reduction with partial declared globallycoherent but
// with no DeviceMemoryBarrier (sync_uglobal) between the partial store and the
// counter atomic, nor between the atomic and the loads: atomics imply no fence
// (compute-model.md §6.1.2), so the last group may read a stale partial
// (§6.1.4, §6.1.6; MEMORY_MODEL.md guarantee 5). Correct twin: sync_uglobal on
// both sides of the counter atomic, on a _glc UAV, orders each partial store
// before the last group's loads (compute-model.md §6.1.4, §6.1.6).
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
    if (prev == NG - 1) {
      uint total = 0;
      [loop] for (uint i = 0; i < NG; i++) total += partial[i];
      result[0] = total;
    }
  }
}
