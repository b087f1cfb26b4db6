// Race benchmark case `wait_for_later_group` (ok; kind: forward-progress). See MANIFEST.toml.
// Built with (in tests/races/): fxc wait_for_later_group_ok.hlsl -E main -T cs_5_0 -Fo wait_for_later_group_ok.dxbc -Fc wait_for_later_group_ok.asm
// CORRECT TWIN: group 0 reads the flag once, atomically, and does not wait
// for group 1. (The _bug twin spins until group 1 sets it; D3D promises no
// forward progress between groups, compute-model.md §6.3.)
RWStructuredBuffer<uint> flag : register(u0);
RWStructuredBuffer<uint> o : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    if (gid.x == 1) {
      InterlockedOr(flag[0], 1);
    } else if (gid.x == 0) {
      uint v;
      InterlockedOr(flag[0], 0, v);
      o[0] = v;
    }
  }
}
