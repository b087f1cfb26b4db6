// ld on Texture1D and Texture1DArray (FS §22.4.6; reference/sm5-compute-isa.md
// §10, §14): integer address in .x, the slice in .y (arrays), the mip in .w;
// mip chains, array slices, views whose MostDetailedMip / FirstArraySlice
// re-base the shader's mip 0 and slice 0, out-of-range coordinates, slices and
// mips (0 in the format's present components, defaults 0, 0, 1 in the missing
// ones, FS §19.1.3.3), and _aoffimmi offsets added at the mip accessed, a
// negative result wrapping to a huge (out-of-range) address.
// Thread t takes case c = cases[t] = (x, slice, -, mip) and writes, in order:
//   of[4t+0] t1d.Load(x, mip)          of[4t+1] t1d.Load(x, mip, offset -1)
//   of[4t+2] t1d.Load(x, mip, offset 1) of[4t+3] t1dv.Load(x, mip)
//   ou[3t+0] t1a.Load(x, slice, mip)   ou[3t+1] t1a.Load(x, slice, mip, offset -2)
//   ou[3t+2] t1av.Load(x, slice, mip)
// fxc tex_load_1d.hlsl -E main -T cs_5_0 -Fo tex_load_1d.dxbc -Fc tex_load_1d.asm
Texture1D<float4> t1d : register(t0);
Texture1D<float4> t1dv : register(t1);
Texture1DArray<uint4> t1a : register(t2);
Texture1DArray<uint4> t1av : register(t3);
StructuredBuffer<int4> cases : register(t4);
RWStructuredBuffer<float4> of : register(u0);
RWStructuredBuffer<uint4> ou : register(u1);

[numthreads(10, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    int4 c = cases[t];
    of[4 * t + 0] = t1d.Load(int2(c.x, c.w));
    of[4 * t + 1] = t1d.Load(int2(c.x, c.w), -1);
    of[4 * t + 2] = t1d.Load(int2(c.x, c.w), 1);
    of[4 * t + 3] = t1dv.Load(int2(c.x, c.w));
    ou[3 * t + 0] = t1a.Load(int3(c.x, c.y, c.w));
    ou[3 * t + 1] = t1a.Load(int3(c.x, c.y, c.w), -2);
    ou[3 * t + 2] = t1av.Load(int3(c.x, c.y, c.w));
}
