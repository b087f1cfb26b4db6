// Race benchmark case `counter_increment_and_decrement` (ok; kind: counter-increment-and-decrement). See MANIFEST.toml.
// Built with (in tests/races/): fxc counter_increment_and_decrement_ok.hlsl -E main -T cs_5_0 -Fo counter_increment_and_decrement_ok.dxbc -Fc counter_increment_and_decrement_ok.asm
// CORRECT TWIN: items' counter is only incremented and popped's only
// decremented. (The _bug twin increments and decrements items' counter in
// one dispatch, which FS §22.17.17-18 forbids.)
RWStructuredBuffer<uint> items : register(u0);
RWStructuredBuffer<uint> popped : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (gid.x == 0) {
    uint i = items.IncrementCounter();
    items[i] = t;
  } else if (gid.x == 1) {
    popped[t] = popped.DecrementCounter();
  }
}
