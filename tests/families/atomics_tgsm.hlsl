// Covers: every atomic on g# (groupshared): imm_atomic_iadd/and/or/xor/
// umin/umax/imin/imax/exch/cmp_exch and atomic_iadd/and/or/xor/umin/umax/
// imin/imax/cmp_store. g0 is a uint array; g1 an array of {int pad; int v}
// (stride 8) whose atomics address member v at byte offset 4. Each thread
// seeds its own words from t0, then after a barrier applies one op per word (exact originals and results), and all
// threads of the group also hit shared words (add +1 → originals are a
// permutation, or of distinct bits, cmp_exch with one winner, folds of
// per-thread operands). Results are copied out to u0/u1 after a barrier;
// 2 groups, each with its own TGSM.
// fxc (run in tests/families): /work/fxc/fxc atomics_tgsm.hlsl -E main -T cs_5_0 -Fo atomics_tgsm.dxbc -Fc atomics_tgsm.asm
StructuredBuffer<uint> input : register(t0);   // 44 words per thread
RWStructuredBuffer<uint> mem : register(u0);   // 20 per thread + 17 per group
RWStructuredBuffer<uint> orig : register(u1);  // 16 per thread

groupshared uint gu[32 * 14 + 16];
struct IPair { int pad; int v; };
groupshared IPair gi_[32 * 6 + 1];  // stride 8: atomics at byte offset 4

[numthreads(32, 1, 1)]
void main(uint tid : SV_DispatchThreadID, uint li : SV_GroupIndex, uint3 gid : SV_GroupID)
{
    uint ib = tid * 44;
    uint mb = li * 14;
    uint sb = li * 6;
    uint ob = tid * 16;
    uint S = 32 * 14;
    [loop] for (uint k = 0; k < 14; k++)
        gu[mb + k] = input[ib + k];
    [loop] for (uint j = 0; j < 6; j++)
        gi_[sb + j].v = asint(input[ib + 14 + j]);
    [branch] if (li < 16)
        gu[S + li] = input[32 * 44 * 2 + li];
    [branch] if (li == 31)
        gi_[192].v = asint(input[32 * 44 * 2 + 16]);
    GroupMemoryBarrierWithGroupSync();

    uint o;
    int so;
    InterlockedAdd(gu[mb + 0], input[ib + 20], o);     orig[ob + 0] = o;
    InterlockedAnd(gu[mb + 1], input[ib + 21], o);     orig[ob + 1] = o;
    InterlockedOr(gu[mb + 2], input[ib + 22], o);      orig[ob + 2] = o;
    InterlockedXor(gu[mb + 3], input[ib + 23], o);     orig[ob + 3] = o;
    InterlockedMin(gu[mb + 4], input[ib + 24], o);     orig[ob + 4] = o;
    InterlockedMax(gu[mb + 5], input[ib + 25], o);     orig[ob + 5] = o;
    InterlockedExchange(gu[mb + 6], input[ib + 26], o); orig[ob + 6] = o;
    InterlockedCompareExchange(gu[mb + 7], input[ib + 40], input[ib + 27], o);
    orig[ob + 7] = o;
    InterlockedAdd(gu[mb + 8], input[ib + 28]);
    InterlockedAnd(gu[mb + 9], input[ib + 29]);
    InterlockedOr(gu[mb + 10], input[ib + 30]);
    InterlockedXor(gu[mb + 11], input[ib + 31]);
    InterlockedMin(gu[mb + 12], input[ib + 32]);
    InterlockedMax(gu[mb + 13], input[ib + 33]);
    InterlockedMin(gi_[sb + 0].v, asint(input[ib + 34]), so); orig[ob + 8] = asuint(so);
    InterlockedMax(gi_[sb + 1].v, asint(input[ib + 35]), so); orig[ob + 9] = asuint(so);
    InterlockedMin(gi_[sb + 2].v, asint(input[ib + 36]));
    InterlockedMax(gi_[sb + 3].v, asint(input[ib + 37]));
    InterlockedAdd(gi_[sb + 4].v, asint(input[ib + 38]));
    InterlockedCompareStore(gi_[sb + 5].v, asint(input[ib + 41]), asint(input[ib + 39]));

    // shared words of the group
    InterlockedAdd(gu[S + 0], 1, o);          orig[ob + 10] = o;
    InterlockedOr(gu[S + 1], 1u << li, o);    orig[ob + 11] = o;
    InterlockedCompareExchange(gu[S + 2], 0, li + 1, o);
    orig[ob + 12] = o;
    uint r = input[ib + 42];
    InterlockedAdd(gu[S + 3], r);
    InterlockedAnd(gu[S + 4], r);
    InterlockedOr(gu[S + 5], r);
    InterlockedXor(gu[S + 6], r);
    InterlockedMax(gu[S + 7], r);
    InterlockedMin(gu[S + 8], r);
    InterlockedMax(gi_[192].v, asint(r));
    InterlockedCompareStore(gu[S + 9], 0, li + 1);
    InterlockedExchange(gu[S + 10], li + 1, o); orig[ob + 13] = o;
    GroupMemoryBarrierWithGroupSync();

    uint mo = tid * 20;
    [loop] for (uint a = 0; a < 14; a++)
        mem[mo + a] = gu[mb + a];
    [loop] for (uint b = 0; b < 6; b++)
        mem[mo + 14 + b] = asuint(gi_[sb + b].v);
    [branch] if (li < 16)
        mem[64 * 20 + gid.x * 17 + li] = gu[S + li];
    [branch] if (li == 31)
        mem[64 * 20 + gid.x * 17 + 16] = asuint(gi_[192].v);
}
