// Race benchmark case `uav_counter_reset_across_groups` (bug; kind: cross-group-atomic-vs-plain). See MANIFEST.toml.
// Built with (in tests/races/): fxc uav_counter_reset_across_groups_bug.hlsl -E main -T cs_5_0 -Fo uav_counter_reset_across_groups_bug.dxbc -Fc uav_counter_reset_across_groups_bug.asm
// BUG: group 0 resets the counter with a plain store while the other groups
// add to it atomically. Groups have no order (compute-model.md §6.3): the
// reset may land before, between or after any of their adds, so the final
// count and the tickets handed out depend on the schedule.
// Correct twin: the group whose add returns the last ticket resets the
// counter: every other group's add came before its own in the counter's
// order of modifications, which the returned value shows.
RWStructuredBuffer<uint> counter : register(u0);
RWStructuredBuffer<uint> tickets : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    if (gid.x == 0) counter[0] = 0;
    uint prev;
    InterlockedAdd(counter[0], 1, prev);
    tickets[gid.x] = prev;
  }
}
