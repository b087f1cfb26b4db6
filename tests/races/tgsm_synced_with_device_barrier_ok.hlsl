// Race benchmark case `tgsm_synced_with_device_barrier` (ok; kind: barrier-scope). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc tgsm_synced_with_device_barrier_ok.hlsl -E main -T cs_5_0 -Fo tgsm_synced_with_device_barrier_ok.dxbc -Fc tgsm_synced_with_device_barrier_ok.asm
// CORRECT TWIN: AllMemoryBarrierWithGroupSync compiles to sync_uglobal_g_t,
// which includes the TGSM fence (sync_g) as well as the execution barrier
// (compute-model.md §6.1.3, §6.1.5). (The _bug twin: Threads exchange data
// through TGSM, but the barrier is DeviceMemoryBarrierWithGroupSync
// (sync_uglobal_t): an execution barrier with a UAV-only memory fence; without
// the _g part the TGSM store of thread t+1 is not guaranteed visible to thread
// t's load (compute-model.md §6.1.3–§6.1.5).)
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  s[t] = t ^ 0x55;
  AllMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = s[(t + 1) & 63];
}
