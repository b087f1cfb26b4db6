// Double-precision immediates (FS §22.14-§22.17, reference/sm5-compute-isa.md
// §8): each double instruction that takes a d(…) literal operand, as fxc
// emits for double literals; one literal fills both component pairs, two
// fill xy and zw.
// fxc double_immediates.hlsl -E main -T cs_5_0 -Fo double_immediates.dxbc -Fc double_immediates.asm
StructuredBuffer<double2> v : register(t0);   // x = v[0], y = v[1], z = v[2]
RWStructuredBuffer<uint2> o : register(u0);   // each result as (low, high) words

void put(uint i, double d) { uint lo, hi; asuint(d, lo, hi); o[i] = uint2(lo, hi); }

[numthreads(1, 1, 1)]
void main()
{
    double2 x = v[0], y = v[1], z = v[2];
    put(0, x.x + 0.25);
    put(1, x.y * 0.5);
    put(2, x.x / 3.0);
    put(3, fma(x.x, 2.0, 0.25));
    put(4, min(x.y, -2.0));
    put(5, max(z.x, 4.0));
    o[6] = uint2(x.x < 2.0 ? 1 : 0, x.x >= 2.0 ? 1 : 0);
    o[7] = uint2(x.y == -3.0 ? 1 : 0, z.x != 1.0 ? 1 : 0);
    put(8, x.x < y.x ? x.y : 6.5);
    put(9, x.x >= y.x ? 7.0 : 8.0);
    double2 w = x * double2(0.5, 4.0);
    put(10, w.x);
    put(11, w.y);
}
