// One pass of a multi-pass sum: the first `count` elements of In are reduced
// to ceil(count / 512) partial sums, Out[g] = In[512g] + ... + In[512g + 511]
// (elements past `count` count as 0). The host runs it again on Out until a
// single value is left. 256 threads per group; each thread adds two elements
// as it loads them, then a tree in groupshared memory adds the 256 sums.
StructuredBuffer<uint> In : register(t0);
RWStructuredBuffer<uint> Out : register(u0);

cbuffer ReduceParams : register(b0)
{
    uint count;   // elements of In to reduce in this pass
};

#define THREADS 256
groupshared uint partial[THREADS];

[numthreads(THREADS, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex)
{
    uint first = gid.x * (2 * THREADS) + gi;
    uint second = first + THREADS;
    // [branch]: without it fxc loads before it tests (a load past the end of
    // a buffer reads 0), and sm5sim check reports the loads out of bounds.
    uint sum = 0;
    [branch] if (first < count)
        sum = In[first];
    [branch] if (second < count)
        sum += In[second];
    partial[gi] = sum;
    GroupMemoryBarrierWithGroupSync();

    [unroll]
    for (uint stride = THREADS / 2; stride > 0; stride >>= 1)
    {
        if (gi < stride)
            partial[gi] += partial[gi + stride];
        GroupMemoryBarrierWithGroupSync();
    }

    if (gi == 0)
        Out[gid.x] = partial[0];
}
