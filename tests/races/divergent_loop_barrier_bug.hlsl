// Race benchmark case `divergent_loop_barrier` (bug; kind: divergent-barrier). See MANIFEST.toml.
// fxc REJECTS this source (barrier in divergent flow); no divergent_loop_barrier_bug.dxbc exists.
// divergent_loop_barrier_bug.asm is hand-edited from divergent_loop_barrier_ok.asm. Command that fails:
//   /work/fxc/fxc divergent_loop_barrier_bug.hlsl -E main -T cs_5_0 -Fo divergent_loop_barrier_bug.dxbc -Fc divergent_loop_barrier_bug.asm
// BUG: A loop containing a barrier runs a thread-dependent number of times (1
// + (t & 3)), so threads disagree on how many barriers they execute: undefined
// (compute-model.md §6.2). fxc refuses it, so the _bug exists only as a
// listing hand-derived from the _ok listing by replacing the loop bound l(4)
// with a per-thread bound. Correct twin: The loop bound is the literal 4 for
// every thread, so all threads execute the barrier the same number of times
// (compute-model.md §6.2).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint n = 1 + (t & 3);
  uint acc = 0;
  [loop] for (uint i = 0; i < n; i++) {
    s[t] = acc + i;
    GroupMemoryBarrierWithGroupSync();
    acc += s[(t + 1) & 63];
    GroupMemoryBarrierWithGroupSync();
  }
  o[gid.x * 64 + t] = acc;
}
