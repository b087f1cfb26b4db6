// Race benchmark case `tgsm_atomic_then_plain_read` (ok; kind: raw). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc tgsm_atomic_then_plain_read_ok.hlsl -E main -T cs_5_0 -Fo tgsm_atomic_then_plain_read_ok.dxbc -Fc tgsm_atomic_then_plain_read_ok.asm
// CORRECT TWIN: A GroupMemoryBarrierWithGroupSync after the atomics makes all
// of them visible to thread 0's load (compute-model.md §6.1.5). (The _bug
// twin: All threads InterlockedMax into a TGSM word, then thread 0 reads it
// with a plain load and no barrier: the load is not ordered after the other
// threads' atomics, so it may see any intermediate maximum (compute-model.md
// §6.1.2 atomics imply no fence, §6.3).)
RWStructuredBuffer<uint> o : register(u0);
groupshared uint m;
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) m = 0;
  GroupMemoryBarrierWithGroupSync();
  InterlockedMax(m, (t * 37) & 63);
  GroupMemoryBarrierWithGroupSync();
  if (t == 0) o[gid.x] = m;
}
