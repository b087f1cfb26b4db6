// Race benchmark case `loop_carried_no_end_barrier` (bug; kind: war). See MANIFEST.toml.
// Built with (in tests/races/): fxc loop_carried_no_end_barrier_bug.hlsl -E main -T cs_5_0 -Fo loop_carried_no_end_barrier_bug.dxbc -Fc loop_carried_no_end_barrier_bug.asm
// BUG: each iteration writes s[t], waits at a barrier, then reads s[t+1].
// The barrier orders the write before the read within an iteration, but
// nothing orders thread t's read of s[t+1] in one iteration before thread
// t+1's write of it in the next: a write-after-read race across the loop's
// back edge (compute-model.md §5, §6.2).
// Correct twin: a second barrier at the end of the loop body.
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint acc = 0;
  [loop] for (uint i = 0; i < 4; i++) {
    s[t] = acc + i;
    GroupMemoryBarrierWithGroupSync();
    acc += s[(t + 1) & 63];
  }
  o[gid.x * 64 + t] = acc;
}
