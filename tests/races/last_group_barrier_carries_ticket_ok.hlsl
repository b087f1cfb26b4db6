// Race benchmark case `last_group_barrier_carries_ticket` (ok; kind: cross-group-visibility). See MANIFEST.toml.
// Built with (in tests/races/): fxc last_group_barrier_carries_ticket_ok.hlsl -E main -T cs_5_0 -Fo last_group_barrier_carries_ticket_ok.dxbc -Fc last_group_barrier_carries_ticket_ok.asm (fxc: tools/fxc/setup.sh)
// CORRECT TWIN: thread 0 writes its group's eight partials, fences them and
// takes the ticket; AllMemoryBarrierWithGroupSync (a group barrier with a UAV
// fence) orders its atomic before the reads of every thread of the group
// after it, so threads 0..7 of the last group read the published partials
// (the threadfence-reduction shape; compute-model.md §6.1.4, §6.1.6). (The
// _bug twin's barrier fences groupshared memory only.)
globallycoherent RWStructuredBuffer<uint> partial : register(u0);
RWStructuredBuffer<uint> counter : register(u1);
RWStructuredBuffer<uint> result : register(u2);
static const uint NG = 4;
groupshared uint last;
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    [loop] for (uint i = 0; i < 8; i++) partial[gid.x * 8 + i] = gid.x * 100 + i;
    DeviceMemoryBarrier();
    uint prev;
    InterlockedAdd(counter[0], 1, prev);
    last = prev == NG - 1 ? 1 : 0;
  }
  AllMemoryBarrierWithGroupSync();
  if (last != 0 && t < 8) {
    uint total = 0;
    [loop] for (uint g = 0; g < NG; g++) total += partial[g * 8 + t];
    result[t] = total;
  }
}
