// One bitonic merge level, restricted to the steps that stay inside a row of
// 512 elements: a row is sorted in groupshared memory by one thread group of
// 512 threads, one thread per element.
//
// Bitonic sort of n elements: for each level k = 2, 4, ..., n the elements
// are compare-exchanged with partners j = k/2, k/4, ..., 1 positions away;
// element i and its partner i ^ j are put in ascending order when bit k of
// i is 0 and in descending order when it is 1. This shader runs the steps
// j = level/2 ... 1 of one level, with the direction bit given by level_mask
// (0 for the last level, which sorts everything ascending). The steps with
// j >= 512 cross rows; the host makes them row-local by transposing the
// data (transpose.hlsl), see README.md.
RWStructuredBuffer<uint> Data : register(u0);

cbuffer SortParams : register(b0)
{
    uint level;       // sequences of this length are merged: steps level/2 ... 1
    uint level_mask;  // the index bit that selects the descending direction (0: all ascending)
};

#define ROW 512
groupshared uint row[ROW];

[numthreads(ROW, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    row[gi] = Data[dtid.x];
    GroupMemoryBarrierWithGroupSync();

    // Each thread's half of the compare-exchange is decided by the global
    // index, so the direction is the same as for the whole array.
    bool descending = (dtid.x & level_mask) != 0;
    for (uint j = level >> 1; j > 0; j >>= 1)
    {
        uint mine = row[gi];
        uint other = row[gi ^ j];
        bool lower = (gi & j) == 0;           // this thread holds the lower index of the pair
        uint kept = (lower != descending) ? min(mine, other) : max(mine, other);
        GroupMemoryBarrierWithGroupSync();    // every read of this step before any write
        row[gi] = kept;
        GroupMemoryBarrierWithGroupSync();    // every write before the next step's reads
    }

    Data[dtid.x] = row[gi];
}
