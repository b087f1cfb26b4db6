// Covers: out-of-bounds atomics on u#. Raw u0 (imm_atomic_iadd, atomic_or)
// and structured u1 of stride 8 (imm_atomic_exch, imm_atomic_cmp_exch on the
// member at byte offset 4, atomic_iadd at offset 0) with per-thread
// addresses from t0: some in range, some exactly at the end, some huge
// (0xFFFFFFFC, index·stride wrapping to 0 in 32 bits). Out of range: nothing
// is written and imm_* return 0 (sm5sim's documented choice, ISA §12).
// fxc (run in tests/families): /work/fxc/fxc atomics_oob.hlsl -E main -T cs_5_0 -Fo atomics_oob.dxbc -Fc atomics_oob.asm
struct Pair { uint a; uint b; };
StructuredBuffer<uint2> addr : register(t0);  // .x raw byte address, .y structure index
RWByteAddressBuffer raw : register(u0);
RWStructuredBuffer<Pair> st : register(u1);
RWStructuredBuffer<uint> orig : register(u2); // 3 per thread

[numthreads(8, 1, 1)]
void main(uint t : SV_GroupIndex)
{
    uint2 a = addr[t];
    uint o;
    raw.InterlockedAdd(a.x, 0x100 + t, o);
    orig[t * 3 + 0] = o;
    raw.InterlockedOr(a.x, 1u << (t + 16));
    InterlockedExchange(st[a.y].b, 0xabc0 + t, o);
    orig[t * 3 + 1] = o;
    InterlockedCompareExchange(st[a.y].b, 0xabc0 + t, 0x5550 + t, o);
    orig[t * 3 + 2] = o;
    InterlockedAdd(st[a.y].a, t + 1);
}
