// Mip selection and LOD processing: sample_l with explicit LODs and sample_d with gradients through
// samplers that differ in mip filter, min/mag filter, MipLODBias and MinLOD/MaxLOD.
// fxc sample_mip.hlsl -E main -T cs_5_0 -Fo sample_mip.dxbc -Fc sample_mip.asm
Texture2D<float> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
RWStructuredBuffer<float> o : register(u0);
SamplerState mip_point : register(s0);
SamplerState mip_point_minmag_point_miplinear : register(s1);
SamplerState trilinear : register(s2);
SamplerState min_point_mag_linear : register(s3);
SamplerState min_linear_mag_point : register(s4);
SamplerState bias_plus1 : register(s5);
SamplerState bias_minus075_point : register(s6);
SamplerState lod_range : register(s7);
SamplerState minlod_magsel : register(s8);
SamplerState maxlod0_magsel : register(s9);
SamplerState lod_pinned2 : register(s10);

[numthreads(10, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i * 2];      // u, v, LOD, -
    float4 g = coords[i * 2 + 1];  // ddx.uv, ddy.uv
    uint b = i * 22;
    o[b + 0] = tex.SampleLevel(mip_point, c.xy, c.z);
    o[b + 1] = tex.SampleLevel(mip_point_minmag_point_miplinear, c.xy, c.z);
    o[b + 2] = tex.SampleLevel(trilinear, c.xy, c.z);
    o[b + 3] = tex.SampleLevel(min_point_mag_linear, c.xy, c.z);
    o[b + 4] = tex.SampleLevel(min_linear_mag_point, c.xy, c.z);
    o[b + 5] = tex.SampleLevel(bias_plus1, c.xy, c.z);
    o[b + 6] = tex.SampleLevel(bias_minus075_point, c.xy, c.z);
    o[b + 7] = tex.SampleLevel(lod_range, c.xy, c.z);
    o[b + 8] = tex.SampleLevel(minlod_magsel, c.xy, c.z);
    o[b + 9] = tex.SampleLevel(maxlod0_magsel, c.xy, c.z);
    o[b + 10] = tex.SampleLevel(lod_pinned2, c.xy, c.z);
    o[b + 11] = tex.SampleGrad(mip_point, c.xy, g.xy, g.zw);
    o[b + 12] = tex.SampleGrad(mip_point_minmag_point_miplinear, c.xy, g.xy, g.zw);
    o[b + 13] = tex.SampleGrad(trilinear, c.xy, g.xy, g.zw);
    o[b + 14] = tex.SampleGrad(min_point_mag_linear, c.xy, g.xy, g.zw);
    o[b + 15] = tex.SampleGrad(min_linear_mag_point, c.xy, g.xy, g.zw);
    o[b + 16] = tex.SampleGrad(bias_plus1, c.xy, g.xy, g.zw);
    o[b + 17] = tex.SampleGrad(bias_minus075_point, c.xy, g.xy, g.zw);
    o[b + 18] = tex.SampleGrad(lod_range, c.xy, g.xy, g.zw);
    o[b + 19] = tex.SampleGrad(minlod_magsel, c.xy, g.xy, g.zw);
    o[b + 20] = tex.SampleGrad(maxlod0_magsel, c.xy, g.xy, g.zw);
    o[b + 21] = tex.SampleGrad(lod_pinned2, c.xy, g.xy, g.zw);
}
