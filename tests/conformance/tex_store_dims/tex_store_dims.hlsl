// store_uav_typed and ld_uav_typed on texture UAVs of every UAV dimension
// (FS §22.4.8, §22.4.9; reference/sm5-compute-isa.md §10, §11, §14):
// RWTexture1D (R32_FLOAT, MipSlice 1), RWTexture1DArray (R32_UINT,
// FirstArraySlice 1, ArraySize 2), RWTexture2D (R32_SINT), RWTexture2DArray
// (R32_FLOAT, MipSlice 1, FirstArraySlice 1, ArraySize 2), RWTexture3D
// (R32_UINT, FirstWSlice 1, WSize 2). Each thread reads one texel (an
// out-of-range read gives 0) and writes a value derived from it back to the
// same texel (an out-of-range write is dropped); no two threads touch the same
// texel.
// Thread t (0..15) addresses:
//   u1d: x = t                  u1a: (t % 4, slice t / 4)
//   u2d: (t % 5, t / 5)         u2a, u3d: (t % 2, (t / 2) % 2, t / 4)
// and writes its reads to rf[t] = (u1d, u2a), ru[t] = (u1a, u3d), ri[t] = u2d.
// fxc tex_store_dims.hlsl -E main -T cs_5_0 -Fo tex_store_dims.dxbc -Fc tex_store_dims.asm
RWTexture1D<float> u1d : register(u0);
RWTexture1DArray<uint> u1a : register(u1);
RWTexture2D<int> u2d : register(u2);
RWTexture2DArray<float> u2a : register(u3);
RWTexture3D<uint> u3d : register(u4);
RWStructuredBuffer<float2> rf : register(u5);
RWStructuredBuffer<uint2> ru : register(u6);
RWStructuredBuffer<int> ri : register(u7);

[numthreads(16, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint3 a = uint3(t % 2, (t / 2) % 2, t / 4);

    float r1d = u1d[t];
    u1d[t] = r1d * 2.0f + 0.5f;

    uint r1a = u1a[uint2(t % 4, t / 4)];
    u1a[uint2(t % 4, t / 4)] = r1a + 1000;

    int r2d = u2d[uint2(t % 5, t / 5)];
    u2d[uint2(t % 5, t / 5)] = -(r2d + 1);

    float r2a = u2a[a];
    u2a[a] = -r2a - 0.25f;

    uint r3d = u3d[a];
    u3d[a] = r3d + 0x100;

    rf[t] = float2(r1d, r2a);
    ru[t] = uint2(r1a, r3d);
    ri[t] = r2d;
}
