// One level of a mip chain: each texel of Dst is the average of the 2x2
// block of Src texels under it (box filter, exact loads, no sampler).
// The job binds Src to a view of mip k alone and Dst to mip k+1, so both
// views start at their own mip 0. 8x8 threads per group, one per Dst texel;
// threads past dst_size (levels smaller than a group) do nothing.
Texture2D<float4> Src : register(t0);
RWTexture2D<float4> Dst : register(u0);

cbuffer MipParams : register(b0)
{
    uint2 dst_size;   // width and height of the destination level
};

[numthreads(8, 8, 1)]
void main(uint3 dtid : SV_DispatchThreadID)
{
    if (any(dtid.xy >= dst_size))
        return;
    int2 s = int2(dtid.xy) * 2;
    float4 a = Src.Load(int3(s, 0));                 // top left
    float4 b = Src.Load(int3(s + int2(1, 0), 0));    // top right
    float4 c = Src.Load(int3(s + int2(0, 1), 0));    // bottom left
    float4 d = Src.Load(int3(s + int2(1, 1), 0));    // bottom right
    // This association order is the one reference.py reproduces.
    Dst[dtid.xy] = ((a + b) + (c + d)) * 0.25;
}
