// Race benchmark case `uav_read_neighbour_group` (bug; kind: cross-group-visibility). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc uav_read_neighbour_group_bug.hlsl -E main -T cs_5_0 -Fo uav_read_neighbour_group_bug.dxbc -Fc uav_read_neighbour_group_bug.asm
// BUG: Each group stores its 64 words, runs DeviceMemoryBarrierWithGroupSync
// (sync_uglobal_t) and then reads the words of the next group. The barrier has
// group scope only (u0 is not _glc), groups have no order and no forward
// progress guarantee, so the neighbour's stores may not have happened or may
// not be visible (compute-model.md §6.1.4, §6.1.6, §6.3). Correct twin: Each
// group reads back words stored by its own group (rotated by one thread),
// which sync_uglobal_t orders within the group (compute-model.md §6.1.4,
// §6.1.5).
RWStructuredBuffer<uint> o : register(u0);
RWStructuredBuffer<uint> o2 : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  o[gid.x * 64 + t] = gid.x * 1000 + t;
  DeviceMemoryBarrierWithGroupSync();
  o2[gid.x * 64 + t] = o[((gid.x + 1) & 3) * 64 + t];
}
