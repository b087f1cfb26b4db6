// Race benchmark case `uav_counter_plain_rmw` (ok; kind: cross-group-rmw). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc uav_counter_plain_rmw_ok.hlsl -E main -T cs_5_0 -Fo uav_counter_plain_rmw_ok.dxbc -Fc uav_counter_plain_rmw_ok.asm
// CORRECT TWIN: InterlockedAdd(o[0], 1) compiles to atomic_iadd, an
// indivisible read-modify-write that is globally coherent (compute-model.md
// §6.1.2, §6.1.6). (The _bug twin: o[0] += 1 is a plain load, add and store of
// one UAV word done by every even thread of every group; two threads (of the
// same or of different groups) can read the same old value and one increment
// is lost (compute-model.md §6.1.2: only atomics are indivisible; §6.3: no
// order between groups).)
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if ((t & 1) == 0) InterlockedAdd(o[0], 1);
}
