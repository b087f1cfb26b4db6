// Race benchmark case `counter_increment_and_decrement` (bug; kind: counter-increment-and-decrement). See MANIFEST.toml.
// Built with (in tests/races/): fxc counter_increment_and_decrement_bug.hlsl -E main -T cs_5_0 -Fo counter_increment_and_decrement_bug.dxbc -Fc counter_increment_and_decrement_bug.asm
// BUG: group 0 pushes onto items through its hidden counter
// (IncrementCounter, imm_atomic_alloc) while group 1 pops from the same
// buffer (DecrementCounter, imm_atomic_consume). A shader must not
// increment and decrement one UAV's counter in one dispatch (FS
// §22.17.17-18): the slots the two hand out overlap in a schedule-dependent
// way.
// Correct twin: the pops come from another buffer's counter.
RWStructuredBuffer<uint> items : register(u0);
RWStructuredBuffer<uint> popped : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (gid.x == 0) {
    uint i = items.IncrementCounter();
    items[i] = t;
  } else if (gid.x == 1) {
    popped[t] = items.DecrementCounter();
  }
}
