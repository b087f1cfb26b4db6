// Conversions (FS §3.2.2, §22.13; reference/sm5-compute-isa.md §7): ftoi,
// ftou, itof, utof, f32tof16, f16tof32, with source modifiers. Each thread
// reads one case (op, a) and writes one word. Float results map any NaN to
// 0x7FC00000 and half results any half NaN to 0x7E00 (NaN patterns are
// unspecified, FS §3.1.3.2); all other bits are compared exactly.
// fxc conversions.hlsl -E main -T cs_5_0 -Fo conversions.dxbc -Fc conversions.asm
StructuredBuffer<uint2> cases : register(t0);   // (op, a) as bits
RWStructuredBuffer<uint> result : register(u0);

uint canon(float f) { return f != f ? 0x7FC00000u : asuint(f); }

[numthreads(16, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint2 k = cases[t];
    float a = asfloat(k.y);
    uint r;
    [forcecase] switch (k.x)
    {
    case 0: r = asuint((int)a); break;
    case 1: r = (uint)a; break;
    case 2: r = asuint((float)asint(k.y)); break;
    case 3: r = asuint((float)k.y); break;
    case 4: { uint h = f32tof16(a); r = (h & 0x7FFFu) > 0x7C00u ? 0x7E00u : h; } break;
    case 5: r = canon(f16tof32(k.y)); break;
    case 6: r = asuint((float)(-asint(k.y))); break;
    case 7: r = asuint((int)(-abs(a))); break;
    case 8: r = (uint)(-a); break;
    default: r = 0xCCCCCCCCu; break;
    }
    result[t] = r;
}
