// Race benchmark case `uav_counter_reset_across_groups` (ok; kind: cross-group-atomic-vs-plain). See MANIFEST.toml.
// Built with (in tests/races/): fxc uav_counter_reset_across_groups_ok.hlsl -E main -T cs_5_0 -Fo uav_counter_reset_across_groups_ok.dxbc -Fc uav_counter_reset_across_groups_ok.asm
// CORRECT TWIN: the group whose InterlockedAdd returns the last ticket
// resets the counter for the next dispatch: every other group's add came
// before its own in the counter's modification order (the returned value
// says so), so the plain store follows them all. (The _bug twin: group 0
// resets the counter with a plain store while the other groups add to it
// atomically, in no order, compute-model.md §6.3.)
RWStructuredBuffer<uint> counter : register(u0);
RWStructuredBuffer<uint> tickets : register(u1);
static const uint NG = 4;
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    uint prev;
    InterlockedAdd(counter[0], 1, prev);
    tickets[gid.x] = prev;
    if (prev == NG - 1) counter[0] = 0;
  }
}
