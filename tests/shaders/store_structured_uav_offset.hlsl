// Tests store_structured on a u# with a run-time byte offset: struct T
// { uint3 a[2]; uint y; } (stride 28); thread n reads (i, j, x, w) from t0 and
// stores uint3(w, x + 1, x) to o[i].a[j]. HLSL does not clamp j: fxc computes
// the byte offset as j * 12 (imul, wrapping) and emits one
// `store_structured u0.xyz, r0.x, r0.y, r1.xyzx` (see .asm), so j >= 2 puts
// dwords past the stride. D3D leaves that undefined; sm5sim (addressing.rs)
// writes each dword whose flat address stride*i + offset + 4k lies inside the
// view and drops the rest; i >= element count drops everything.
// Built with: fxc store_structured_uav_offset.hlsl -E main -T cs_5_0 -Fo store_structured_uav_offset.dxbc -Fc store_structured_uav_offset.asm
struct T { uint3 a[2]; uint y; };
RWStructuredBuffer<T> o : register(u0);
StructuredBuffer<uint4> cases : register(t0);
cbuffer P : register(b0) { uint n; };
[numthreads(8,1,1)]
void main(uint3 tid : SV_DispatchThreadID) {
  if (tid.x >= n) return;
  uint4 c = cases[tid.x];
  uint3 v = uint3(c.z, c.z + 1, c.w);
  o[c.x].a[c.y] = v.zyx;
}
