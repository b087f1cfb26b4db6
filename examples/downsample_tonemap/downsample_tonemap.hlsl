// 2x downsample + filmic tonemap of an HDR image: the last step of a typical
// post-processing chain, HDR scene colour (RGBA16F) in, display-ready RGBA8 out.
//
// One thread per output texel. Sampling at the output texel's centre, which lies
// exactly between four source texels, with a bilinear (MIN_MAG_MIP_LINEAR,
// CLAMP) sampler averages that 2x2 block in a single fetch: a box-filtered 2x
// downsample. Then exposure, the ACES filmic curve (Krzysztof Narkowicz's fit),
// and gamma 2.2 encoding; the UNORM store quantises to 8 bits.
//
// Dispatch: ceil(dst_width / 8) x ceil(dst_height / 8) x 1 groups.

Texture2D<float4>          hdr    : register(t0);   // R16G16B16A16_FLOAT, 2x the output size
SamplerState               linear_clamp : register(s0);
RWTexture2D<unorm float4>  ldr    : register(u0);   // R8G8B8A8_UNORM

cbuffer Params : register(b0)
{
    uint2  dst_size;        // output width, height
    float2 inv_dst_size;    // 1 / dst_size
    float  exposure;        // linear scale applied before the tonemap
};

// ACES filmic tonemapping curve, fitted by K. Narkowicz (2015).
float3 aces_film(float3 x)
{
    const float a = 2.51;
    const float b = 0.03;
    const float c = 2.43;
    const float d = 0.59;
    const float e = 0.14;
    return saturate((x * (a * x + b)) / (x * (c * x + d) + e));
}

[numthreads(8, 8, 1)]
void main(uint3 dtid : SV_DispatchThreadID)
{
    if (any(dtid.xy >= dst_size))
        return;

    // Centre of output texel (x, y) = corner shared by source texels 2x..2x+1, 2y..2y+1.
    float2 uv = (float2(dtid.xy) + 0.5) * inv_dst_size;
    float3 hdr_colour = hdr.SampleLevel(linear_clamp, uv, 0).rgb;

    float3 mapped = aces_film(hdr_colour * exposure);
    float3 encoded = pow(mapped, 1.0 / 2.2);            // gamma 2.2 for display

    ldr[dtid.xy] = float4(encoded, 1.0);
}
