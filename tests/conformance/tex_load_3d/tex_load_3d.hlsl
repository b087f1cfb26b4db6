// ld on Texture3D (FS §22.4.6; reference/sm5-compute-isa.md §10, §14):
// (x, y, z) in .xyz, the mip in .w; a non-cubic mip chain, a view re-basing
// mip 0 (MostDetailedMip), out-of-range x, y, z and mip, and _aoffimmi(u, v, w)
// on all three axes, including an out-of-range z brought back in range.
// Thread t takes case c = cases[t] = (x, y, z, mip) and writes, in order:
//   o[4t+0] t3.Load(c)   o[4t+1] t3.Load(c, offset (1, 1, -1))
//   o[4t+2] t3.Load(c, offset (-1, 0, 7))   o[4t+3] t3v.Load(c)
// fxc tex_load_3d.hlsl -E main -T cs_5_0 -Fo tex_load_3d.dxbc -Fc tex_load_3d.asm
Texture3D<uint4> t3 : register(t0);
Texture3D<uint4> t3v : register(t1);
StructuredBuffer<int4> cases : register(t2);
RWStructuredBuffer<uint4> o : register(u0);

[numthreads(15, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    int4 c = cases[t];
    o[4 * t + 0] = t3.Load(c);
    o[4 * t + 1] = t3.Load(c, int3(1, 1, -1));
    o[4 * t + 2] = t3.Load(c, int3(-1, 0, 7));
    o[4 * t + 3] = t3v.Load(c);
}
