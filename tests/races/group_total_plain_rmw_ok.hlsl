// Race benchmark case `group_total_plain_rmw` (ok; kind: cross-group-rmw). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc group_total_plain_rmw_ok.hlsl -E main -T cs_5_0 -Fo group_total_plain_rmw_ok.dxbc -Fc group_total_plain_rmw_ok.asm
// CORRECT TWIN: Thread 0 adds with InterlockedAdd (atomic_iadd), indivisible
// and globally coherent (compute-model.md §6.1.2, §6.1.6). (The _bug twin:
// Each group reduces correctly in TGSM, then thread 0 of the group adds the
// group's sum to o[0] with a plain load/add/store. Within a group only one
// thread writes, but thread 0 of another group does the same read-modify-write
// concurrently, and groups have no order (compute-model.md §6.3), so a group's
// total can be lost.)
RWStructuredBuffer<uint> o : register(u0);
groupshared uint sum;
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) sum = 0;
  GroupMemoryBarrierWithGroupSync();
  InterlockedAdd(sum, t + gid.x);
  GroupMemoryBarrierWithGroupSync();
  if (t == 0) InterlockedAdd(o[0], sum);
}
