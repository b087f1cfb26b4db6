// Race benchmark case `last_group_not_globallycoherent` (bug; kind: cross-group-visibility). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc last_group_not_globallycoherent_bug.hlsl -E main -T cs_5_0 -Fo last_group_not_globallycoherent_bug.dxbc -Fc last_group_not_globallycoherent_bug.asm
// BUG: The 'last group' reduction: each group stores its partial sum, fences
// with DeviceMemoryBarrier (sync_uglobal), bumps a counter atomically, and the
// group that sees the final count reads all partials. partial (u0) is not
// declared globallycoherent, so it is only group-coherent and sync_uglobal
// acts at group scope: the last group's plain loads of other groups' partials
// are not guaranteed to see their stores (compute-model.md §6.1.4, §6.1.6).
// Correct twin: partial is declared globallycoherent (dcl_uav_structured_glc),
// so sync_uglobal on the writer side (before the counter atomic) and on the
// reader side (after it) makes the other groups' stores visible (compute-
// model.md §6.1.4, §6.1.6; MEMORY_MODEL.md guarantee 5).
RWStructuredBuffer<uint> partial : register(u0);
RWStructuredBuffer<uint> counter : register(u1);
RWStructuredBuffer<uint> result : register(u2);
static const uint NG = 4;
groupshared uint sum;
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) sum = 0;
  GroupMemoryBarrierWithGroupSync();
  InterlockedAdd(sum, t + gid.x);
  GroupMemoryBarrierWithGroupSync();
  if (t == 0) {
    partial[gid.x] = sum;
    DeviceMemoryBarrier();
    uint prev;
    InterlockedAdd(counter[0], 1, prev);
    if (prev == NG - 1) {
      DeviceMemoryBarrier();
      uint total = 0;
      [loop] for (uint i = 0; i < NG; i++) total += partial[i];
      result[0] = total;
    }
  }
}
