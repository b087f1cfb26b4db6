// ldms (ld2dms, FS §22.4.7) on Texture2DMS and Texture2DMSArray with 4
// samples: (x, y) in .xy, the slice in .z (arrays), the sample index a
// separate scalar operand (from a register, and a literal); out-of-range
// coordinates, slices and sample indices; _aoffimmi(u, v); a view with
// FirstArraySlice re-basing slice 0.
// Thread t takes case c = cases[t] = (x, y, slice, sample) and writes:
//   of[3t+0] ms.Load(xy, sample)   of[3t+1] ms.Load(xy, sample, offset (-1, 0))
//   of[3t+2] ms.Load(xy, 3)        (literal sample index)
//   ou[2t+0] msa.Load(xyz, sample) ou[2t+1] msav.Load(xyz, sample)
// fxc tex_load_ms.hlsl -E main -T cs_5_0 -Fo tex_load_ms.dxbc -Fc tex_load_ms.asm
Texture2DMS<float4, 4> ms : register(t0);
Texture2DMSArray<uint4, 4> msa : register(t1);
Texture2DMSArray<uint4, 4> msav : register(t2);
StructuredBuffer<int4> cases : register(t3);
RWStructuredBuffer<float4> of : register(u0);
RWStructuredBuffer<uint4> ou : register(u1);

[numthreads(10, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    int4 c = cases[t];
    of[3 * t + 0] = ms.Load(c.xy, c.w);
    of[3 * t + 1] = ms.Load(c.xy, c.w, int2(-1, 0));
    of[3 * t + 2] = ms.Load(c.xy, 3);
    ou[2 * t + 0] = msa.Load(c.xyz, c.w);
    ou[2 * t + 1] = msav.Load(c.xyz, c.w);
}
