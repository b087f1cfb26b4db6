// Race benchmark case `benign_uav_found_flag` (bug; kind: benign). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc benign_uav_found_flag_bug.hlsl -E main -T cs_5_0 -Fo benign_uav_found_flag_bug.dxbc -Fc benign_uav_found_flag_bug.asm
// BUG: Every thread (of every group) whose global id is a multiple of 3 stores
// 1 to found[0]: an unordered write-write race across threads and groups
// (compute-model.md §6.3), but all stores write the same value and 32-bit
// stores are atomic (§6.1.2), so the final value is deterministic: benign.
// Correct twin: InterlockedOr(found[0], 1) compiles to atomic_or, which never
// races (compute-model.md §6.1.2).
RWStructuredBuffer<uint> found : register(u0);
[numthreads(64,1,1)]
void main(uint3 dt : SV_DispatchThreadID) {
  if (dt.x % 3 == 0) found[0] = 1;
}
