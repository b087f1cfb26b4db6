// Border colour (FS 7.18.9.1) per format: components missing from the format take their defaults,
// present ones are clamped to the format's range; the colour is linear (no sRGB decode); a border texel
// is an ordinary texel in the filter; per-axis BORDER (FS 7.18.9).
// fxc sample_border_formats.hlsl -E main -T cs_5_0 -Fo sample_border_formats.dxbc -Fc sample_border_formats.asm
Texture2D<float4> r32f : register(t0);
SamplerState b_r32f : register(s0);
Texture2D<float4> rgba32f : register(t1);
SamplerState b_rgba32f : register(s1);
Texture2D<float4> rg16f : register(t2);
SamplerState b_rg16f : register(s2);
Texture2D<float4> r11g11b10f : register(t3);
SamplerState b_r11g11b10f : register(s3);
Texture2D<float4> rgba8 : register(t4);
SamplerState b_rgba8 : register(s4);
Texture2D<float4> rg8s : register(t5);
SamplerState b_rg8s : register(s5);
Texture2D<float4> a8 : register(t6);
SamplerState b_a8 : register(s6);
Texture2D<float4> bgrx8 : register(t7);
SamplerState b_bgrx8 : register(s7);
Texture2D<float4> rgba8srgb : register(t8);
SamplerState b_rgba8srgb : register(s8);
Texture2D<float4> r16 : register(t9);
SamplerState b_r16 : register(s9);
SamplerState clampu_borderv : register(s10);
SamplerState borderu_wrapv : register(s11);
RWStructuredBuffer<float4> o : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    o[0] = r32f.SampleLevel(b_r32f, float2(-0.25, 0.5), 0);
    o[1] = r32f.SampleLevel(b_r32f, float2(0.125, 0.75), 0);
    o[2] = rgba32f.SampleLevel(b_rgba32f, float2(-0.25, 0.5), 0);
    o[3] = rgba32f.SampleLevel(b_rgba32f, float2(0.125, 0.75), 0);
    o[4] = rg16f.SampleLevel(b_rg16f, float2(-0.25, 0.5), 0);
    o[5] = rg16f.SampleLevel(b_rg16f, float2(0.125, 0.75), 0);
    o[6] = r11g11b10f.SampleLevel(b_r11g11b10f, float2(-0.25, 0.5), 0);
    o[7] = r11g11b10f.SampleLevel(b_r11g11b10f, float2(0.125, 0.75), 0);
    o[8] = rgba8.SampleLevel(b_rgba8, float2(-0.25, 0.5), 0);
    o[9] = rg8s.SampleLevel(b_rg8s, float2(-0.25, 0.5), 0);
    o[10] = a8.SampleLevel(b_a8, float2(-0.25, 0.5), 0);
    o[11] = bgrx8.SampleLevel(b_bgrx8, float2(-0.25, 0.5), 0);
    o[12] = rgba8srgb.SampleLevel(b_rgba8srgb, float2(-0.25, 0.5), 0);
    o[13] = r16.SampleLevel(b_r16, float2(-0.25, 0.5), 0);
    o[14] = rgba32f.SampleLevel(clampu_borderv, float2(-0.25, 0.5), 0);
    o[15] = rgba32f.SampleLevel(clampu_borderv, float2(0.25, 1.25), 0);
    o[16] = rgba32f.SampleLevel(borderu_wrapv, float2(0.75, -0.75), 0);
    o[17] = rgba32f.SampleLevel(borderu_wrapv, float2(1.25, 0.25), 0);
}
