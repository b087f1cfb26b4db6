// Typed buffers (FS §3.2 conversions, reference/sm5-compute-isa.md §10–§12):
// ld on a typed SRV, store_uav_typed with UNORM/SINT/FLOAT16 conversion,
// ld_uav_typed, and atomics on an R32_UINT typed UAV.
// fxc typed_buffers.hlsl -E main -T cs_5_0 -Fo typed_buffers.dxbc -Fc typed_buffers.asm
Buffer<float4> src : register(t0);
RWBuffer<unorm float4> dst : register(u0);
RWBuffer<uint> counters : register(u1);
RWBuffer<int2> narrow : register(u2);
RWBuffer<float> scale : register(u3);
RWBuffer<float2> halves : register(u4);

[numthreads(4, 1, 1)]
void main(uint i : SV_DispatchThreadID)
{
    dst[i] = src[i];
    InterlockedAdd(counters[0], i + 1);
    InterlockedMax(counters[1], i * 10);
    narrow[i] = int2((int)i * 20000 - 30000, -(int)i * 20000);
    scale[i] = scale[i] * 2.0f;
    halves[i] = src[i].xy;
}
