// Race benchmark case `wait_for_later_group` (bug; kind: forward-progress). See MANIFEST.toml.
// Built with (in tests/races/): fxc wait_for_later_group_bug.hlsl -E main -T cs_5_0 -Fo wait_for_later_group_bug.dxbc -Fc wait_for_later_group_bug.asm
// BUG: group 0 waits until group 1 sets the flag. D3D promises no order and
// no forward progress between thread groups (compute-model.md §6.3): group 0
// may occupy the GPU while group 1 never starts, and the dispatch hangs (a
// TDR). The checker, running groups in order, sees group 0 spin on a word no
// running thread changes.
// Correct twin: group 0 reads the flag once and does not wait.
RWStructuredBuffer<uint> flag : register(u0);
RWStructuredBuffer<uint> o : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    if (gid.x == 1) {
      InterlockedOr(flag[0], 1);
    } else if (gid.x == 0) {
      uint v = 0;
      [allow_uav_condition] while (v == 0) { InterlockedOr(flag[0], 0, v); }
      o[0] = v;
    }
  }
}
