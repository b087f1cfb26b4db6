// Race benchmark case `divergent_barrier` (bug; kind: divergent-barrier). See MANIFEST.toml.
// fxc REJECTS this source (barrier in divergent flow); no divergent_barrier_bug.dxbc exists.
// divergent_barrier_bug.asm is hand-edited from divergent_barrier_ok.asm. Command that fails:
//   /work/fxc/fxc divergent_barrier_bug.hlsl -E main -T cs_5_0 -Fo divergent_barrier_bug.dxbc -Fc divergent_barrier_bug.asm
// BUG: The barrier sits inside `if (t < 32)`: threads 32..63 never reach it,
// which is undefined behaviour (compute-model.md §6.2, FS §18.6.7). fxc
// refuses this (error X3663/X4026), so the _bug exists only as a listing hand-
// derived from the _ok listing by moving sync_g_t inside the if/endif block.
// Correct twin: The barrier is in uniform flow after the if, reached by all 64
// threads (compute-model.md §6.2).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t < 32) {
    s[t] = t * 2;
    GroupMemoryBarrierWithGroupSync();
  }
  o[gid.x * 64 + t] = s[t & 31];
}
