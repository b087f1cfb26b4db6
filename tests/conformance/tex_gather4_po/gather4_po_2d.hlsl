// gather4_po (Gather with a non-immediate offset) on a Texture2D: each address mode (s0-s4).
// One thread per coordinate set; results at o[thread * 6 + k].
// fxc gather4_po_2d.hlsl -E main -T cs_5_0 -Fo gather4_po_2d.dxbc -Fc gather4_po_2d.asm
Texture2D<float2> tex : register(t0);
StructuredBuffer<float4> coords : register(t1);
StructuredBuffer<int4> offs : register(t2);
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
    int2 off = offs[i].xy;
    uint b = i * 6;
    o[b + 0] = tex.Gather(s_wrap, c.xy, off);
    o[b + 1] = tex.Gather(s_mirror, c.xy, off);
    o[b + 2] = tex.Gather(s_clamp, c.xy, off);
    o[b + 3] = tex.Gather(s_border, c.xy, off);
    o[b + 4] = tex.Gather(s_mirror_once, c.xy, off);
    o[b + 5] = tex.GatherGreen(s_wrap, c.xy, off);
}
