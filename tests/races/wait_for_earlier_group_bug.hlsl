// Race benchmark case `wait_for_earlier_group` (bug; kind: forward-progress). See MANIFEST.toml.
// Built with (in tests/races/): fxc wait_for_earlier_group_bug.hlsl -E main -T cs_5_0 -Fo wait_for_earlier_group_bug.dxbc -Fc wait_for_earlier_group_bug.asm
// BUG: group 1 waits until group 0 sets the flag. It finishes here only
// because the checker runs group 0 first: D3D promises no order and no
// forward progress between thread groups (compute-model.md §6.3), so group 1
// may spin while group 0 never runs beside it.
// Correct twin: group 1 reads the flag once and does not wait.
RWStructuredBuffer<uint> flag : register(u0);
RWStructuredBuffer<uint> o : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    if (gid.x == 0) {
      InterlockedOr(flag[0], 1);
    } else if (gid.x == 1) {
      uint v = 0;
      [allow_uav_condition] while (v == 0) { InterlockedOr(flag[0], 0, v); }
      o[0] = v;
    }
  }
}
