// Float32 ALU edge cases (FS §3.1, §22.6, §22.9, §22.10; reference/sm5-compute-isa.md §3-§4).
// Each thread reads one case (op, a, b, c) and writes one word, so every
// (instruction, input) pair is chosen by the job; lanes of a warp diverge
// through the switch. Float results go through canon(): any NaN becomes
// 0x7FC00000 (FS §3.1.3.2: the NaN bit pattern is not required to stay the
// same), every other result keeps its exact bits (signed zeros included).
// fxc float_alu.hlsl -E main -T cs_5_0 -Fo float_alu.dxbc -Fc float_alu.asm
StructuredBuffer<uint4> cases : register(t0);   // (op, a, b, c) as bits
RWStructuredBuffer<uint> result : register(u0);

uint canon(float f) { return f != f ? 0x7FC00000u : asuint(f); }

[numthreads(16, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint4 k = cases[t];
    float a = asfloat(k.y), b = asfloat(k.z), c = asfloat(k.w);
    uint r;
    [forcecase] switch (k.x)
    {
    case 0: r = canon(a + b); break;
    case 1: r = canon(a * b); break;
    case 2: r = canon(mad(a, b, c)); break;
    case 3: r = canon(a / b); break;
    case 4: r = canon(min(a, b)); break;
    case 5: r = canon(max(a, b)); break;
    case 6: r = a == b ? 0xFFFFFFFFu : 0u; break;
    case 7: r = a != b ? 0xFFFFFFFFu : 0u; break;
    case 8: r = a < b ? 0xFFFFFFFFu : 0u; break;
    case 9: r = a >= b ? 0xFFFFFFFFu : 0u; break;
    case 10: r = canon(frac(a)); break;
    case 11: r = canon(round(a)); break;
    case 12: r = canon(floor(a)); break;
    case 13: r = canon(ceil(a)); break;
    case 14: r = canon(trunc(a)); break;
    case 15: r = canon(rcp(a)); break;
    case 16: r = canon(rsqrt(a)); break;
    case 17: r = canon(sqrt(a)); break;
    case 18: r = canon(exp2(a)); break;
    case 19: r = canon(log2(a)); break;
    case 20: r = canon(sin(a)); break;
    case 21: r = canon(cos(a)); break;
    case 22: { float s, co; sincos(a, s, co); r = canon(s - co); } break;
    case 23: r = canon(dot(float2(a, b), float2(c, c))); break;
    case 24: r = canon(dot(float3(a, b, c), float3(c, a, b))); break;
    case 25: r = canon(dot(float4(a, b, c, a), float4(b, c, a, a))); break;
    case 26: r = canon(saturate(a)); break;
    case 27: r = canon(saturate(a * b)); break;
    case 28: r = k.y ? k.z : k.w; break;
    case 29: r = canon(-abs(a)); break;
    default: r = 0xCCCCCCCCu; break;
    }
    result[t] = r;
}
