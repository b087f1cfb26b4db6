// Race benchmark case `tgsm_raw_no_barrier` (bug; kind: raw). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc tgsm_raw_no_barrier_bug.hlsl -E main -T cs_5_0 -Fo tgsm_raw_no_barrier_bug.dxbc -Fc tgsm_raw_no_barrier_bug.asm
// BUG: Thread t stores s[t] and then loads s[t+1], which thread t+1 stores,
// with no barrier in between: the load may run before or after the other
// thread's store (compute-model.md §6.3, no order between threads of a group
// between barriers; §6.1.5 only sync_g_t orders them). Correct twin:
// GroupMemoryBarrierWithGroupSync (sync_g_t) between the store and the load
// makes every store visible to every later load in the group (compute-model.md
// §6.1.5).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  s[t] = t * 3 + 1;
  o[gid.x * 64 + t] = s[(t + 1) & 63];
}
