// Covers: every u# atomic on a RWByteAddressBuffer (raw UAV), with and
// without the `original` out-parameter: imm_atomic_iadd/and/or/xor/imin/
// imax/umin/umax/exch/cmp_exch and atomic_iadd/and/or/xor/imin/imax/umin/
// umax/cmp_store. Part 1: each thread works on its own 19 words, so every
// returned original and every final word is exact. Part 2: all 64 threads
// (2 groups) hit shared words: imm add (+1, originals are a permutation),
// imm or (distinct bits, originals form a chain), imm exch, imm cmp_exch
// (one winner), and the non-returning forms with per-thread operands.
// fxc (run in tests/families): /work/fxc/fxc atomics_raw.hlsl -E main -T cs_5_0 -Fo atomics_raw.dxbc -Fc atomics_raw.asm
ByteAddressBuffer input : register(t0);     // 24 words per thread
RWByteAddressBuffer mem : register(u0);     // 20 words per thread, then shared words
RWStructuredBuffer<uint> orig : register(u1); // 16 words per thread

#define S (64 * 80)

[numthreads(32, 1, 1)]
void main(uint tid : SV_DispatchThreadID)
{
    uint ib = tid * 96;
    uint mb = tid * 80;
    uint ob = tid * 16;
    uint o;
    mem.InterlockedAdd(mb + 0, input.Load(ib + 0), o);          orig[ob + 0] = o;
    mem.InterlockedAnd(mb + 4, input.Load(ib + 4), o);          orig[ob + 1] = o;
    mem.InterlockedOr(mb + 8, input.Load(ib + 8), o);           orig[ob + 2] = o;
    mem.InterlockedXor(mb + 12, input.Load(ib + 12), o);        orig[ob + 3] = o;
    mem.InterlockedMin(mb + 16, asint(input.Load(ib + 16)), o); orig[ob + 4] = o;
    mem.InterlockedMax(mb + 20, asint(input.Load(ib + 20)), o); orig[ob + 5] = o;
    mem.InterlockedMin(mb + 24, input.Load(ib + 24), o);        orig[ob + 6] = o;
    mem.InterlockedMax(mb + 28, input.Load(ib + 28), o);        orig[ob + 7] = o;
    mem.InterlockedExchange(mb + 32, input.Load(ib + 32), o);   orig[ob + 8] = o;
    mem.InterlockedCompareExchange(mb + 36, input.Load(ib + 76), input.Load(ib + 36), o);
    orig[ob + 9] = o;
    mem.InterlockedAdd(mb + 40, input.Load(ib + 40));
    mem.InterlockedAnd(mb + 44, input.Load(ib + 44));
    mem.InterlockedOr(mb + 48, input.Load(ib + 48));
    mem.InterlockedXor(mb + 52, input.Load(ib + 52));
    mem.InterlockedMin(mb + 56, asint(input.Load(ib + 56)));
    mem.InterlockedMax(mb + 60, asint(input.Load(ib + 60)));
    mem.InterlockedMin(mb + 64, input.Load(ib + 64));
    mem.InterlockedMax(mb + 68, input.Load(ib + 68));
    mem.InterlockedCompareStore(mb + 72, input.Load(ib + 80), input.Load(ib + 72));

    // shared words
    mem.InterlockedAdd(S + 0, 1, o);              orig[ob + 10] = o;
    [branch] if (tid & 1) {
        mem.InterlockedOr(S + 4, 1u << (tid >> 1), o);
        orig[ob + 11] = o;
    }
    mem.InterlockedExchange(S + 8, tid + 1, o);   orig[ob + 12] = o;
    mem.InterlockedCompareExchange(S + 12, 0, tid + 1, o);
    orig[ob + 13] = o;
    uint r = input.Load(ib + 84);
    mem.InterlockedAdd(S + 16, r);
    mem.InterlockedAnd(S + 20, r);
    mem.InterlockedOr(S + 24, r);
    mem.InterlockedXor(S + 28, r);
    mem.InterlockedMax(S + 32, asint(r));
    mem.InterlockedMin(S + 36, asint(r));
    mem.InterlockedMax(S + 40, r);
    mem.InterlockedMin(S + 44, r);
    mem.InterlockedCompareStore(S + 48, 0, tid + 1);
}
