// Race benchmark case `spin_lock_in_warp` (bug; kind: forward-progress). See MANIFEST.toml.
// Built with (in tests/races/): fxc spin_lock_in_warp_bug.hlsl -E main -T cs_5_0 -Fo spin_lock_in_warp_bug.dxbc -Fc spin_lock_in_warp_bug.asm
// BUG: a spin lock taken by every thread. The lane whose compare-exchange
// wins leaves the loop and waits at its end for the rest of its warp, which
// spin on the lock it holds: D3D promises no forward progress between the
// lanes of a warp (compute-model.md §6), so on a GPU running the warp in
// lockstep the dispatch hangs.
// Correct twin: no lock; InterlockedMax does the update atomically.
RWStructuredBuffer<uint> lock : register(u0);
RWStructuredBuffer<uint> total : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  uint prev = 1;
  [allow_uav_condition] while (prev != 0) { InterlockedCompareExchange(lock[0], 0, 1, prev); }
  if (t > total[0]) total[0] = t;
  InterlockedExchange(lock[0], 0, prev);
}
