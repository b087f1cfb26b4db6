// Pass 3 of append.c, run by DispatchIndirect: each of the first `n` threads
// consumes one item and adds it to the sum
ConsumeStructuredBuffer<uint> found : register(u0);
RWByteAddressBuffer sum : register(u1);
ByteAddressBuffer counted : register(t0);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (id.x < counted.Load(0)) {
        uint v = found.Consume();
        sum.InterlockedAdd(0, v);
        sum.InterlockedAdd(4, 1);
    }
}
