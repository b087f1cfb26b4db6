// GetDimensions -> resinfo (FS §22.4.14; reference/sm5-compute-isa.md §10):
// integer (_uint) and float results for every SRV view dimension (Texture1D,
// 1DArray, 2D, 2DArray, 3D, Cube, CubeArray with a mip argument in and out of
// range; 2DMS and 2DMSArray) and every UAV dimension (RWTexture1D, 1DArray,
// 2D, 2DArray, 3D, 3D with a W range). Components a dimension does not have
// are filled with the marker 77 (they are not read from resinfo); so is
// the TextureCubeArray element count, which cs_5_0 cannot query (fxc X4598:
// resinfo's .z is undefined for cube arrays in D3D11, FS §22.4.14).
// Thread t takes mip = mips[t] and writes, for k = 0..6 over
// (t1d, t1a, t2d, t2a, t3d, tc, tca):
//   ou[7t + k] = (w, h or elements, d or elements, levels) as uint
//   of[7t + k] = the same as float
// and thread 0 writes the mip-less queries to fu[0..7] (uint) and ff[0..7] (float):
//   tms, tmsa, u1d, u1a, u2d, u2a, u3d, u3dw.
// fxc tex_query_resinfo.hlsl -E main -T cs_5_0 -Fo tex_query_resinfo.dxbc -Fc tex_query_resinfo.asm
Texture1D<float> t1d : register(t0);
Texture1DArray<float> t1a : register(t1);
Texture2D<float> t2d : register(t2);
Texture2DArray<float> t2a : register(t3);
Texture3D<float> t3d : register(t4);
TextureCube<float> tc : register(t5);
TextureCubeArray<float> tca : register(t6);
Texture2DMS<float, 4> tms : register(t7);
Texture2DMSArray<float, 4> tmsa : register(t8);
StructuredBuffer<uint> mips : register(t9);
RWTexture1D<float> u1d : register(u0);
RWTexture1DArray<float> u1a : register(u1);
RWTexture2D<float> u2d : register(u2);
RWTexture2DArray<float> u2a : register(u3);
RWTexture3D<float> u3d : register(u4);
RWTexture3D<float> u3dw : register(u5);
RWStructuredBuffer<uint4> ou : register(u6);
RWStructuredBuffer<float4> of : register(u7);

#define M 77

[numthreads(6, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint m = mips[t];
    uint w, h, d, n;
    float fw, fh, fd, fn;

    t1d.GetDimensions(m, w, n);            ou[7 * t + 0] = uint4(w, M, M, n);
    t1d.GetDimensions(m, fw, fn);          of[7 * t + 0] = float4(fw, M, M, fn);
    t1a.GetDimensions(m, w, h, n);         ou[7 * t + 1] = uint4(w, h, M, n);
    t1a.GetDimensions(m, fw, fh, fn);      of[7 * t + 1] = float4(fw, fh, M, fn);
    t2d.GetDimensions(m, w, h, n);         ou[7 * t + 2] = uint4(w, h, M, n);
    t2d.GetDimensions(m, fw, fh, fn);      of[7 * t + 2] = float4(fw, fh, M, fn);
    t2a.GetDimensions(m, w, h, d, n);      ou[7 * t + 3] = uint4(w, h, d, n);
    t2a.GetDimensions(m, fw, fh, fd, fn);  of[7 * t + 3] = float4(fw, fh, fd, fn);
    t3d.GetDimensions(m, w, h, d, n);      ou[7 * t + 4] = uint4(w, h, d, n);
    t3d.GetDimensions(m, fw, fh, fd, fn);  of[7 * t + 4] = float4(fw, fh, fd, fn);
    tc.GetDimensions(m, w, h, n);          ou[7 * t + 5] = uint4(w, h, M, n);
    tc.GetDimensions(m, fw, fh, fn);       of[7 * t + 5] = float4(fw, fh, M, fn);
    tca.GetDimensions(m, w, h, d, n);      ou[7 * t + 6] = uint4(w, h, M, n);
    tca.GetDimensions(m, fw, fh, fd, fn);  of[7 * t + 6] = float4(fw, fh, M, fn);

    if (t == 0)
    {
        uint s;
        float fs;
        tms.GetDimensions(w, h, s);        ou[42] = uint4(w, h, M, M);
        tms.GetDimensions(fw, fh, fs);     of[42] = float4(fw, fh, M, M);
        tmsa.GetDimensions(w, h, d, s);    ou[43] = uint4(w, h, d, M);
        tmsa.GetDimensions(fw, fh, fd, fs); of[43] = float4(fw, fh, fd, M);
        u1d.GetDimensions(w);              ou[44] = uint4(w, M, M, M);
        u1d.GetDimensions(fw);             of[44] = float4(fw, M, M, M);
        u1a.GetDimensions(w, h);           ou[45] = uint4(w, h, M, M);
        u1a.GetDimensions(fw, fh);         of[45] = float4(fw, fh, M, M);
        u2d.GetDimensions(w, h);           ou[46] = uint4(w, h, M, M);
        u2d.GetDimensions(fw, fh);         of[46] = float4(fw, fh, M, M);
        u2a.GetDimensions(w, h, d);        ou[47] = uint4(w, h, d, M);
        u2a.GetDimensions(fw, fh, fd);     of[47] = float4(fw, fh, fd, M);
        u3d.GetDimensions(w, h, d);        ou[48] = uint4(w, h, d, M);
        u3d.GetDimensions(fw, fh, fd);     of[48] = float4(fw, fh, fd, M);
        u3dw.GetDimensions(w, h, d);       ou[49] = uint4(w, h, d, M);
        u3dw.GetDimensions(fw, fh, fd);    of[49] = float4(fw, fh, fd, M);
    }
}
