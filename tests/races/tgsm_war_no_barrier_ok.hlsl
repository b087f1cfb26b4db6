// Race benchmark case `tgsm_war_no_barrier` (ok; kind: war). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc tgsm_war_no_barrier_ok.hlsl -E main -T cs_5_0 -Fo tgsm_war_no_barrier_ok.dxbc -Fc tgsm_war_no_barrier_ok.asm
// CORRECT TWIN: A GroupMemoryBarrierWithGroupSync between the load phase and
// the store phase makes every load complete before any thread overwrites
// (compute-model.md §6.1.5). (The _bug twin: After an initialising barrier,
// thread t loads s[t+1] and then overwrites s[t]; thread t+1 overwrites s[t+1]
// without waiting for thread t's load, so the load may see the old or the new
// value (write-after-read, compute-model.md §6.3).)
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  s[t] = t;
  GroupMemoryBarrierWithGroupSync();
  uint v = s[(t + 1) & 63];
  GroupMemoryBarrierWithGroupSync();
  s[t] = v * 2 + 1;
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = s[t ^ 5];
}
