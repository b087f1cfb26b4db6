// Race benchmark case `tgsm_waw_same_word` (bug; kind: waw). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc tgsm_waw_same_word_bug.hlsl -E main -T cs_5_0 -Fo tgsm_waw_same_word_bug.dxbc -Fc tgsm_waw_same_word_bug.asm
// BUG: Threads 2k and 2k+1 both store to s[k] (values 2k and 2k+1) with no
// ordering between them; which value survives the barrier is unspecified
// (compute-model.md §6.3). Correct twin: Only even threads store s[k], so
// every word has exactly one writer before the barrier (compute-model.md
// §6.1.5).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[32];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  s[t >> 1] = t;
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = s[(t >> 1) ^ 1];
}
