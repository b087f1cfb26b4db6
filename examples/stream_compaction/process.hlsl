// Pass 3, dispatched indirectly with the group counts make_args.hlsl wrote:
// one thread per element of the compacted list. Each thread adds its
// element's square to totals[0] (wrapping), 1 to totals[1], and takes the
// maximum into totals[2]. Atomics make the results independent of the
// list's order and of the schedule.
StructuredBuffer<uint> list : register(t0);
ByteAddressBuffer count : register(t1);     // word 0: the list's length
RWByteAddressBuffer totals : register(u0);  // sum of squares, processed, maximum

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID)
{
    // The last group may have threads past the end of the list.
    if (dtid.x >= count.Load(0))
        return;
    uint value = list[dtid.x];
    totals.InterlockedAdd(0, value * value);
    totals.InterlockedAdd(4, 1);
    totals.InterlockedMax(8, value);
}
