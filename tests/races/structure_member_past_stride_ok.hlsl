// Race benchmark case `structure_member_past_stride` (ok; kind: structure-out-of-bounds). See MANIFEST.toml.
// Built with (in tests/races/): fxc structure_member_past_stride_ok.hlsl -E main -T cs_5_0 -Fo structure_member_past_stride_ok.dxbc -Fc structure_member_past_stride_ok.asm
// CORRECT TWIN: the index into the 2-element array member stays in it
// (t & 1), so every byte offset (0 or 4) lies within the 8-byte stride, and
// each thread writes its own element. (The _bug twin indexes to 3: offsets
// past the stride.)
struct Pair { uint v[2]; };
RWStructuredBuffer<Pair> o : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  o[gid.x * 32 + (t >> 1)].v[t & 1] = t;
}
