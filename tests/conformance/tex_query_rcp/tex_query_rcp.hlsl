// resinfo_rcpFloat and the full resinfo vector (FS §22.4.14). fxc never emits
// _rcpFloat (1.0f / width compiles to resinfo + div) and writes only the
// components an overload returns, so the job runs tex_query_rcp.asm: fxc's
// listing of this file, edited by hand so that for each resource k (t1d,
// t1a, t2d, t2a, t3d, tc, tca, tms, tmsa, u1d, u1a, u2d, u2a, u3d, u3dw) it runs
//   resinfo_indexable(dim)(...)_rcpFloat r1.xyzw, mip, tk.xyzw  -> orc[15t + k]
//   resinfo_indexable(dim)(...)_uint     r1.xyzw, mip, tk.xyzw  -> oui[15t + k]
// with the mip from mips[t] for every resource (MS views and UAVs included).
// This source computes, with float and uint GetDimensions overloads, the
// components HLSL can reach (w, h, d or elements, levels; 0 where an overload
// has no output), which is what the listing was derived from.
// fxc tex_query_rcp.hlsl -E main -T cs_5_0 -Fo tex_query_rcp.dxbc -Fc tex_query_rcp.asm
// (fxc's listing, then edited by hand as described; the job runs the .asm and
// no .dxbc is kept for it)
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
RWStructuredBuffer<float4> orc : register(u6);
RWStructuredBuffer<uint4> oui : register(u7);

[numthreads(3, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint m = mips[t];
    float w, h, d, n;
    uint uw, uh, ud, un;
    t1d.GetDimensions(m, w, n);          orc[15 * t + 0] = float4(1.0f / w, 0, 0, n);
    t1d.GetDimensions(m, uw, un);        oui[15 * t + 0] = uint4(uw, 0, 0, un);
    t1a.GetDimensions(m, w, h, n);       orc[15 * t + 1] = float4(1.0f / w, h, 0, n);
    t1a.GetDimensions(m, uw, uh, un);    oui[15 * t + 1] = uint4(uw, uh, 0, un);
    t2d.GetDimensions(m, w, h, n);       orc[15 * t + 2] = float4(1.0f / w, 1.0f / h, 0, n);
    t2d.GetDimensions(m, uw, uh, un);    oui[15 * t + 2] = uint4(uw, uh, 0, un);
    t2a.GetDimensions(m, w, h, d, n);    orc[15 * t + 3] = float4(1.0f / w, 1.0f / h, d, n);
    t2a.GetDimensions(m, uw, uh, ud, un); oui[15 * t + 3] = uint4(uw, uh, ud, un);
    t3d.GetDimensions(m, w, h, d, n);    orc[15 * t + 4] = float4(1.0f / w, 1.0f / h, 1.0f / d, n);
    t3d.GetDimensions(m, uw, uh, ud, un); oui[15 * t + 4] = uint4(uw, uh, ud, un);
    tc.GetDimensions(m, w, h, n);        orc[15 * t + 5] = float4(1.0f / w, 1.0f / h, 0, n);
    tc.GetDimensions(m, uw, uh, un);     oui[15 * t + 5] = uint4(uw, uh, 0, un);
    tca.GetDimensions(m, w, h, d, n);    orc[15 * t + 6] = float4(1.0f / w, 1.0f / h, 0, n);
    tca.GetDimensions(m, uw, uh, ud, un); oui[15 * t + 6] = uint4(uw, uh, 0, un);
    tms.GetDimensions(w, h, d);          orc[15 * t + 7] = float4(1.0f / w, 1.0f / h, 0, 0);
    tms.GetDimensions(uw, uh, ud);       oui[15 * t + 7] = uint4(uw, uh, 0, 0);
    tmsa.GetDimensions(w, h, d, n);      orc[15 * t + 8] = float4(1.0f / w, 1.0f / h, d, 0);
    tmsa.GetDimensions(uw, uh, ud, un);  oui[15 * t + 8] = uint4(uw, uh, ud, 0);
    u1d.GetDimensions(w);                orc[15 * t + 9] = float4(1.0f / w, 0, 0, 0);
    u1d.GetDimensions(uw);               oui[15 * t + 9] = uint4(uw, 0, 0, 0);
    u1a.GetDimensions(w, h);             orc[15 * t + 10] = float4(1.0f / w, h, 0, 0);
    u1a.GetDimensions(uw, uh);           oui[15 * t + 10] = uint4(uw, uh, 0, 0);
    u2d.GetDimensions(w, h);             orc[15 * t + 11] = float4(1.0f / w, 1.0f / h, 0, 0);
    u2d.GetDimensions(uw, uh);           oui[15 * t + 11] = uint4(uw, uh, 0, 0);
    u2a.GetDimensions(w, h, d);          orc[15 * t + 12] = float4(1.0f / w, 1.0f / h, d, 0);
    u2a.GetDimensions(uw, uh, ud);       oui[15 * t + 12] = uint4(uw, uh, ud, 0);
    u3d.GetDimensions(w, h, d);          orc[15 * t + 13] = float4(1.0f / w, 1.0f / h, 1.0f / d, 0);
    u3d.GetDimensions(uw, uh, ud);       oui[15 * t + 13] = uint4(uw, uh, ud, 0);
    u3dw.GetDimensions(w, h, d);         orc[15 * t + 14] = float4(1.0f / w, 1.0f / h, 1.0f / d, 0);
    u3dw.GetDimensions(uw, uh, ud);      oui[15 * t + 14] = uint4(uw, uh, ud, 0);
}
