// One pass of a sum reduction: each group of 256 threads sums 256 elements
// of `input` into out[group] through groupshared memory. Compiled twice:
// reduce.dxbc, and reduce_race.dxbc with -D RACE, which leaves out the
// barrier between the loads and the first step of the tree (a seeded race
// that the checker must find).
StructuredBuffer<float> input : register(t0);
RWStructuredBuffer<float> output : register(u0);
cbuffer PassParams : register(b0)
{
    uint count;
};

groupshared float s[256];

[numthreads(256, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex, uint3 id : SV_DispatchThreadID)
{
    s[gi] = id.x < count ? input[id.x] : 0.0;
#ifndef RACE
    GroupMemoryBarrierWithGroupSync();
#endif
    [unroll]
    for (uint step = 128; step > 0; step >>= 1) {
        if (gi < step)
            s[gi] += s[gi + step];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gi == 0) {
        output[gid.x] = s[0];
        if (count <= 256)
            printf("total %f", s[0]);
    }
}
