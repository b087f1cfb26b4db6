// Texture loads and gathers with a residency status (tiled-resource
// feedback, FS §5.9.4.5.2-3, §22.4.26 check_access_fully_mapped, and the
// "_s" forms of gather4 §22.4.2, gather4_c §22.4.3, gather4_po §22.4.4,
// gather4_po_c §22.4.5, ld §22.4.6, ldms §22.4.7;
// reference/sm5-compute-isa.md §16): ld_s, ldms_s, gather4_s, gather4_c_s,
// gather4_po_s and gather4_po_c_s return exactly what their plain forms
// return, and check_access_fully_mapped turns the status of an access to a
// resource that is not tiled (all of it mapped) into 0xFFFFFFFF (true).
// (Companion: sample.hlsl for sample_l_s and sample_c_lz_s.)
//
// tex: 4x4 R32_FLOAT with 2 mips; mip 0 texel (x, y) = 1 + x + 4y (1 .. 16),
//      mip 1 texel (x, y) = 17 + x + 2y (17 .. 20).
// ms:  2x2 R32_FLOAT, 2 samples, texel (x, y) sample s = 200 + 10(x + 2y) + s.
// pt:  MIN_MAG_MIP_POINT, CLAMP.  cmp: COMPARISON_MIN_MAG_MIP_POINT,
//      LESS_EQUAL, CLAMP.
// Thread (i, j) (i, j in 0..1, flat index t = i + 2j) works at the interior
// mip-0 texel (x, y) = (1 + i, 1 + j). Rows of d (float4), 5 per thread:
//   0 ld (x, y) mip 0; ld (x, y) with aoffimmi (-1, -1); ld (i, j) mip 1;
//     ldms (i, j) sample (i + j) & 1
//   1 gather4 at the corner uv = (x, y) / 4
//   2 gather4_c there, ref = mip-0 texel (x, y - 1)
//   3 gather4_po there with the register offset (1 - 2i, 1 - 2j)
//   4 gather4_po_c the same, ref = mip-0 texel (2 - i, 2 - j) - 0.5
// Rows of s (uint4), 2 per thread: CheckAccessFullyMapped of each status, in
// the order of d's row 0, then of rows 1-4.
// fxc load_gather.hlsl -E main -T cs_5_0 -Fo load_gather.dxbc -Fc load_gather.asm
Texture2D<float> tex : register(t0);
Texture2DMS<float, 2> ms : register(t1);
SamplerState pt : register(s0);
SamplerComparisonState cmp : register(s1);
RWStructuredBuffer<float4> d : register(u0);
RWStructuredBuffer<uint4> s : register(u1);

uint fm(uint st) { return CheckAccessFullyMapped(st) ? 0xFFFFFFFFu : 0u; }

[numthreads(2, 2, 1)]
void main(uint3 id : SV_GroupThreadID, uint t : SV_GroupIndex)
{
    int i = (int)id.x, j = (int)id.y;
    int x = 1 + i, y = 1 + j;
    float texel = (float)(1 + x + 4 * y);
    float2 corner = float2(x, y) * 0.25;
    int2 off = int2(1 - 2 * i, 1 - 2 * j);
    uint s0, s1, s2, s3, s4, s5, s6, s7;

    float a = tex.Load(int3(x, y, 0), int2(0, 0), s0);
    float b = tex.Load(int3(x, y, 0), int2(-1, -1), s1);
    float c = tex.Load(int3(i, j, 1), int2(0, 0), s2);
    float e = ms.Load(int2(i, j), (i + j) & 1, int2(0, 0), s3);
    d[t * 5] = float4(a, b, c, e);
    s[t * 2] = uint4(fm(s0), fm(s1), fm(s2), fm(s3));

    d[t * 5 + 1] = tex.Gather(pt, corner, int2(0, 0), s4);
    d[t * 5 + 2] = tex.GatherCmp(cmp, corner, texel - 4.0, int2(0, 0), s5);
    d[t * 5 + 3] = tex.Gather(pt, corner, off, s6);
    d[t * 5 + 4] = tex.GatherCmp(cmp, corner, (float)(6 + (1 - i) + 4 * (1 - j)) - 0.5, off, s7);
    s[t * 2 + 1] = uint4(fm(s4), fm(s5), fm(s6), fm(s7));
}
