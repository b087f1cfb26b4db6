// Race benchmark case `tgsm_atomic_vs_plain_init` (bug; kind: atomic-vs-plain). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc tgsm_atomic_vs_plain_init_bug.hlsl -E main -T cs_5_0 -Fo tgsm_atomic_vs_plain_init_bug.dxbc -Fc tgsm_atomic_vs_plain_init_bug.asm
// BUG: Thread 0 initialises the TGSM counter with a plain store while the
// other threads already InterlockedAdd to it, with no barrier between: a TGSM
// atomic is not atomic with respect to a plain store to the same address, so
// the word's value is undefined (compute-model.md §5 'TGSM atomics vs plain
// stores', FS §7.14.2). Correct twin: A GroupMemoryBarrierWithGroupSync
// between the initialising store and the atomics separates the plain store
// from the atomics (compute-model.md §5, §6.1.5).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint cnt;
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) cnt = 0;
  InterlockedAdd(cnt, 1);
  GroupMemoryBarrierWithGroupSync();
  if (t == 0) o[gid.x] = cnt;
}
