// sample_c_lz: the eight comparison functions, NaN/denormal/−0 texels and references, linear PCF,
// MipLODBias and MinLOD with sample_c_lz, and reference quantisation for an R16_UNORM texture.
// fxc sample_c_lz_compare.hlsl -E main -T cs_5_0 -Fo sample_c_lz_compare.dxbc -Fc sample_c_lz_compare.asm
Texture2D<float> depth : register(t0);
Texture2D<float> unorm16 : register(t1);
StructuredBuffer<float4> coords : register(t2);
RWStructuredBuffer<float> o : register(u0);
SamplerComparisonState cmp_never : register(s0);
SamplerComparisonState cmp_less : register(s1);
SamplerComparisonState cmp_equal : register(s2);
SamplerComparisonState cmp_less_equal : register(s3);
SamplerComparisonState cmp_greater : register(s4);
SamplerComparisonState cmp_not_equal : register(s5);
SamplerComparisonState cmp_greater_equal : register(s6);
SamplerComparisonState cmp_always : register(s7);
SamplerComparisonState linear_less : register(s8);
SamplerComparisonState bias1_less : register(s9);
SamplerComparisonState minlod1_less : register(s10);
SamplerComparisonState bias05_trilinear_less : register(s11);
SamplerComparisonState u_equal : register(s12);
SamplerComparisonState u_less_equal : register(s13);
SamplerComparisonState u_greater : register(s14);

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i];   // depth u, v, ref; unorm16 u
    float uref = coords[i + 8].x;
    uint b = i * 15;
    o[b + 0] = depth.SampleCmpLevelZero(cmp_never, c.xy, c.z);
    o[b + 1] = depth.SampleCmpLevelZero(cmp_less, c.xy, c.z);
    o[b + 2] = depth.SampleCmpLevelZero(cmp_equal, c.xy, c.z);
    o[b + 3] = depth.SampleCmpLevelZero(cmp_less_equal, c.xy, c.z);
    o[b + 4] = depth.SampleCmpLevelZero(cmp_greater, c.xy, c.z);
    o[b + 5] = depth.SampleCmpLevelZero(cmp_not_equal, c.xy, c.z);
    o[b + 6] = depth.SampleCmpLevelZero(cmp_greater_equal, c.xy, c.z);
    o[b + 7] = depth.SampleCmpLevelZero(cmp_always, c.xy, c.z);
    o[b + 8] = depth.SampleCmpLevelZero(linear_less, c.xy, c.z);
    o[b + 9] = depth.SampleCmpLevelZero(bias1_less, c.xy, c.z);
    o[b + 10] = depth.SampleCmpLevelZero(minlod1_less, c.xy, c.z);
    o[b + 11] = depth.SampleCmpLevelZero(bias05_trilinear_less, c.xy, c.z);
    o[b + 12] = unorm16.SampleCmpLevelZero(u_equal, float2(c.w, 0.5), uref);
    o[b + 13] = unorm16.SampleCmpLevelZero(u_less_equal, float2(c.w, 0.5), uref);
    o[b + 14] = unorm16.SampleCmpLevelZero(u_greater, float2(c.w, 0.5), uref);
}
