// Race benchmark case `uav_counter_read_across_groups` (ok; kind: cross-group-atomic-vs-plain). See MANIFEST.toml.
// Built with (in tests/races/): fxc uav_counter_read_across_groups_ok.hlsl -E main -T cs_5_0 -Fo uav_counter_read_across_groups_ok.dxbc -Fc uav_counter_read_across_groups_ok.asm
// CORRECT TWIN: the ticket is the value InterlockedAdd returns
// (imm_atomic_iadd), indivisible from the add. (The _bug twin reads the
// counter with a plain load after its add, unordered with the other groups'
// adds, compute-model.md §6.3.)
RWStructuredBuffer<uint> counter : register(u0);
RWStructuredBuffer<uint> tickets : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    uint prev;
    InterlockedAdd(counter[0], 1, prev);
    tickets[gid.x] = prev + 1;
  }
}
