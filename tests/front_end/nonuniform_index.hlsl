RWByteAddressBuffer outs[8] : register(u0);
ByteAddressBuffer ins[4] : register(t0);
cbuffer C : register(b0) { uint4 v[4]; }
[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    uint i = tid.x & 3;
    uint x = ins[NonUniformResourceIndex(i)].Load(tid.x * 4);
    x += v[NonUniformResourceIndex(i)].y;
    outs[NonUniformResourceIndex(x & 7)].Store(tid.x * 4, x);
}
