// Integer ALU edge cases (FS §22.6 integer comparisons, §22.12 integer
// arithmetic; reference/sm5-compute-isa.md §5): iadd (and its negate
// modifier), imad, umad, imul (low word), udiv quotient and remainder
// (division by 0), imax/imin/umax/umin, ineg, ieq/ine/ilt/ige/ult/uge, msad.
// Each thread reads one case (op, a, b, c) and writes one word.
// fxc int_alu.hlsl -E main -T cs_5_0 -Fo int_alu.dxbc -Fc int_alu.asm
StructuredBuffer<uint4> cases : register(t0);   // (op, a, b, c)
RWStructuredBuffer<uint> result : register(u0);

[numthreads(16, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint4 k = cases[t];
    uint a = k.y, b = k.z, c = k.w;
    int sa = asint(a), sb = asint(b), sc = asint(c);
    uint r;
    [forcecase] switch (k.x)
    {
    case 0: r = a + b; break;
    case 1: r = a - b; break;
    case 2: r = asuint(sa * sb + sc); break;
    case 3: r = a * b + c; break;
    case 4: r = asuint(sa * sb); break;
    case 5: r = a / b; break;
    case 6: r = a % b; break;
    case 7: r = asuint(max(sa, sb)); break;
    case 8: r = asuint(min(sa, sb)); break;
    case 9: r = max(a, b); break;
    case 10: r = min(a, b); break;
    case 11: r = asuint(-sa); break;
    case 12: r = a == b ? 0xFFFFFFFFu : 0u; break;
    case 13: r = a != b ? 0xFFFFFFFFu : 0u; break;
    case 14: r = sa < sb ? 0xFFFFFFFFu : 0u; break;
    case 15: r = sa >= sb ? 0xFFFFFFFFu : 0u; break;
    case 16: r = a < b ? 0xFFFFFFFFu : 0u; break;
    case 17: r = a >= b ? 0xFFFFFFFFu : 0u; break;
    case 18: r = msad4(a, uint2(b, 0), uint4(c, 0, 0, 0)).x; break;
    default: r = 0xCCCCCCCCu; break;
    }
    result[t] = r;
}
