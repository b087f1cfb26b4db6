// Two-result integer instructions (FS §22.12.6 imul, §22.12.8 uaddc,
// §22.12.9 udiv, §22.12.10 umad, §22.12.13 umul, §22.12.14 usubb;
// reference/sm5-compute-isa.md §5). fxc never emits uaddc, usubb, umul, umad
// or imul's high word, so the job runs int_wide.asm: fxc's listing of this
// file (declarations, load, stores), with the 32-bit emulations below
// replaced by those instructions, plus null destinations and destinations
// that alias the sources. What each word of `o` holds:
//   0 a + b   1 carry   2 a - b   3 borrow
//   4 hi(a*b) unsigned  5 lo  6 hi(a*b) signed  7 lo
//   8 a / b   9 a % b   10 a*b + 0xFFFFFFFF (umad)  11 hi(b*b) unsigned
//   12 hi(a*b) signed, 13 lo, through destinations aliasing both sources
//   14 b - a (borrow to null)  15 carry of a + a (sum to null)
// fxc int_wide.hlsl -E main -T cs_5_0 -Fo int_wide.dxbc -Fc int_wide.asm
// (fxc's listing, then edited by hand as described; the job runs the .asm and
// no .dxbc is kept for it)
StructuredBuffer<uint2> ab : register(t0);
RWStructuredBuffer<uint4> o : register(u0);

[numthreads(16, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint a = ab[t].x, b = ab[t].y;
    o[t * 4 + 0] = uint4(a + b, a + b < a ? 1 : 0, a - b, a < b ? 1 : 0);
    o[t * 4 + 1] = uint4(0, a * b, 0, a * b);
    o[t * 4 + 2] = uint4(a / b, a % b, a * b + 0xFFFFFFFF, 0);
    o[t * 4 + 3] = uint4(0, a * b, b - a, a + a < a ? 1 : 0);
}
