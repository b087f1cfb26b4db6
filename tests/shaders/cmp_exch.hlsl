// Tests imm_atomic_cmp_exch returning the original value, on u# raw
// (RWByteAddressBuffer, u0), u# structured at byte offset 4
// (RWStructuredBuffer<uint2>, .y, u1), u# structured stride 4
// (RWStructuredBuffer<uint>, u3) and g# (groupshared uint g[64]).
// Thread d reads (init, compare, value, _) from t0; the host puts init into
// raw[d], st2[d].y and st1[d], the shader puts it into g[t]. Equal compares
// exchange, unequal ones (including +0.0 vs -0.0 bit patterns) do not; the
// originals and g[t] afterwards go to results[d] (u2).
// fxc emitted: imm_atomic_cmp_exch r.x, u0, r0.x(=d*4), cmp, val;
// ... u1, r.xyxx (= d, 4) ...; ... u3, (d, 0) ...; ... g0, (t, 0) ...
// Built with: fxc cmp_exch.hlsl -E main -T cs_5_0 -Fo cmp_exch.dxbc -Fc cmp_exch.asm
struct R { uint o_raw; uint o_st2; uint o_st1; uint o_g; uint g_after; };
RWByteAddressBuffer raw : register(u0);
RWStructuredBuffer<uint2> st2 : register(u1);
RWStructuredBuffer<R> results : register(u2);
RWStructuredBuffer<uint> st1 : register(u3);
StructuredBuffer<uint4> cases : register(t0);
groupshared uint g[64];
[numthreads(64,1,1)]
void main(uint3 dtid : SV_DispatchThreadID, uint t : SV_GroupIndex) {
  uint4 c = cases[dtid.x];
  g[t] = c.x;
  GroupMemoryBarrierWithGroupSync();
  R r;
  raw.InterlockedCompareExchange(dtid.x * 4, c.y, c.z, r.o_raw);
  InterlockedCompareExchange(st2[dtid.x].y, c.y, c.z, r.o_st2);
  InterlockedCompareExchange(st1[dtid.x], c.y, c.z, r.o_st1);
  InterlockedCompareExchange(g[t], c.y, c.z, r.o_g);
  GroupMemoryBarrierWithGroupSync();
  r.g_after = g[t];
  results[dtid.x] = r;
}
