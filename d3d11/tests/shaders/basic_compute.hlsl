// Adds two arrays of {int, float} element by element, in the manner of
// the DirectX SDK's BasicCompute11 sample: structured buffers, or with
// -D USE_RAW byte-address buffers
struct BufType
{
    int i;
    float f;
};

#ifdef USE_RAW
ByteAddressBuffer Buffer0 : register(t0);
ByteAddressBuffer Buffer1 : register(t1);
RWByteAddressBuffer BufferOut : register(u0);

[numthreads(1, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    int i0 = asint(Buffer0.Load(DTid.x * 8));
    float f0 = asfloat(Buffer0.Load(DTid.x * 8 + 4));
    int i1 = asint(Buffer1.Load(DTid.x * 8));
    float f1 = asfloat(Buffer1.Load(DTid.x * 8 + 4));
    BufferOut.Store(DTid.x * 8, asuint(i0 + i1));
    BufferOut.Store(DTid.x * 8 + 4, asuint(f0 + f1));
}
#else
StructuredBuffer<BufType> Buffer0 : register(t0);
StructuredBuffer<BufType> Buffer1 : register(t1);
RWStructuredBuffer<BufType> BufferOut : register(u0);

[numthreads(1, 1, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    BufferOut[DTid.x].i = Buffer0[DTid.x].i + Buffer1[DTid.x].i;
    BufferOut[DTid.x].f = Buffer0[DTid.x].f + Buffer1[DTid.x].f;
}
#endif
