// gather4 (Gather, GatherRed/Green/Blue/Alpha) on a Texture2DArray: each address mode (s0-s4), _aoffimmi(2,-3).
// One thread per coordinate set; results at o[thread * 10 + k].
// fxc gather4_2darray.hlsl -E main -T cs_5_0 -Fo gather4_2darray.dxbc -Fc gather4_2darray.asm
Texture2DArray<float> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
RWStructuredBuffer<float4> o : register(u0);
SamplerState s_wrap : register(s0);
SamplerState s_mirror : register(s1);
SamplerState s_clamp : register(s2);
SamplerState s_border : register(s3);
SamplerState s_mirror_once : register(s4);

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i * 2];
    float4 p = coords[i * 2 + 1];
    uint b = i * 10;
    o[b + 0] = tex.Gather(s_wrap, c.xyz);
    o[b + 1] = tex.Gather(s_mirror, c.xyz);
    o[b + 2] = tex.Gather(s_clamp, c.xyz);
    o[b + 3] = tex.Gather(s_border, c.xyz);
    o[b + 4] = tex.Gather(s_mirror_once, c.xyz);
    o[b + 5] = tex.Gather(s_wrap, c.xyz, int2(2, -3));
    o[b + 6] = tex.Gather(s_mirror, c.xyz, int2(2, -3));
    o[b + 7] = tex.Gather(s_clamp, c.xyz, int2(2, -3));
    o[b + 8] = tex.Gather(s_border, c.xyz, int2(2, -3));
    o[b + 9] = tex.Gather(s_mirror_once, c.xyz, int2(2, -3));
}
