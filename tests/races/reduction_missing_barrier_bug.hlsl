// Race benchmark case `reduction_missing_barrier` (bug; kind: raw). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc reduction_missing_barrier_bug.hlsl -E main -T cs_5_0 -Fo reduction_missing_barrier_bug.dxbc -Fc reduction_missing_barrier_bug.asm
// BUG: Tree reduction over 64 TGSM words, one explicit level per stride with a
// barrier after each, except that the barrier after the stride-16 level is
// missing: thread t (t<8) in the stride-8 level loads s[t+8], which thread t+8
// stores in the stride-16 level, with nothing ordering them (compute-model.md
// §6.3, §6.1.5). Correct twin: A GroupMemoryBarrierWithGroupSync after every
// level, so each level's loads see the previous level's stores (compute-
// model.md §6.1.5).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  s[t] = gid.x * 64 + t;
  GroupMemoryBarrierWithGroupSync();
  if (t < 32) s[t] += s[t + 32];
  GroupMemoryBarrierWithGroupSync();
  if (t < 16) s[t] += s[t + 16];
  if (t < 8) s[t] += s[t + 8];
  GroupMemoryBarrierWithGroupSync();
  if (t < 4) s[t] += s[t + 4];
  GroupMemoryBarrierWithGroupSync();
  if (t < 2) s[t] += s[t + 2];
  GroupMemoryBarrierWithGroupSync();
  if (t < 1) s[t] += s[t + 1];
  GroupMemoryBarrierWithGroupSync();
  if (t == 0) o[gid.x] = s[0];
}
