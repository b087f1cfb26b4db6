// Race benchmark case `uav_synced_with_tgsm_barrier` (bug; kind: barrier-scope). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc uav_synced_with_tgsm_barrier_bug.hlsl -E main -T cs_5_0 -Fo uav_synced_with_tgsm_barrier_bug.dxbc -Fc uav_synced_with_tgsm_barrier_bug.asm
// BUG: Threads exchange data through a UAV (u0) within their group, but the
// barrier is GroupMemoryBarrierWithGroupSync (sync_g_t), which orders only
// TGSM; UAV accesses need sync_ugroup/sync_uglobal (compute-model.md §6.1.4),
// so thread t's load of scratch[base+t+1] is unordered with thread t+1's
// store. Correct twin: DeviceMemoryBarrierWithGroupSync compiles to
// sync_uglobal_t, which on a non-_glc UAV has group scope and orders the
// group's UAV accesses across the execution barrier (compute-model.md §6.1.4,
// §6.1.5).
RWStructuredBuffer<uint> scratch : register(u0);
RWStructuredBuffer<uint> o : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint base = gid.x * 64;
  scratch[base + t] = t * 7;
  GroupMemoryBarrierWithGroupSync();
  o[base + t] = scratch[base + ((t + 1) & 63)];
}
