// sample_l (SampleLevel) on a Texture1D: each of the five address modes (s0-s4 point, s5-s9 linear)
// and _aoffimmi(-3) with the linear samplers.
// One thread per coordinate set; results at o[thread * 15 + k].
// fxc sample_l_1d.hlsl -E main -T cs_5_0 -Fo sample_l_1d.dxbc -Fc sample_l_1d.asm
Texture1D<float> tex : register(t0);
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
    float4 c = coords[i * 2];
    float lod = coords[i * 2 + 1].x;
    uint b = i * 15;
    o[b + 0] = tex.SampleLevel(p_wrap, c.x, lod);
    o[b + 1] = tex.SampleLevel(p_mirror, c.x, lod);
    o[b + 2] = tex.SampleLevel(p_clamp, c.x, lod);
    o[b + 3] = tex.SampleLevel(p_border, c.x, lod);
    o[b + 4] = tex.SampleLevel(p_mirror_once, c.x, lod);
    o[b + 5] = tex.SampleLevel(l_wrap, c.x, lod);
    o[b + 6] = tex.SampleLevel(l_mirror, c.x, lod);
    o[b + 7] = tex.SampleLevel(l_clamp, c.x, lod);
    o[b + 8] = tex.SampleLevel(l_border, c.x, lod);
    o[b + 9] = tex.SampleLevel(l_mirror_once, c.x, lod);
    o[b + 10] = tex.SampleLevel(l_wrap, c.x, lod, -3);
    o[b + 11] = tex.SampleLevel(l_mirror, c.x, lod, -3);
    o[b + 12] = tex.SampleLevel(l_clamp, c.x, lod, -3);
    o[b + 13] = tex.SampleLevel(l_border, c.x, lod, -3);
    o[b + 14] = tex.SampleLevel(l_mirror_once, c.x, lod, -3);
}
