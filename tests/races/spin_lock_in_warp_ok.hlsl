// Race benchmark case `spin_lock_in_warp` (ok; kind: forward-progress). See MANIFEST.toml.
// Built with (in tests/races/): fxc spin_lock_in_warp_ok.hlsl -E main -T cs_5_0 -Fo spin_lock_in_warp_ok.dxbc -Fc spin_lock_in_warp_ok.asm
// CORRECT TWIN: no lock: InterlockedMax updates the maximum atomically. (The
// _bug twin spins on a lock another lane of its warp holds while it waits
// for them at the loop's end; D3D promises no forward progress between
// lanes, compute-model.md §6.)
RWStructuredBuffer<uint> lock : register(u0);
RWStructuredBuffer<uint> total : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  InterlockedMax(total[0], t);
}
