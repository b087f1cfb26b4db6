// Bit operations (FS §22.11; reference/sm5-compute-isa.md §6): and, or, xor,
// not, ishl/ishr/ushr with shift counts >= 32 (masked to 5 bits), countbits,
// firstbit_hi/firstbit_shi/firstbit_lo (fxc adds its 31 - x fix-up for
// firstbithigh), bfrev. Each thread reads one case (op, a, b) and writes one
// word. Bit-field instructions with register operands: the bitfield job.
// fxc bits.hlsl -E main -T cs_5_0 -Fo bits.dxbc -Fc bits.asm
StructuredBuffer<uint4> cases : register(t0);   // (op, a, b, unused)
RWStructuredBuffer<uint> result : register(u0);

[numthreads(16, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint4 k = cases[t];
    uint a = k.y, b = k.z;
    int sa = asint(a);
    uint r;
    [forcecase] switch (k.x)
    {
    case 0: r = a & b; break;
    case 1: r = a | b; break;
    case 2: r = a ^ b; break;
    case 3: r = ~a; break;
    case 4: r = a << b; break;
    case 5: r = asuint(sa >> b); break;
    case 6: r = a >> b; break;
    case 7: r = countbits(a); break;
    case 8: r = firstbithigh(a); break;
    case 9: r = asuint(firstbithigh(sa)); break;
    case 10: r = firstbitlow(a); break;
    case 11: r = reversebits(a); break;
    default: r = 0xCCCCCCCCu; break;
    }
    result[t] = r;
}
