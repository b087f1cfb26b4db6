// Min/max reduction filters (FS 5.9.4.5.6) with sample_l.
// fxc sample_minmax.hlsl -E main -T cs_5_0 -Fo sample_minmax.dxbc -Fc sample_minmax.asm
Texture2D<float2> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
RWStructuredBuffer<float2> o : register(u0);
SamplerState min_trilinear : register(s0);
SamplerState max_trilinear : register(s1);
SamplerState min_point : register(s2);
SamplerState max_bilinear_mip_point : register(s3);
SamplerState max_trilinear_border : register(s4);
SamplerState min_trilinear_border : register(s5);
SamplerState min_trilinear_wrap : register(s6);

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i];   // u, v, LOD
    uint b = i * 7;
    o[b + 0] = tex.SampleLevel(min_trilinear, c.xy, c.z);
    o[b + 1] = tex.SampleLevel(max_trilinear, c.xy, c.z);
    o[b + 2] = tex.SampleLevel(min_point, c.xy, c.z);
    o[b + 3] = tex.SampleLevel(max_bilinear_mip_point, c.xy, c.z);
    o[b + 4] = tex.SampleLevel(max_trilinear_border, c.xy, c.z);
    o[b + 5] = tex.SampleLevel(min_trilinear_border, c.xy, c.z);
    o[b + 6] = tex.SampleLevel(min_trilinear_wrap, c.xy, c.z);
}
