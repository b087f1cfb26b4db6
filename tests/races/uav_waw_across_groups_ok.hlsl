// Race benchmark case `uav_waw_across_groups` (ok; kind: waw). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc uav_waw_across_groups_ok.hlsl -E main -T cs_5_0 -Fo uav_waw_across_groups_ok.dxbc -Fc uav_waw_across_groups_ok.asm
// CORRECT TWIN: Each group writes its own slice o[gid*64+t] (compute-model.md
// §6.3: no two groups touch one word). (The _bug twin: Every group stores its
// group id into the same 64 words o[t]: threads of different groups write one
// word with different values, and groups have no order (compute-model.md
// §6.3), so the final content is unspecified.)
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  o[gid.x * 64 + t] = gid.x;
}
