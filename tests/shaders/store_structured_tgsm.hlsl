// Tests store_structured on a g# (groupshared S gs[64], stride 48) with every
// write mask and non-identity swizzles, copied out to u0 after a barrier; and
// out of bounds by index on g#: thread j stores into gs[j + shift], and for
// j + shift >= 64 nothing may be written, neither to gs nor to the second
// groupshared array `guard` (g1), which is copied out to u1.
// gs is pre-filled with 0xDEADBEEF (thread t fills gs[(t+1)%64]) and guard
// with 0x6n000000 + t before the first barrier.
// fxc emitted (see .asm; it folded the swizzles into r1 = cb0[0].wzyx + id):
// g0.x @0 r1.y; g0.xy @4 r1.zwzz; g0.xyz @12 r1.yyyy; g0.xyzw @24 r2.xyzw
// (after mov r2, r1 or r1.wzyx); g0.x @40 r1.x; k=5 also g0.xyzw @0 r1.yzwy
// and g0.xy @16 r1.yyyy; the pre-fill is g0.xyzw with an immediate.
// Built with: fxc store_structured_tgsm.hlsl -E main -T cs_5_0 -Fo store_structured_tgsm.dxbc -Fc store_structured_tgsm.asm
struct S { float f; uint2 b; uint3 c; uint4 d; uint e; uint pad; };
groupshared S gs[64];
groupshared uint4 guard[16];
RWStructuredBuffer<S> o : register(u0);
RWStructuredBuffer<uint4> guard_out : register(u1);
cbuffer P : register(b0) { uint4 base; uint shift; };
#define SENT 0xDEADBEEFu
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  S s;
  s.f = asfloat(SENT); s.b = SENT; s.c = SENT; s.d = SENT; s.e = SENT; s.pad = SENT;
  gs[(t + 1) % 64] = s;
  if (t < 16) guard[t] = uint4(0x60000000u, 0x61000000u, 0x62000000u, 0x63000000u) + t;
  GroupMemoryBarrierWithGroupSync();
  uint4 r = base + (gid.x * 64 + t);
  uint i = t + shift;
  uint k = t % 6;
  if (k == 0) gs[i].f = asfloat(r.z);
  else if (k == 1) gs[i].b = r.yx;
  else if (k == 2) gs[i].c = r.zzz;
  else if (k == 3) gs[i].d = r.wzyx;
  else if (k == 4) { gs[i].e = r.w; gs[i].d = r; }
  else { gs[i].f = asfloat(r.z); gs[i].b = r.yx; gs[i].c = r.zzz; gs[i].d = r.wzyx; gs[i].e = r.w; }
  GroupMemoryBarrierWithGroupSync();
  o[gid.x * 64 + t] = gs[t];
  if (t < 16) guard_out[gid.x * 16 + t] = guard[t];
}
