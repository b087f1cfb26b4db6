// Race benchmark case `tgsm_write_out_of_bounds` (bug; kind: tgsm-out-of-bounds). See MANIFEST.toml.
// Built with (in tests/races/): fxc tgsm_write_out_of_bounds_bug.hlsl -E main -T cs_5_0 -Fo tgsm_write_out_of_bounds_bug.dxbc -Fc tgsm_write_out_of_bounds_bug.asm
// BUG: thread 63 writes s[64], one past the groupshared array. An
// out-of-bounds TGSM write makes the whole of the group's shared memory
// undefined (FS §22.4.13; sm5-compute-isa.md §14), not just that word.
// Correct twin: the index wraps, (t + 1) & 63.
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  s[t + 1] = t;
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = s[t];
}
