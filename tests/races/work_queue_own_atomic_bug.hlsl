// Race benchmark case `work_queue_own_atomic` (bug; kind: forward-progress). See MANIFEST.toml.
// Built with (in tests/races/): fxc work_queue_own_atomic_bug.hlsl -E main -T cs_5_0 -Fo work_queue_own_atomic_bug.dxbc -Fc work_queue_own_atomic_bug.asm
// BUG: a grid barrier. Each group takes one ticket, then waits until every
// group has taken its own: the word moves only when other groups run, and
// D3D promises no forward progress between groups (compute-model.md §6.3):
// group 0 spins while the groups it waits for have not started.
// Correct twin: a work queue. The loop takes items with its own
// InterlockedAdd on the word it tests, so it waits on no other thread.
globallycoherent RWStructuredBuffer<uint> next : register(u0);
RWStructuredBuffer<uint> o : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    uint i;
    InterlockedAdd(next[0], 1, i);
    uint v = 0;
    [allow_uav_condition] while (v < 4) { InterlockedOr(next[0], 0, v); }
    o[i] = gid.x + 1;
  }
}
