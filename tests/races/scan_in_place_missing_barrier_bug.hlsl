// Race benchmark case `scan_in_place_missing_barrier` (bug; kind: war). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc scan_in_place_missing_barrier_bug.hlsl -E main -T cs_5_0 -Fo scan_in_place_missing_barrier_bug.dxbc -Fc scan_in_place_missing_barrier_bug.asm
// BUG: Single-buffer Hillis-Steele scan: each step reads s[t-off] and then
// overwrites s[t]; the barrier between the read phase and the write phase is
// missing, so thread t-off may overwrite s[t-off] before thread t loads it
// (compute-model.md §6.3). Correct twin: Two barriers per step: one after the
// loads, one after the stores (compute-model.md §6.1.5).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  s[t] = t + 1;
  GroupMemoryBarrierWithGroupSync();
  [loop] for (uint off = 1; off < 64; off <<= 1) {
    uint v = s[t];
    if (t >= off) v += s[t - off];
    s[t] = v;
    GroupMemoryBarrierWithGroupSync();
  }
  o[gid.x * 64 + t] = s[t];
}
