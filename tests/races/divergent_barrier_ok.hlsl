// Race benchmark case `divergent_barrier` (ok; kind: divergent-barrier). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc divergent_barrier_ok.hlsl -E main -T cs_5_0 -Fo divergent_barrier_ok.dxbc -Fc divergent_barrier_ok.asm
// CORRECT TWIN: The barrier is in uniform flow after the if, reached by all 64
// threads (compute-model.md §6.2). (The _bug twin: The barrier sits inside `if
// (t < 32)`: threads 32..63 never reach it, which is undefined behaviour
// (compute-model.md §6.2, FS §18.6.7). fxc refuses this (error X3663/X4026),
// so the _bug exists only as a listing hand-derived from the _ok listing by
// moving sync_g_t inside the if/endif block.)
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t < 32) {
    s[t] = t * 2;
  }
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = s[t & 31];
}
