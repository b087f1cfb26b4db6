// gather4 (Gather, GatherRed/Green/Blue/Alpha) on a Texture2D: each address mode (s0-s4), channel selects, an LOD-clamped sampler and a two-channel texture, _aoffimmi(-3,1).
// One thread per coordinate set; results at o[thread * 16 + k].
// fxc gather4_2d.hlsl -E main -T cs_5_0 -Fo gather4_2d.dxbc -Fc gather4_2d.asm
Texture2D<float4> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
Texture2D<float2> rg : register(t3);
RWStructuredBuffer<float4> o : register(u0);
SamplerState s_wrap : register(s0);
SamplerState s_mirror : register(s1);
SamplerState s_clamp : register(s2);
SamplerState s_border : register(s3);
SamplerState s_mirror_once : register(s4);
SamplerState s_lod_clamped : register(s5);

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i * 2];
    float4 p = coords[i * 2 + 1];
    uint b = i * 16;
    o[b + 0] = tex.Gather(s_wrap, c.xy);
    o[b + 1] = tex.Gather(s_mirror, c.xy);
    o[b + 2] = tex.Gather(s_clamp, c.xy);
    o[b + 3] = tex.Gather(s_border, c.xy);
    o[b + 4] = tex.Gather(s_mirror_once, c.xy);
    o[b + 5] = tex.GatherGreen(s_wrap, c.xy);
    o[b + 6] = tex.GatherBlue(s_wrap, c.xy);
    o[b + 7] = tex.GatherAlpha(s_wrap, c.xy);
    o[b + 8] = tex.GatherRed(s_lod_clamped, c.xy);
    o[b + 9] = tex.Gather(s_wrap, c.xy, int2(-3, 1));
    o[b + 10] = tex.Gather(s_mirror, c.xy, int2(-3, 1));
    o[b + 11] = tex.Gather(s_clamp, c.xy, int2(-3, 1));
    o[b + 12] = tex.Gather(s_border, c.xy, int2(-3, 1));
    o[b + 13] = tex.Gather(s_mirror_once, c.xy, int2(-3, 1));
    o[b + 14] = rg.GatherBlue(s_wrap, c.xy);
    o[b + 15] = rg.GatherAlpha(s_wrap, c.xy);
}
