// Atomics on u# and g# (FS §22.17.8-16 atomic_*, §22.17.19-28 imm_atomic_*;
// reference/sm5-compute-isa.md §12). One group of 32 threads.
// 1. Every thread applies each non-returning atomic to one shared word of a
//    raw UAV and of TGSM (results independent of the order): iadd, and, or,
//    xor, imin, imax, umin, umax, cmp_store (one thread's compare matches;
//    another word holds -0.0 and is compared with +0: bits differ, no store).
// 2. Every thread applies each returning atomic to its own words of
//    structured UAVs (uint and int) and of TGSM (uint and int), so the old
//    value each returns is known: iadd, and, or, xor, exch, cmp_exch (compare
//    equal: stored; compare with the sign bit flipped: not stored), umax,
//    umin, imax, imin.
// 3. imm_atomic_iadd contended on one u# word and one g# word: the returned
//    old values are distinct, each thread stores at the slot its value names.
// Words of o: [0, 352) u# returns, t * 11 + k; [352, 704) g# returns;
// [704, 1056) g# per-thread words after the atomics; [1056, 1068) g# shared
// words after step 1; [1068, 1100) slot r of the u# counter = r + 1;
// [1100, 1132) slot r / 2 of the g# counter (step 2) = r.
// fxc atomics.hlsl -E main -T cs_5_0 -Fo atomics.dxbc -Fc atomics.asm
RWByteAddressBuffer sh : register(u0);      // words 0-9: step 1, word 10: step 3
RWStructuredBuffer<uint> per : register(u1);    // 32 x 9
RWStructuredBuffer<int> perI : register(u2);    // 32 x 2
RWStructuredBuffer<uint> o : register(u3);
StructuredBuffer<uint> init : register(t0);     // 32 x 11: the initial per/perI words
StructuredBuffer<uint> operand : register(t1);  // 32
groupshared uint gU[32 * 9];
groupshared int gI[32 * 2];
groupshared uint gS[8];
groupshared int gSI[2];
groupshared uint gCount;

static const uint G_INIT[10] = { 0xFFFFFF00, 0xFFFFFFFF, 0, 0x12345678, 5, 0xFFFE7960,
                                 0xFFFFFFFF, 0, 0x77, 0x80000000 };

[numthreads(32, 1, 1)]
void main(uint t : SV_GroupIndex)
{
    // TGSM initial values
    [branch] if (t < 10) {
        [branch] if (t == 4 || t == 5) gSI[t - 4] = asint(G_INIT[t]);
        else gS[t < 4 ? t : t - 2] = G_INIT[t];
    }
    [branch] if (t == 31) gCount = 0;
    for (uint k = 0; k < 9; k++) gU[t * 9 + k] = init[t * 11 + k];
    gI[t * 2] = asint(init[t * 11 + 9]);
    gI[t * 2 + 1] = asint(init[t * 11 + 10]);
    GroupMemoryBarrierWithGroupSync();

    // 1. non-returning, contended
    int d = asint(t) - 16;
    sh.InterlockedAdd(0, t + 1);
    sh.InterlockedAnd(4, ~(1u << (t % 16)));
    sh.InterlockedOr(8, 1u << ((2 * t) % 32));
    sh.InterlockedXor(12, t * 0x01010101);
    sh.InterlockedMin(16, d);
    sh.InterlockedMax(20, d * 1000);
    sh.InterlockedMin(24, asuint(d));
    sh.InterlockedMax(28, asuint(d));
    sh.InterlockedCompareStore(32, t + 0x60, 0xABC);
    sh.InterlockedCompareStore(36, 0, 5);
    InterlockedAdd(gS[0], t + 1);
    InterlockedAnd(gS[1], ~(1u << (t % 16)));
    InterlockedOr(gS[2], 1u << ((2 * t) % 32));
    InterlockedXor(gS[3], t * 0x01010101);
    InterlockedMin(gSI[0], d);
    InterlockedMax(gSI[1], d * 1000);
    InterlockedMin(gS[4], asuint(d));
    InterlockedMax(gS[5], asuint(d));
    InterlockedCompareStore(gS[6], t + 0x60, 0xABC);
    InterlockedCompareStore(gS[7], 0, 5);

    // 2. returning, own words
    uint b = operand[t];
    uint c = init[t * 11 + 5];
    uint p = t * 9, q = t * 2, n = t * 11;
    uint r;
    InterlockedAdd(per[p], b, r);                     o[n] = r;
    InterlockedAnd(per[p + 1], b, r);                 o[n + 1] = r;
    InterlockedOr(per[p + 2], b, r);                  o[n + 2] = r;
    InterlockedXor(per[p + 3], b, r);                 o[n + 3] = r;
    InterlockedExchange(per[p + 4], b, r);            o[n + 4] = r;
    InterlockedCompareExchange(per[p + 5], c, b, r);  o[n + 5] = r;
    InterlockedCompareExchange(per[p + 6], init[n + 6] ^ 0x80000000, b, r); o[n + 6] = r;
    InterlockedMax(per[p + 7], b, r);                 o[n + 7] = r;
    InterlockedMin(per[p + 8], b, r);                 o[n + 8] = r;
    int ri;
    InterlockedMax(perI[q], asint(b), ri);            o[n + 9] = asuint(ri);
    InterlockedMin(perI[q + 1], asint(b), ri);        o[n + 10] = asuint(ri);
    n += 352;
    InterlockedAdd(gU[p], b, r);                      o[n] = r;
    InterlockedAnd(gU[p + 1], b, r);                  o[n + 1] = r;
    InterlockedOr(gU[p + 2], b, r);                   o[n + 2] = r;
    InterlockedXor(gU[p + 3], b, r);                  o[n + 3] = r;
    InterlockedExchange(gU[p + 4], b, r);             o[n + 4] = r;
    InterlockedCompareExchange(gU[p + 5], c, b, r);   o[n + 5] = r;
    InterlockedCompareExchange(gU[p + 6], init[t * 11 + 6] ^ 0x80000000, b, r); o[n + 6] = r;
    InterlockedMax(gU[p + 7], b, r);                  o[n + 7] = r;
    InterlockedMin(gU[p + 8], b, r);                  o[n + 8] = r;
    InterlockedMax(gI[q], asint(b), ri);              o[n + 9] = asuint(ri);
    InterlockedMin(gI[q + 1], asint(b), ri);          o[n + 10] = asuint(ri);

    // 3. contended, returning
    sh.InterlockedAdd(40, 1, r);
    o[1068 + (r & 31)] = r + 1;
    InterlockedAdd(gCount, 2, r);
    o[1100 + ((r / 2) & 31)] = r;

    GroupMemoryBarrierWithGroupSync();
    n = 704 + t * 11;
    for (uint j = 0; j < 9; j++) o[n + j] = gU[p + j];
    o[n + 9] = asuint(gI[q]);
    o[n + 10] = asuint(gI[q + 1]);
    [branch] if (t < 8) o[1056 + t] = gS[t];
    [branch] if (t == 8) { o[1064] = asuint(gSI[0]); o[1065] = asuint(gSI[1]); }
    [branch] if (t == 9) { o[1066] = 0; o[1067] = 0; }
}
