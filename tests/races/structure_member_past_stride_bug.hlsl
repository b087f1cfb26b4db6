// Race benchmark case `structure_member_past_stride` (bug; kind: structure-out-of-bounds). See MANIFEST.toml.
// Built with (in tests/races/): fxc structure_member_past_stride_bug.hlsl -E main -T cs_5_0 -Fo structure_member_past_stride_bug.dxbc -Fc structure_member_past_stride_bug.asm
// BUG: the index into the structure's array member runs to 3, but the array
// has 2 elements: fxc computes the byte offset (4 * index) at run time, and
// offsets 8 and 12 lie past the 8-byte stride. A structured access past the
// stride makes the whole UAV undefined (FS §22.4.13; sm5-compute-isa.md §10).
// Correct twin: the index stays within the array (t & 1).
struct Pair { uint v[2]; };
RWStructuredBuffer<Pair> o : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  o[gid.x * 16 + (t >> 2)].v[t & 3] = t;
}
