// Race benchmark case `srv_read_past_end` (bug; kind: out-of-bounds). See MANIFEST.toml.
// Built with (in tests/races/): fxc srv_read_past_end_bug.hlsl -E main -T cs_5_0 -Fo srv_read_past_end_bug.dxbc -Fc srv_read_past_end_bug.asm
// BUG: the last thread reads input[256], one past the SRV's 256 elements.
// Legal (D3D defines an out-of-bounds SRV read as 0, FS §22.4.13), so a
// warning, but rarely meant: the last thread gets 0, not a neighbour.
// Correct twin: the index is clamped to the last element.
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint i = gid.x * 64 + t;
  o[i] = input[i + 1];
}
