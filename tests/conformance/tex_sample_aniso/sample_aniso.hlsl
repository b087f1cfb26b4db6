// Anisotropic filtering with sample_d (FS 7.18.11): LOD from the minor axis, ratio clamped by MaxAnisotropy;
// sample_l through an anisotropic sampler is isotropic (FS 22.4.18).
// fxc sample_aniso.hlsl -E main -T cs_5_0 -Fo sample_aniso.dxbc -Fc sample_aniso.asm
Texture2D<float> along_u : register(t0);   // constant along u
Texture2D<float> along_v : register(t1);   // constant along v
StructuredBuffer<float4> coords : register(t2);
RWStructuredBuffer<float> o : register(u0);
SamplerState aniso16 : register(s0);
SamplerState aniso2 : register(s1);
SamplerState trilinear : register(s2);

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i * 2];      // u, v, which texture, sample_l LOD
    float4 g = coords[i * 2 + 1];  // ddx.uv, ddy.uv
    uint b = i * 4;
    if (c.z == 0) {
        o[b + 0] = along_u.SampleGrad(aniso16, c.xy, g.xy, g.zw);
        o[b + 1] = along_u.SampleGrad(aniso2, c.xy, g.xy, g.zw);
        o[b + 2] = along_u.SampleGrad(trilinear, c.xy, g.xy, g.zw);
        o[b + 3] = along_u.SampleLevel(aniso16, c.xy, c.w);
    } else {
        o[b + 0] = along_v.SampleGrad(aniso16, c.xy, g.xy, g.zw);
        o[b + 1] = along_v.SampleGrad(aniso2, c.xy, g.xy, g.zw);
        o[b + 2] = along_v.SampleGrad(trilinear, c.xy, g.xy, g.zw);
        o[b + 3] = along_v.SampleLevel(aniso16, c.xy, c.w);
    }
}
