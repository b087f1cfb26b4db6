// Atomics on R32_UINT texture UAVs (FS §22.17.8-28; reference/sm5-compute-isa.md
// §12): InterlockedAdd (atomic_iadd), InterlockedMax on uint (atomic_umax),
// InterlockedCompareExchange in a retry loop (imm_atomic_cmp_exch) and
// InterlockedCompareStore (atomic_cmp_store) from 256 threads in 4 groups, on
// a RWTexture2D<uint> (x, y) and a RWTexture3D<uint> (x, y, z) whose view has
// FirstWSlice 2, WSize 4; out-of-range atomics are dropped.
// Thread t uses texel k = t % 4 at (k % 2, k / 2) in the 3D view, (k, row) in
// the 2D one:
//   row / view z 0: add t              row / z 1: max (t ^ 0xA5)
//   row / z 2: compare-exchange loop adding t + 1
//   row / z 3: compare-store 5 -> 9 (k < 2), 0xFFFFFFFF -> 9 (k >= 2)
//   u2 (4, k % 3) and u3 view z 4: add 1, out of range
// fxc tex_store_atomics.hlsl -E main -T cs_5_0 -Fo tex_store_atomics.dxbc -Fc tex_store_atomics.asm
RWTexture2D<uint> u2 : register(u0);
RWTexture3D<uint> u3 : register(u1);

void cas_add2(uint2 a, uint v)
{
    uint old = 0;
    [allow_uav_condition] for (;;)
    {
        uint prev;
        InterlockedCompareExchange(u2[a], old, old + v, prev);
        if (prev == old)
            break;
        old = prev;
    }
}

void cas_add3(uint3 a, uint v)
{
    uint old = 0;
    [allow_uav_condition] for (;;)
    {
        uint prev;
        InterlockedCompareExchange(u3[a], old, old + v, prev);
        if (prev == old)
            break;
        old = prev;
    }
}

[numthreads(64, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint k = t % 4;
    uint2 q = uint2(k % 2, k / 2);
    uint cmp = k < 2 ? 5u : 0xFFFFFFFFu;

    InterlockedAdd(u2[uint2(k, 0)], t);
    InterlockedMax(u2[uint2(k, 1)], t ^ 0xA5);
    cas_add2(uint2(k, 2), t + 1);
    InterlockedCompareStore(u2[uint2(k, 3)], cmp, 9);
    InterlockedAdd(u2[uint2(4, k % 3)], 1);

    InterlockedAdd(u3[uint3(q, 0)], t);
    InterlockedMax(u3[uint3(q, 1)], t ^ 0xA5);
    cas_add3(uint3(q, 2), t + 1);
    InterlockedCompareStore(u3[uint3(q, 3)], cmp, 9);
    InterlockedAdd(u3[uint3(q, 4)], 1);
}
