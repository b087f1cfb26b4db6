// Race benchmark case `uav_counter_read_across_groups` (bug; kind: cross-group-atomic-vs-plain). See MANIFEST.toml.
// Built with (in tests/races/): fxc uav_counter_read_across_groups_bug.hlsl -E main -T cs_5_0 -Fo uav_counter_read_across_groups_bug.dxbc -Fc uav_counter_read_across_groups_bug.asm
// BUG: each group adds to the counter atomically, then reads it with a plain
// load to learn its ticket. The other groups' adds are unordered with that
// load (compute-model.md §6.3, §6.1.2): it sees any number of them, and two
// groups can read the same ticket.
// Correct twin: the ticket is the value InterlockedAdd returns
// (imm_atomic_iadd), which no other group's add can change.
RWStructuredBuffer<uint> counter : register(u0);
RWStructuredBuffer<uint> tickets : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    InterlockedAdd(counter[0], 1);
    tickets[gid.x] = counter[0];
  }
}
