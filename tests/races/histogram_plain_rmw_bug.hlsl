// Race benchmark case `histogram_plain_rmw` (bug; kind: cross-group-rmw). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc histogram_plain_rmw_bug.hlsl -E main -T cs_5_0 -Fo histogram_plain_rmw_bug.dxbc -Fc histogram_plain_rmw_bug.asm
// BUG: A histogram over 8 bins built with Load/Store on a raw UAV: every
// thread does a plain read-modify-write of bin (global id & 7); threads in the
// same and in other groups hit the same bin and lose updates (compute-model.md
// §6.1.2, §6.3). Correct twin: InterlockedAdd on the raw UAV compiles to
// atomic_iadd, which cannot lose an update (compute-model.md §6.1.2).
RWByteAddressBuffer hist : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint bin = ((gid.x * 64 + t) * 5) & 7;
  hist.Store(bin * 4, hist.Load(bin * 4) + 1);
}
