// ld on SRVs of many formats (FS §22.4.6 "Return Type Control": the view's
// format converts each texel; §19.1.3.3 missing components; §3.2.3
// UNORM/SNORM/sRGB -> float; §3.1.5-6 float16/11/10; §19.3.2 RGBE; §19.5 BC
// decoding; research digest §11). Every texture is 8 texels wide; thread t
// (0..7) loads texel (t, 0) of each (for the BC textures, 8 x 4: texels a-d of
// block 0, then a-d of block 1) and writes it to slot 8 k + t of its group's
// buffer, k = the texture's place in the group:
//   oe   exact results: uncompressed formats, BC6H, BC7
//   os   sRGB formats (tolerance)
//   ob8  BC1-BC3 (tolerance)          ob16 BC4, BC5 (tolerance)
//   ou   integer formats (asuint)
// fxc tex_load_formats.hlsl -E main -T cs_5_0 -Fo tex_load_formats.dxbc -Fc tex_load_formats.asm
Texture2D<float4> rgba8 : register(t0);
Texture2D<float4> bgra8 : register(t1);
Texture2D<float4> bgrx8 : register(t2);
Texture2D<float4> b565 : register(t3);
Texture2D<float4> b4 : register(t4);
Texture2D<float4> e5 : register(t5);
Texture2D<float4> f11 : register(t6);
Texture2D<float4> a2 : register(t7);
Texture2D<float4> s16 : register(t8);
Texture2D<float4> s8 : register(t9);
Texture2D<float4> a8 : register(t10);
Texture2D<float4> h4 : register(t11);
Texture2D<float4> f32 : register(t12);
Texture2D<float4> bc6 : register(t13);
Texture2D<float4> bc7 : register(t14);
Texture2D<float4> srgba8 : register(t15);
Texture2D<float4> sbgra8 : register(t16);
Texture2D<float4> sbc7 : register(t17);
Texture2D<float4> bc1 : register(t18);
Texture2D<float4> bc2 : register(t19);
Texture2D<float4> bc3 : register(t20);
Texture2D<float4> bc4u : register(t21);
Texture2D<float4> bc4s : register(t22);
Texture2D<float4> bc5u : register(t23);
Texture2D<int4> si8 : register(t24);
Texture2D<uint4> u16 : register(t25);
Texture2D<uint4> a2u : register(t26);
Texture2D<int4> s16i : register(t27);
RWStructuredBuffer<float4> oe : register(u0);
RWStructuredBuffer<float4> os : register(u1);
RWStructuredBuffer<float4> ob8 : register(u2);
RWStructuredBuffer<float4> ob16 : register(u3);
RWStructuredBuffer<uint4> ou : register(u4);

[numthreads(8, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    int3 a = int3(t, 0, 0);
    oe[0 + t] = rgba8.Load(a);
    oe[8 + t] = bgra8.Load(a);
    oe[16 + t] = bgrx8.Load(a);
    oe[24 + t] = b565.Load(a);
    oe[32 + t] = b4.Load(a);
    oe[40 + t] = e5.Load(a);
    oe[48 + t] = f11.Load(a);
    oe[56 + t] = a2.Load(a);
    oe[64 + t] = s16.Load(a);
    oe[72 + t] = s8.Load(a);
    oe[80 + t] = a8.Load(a);
    oe[88 + t] = h4.Load(a);
    oe[96 + t] = f32.Load(a);
    oe[104 + t] = bc6.Load(a);
    oe[112 + t] = bc7.Load(a);
    os[0 + t] = srgba8.Load(a);
    os[8 + t] = sbgra8.Load(a);
    os[16 + t] = sbc7.Load(a);
    ob8[0 + t] = bc1.Load(a);
    ob8[8 + t] = bc2.Load(a);
    ob8[16 + t] = bc3.Load(a);
    ob16[0 + t] = bc4u.Load(a);
    ob16[8 + t] = bc4s.Load(a);
    ob16[16 + t] = bc5u.Load(a);
    ou[0 + t] = asuint(si8.Load(a));
    ou[8 + t] = u16.Load(a);
    ou[16 + t] = a2u.Load(a);
    ou[24 + t] = asuint(s16i.Load(a));
}
