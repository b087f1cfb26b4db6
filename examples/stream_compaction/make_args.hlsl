// Pass 2 (one thread): turns the length of the compacted list, which the
// host copied out of its hidden counter with CopyStructureCount, into the
// arguments of an indirect dispatch of process.hlsl: one group of 64
// threads per 64 elements, rounded up.
ByteAddressBuffer count : register(t0);     // word 0: the list's length
RWByteAddressBuffer args : register(u0);    // three group counts (x, y, z)

#define PROCESS_GROUP_SIZE 64   // process.hlsl's numthreads

[numthreads(1, 1, 1)]
void main()
{
    uint n = count.Load(0);
    args.Store3(0, uint3((n + PROCESS_GROUP_SIZE - 1) / PROCESS_GROUP_SIZE, 1, 1));
}
