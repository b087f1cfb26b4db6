// Race benchmark case `uninit_tgsm_atomic` (ok; kind: uninitialised-read). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc uninit_tgsm_atomic_ok.hlsl -E main -T cs_5_0 -Fo uninit_tgsm_atomic_ok.dxbc -Fc uninit_tgsm_atomic_ok.asm
// CORRECT TWIN: Threads 0 and 1 zero the counters, and a barrier separates
// that plain store from the atomics (compute-model.md §5, §6.1.5). (The _bug
// twin: Of the two group counters only cnt[0] is zeroed (by thread 0); cnt[1]
// is never initialised, so the odd threads' InterlockedAdd on cnt[1] reads
// whatever the TGSM word held (compute-model.md §5 'Lifetime': TGSM starts
// uninitialised and nothing carries over between groups).)
RWStructuredBuffer<uint> o : register(u0);
groupshared uint cnt[2];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t < 2) cnt[t] = 0;
  GroupMemoryBarrierWithGroupSync();
  InterlockedAdd(cnt[t & 1], t);
  GroupMemoryBarrierWithGroupSync();
  if (t < 2) o[gid.x * 2 + t] = cnt[t];
}
