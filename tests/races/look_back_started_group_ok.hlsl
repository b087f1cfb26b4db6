// Race benchmark case `look_back_started_group` (ok; kind: occupancy-dependent-progress). See MANIFEST.toml.
// Built with (in tests/races/): fxc look_back_started_group_ok.hlsl -E main -T cs_5_0 -Fo look_back_started_group_ok.dxbc -Fc look_back_started_group_ok.asm
// CORRECT TWIN: no group waits for another. Each group publishes its count
// with an atomic, then takes a ticket; the group with the last ticket (of 4)
// reads every count, atomically, and writes every prefix. (The _bug twin's
// look-back waits for the group with the previous ticket.)
globallycoherent RWStructuredBuffer<uint> ticket : register(u0);
globallycoherent RWStructuredBuffer<uint> flags : register(u1);
RWStructuredBuffer<uint> o : register(u2);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    uint old;
    InterlockedExchange(flags[gid.x], 64, old);
    uint n;
    InterlockedAdd(ticket[0], 1, n);
    if (n == 3) {
      uint sum = 0;
      for (uint i = 0; i < 4; i++) {
        uint f;
        InterlockedOr(flags[i], 0, f);
        o[i] = sum;
        sum += f;
      }
    }
  }
}
