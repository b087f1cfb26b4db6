// Tests store_structured on a g# with a run-time byte offset and index:
// groupshared T gs[4] (struct T { uint3 a[2]; uint y; }, stride 28) followed
// by groupshared uint guard[8]. Thread n reads (i, j, x, w) from t0 and stores
// uint3(w, x + 1, x) to gs[i].a[j] (byte offset j * 12, wrapping). As on u#,
// sm5sim writes each dword whose flat address lies inside the g0 region and
// drops the rest (D3D: all TGSM undefined); nothing may reach guard (g1).
// gs is pre-filled with 0xDEADBEEF and guard with 0x7000000 + n; both are
// copied out (u0; guard_out[n] = guard[(n+1)%8] on u1, so that fxc cannot
// forward the thread's own store and drop g1) after a barrier.
// fxc emitted `store_structured g0.xyz, r0.x, r0.y, r1.xyzx` with r0.y = j*12.
// Built with: fxc store_structured_tgsm_offset.hlsl -E main -T cs_5_0 -Fo store_structured_tgsm_offset.dxbc -Fc store_structured_tgsm_offset.asm
struct T { uint3 a[2]; uint y; };
groupshared T gs[4];
groupshared uint guard[8];
RWStructuredBuffer<T> o : register(u0);
RWStructuredBuffer<uint> guard_out : register(u1);
StructuredBuffer<uint4> cases : register(t0);
[numthreads(8,1,1)]
void main(uint t : SV_GroupIndex) {
  if (t < 4) {
    T s;
    s.a[0] = 0xDEADBEEFu; s.a[1] = 0xDEADBEEFu; s.y = 0xDEADBEEFu;
    gs[t] = s;
  }
  guard[t] = 0x7000000u + t;
  GroupMemoryBarrierWithGroupSync();
  uint4 c = cases[t];
  uint3 v = uint3(c.z, c.z + 1, c.w);
  gs[c.x].a[c.y] = v.zyx;
  GroupMemoryBarrierWithGroupSync();
  if (t < 4) o[t] = gs[t];
  guard_out[t] = guard[(t + 1) % 8];
}
