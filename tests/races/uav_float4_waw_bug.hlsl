// Race benchmark case `uav_float4_waw` (bug; kind: waw). See MANIFEST.toml.
// Built with (in tests/races/): fxc uav_float4_waw_bug.hlsl -E main -T cs_5_0 -Fo uav_float4_waw_bug.dxbc -Fc uav_float4_waw_bug.asm
// BUG: Threads 2k and 2k+1 of a group read and store different float4 values into
// one element o[k], with no barrier between them, and every group stores
// into the same 32 elements (compute-model.md §6.1, §6.3). Every access to
// o is a whole float4, so the checker's screen keeps one entry per element.
// Correct twin: each thread stores into its own element o[gid*64+t].
RWStructuredBuffer<float4> o : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  o[t / 2] = o[t / 2] * 2 + float4(gid.x, t, 0, 1);
}
