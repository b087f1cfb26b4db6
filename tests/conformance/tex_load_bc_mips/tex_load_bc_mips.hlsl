// ld and resinfo on a block-compressed mip chain (FS §19.5.1: the top mip is a
// multiple of 4; lower mips have a virtual size max(1, size >> m), which
// addressing, bounds and resinfo use, and a physical size rounded up to whole
// 4 x 4 blocks: a 2 x 2 mip uses texels a, b, e, f of its block, a 1 x 1 mip
// texel a). Thread t takes c = cases[t] = (x, y, -, mip) and writes
// o[t] = t.Load(x, y, mip); threads 0..4 also write dims[t] = (w, h, levels)
// of mip t (GetDimensions, resinfo_uint).
// fxc tex_load_bc_mips.hlsl -E main -T cs_5_0 -Fo tex_load_bc_mips.dxbc -Fc tex_load_bc_mips.asm
Texture2D<float4> bc : register(t0);
StructuredBuffer<int4> cases : register(t1);
RWStructuredBuffer<float4> o : register(u0);
RWStructuredBuffer<uint4> dims : register(u1);

[numthreads(17, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    int4 c = cases[t];
    o[t] = bc.Load(int3(c.xy, c.w));
    if (t < 5)
    {
        uint w, h, n;
        bc.GetDimensions(t, w, h, n);
        dims[t] = uint4(w, h, 0, n);
    }
}
