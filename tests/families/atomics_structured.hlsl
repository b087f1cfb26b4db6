// Covers: atomics on structured UAVs, address = (index, byte offset):
// RWStructuredBuffer<uint> (stride 4) with imm_atomic_iadd/and/or/xor/
// umin/umax/exch/cmp_exch and atomic_iadd/and/or/xor/umin/umax/cmp_store;
// RWStructuredBuffer<Pair> of ints (stride 8, atomics on the member at byte
// offset 4) with imm_atomic_imin/imax/xor and atomic_imin/imax. Each thread
// works on its own elements, so originals and final memory are exact.
// fxc (run in tests/families): /work/fxc/fxc atomics_structured.hlsl -E main -T cs_5_0 -Fo atomics_structured.dxbc -Fc atomics_structured.asm
struct Pair { int pad; int v; };
StructuredBuffer<uint> input : register(t0);     // 24 words per thread
RWStructuredBuffer<uint> mem : register(u0);     // 15 per thread
RWStructuredBuffer<Pair> smem : register(u1);    // 5 per thread
RWStructuredBuffer<uint> orig : register(u2);    // 12 per thread

[numthreads(16, 1, 1)]
void main(uint tid : SV_DispatchThreadID)
{
    uint ib = tid * 24;
    uint mb = tid * 15;
    uint sb = tid * 5;
    uint ob = tid * 12;
    uint o;
    int so;
    InterlockedAdd(mem[mb + 0], input[ib + 0], o);     orig[ob + 0] = o;
    InterlockedAnd(mem[mb + 1], input[ib + 1], o);     orig[ob + 1] = o;
    InterlockedOr(mem[mb + 2], input[ib + 2], o);      orig[ob + 2] = o;
    InterlockedXor(mem[mb + 3], input[ib + 3], o);     orig[ob + 3] = o;
    InterlockedMin(mem[mb + 4], input[ib + 4], o);     orig[ob + 4] = o;
    InterlockedMax(mem[mb + 5], input[ib + 5], o);     orig[ob + 5] = o;
    InterlockedExchange(mem[mb + 6], input[ib + 6], o); orig[ob + 6] = o;
    InterlockedCompareExchange(mem[mb + 7], input[ib + 15], input[ib + 7], o);
    orig[ob + 7] = o;
    InterlockedAdd(mem[mb + 8], input[ib + 8]);
    InterlockedAnd(mem[mb + 9], input[ib + 9]);
    InterlockedOr(mem[mb + 10], input[ib + 10]);
    InterlockedXor(mem[mb + 11], input[ib + 11]);
    InterlockedMin(mem[mb + 12], input[ib + 12]);
    InterlockedMax(mem[mb + 13], input[ib + 13]);
    InterlockedCompareStore(mem[mb + 14], input[ib + 16], input[ib + 14]);

    InterlockedMin(smem[sb + 0].v, asint(input[ib + 17]), so); orig[ob + 8] = asuint(so);
    InterlockedMax(smem[sb + 1].v, asint(input[ib + 18]), so); orig[ob + 9] = asuint(so);
    InterlockedXor(smem[sb + 2].v, asint(input[ib + 19]), so); orig[ob + 10] = asuint(so);
    InterlockedMin(smem[sb + 3].v, asint(input[ib + 20]));
    InterlockedMax(smem[sb + 4].v, asint(input[ib + 21]));
}
