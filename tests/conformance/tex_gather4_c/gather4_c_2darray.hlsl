// gather4_c (GatherCmp) on a Texture2DArray: each address mode (s0-s4), _aoffimmi(2,-3).
// One thread per coordinate set; results at o[thread * 10 + k].
// fxc gather4_c_2darray.hlsl -E main -T cs_5_0 -Fo gather4_c_2darray.dxbc -Fc gather4_c_2darray.asm
Texture2DArray<float> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
RWStructuredBuffer<float4> o : register(u0);
SamplerComparisonState s_wrap : register(s0);
SamplerComparisonState s_mirror : register(s1);
SamplerComparisonState s_clamp : register(s2);
SamplerComparisonState s_border : register(s3);
SamplerComparisonState s_mirror_once : register(s4);

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i * 2];
    float4 p = coords[i * 2 + 1];
    uint b = i * 10;
    o[b + 0] = tex.GatherCmp(s_wrap, c.xyz, p.x);
    o[b + 1] = tex.GatherCmp(s_mirror, c.xyz, p.x);
    o[b + 2] = tex.GatherCmp(s_clamp, c.xyz, p.x);
    o[b + 3] = tex.GatherCmp(s_border, c.xyz, p.x);
    o[b + 4] = tex.GatherCmp(s_mirror_once, c.xyz, p.x);
    o[b + 5] = tex.GatherCmp(s_wrap, c.xyz, p.x, int2(2, -3));
    o[b + 6] = tex.GatherCmp(s_mirror, c.xyz, p.x, int2(2, -3));
    o[b + 7] = tex.GatherCmp(s_clamp, c.xyz, p.x, int2(2, -3));
    o[b + 8] = tex.GatherCmp(s_border, c.xyz, p.x, int2(2, -3));
    o[b + 9] = tex.GatherCmp(s_mirror_once, c.xyz, p.x, int2(2, -3));
}
