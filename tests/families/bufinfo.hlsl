// Covers: bufinfo (GetDimensions) on a raw SRV (bytes), a structured SRV
// (structure count, stride 12), a raw UAV (bytes) and a structured UAV
// (structure count, stride 16, including a buffer whose size is not a
// multiple of the stride).
// fxc (run in tests/families): /work/fxc/fxc bufinfo.hlsl -E main -T cs_5_0 -Fo bufinfo.dxbc -Fc bufinfo.asm
ByteAddressBuffer traw : register(t0);
StructuredBuffer<float3> tst : register(t1);
RWByteAddressBuffer uraw : register(u0);
RWStructuredBuffer<uint4> ust : register(u1);
RWStructuredBuffer<uint> result : register(u2);

[numthreads(1, 1, 1)]
void main()
{
    uint a, b, c, d, stride_t, stride_u;
    traw.GetDimensions(a);
    tst.GetDimensions(b, stride_t);
    uraw.GetDimensions(c);
    ust.GetDimensions(d, stride_u);
    result[0] = a;
    result[1] = b;
    result[2] = stride_t;
    result[3] = c;
    result[4] = d;
    result[5] = stride_u;
}
