// Race benchmark case `loop_carried_no_end_barrier` (ok; kind: war). See MANIFEST.toml.
// Built with (in tests/races/): fxc loop_carried_no_end_barrier_ok.hlsl -E main -T cs_5_0 -Fo loop_carried_no_end_barrier_ok.dxbc -Fc loop_carried_no_end_barrier_ok.asm
// CORRECT TWIN: a second barrier at the end of the loop body orders each
// iteration's reads before the next iteration's writes. (The _bug twin has
// only the barrier between the write and the read, so thread t's read of
// s[t+1] races with thread t+1's write of it in the next iteration.)
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint acc = 0;
  [loop] for (uint i = 0; i < 4; i++) {
    s[t] = acc + i;
    GroupMemoryBarrierWithGroupSync();
    acc += s[(t + 1) & 63];
    GroupMemoryBarrierWithGroupSync();
  }
  o[gid.x * 64 + t] = acc;
}
