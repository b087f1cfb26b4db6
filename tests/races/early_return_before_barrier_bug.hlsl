// Race benchmark case `early_return_before_barrier` (bug; kind: divergent-barrier). See MANIFEST.toml.
// fxc REJECTS this source (barrier in divergent flow); no early_return_before_barrier_bug.dxbc exists.
// early_return_before_barrier_bug.asm is hand-edited from early_return_before_barrier_ok.asm. Command that fails:
//   /work/fxc/fxc early_return_before_barrier_bug.hlsl -E main -T cs_5_0 -Fo early_return_before_barrier_bug.dxbc -Fc early_return_before_barrier_bug.asm
// BUG: Threads 48..63 `return` before the barrier that threads 0..47 reach: a
// thread executed ret before a barrier the others reach, which is undefined
// (compute-model.md §6.2). fxc refuses this (error X4026), so the _bug exists
// only as a listing hand-derived from the _ok listing by moving the `if_nz /
// ret / endif` block in front of sync_g_t. Correct twin: The early return
// comes after the barrier, so all 64 threads reach it (compute-model.md §6.2).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t >= 48) return;
  s[t] = t + 9;
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = s[47 - t];
}
