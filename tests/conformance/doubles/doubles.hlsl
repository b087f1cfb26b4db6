// Double precision (FS §22.14-§22.17, reference/sm5-compute-isa.md §8): dadd,
// dmul, ddiv, dfma (fused), drcp, dmin/dmax with NaN, dlt/dge/deq/dne, dmovc,
// dtof/ftod, dtoi/dtou (truncate, saturate), itod/utod, negate modifier.
// fxc doubles.hlsl -E main -T cs_5_0 -Fo doubles.dxbc -Fc doubles.asm
StructuredBuffer<double2> v : register(t0);   // x = v[0], y = v[1], z = v[2]
StructuredBuffer<int> n : register(t1);       // integers to convert
RWStructuredBuffer<uint2> o : register(u0);   // each result as (low, high) words

void put(uint i, double d) { uint lo, hi; asuint(d, lo, hi); o[i] = uint2(lo, hi); }

[numthreads(1, 1, 1)]
void main()
{
    double2 x = v[0], y = v[1], z = v[2];
    put(0, x.x + y.x);
    put(1, x.y * y.y);
    put(2, x.x / y.x);
    put(3, fma(x.x, y.x, x.y));
    put(4, rcp(y.x));
    put(5, min(x.y, -x.x));
    put(6, max(y.y, x.x));
    put(7, min(z.x, x.x));
    put(8, max(x.y, z.x));
    o[9] = uint2(x.x < y.x ? 1 : 0, x.x >= y.x ? 1 : 0);
    o[10] = uint2(z.x == z.x ? 1 : 0, z.x != z.x ? 1 : 0);
    put(11, x.x < y.x ? x.y : y.y);
    o[12] = uint2(asuint((float)y.y), asuint((float)x.x));
    put(13, (double)asfloat(n[3]));
    o[14] = uint2((uint)(int)x.y, (uint)y.y);
    o[15] = uint2((uint)x.y, (uint)(int)-y.y);
    put(16, (double)n[0]);
    put(17, (double)(uint)n[1]);
    put(18, -z.y);
}
