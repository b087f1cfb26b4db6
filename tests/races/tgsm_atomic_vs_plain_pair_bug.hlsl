// Race benchmark case `tgsm_atomic_vs_plain_pair` (bug; kind: atomic-vs-plain). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc tgsm_atomic_vs_plain_pair_bug.hlsl -E main -T cs_5_0 -Fo tgsm_atomic_vs_plain_pair_bug.dxbc -Fc tgsm_atomic_vs_plain_pair_bug.asm
// BUG: After zeroing, even thread 2k plain-stores s[k] = 2k while odd thread
// 2k+1 does InterlockedOr(s[k], 0x100) with no barrier between them: an atomic
// and a plain store on one TGSM word, unordered, give an undefined value
// (compute-model.md §5, FS §7.14.2). Correct twin: A
// GroupMemoryBarrierWithGroupSync between the plain-store phase and the atomic
// phase orders them (compute-model.md §5, §6.1.5).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[32];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t < 32) s[t] = 0;
  GroupMemoryBarrierWithGroupSync();
  if ((t & 1) == 0) s[t >> 1] = t;
  if ((t & 1) != 0) InterlockedOr(s[t >> 1], 0x100);
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = s[t >> 1];
}
