// Race benchmark case `uninit_tgsm_read` (bug; kind: uninitialised-read). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc uninit_tgsm_read_bug.hlsl -E main -T cs_5_0 -Fo uninit_tgsm_read_bug.dxbc -Fc uninit_tgsm_read_bug.asm
// BUG: Only threads 0..31 store s[t], but every thread loads s[63-t] after the
// barrier, so threads 0..31 read words 32..63 that nobody wrote; TGSM starts
// uninitialised (compute-model.md §5 'Lifetime', FS §18.6.6). Correct twin:
// Every thread stores s[t] before the barrier, so all 64 words are written
// before any is read (compute-model.md §5).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t < 32) s[t] = t + 1;
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = s[63 - t];
}
