// Samples a Texture2D with SampleLevel at mip 0 into a RWTexture2D:
// output texel (x, y) reads uv = (x + 0.5, y + 0.5) * scale * inv_src_size.
// scale = 1 with a point sampler copies; scale = 2 with a bilinear sampler
// lands on the shared corner of each 2x2 source block and averages it.
Texture2D<float4> src : register(t0);
SamplerState samp : register(s0);
RWTexture2D<float4> dst : register(u0);

cbuffer Params : register(b0)
{
    float2 inv_src_size;
    float scale;
};

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float2 uv = ((float2)id.xy + 0.5) * scale * inv_src_size;
    dst[id.xy] = src.SampleLevel(samp, uv, 0);
}
