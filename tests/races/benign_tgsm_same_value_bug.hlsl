// Race benchmark case `benign_tgsm_same_value` (bug; kind: benign). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc benign_tgsm_same_value_bug.hlsl -E main -T cs_5_0 -Fo benign_tgsm_same_value_bug.dxbc -Fc benign_tgsm_same_value_bug.asm
// BUG: Threads 0..31 all store gid.x + 1 to the same TGSM flag before the
// barrier. This is a write-write race by the letter (no order between the
// stores, compute-model.md §6.3) but every store writes the same value and
// 32-bit stores are atomic (§6.1.2, §5), so the outcome is deterministic:
// benign. Correct twin: Only thread 0 stores the flag (compute-model.md §6.1.5
// orders it before the loads).
RWStructuredBuffer<uint> o : register(u0);
groupshared uint flag;
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t < 32) flag = gid.x + 1;
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = flag + t;
}
