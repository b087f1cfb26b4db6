// ld on Texture2D and Texture2DArray (FS §22.4.6; reference/sm5-compute-isa.md
// §10, §14): x, y in .xy, the slice in .z (arrays), the mip in .w; mip chains,
// slices, views re-basing mip 0 / slice 0 (MostDetailedMip, FirstArraySlice),
// out-of-range coordinates, slices and mips, and _aoffimmi(u, v) at the
// extremes of the 4-bit range (-8, 7) and small ones.
// Thread t takes case c = cases[t] = (x, y, slice, mip) and writes, in order:
//   ou[4t+0] t2d.Load(x, y, mip)                 ou[4t+1] same, offset (-8, 7)
//   ou[4t+2] same, offset (7, -8)                ou[4t+3] t2dv.Load(x, y, mip)
//   of[3t+0] t2a.Load(x, y, slice, mip)          of[3t+1] same, offset (1, -1)
//   of[3t+2] t2av.Load(x, y, slice, mip)
// fxc tex_load_2d.hlsl -E main -T cs_5_0 -Fo tex_load_2d.dxbc -Fc tex_load_2d.asm
Texture2D<uint4> t2d : register(t0);
Texture2D<uint4> t2dv : register(t1);
Texture2DArray<float4> t2a : register(t2);
Texture2DArray<float4> t2av : register(t3);
StructuredBuffer<int4> cases : register(t4);
RWStructuredBuffer<uint4> ou : register(u0);
RWStructuredBuffer<float4> of : register(u1);

[numthreads(15, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    int4 c = cases[t];
    ou[4 * t + 0] = t2d.Load(int3(c.xy, c.w));
    ou[4 * t + 1] = t2d.Load(int3(c.xy, c.w), int2(-8, 7));
    ou[4 * t + 2] = t2d.Load(int3(c.xy, c.w), int2(7, -8));
    ou[4 * t + 3] = t2dv.Load(int3(c.xy, c.w));
    of[3 * t + 0] = t2a.Load(c);
    of[3 * t + 1] = t2a.Load(c, int2(1, -1));
    of[3 * t + 2] = t2av.Load(c);
}
