// Pass 2 of append.c: DispatchIndirect's arguments from the structure count
// that CopyStructureCount put in `counted`: one group of 64 per 64 items
ByteAddressBuffer counted : register(t0);
RWByteAddressBuffer args : register(u0);

[numthreads(1, 1, 1)]
void main()
{
    uint n = counted.Load(0);
    args.Store3(0, uint3((n + 63) / 64, 1, 1));
}
