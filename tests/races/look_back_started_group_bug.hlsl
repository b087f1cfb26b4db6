// Race benchmark case `look_back_started_group` (bug; kind: occupancy-dependent-progress). See MANIFEST.toml.
// Built with (in tests/races/): fxc look_back_started_group_bug.hlsl -E main -T cs_5_0 -Fo look_back_started_group_bug.dxbc -Fc look_back_started_group_bug.asm
// BUG (a warning): a decoupled look-back. Each group takes a ticket, then
// waits for the group with the previous ticket to publish its inclusive
// prefix. That group took its ticket first, so it had started: the wait ends
// if the GPU keeps started groups running, which desktop GPUs do and D3D does
// not promise (compute-model.md §6.3).
// Correct twin: no group waits. Each publishes its count and takes a ticket;
// the group with the last ticket writes every prefix.
globallycoherent RWStructuredBuffer<uint> ticket : register(u0);
globallycoherent RWStructuredBuffer<uint> flags : register(u1);
RWStructuredBuffer<uint> o : register(u2);
groupshared uint id;
[numthreads(64,1,1)]
void main(uint t : SV_GroupIndex) {
  if (t == 0) InterlockedAdd(ticket[0], 1, id);
  GroupMemoryBarrierWithGroupSync();
  uint g = id;
  if (t == 0) {
    uint prefix = 0;
    if (g > 0) {
      uint f = 0;
      [allow_uav_condition] while (f == 0) { InterlockedOr(flags[g - 1], 0, f); }
      prefix = f - 1;
    }
    uint old;
    InterlockedExchange(flags[g], prefix + 64 + 1, old);
    o[g] = prefix;
  }
}
