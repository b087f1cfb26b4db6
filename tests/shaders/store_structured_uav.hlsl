// Tests store_structured on a u# (RWStructuredBuffer, stride 48) with every
// write mask (.x/.xy/.xyz/.xyzw), at byte offsets 0/4/12/16/24/32/40, with
// non-identity source swizzles; and out of bounds by index (threads whose
// index t satisfies count > t >= number of structures in the view write
// nothing). Each thread t < count stores into element t only; which members
// it stores depends on k = t % 6, so lanes of one warp diverge.
// fxc emitted (see .asm): k=0 u0.x @0 r0.z; k=1 u0.xy @4 r0.yxyy;
// k=2 u0.xyz @12 r0.zzzz; k=3 u0.xyzw @24 r0.wzyx; k=4 u0.x @40 r0.w then
// u0.xyzw @24 r0.xyzw; k=5 merged into u0.xyzw @0 r0.zyxz, u0.xyzw @16
// r0.zzwz, u0.xyz @32 r0.yxwy. Word 11 (pad) is never written.
// Built with: fxc store_structured_uav.hlsl -E main -T cs_5_0 -Fo store_structured_uav.dxbc -Fc store_structured_uav.asm
struct S { float f; uint2 b; uint3 c; uint4 d; uint e; uint pad; };
RWStructuredBuffer<S> o : register(u0);
cbuffer P : register(b0) { uint4 base; uint count; };
[numthreads(64,1,1)]
void main(uint3 tid : SV_DispatchThreadID) {
  uint t = tid.x;
  if (t >= count) return;
  uint4 r = base + t;
  uint k = t % 6;
  if (k == 0) o[t].f = asfloat(r.z);
  else if (k == 1) o[t].b = r.yx;
  else if (k == 2) o[t].c = r.zzz;
  else if (k == 3) o[t].d = r.wzyx;
  else if (k == 4) { o[t].e = r.w; o[t].d = r; }
  else { o[t].f = asfloat(r.z); o[t].b = r.yx; o[t].c = r.zzz; o[t].d = r.wzyx; o[t].e = r.w; }
}
