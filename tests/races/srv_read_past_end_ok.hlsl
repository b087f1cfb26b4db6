// Race benchmark case `srv_read_past_end` (ok; kind: out-of-bounds). See MANIFEST.toml.
// Built with (in tests/races/): fxc srv_read_past_end_ok.hlsl -E main -T cs_5_0 -Fo srv_read_past_end_ok.dxbc -Fc srv_read_past_end_ok.asm
// CORRECT TWIN: the index is clamped to the SRV's last element. (The _bug
// twin's last thread reads input[256], past the view, which reads 0.)
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint i = gid.x * 64 + t;
  o[i] = input[min(i + 1, 255)];
}
