// Race benchmark case `scan_double_buffer_swapped` (bug; kind: war). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc scan_double_buffer_swapped_bug.hlsl -E main -T cs_5_0 -Fo scan_double_buffer_swapped_bug.dxbc -Fc scan_double_buffer_swapped_bug.asm
// BUG: Hillis-Steele inclusive scan with ping-pong TGSM buffers s[2][64], one
// barrier per step; the store uses the input buffer index (s[pin][t]) instead
// of the output one (s[pout][t]), so in each step thread t loads s[pin][t-off]
// while thread t-off overwrites that same word in the same barrier interval
// (write-after-read, compute-model.md §6.3). (It also reads the wrong buffer
// on the next step: the result is wrong as well as racy.) Correct twin: Stores
// go to s[pout], which no thread reads in this step; the barrier at the end of
// the step orders them before the next step's loads, which read s[pout] as
// s[pin] (compute-model.md §6.1.5).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[2][64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint pin = 0;
  s[0][t] = t + 1;
  GroupMemoryBarrierWithGroupSync();
  [loop] for (uint off = 1; off < 64; off <<= 1) {
    uint pout = 1 - pin;
    uint v = s[pin][t];
    if (t >= off) v += s[pin][t - off];
    s[pin][t] = v;
    GroupMemoryBarrierWithGroupSync();
    pin = pout;
  }
  o[gid.x * 64 + t] = s[pin][t];
}
