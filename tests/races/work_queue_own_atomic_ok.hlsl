// Race benchmark case `work_queue_own_atomic` (ok; kind: forward-progress). See MANIFEST.toml.
// Built with (in tests/races/): fxc work_queue_own_atomic_ok.hlsl -E main -T cs_5_0 -Fo work_queue_own_atomic_ok.dxbc -Fc work_queue_own_atomic_ok.asm
// CORRECT TWIN: a work queue. Thread 0 of each group takes items while the
// (globallycoherent) head says some are left; its own InterlockedAdd moves
// the head, so the loop waits on no other thread, and the atomic's result,
// not the plain read, decides which item it takes. Groups that run after the
// queue is empty leave at once. (The _bug twin waits for every group.)
globallycoherent RWStructuredBuffer<uint> next : register(u0);
RWStructuredBuffer<uint> o : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t == 0) {
    uint i = 0;
    [allow_uav_condition] while (next[0] < 64) {
      InterlockedAdd(next[0], 1, i);
      if (i < 64) o[i] = gid.x + 1;
    }
  }
}
