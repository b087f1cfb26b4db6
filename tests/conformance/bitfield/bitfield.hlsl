// Bit fields and raw first-bit positions (FS §22.11.2 bfi, §22.11.5
// firstbit, §22.11.6 ibfe, §22.11.11 ubfe; reference/sm5-compute-isa.md §6).
// fxc emits ubfe/ibfe/bfi only with literal width and offset (from shift and
// mask patterns like the ones below) and always follows firstbit_hi/_shi with
// its 31 - x fix-up, so the job runs bitfield.asm: fxc's listing of this file
// with width and offset taken from registers (to reach width 0, width and
// offset >= 32 and width + offset >= 32) and the fix-ups removed. Words of o:
//   0 ubfe(w, off, v)  1 ibfe(w, off, v)  2 bfi(w, off, v, base)
//   3 firstbit_hi(v)   4 firstbit_lo(v)   5 firstbit_shi(v)
//   6 ibfe(w, off, base)  7 bfi(w, off, base, v)
// fxc bitfield.hlsl -E main -T cs_5_0 -Fo bitfield.dxbc -Fc bitfield.asm
// (fxc's listing, then edited by hand as described; the job runs the .asm and
// no .dxbc is kept for it)
StructuredBuffer<uint4> cases : register(t0);    // (w, off, v, base)
RWStructuredBuffer<uint4> o : register(u0);

[numthreads(16, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint4 k = cases[t];
    uint v = k.z, base = k.w;
    o[t * 2] = uint4((v >> 4) & 0xFF, asuint(asint(v << 20) >> 24),
                     (base & ~0xFF0u) | ((v << 4) & 0xFF0u), firstbithigh(v));
    o[t * 2 + 1] = uint4(firstbitlow(v), asuint(firstbithigh(asint(v))),
                         asuint(asint(base << 20) >> 24), (v & ~0xFF0u) | ((base << 4) & 0xFF0u));
}
