// Race benchmark case `group_barrier_without_sync` (ok; kind: barrier-scope). See MANIFEST.toml.
// Built with (in tests/races/): /work/fxc/fxc group_barrier_without_sync_ok.hlsl -E main -T cs_5_0 -Fo group_barrier_without_sync_ok.dxbc -Fc group_barrier_without_sync_ok.asm
// CORRECT TWIN: GroupMemoryBarrierWithGroupSync() compiles to sync_g_t: all
// threads reach it before any continues, so every store before it is visible
// to every load after it (compute-model.md §6.1.5). (The _bug twin:
// GroupMemoryBarrier() compiles to sync_g, which only orders the calling
// thread's own TGSM accesses (compute-model.md §6.1.3); it does not wait for
// the other threads, so thread t's load of s[t+1] can still run before thread
// t+1's store. The execution part (_t) is missing.)
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  s[t] = t + 100;
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = s[(t + 1) & 63];
}
