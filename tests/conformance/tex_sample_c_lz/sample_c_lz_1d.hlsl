// sample_c_lz (SampleCmpLevelZero) on a Texture1D: each of the five address modes (s0-s4 point, s5-s9 linear)
// One thread per coordinate set; results at o[thread * 10 + k].
// fxc sample_c_lz_1d.hlsl -E main -T cs_5_0 -Fo sample_c_lz_1d.dxbc -Fc sample_c_lz_1d.asm
Texture1D<float> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
RWStructuredBuffer<float> o : register(u0);
SamplerComparisonState p_wrap : register(s0);
SamplerComparisonState p_mirror : register(s1);
SamplerComparisonState p_clamp : register(s2);
SamplerComparisonState p_border : register(s3);
SamplerComparisonState p_mirror_once : register(s4);
SamplerComparisonState l_wrap : register(s5);
SamplerComparisonState l_mirror : register(s6);
SamplerComparisonState l_clamp : register(s7);
SamplerComparisonState l_border : register(s8);
SamplerComparisonState l_mirror_once : register(s9);

[numthreads(10, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i * 2];
    float ref = coords[i * 2 + 1].x;
    uint b = i * 10;
    o[b + 0] = tex.SampleCmpLevelZero(p_wrap, c.x, ref);
    o[b + 1] = tex.SampleCmpLevelZero(p_mirror, c.x, ref);
    o[b + 2] = tex.SampleCmpLevelZero(p_clamp, c.x, ref);
    o[b + 3] = tex.SampleCmpLevelZero(p_border, c.x, ref);
    o[b + 4] = tex.SampleCmpLevelZero(p_mirror_once, c.x, ref);
    o[b + 5] = tex.SampleCmpLevelZero(l_wrap, c.x, ref);
    o[b + 6] = tex.SampleCmpLevelZero(l_mirror, c.x, ref);
    o[b + 7] = tex.SampleCmpLevelZero(l_clamp, c.x, ref);
    o[b + 8] = tex.SampleCmpLevelZero(l_border, c.x, ref);
    o[b + 9] = tex.SampleCmpLevelZero(l_mirror_once, c.x, ref);
}
