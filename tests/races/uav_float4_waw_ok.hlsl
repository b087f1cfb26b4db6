// Race benchmark case `uav_float4_waw` (ok; kind: waw). See MANIFEST.toml.
// Built with (in tests/races/): fxc uav_float4_waw_ok.hlsl -E main -T cs_5_0 -Fo uav_float4_waw_ok.dxbc -Fc uav_float4_waw_ok.asm
// CORRECT TWIN: each thread reads and stores its own float4 element
// o[gid*64+t] (compute-model.md §6.3: no two threads touch one word). (The
// _bug twin: threads 2k and 2k+1 of every group store into one element
// o[k].)
RWStructuredBuffer<float4> o : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint i = gid.x * 64 + t;
  o[i] = o[i] * 2 + float4(gid.x, t, 0, 1);
}
