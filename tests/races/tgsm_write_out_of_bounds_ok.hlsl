// Race benchmark case `tgsm_write_out_of_bounds` (ok; kind: tgsm-out-of-bounds). See MANIFEST.toml.
// Built with (in tests/races/): fxc tgsm_write_out_of_bounds_ok.hlsl -E main -T cs_5_0 -Fo tgsm_write_out_of_bounds_ok.dxbc -Fc tgsm_write_out_of_bounds_ok.asm
// CORRECT TWIN: the index wraps, (t + 1) & 63, so every write stays inside
// the groupshared array. (The _bug twin writes s[64], one past its end,
// which makes all of the group's shared memory undefined, FS §22.4.13.)
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  s[(t + 1) & 63] = t;
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = s[t];
}
