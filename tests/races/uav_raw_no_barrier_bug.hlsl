// Race benchmark case `uav_raw_no_barrier` (bug; kind: raw). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc uav_raw_no_barrier_bug.hlsl -E main -T cs_5_0 -Fo uav_raw_no_barrier_bug.dxbc -Fc uav_raw_no_barrier_bug.asm
// BUG: Threads of a group exchange data through a UAV: thread t stores
// o[base+t] then loads o[base+(t^1)], stored by its neighbour, with no barrier
// at all (compute-model.md §6.3, §6.1.4). Correct twin:
// DeviceMemoryBarrierWithGroupSync (sync_uglobal_t, group scope on a non-_glc
// UAV) between the store and the load (compute-model.md §6.1.4, §6.1.5).
RWStructuredBuffer<uint> o : register(u0);
RWStructuredBuffer<uint> o2 : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint base = gid.x * 64;
  o[base + t] = t * t;
  o2[base + t] = o[base + (t ^ 1)];
}
