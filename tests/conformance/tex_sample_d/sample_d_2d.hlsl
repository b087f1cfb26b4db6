// sample_d (SampleGrad) on a Texture2D: each of the five address modes (s0-s4 point, s5-s9 linear)
// One thread per coordinate set; results at o[thread * 10 + k].
// fxc sample_d_2d.hlsl -E main -T cs_5_0 -Fo sample_d_2d.dxbc -Fc sample_d_2d.asm
Texture2D<float> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
RWStructuredBuffer<float> o : register(u0);
SamplerState p_wrap : register(s0);
SamplerState p_mirror : register(s1);
SamplerState p_clamp : register(s2);
SamplerState p_border : register(s3);
SamplerState p_mirror_once : register(s4);
SamplerState l_wrap : register(s5);
SamplerState l_mirror : register(s6);
SamplerState l_clamp : register(s7);
SamplerState l_border : register(s8);
SamplerState l_mirror_once : register(s9);

[numthreads(10, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i * 3];
    float2 dx = coords[i * 3 + 1].xy;
    float2 dy = coords[i * 3 + 2].xy;
    uint b = i * 10;
    o[b + 0] = tex.SampleGrad(p_wrap, c.xy, dx, dy);
    o[b + 1] = tex.SampleGrad(p_mirror, c.xy, dx, dy);
    o[b + 2] = tex.SampleGrad(p_clamp, c.xy, dx, dy);
    o[b + 3] = tex.SampleGrad(p_border, c.xy, dx, dy);
    o[b + 4] = tex.SampleGrad(p_mirror_once, c.xy, dx, dy);
    o[b + 5] = tex.SampleGrad(l_wrap, c.xy, dx, dy);
    o[b + 6] = tex.SampleGrad(l_mirror, c.xy, dx, dy);
    o[b + 7] = tex.SampleGrad(l_clamp, c.xy, dx, dy);
    o[b + 8] = tex.SampleGrad(l_border, c.xy, dx, dy);
    o[b + 9] = tex.SampleGrad(l_mirror_once, c.xy, dx, dy);
}
