// Covers float ALU edge cases on operands read from t0 (so fxc cannot fold
// them): f32tof16 (round toward zero) / f16tof32, ftoi/ftou of NaN, ±INF,
// large and negative values, itof/utof, min/max with NaN, rcp/rsq/sqrt of
// 0, -0, negatives and INF, round_ne/ni/pi/z, frc of negatives, denormal
// flushing (x + 0, x * 1, x + -0), mov_sat of NaN/-0/2, movc with a -0.0
// condition (true: the test is on bits), eq/ne/lt/ge with NaN and ±0,
// exp/log special values and sincos at ±0/INF.
// fxc (run in tests/families): /work/fxc/fxc alu_float.hlsl -E main -T cs_5_0 -Fo alu_float.dxbc -Fc alu_float.asm
StructuredBuffer<uint4> input : register(t0);   // x, y, zero (+0.0), one (1.0)
RWStructuredBuffer<uint> output : register(u0);

#define N 40

[numthreads(32, 1, 1)]
void main(uint t : SV_GroupIndex)
{
    uint4 in4 = input[t];
    float x = asfloat(in4.x);
    float y = asfloat(in4.y);
    float zero = asfloat(in4.z);
    float one = asfloat(in4.w);
    uint o = t * N;
    output[o + 0] = f32tof16(x);
    output[o + 1] = asuint(f16tof32(in4.x));
    output[o + 2] = asuint((int)x);
    output[o + 3] = (uint)x;
    output[o + 4] = asuint((float)asint(in4.x));
    output[o + 5] = asuint((float)in4.x);
    output[o + 6] = asuint(min(x, y));
    output[o + 7] = asuint(max(x, y));
    output[o + 8] = asuint(rcp(x));
    output[o + 9] = asuint(rsqrt(x));
    output[o + 10] = asuint(sqrt(x));
    output[o + 11] = asuint(round(x));
    output[o + 12] = asuint(floor(x));
    output[o + 13] = asuint(ceil(x));
    output[o + 14] = asuint(trunc(x));
    output[o + 15] = asuint(frac(x));
    output[o + 16] = asuint(x + zero);
    output[o + 17] = asuint(x * one);
    output[o + 18] = asuint(x + (-zero));
    output[o + 19] = asuint(saturate(x));
    output[o + 20] = in4.x ? in4.y : 0x12345678u;
    output[o + 21] = x == y ? 1u : 0u;
    output[o + 22] = x != y ? 1u : 0u;
    output[o + 23] = x < y ? 1u : 0u;
    output[o + 24] = x >= y ? 1u : 0u;
    output[o + 25] = x > y ? 1u : 0u;
    output[o + 26] = x <= y ? 1u : 0u;
    output[o + 27] = asuint(exp2(x));
    output[o + 28] = asuint(log2(x));
    output[o + 29] = asuint(sin(x));
    output[o + 30] = asuint(cos(x));
    output[o + 31] = asuint(x * y);
    output[o + 32] = asuint(x + y);
    output[o + 33] = asuint(x / y);
    output[o + 34] = asuint(x);                 // plain move: bits kept
    output[o + 35] = asuint(-x);
    output[o + 36] = asuint(abs(x));
    output[o + 37] = asuint(mad(x, y, one));
    output[o + 38] = asuint(-abs(x) * one);
    output[o + 39] = asuint(saturate(x * one));
}
