// store_uav_typed conversions into texture UAVs of several formats (FS
// §22.4.9, §3.2.2 float conversion, §3.2.3 integer conversions, §3.1.5-6
// float16 / float11 / float10; reference/sm5-compute-isa.md §11 "Typed store
// conversion"). Thread t (0..7) stores
//   u8[t % 4, t / 4] = vals[t]        (R8G8B8A8_UNORM, a 4 x 2 RWTexture2D)
//   uh[t]  = vals[8 + t]              (R16G16B16A16_FLOAT)
//   ua[t]  = vals[16 + t]             (R10G10B10A2_UNORM)
//   uf[t]  = vals[24 + t].xyz         (R11G11B10_FLOAT)
//   us[t]  = vals[32 + t].xy          (R8G8_SNORM)
//   uu[t]  = ints[t].x                (R16_UINT, from a uint register)
//   ui[t]  = ints[t].y                (R16_SINT, from an int register)
// fxc tex_store_formats.hlsl -E main -T cs_5_0 -Fo tex_store_formats.dxbc -Fc tex_store_formats.asm
StructuredBuffer<float4> vals : register(t0);
StructuredBuffer<int2> ints : register(t1);
RWTexture2D<unorm float4> u8 : register(u0);
RWTexture1D<float4> uh : register(u1);
RWTexture1D<unorm float4> ua : register(u2);
RWTexture1D<float3> uf : register(u3);
RWTexture1D<snorm float2> us : register(u4);
RWTexture1D<uint> uu : register(u5);
RWTexture1D<int> ui : register(u6);

[numthreads(8, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    u8[uint2(t % 4, t / 4)] = vals[t];
    uh[t] = vals[8 + t];
    ua[t] = vals[16 + t];
    uf[t] = vals[24 + t].xyz;
    us[t] = vals[32 + t].xy;
    uu[t] = (uint)ints[t].x;
    ui[t] = ints[t].y;
}
