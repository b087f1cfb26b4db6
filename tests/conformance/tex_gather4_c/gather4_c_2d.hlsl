// gather4_c (GatherCmp) on a Texture2D: each address mode (s0-s4), _aoffimmi(-3,1), the eight comparison functions on special values.
// One thread per coordinate set; results at o[thread * 18 + k].
// fxc gather4_c_2d.hlsl -E main -T cs_5_0 -Fo gather4_c_2d.dxbc -Fc gather4_c_2d.asm
Texture2D<float> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
Texture2D<float> special : register(t3);
RWStructuredBuffer<float4> o : register(u0);
SamplerComparisonState s_wrap : register(s0);
SamplerComparisonState s_mirror : register(s1);
SamplerComparisonState s_clamp : register(s2);
SamplerComparisonState s_border : register(s3);
SamplerComparisonState s_mirror_once : register(s4);
SamplerComparisonState c_never : register(s5);
SamplerComparisonState c_less : register(s6);
SamplerComparisonState c_equal : register(s7);
SamplerComparisonState c_less_equal : register(s8);
SamplerComparisonState c_greater : register(s9);
SamplerComparisonState c_not_equal : register(s10);
SamplerComparisonState c_greater_equal : register(s11);
SamplerComparisonState c_always : register(s12);

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i * 2];
    float4 p = coords[i * 2 + 1];
    uint b = i * 18;
    o[b + 0] = tex.GatherCmp(s_wrap, c.xy, p.x);
    o[b + 1] = tex.GatherCmp(s_mirror, c.xy, p.x);
    o[b + 2] = tex.GatherCmp(s_clamp, c.xy, p.x);
    o[b + 3] = tex.GatherCmp(s_border, c.xy, p.x);
    o[b + 4] = tex.GatherCmp(s_mirror_once, c.xy, p.x);
    o[b + 5] = tex.GatherCmp(s_wrap, c.xy, p.x, int2(-3, 1));
    o[b + 6] = tex.GatherCmp(s_mirror, c.xy, p.x, int2(-3, 1));
    o[b + 7] = tex.GatherCmp(s_clamp, c.xy, p.x, int2(-3, 1));
    o[b + 8] = tex.GatherCmp(s_border, c.xy, p.x, int2(-3, 1));
    o[b + 9] = tex.GatherCmp(s_mirror_once, c.xy, p.x, int2(-3, 1));
    o[b + 10] = special.GatherCmp(c_never, c.zw, p.y);
    o[b + 11] = special.GatherCmp(c_less, c.zw, p.y);
    o[b + 12] = special.GatherCmp(c_equal, c.zw, p.y);
    o[b + 13] = special.GatherCmp(c_less_equal, c.zw, p.y);
    o[b + 14] = special.GatherCmp(c_greater, c.zw, p.y);
    o[b + 15] = special.GatherCmp(c_not_equal, c.zw, p.y);
    o[b + 16] = special.GatherCmp(c_greater_equal, c.zw, p.y);
    o[b + 17] = special.GatherCmp(c_always, c.zw, p.y);
}
