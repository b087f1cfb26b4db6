// Race benchmark case `last_group_texture` (bug; kind: cross-group-visibility). See MANIFEST.toml.
// Built with (in tests/texture_races/): fxc last_group_texture_bug.hlsl -E main -T cs_5_0 -Fo last_group_texture_bug.dxbc -Fc last_group_texture_bug.asm (fxc: tools/fxc/setup.sh)
// SEEDED BUG: the 'last group' protocol on a texture: partials in an
// RWTexture2D that is not declared globallycoherent. The fences and the
// ticket are in place, but without globallycoherent the stores may stay in a
// cache other groups do not read through (compute-model.md §6.1.5).
RWTexture2D<uint> partial : register(u0);
RWStructuredBuffer<uint> counter : register(u1);
RWStructuredBuffer<uint> result : register(u2);
static const uint NG = 4;
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    partial[uint2(gid.x, 0)] = gid.x + 1;
    DeviceMemoryBarrier();
    uint prev;
    InterlockedAdd(counter[0], 1, prev);
    if (prev == NG - 1) {
      uint total = 0;
      [loop] for (uint g = 0; g < NG; g++) total += partial[uint2(g, 0)];
      result[0] = total;
    }
  }
}
