// Covers integer and bit ALU edge cases on operands read from t0 (so fxc
// cannot fold them): udiv/urem including division by 0 (0xFFFFFFFF both),
// signed / and % (fxc expands them into udiv plus sign fix-ups), ishl/ishr/
// ushr with counts >= 32 (masked to 5 bits), firstbit_hi/firstbit_shi/
// firstbit_lo (with fxc's 31 - x fix-up), countbits, bfrev, ubfe/ibfe/bfi
// from shift-and-mask patterns, msad (msad4), imax/imin/umax/umin, ineg.
// fxc (run in tests/families): /work/fxc/fxc alu_int.hlsl -E main -T cs_5_0 -Fo alu_int.dxbc -Fc alu_int.asm
StructuredBuffer<uint2> input : register(t0);
RWStructuredBuffer<uint> output : register(u0);

#define N 24

[numthreads(32, 1, 1)]
void main(uint t : SV_GroupIndex)
{
    uint a = input[t].x;
    uint b = input[t].y;
    int sa = asint(a);
    int sb = asint(b);
    uint o = t * N;
    output[o + 0] = a / b;
    output[o + 1] = a % b;
    output[o + 2] = asuint(sa / sb);
    output[o + 3] = asuint(sa % sb);
    output[o + 4] = a << b;
    output[o + 5] = asuint(sa >> b);
    output[o + 6] = a >> b;
    output[o + 7] = firstbithigh(a);
    output[o + 8] = asuint(firstbithigh(sa));
    output[o + 9] = firstbitlow(a);
    output[o + 10] = countbits(a);
    output[o + 11] = reversebits(a);
    output[o + 12] = (a >> (b & 31)) & 0x3ff;          // ubfe
    output[o + 13] = (a & ~0xff0u) | ((b << 4) & 0xff0u); // bfi
    output[o + 14] = asuint((sa << 8) >> 20);           // ibfe
    output[o + 15] = msad4(a, uint2(b, b ^ 0x5a5a5a5a), uint4(0, 1, 0xffffffff, t)).z;
    output[o + 16] = msad4(a, uint2(b, b ^ 0x5a5a5a5a), uint4(0, 1, 0xffffffff, t)).x;
    output[o + 17] = asuint(max(sa, sb));
    output[o + 18] = asuint(min(sa, sb));
    output[o + 19] = max(a, b);
    output[o + 20] = min(a, b);
    output[o + 21] = asuint(-sa);
    output[o + 22] = asuint(abs(sa));
    output[o + 23] = (a >> 7) & 0x1f;                   // ubfe with literal fields
}
