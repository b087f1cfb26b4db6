// gather4_c (GatherCmp) on a TextureCubeArray: each address mode (s0-s4).
// One thread per coordinate set; results at o[thread * 5 + k].
// fxc gather4_c_cubearray.hlsl -E main -T cs_5_0 -Fo gather4_c_cubearray.dxbc -Fc gather4_c_cubearray.asm
TextureCubeArray<float> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
RWStructuredBuffer<float4> o : register(u0);
SamplerComparisonState s_wrap : register(s0);
SamplerComparisonState s_mirror : register(s1);
SamplerComparisonState s_clamp : register(s2);
SamplerComparisonState s_border : register(s3);
SamplerComparisonState s_mirror_once : register(s4);

[numthreads(11, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i * 2];
    float4 p = coords[i * 2 + 1];
    uint b = i * 5;
    o[b + 0] = tex.GatherCmp(s_wrap, c.xyzw, p.x);
    o[b + 1] = tex.GatherCmp(s_mirror, c.xyzw, p.x);
    o[b + 2] = tex.GatherCmp(s_clamp, c.xyzw, p.x);
    o[b + 3] = tex.GatherCmp(s_border, c.xyzw, p.x);
    o[b + 4] = tex.GatherCmp(s_mirror_once, c.xyzw, p.x);
}
