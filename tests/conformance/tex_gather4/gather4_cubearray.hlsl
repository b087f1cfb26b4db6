// gather4 (Gather, GatherRed/Green/Blue/Alpha) on a TextureCubeArray: each address mode (s0-s4).
// One thread per coordinate set; results at o[thread * 5 + k].
// fxc gather4_cubearray.hlsl -E main -T cs_5_0 -Fo gather4_cubearray.dxbc -Fc gather4_cubearray.asm
TextureCubeArray<float> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
RWStructuredBuffer<float4> o : register(u0);
SamplerState s_wrap : register(s0);
SamplerState s_mirror : register(s1);
SamplerState s_clamp : register(s2);
SamplerState s_border : register(s3);
SamplerState s_mirror_once : register(s4);

[numthreads(11, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i * 2];
    float4 p = coords[i * 2 + 1];
    uint b = i * 5;
    o[b + 0] = tex.Gather(s_wrap, c.xyzw);
    o[b + 1] = tex.Gather(s_mirror, c.xyzw);
    o[b + 2] = tex.Gather(s_clamp, c.xyzw);
    o[b + 3] = tex.Gather(s_border, c.xyzw);
    o[b + 4] = tex.Gather(s_mirror_once, c.xyzw);
}
