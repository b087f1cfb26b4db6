// Samples with a residency status (tiled-resource feedback, FS §5.9.4.5.2-3,
// §22.4.26 check_access_fully_mapped, and the "_s" forms of sample_l
// §22.4.18 and sample_c_lz §22.4.20; reference/sm5-compute-isa.md §16):
// sample_l_s and sample_c_lz_s return exactly what sample_l and sample_c_lz
// return, and check_access_fully_mapped turns the status of an access to a
// resource that is not tiled (all of it mapped) into 0xFFFFFFFF (true).
// (Companion: load_gather.hlsl for ld_s, ldms_s and the gather4 family.)
//
// tex: 4x4 R32_FLOAT with 2 mips; mip 0 texel (x, y) = 1 + x + 4y (1 .. 16),
//      mip 1 texel (x, y) = 17 + x + 2y (17 .. 20).
// pt:  MIN_MAG_MIP_POINT, CLAMP.  cmp: COMPARISON_MIN_MAG_MIP_POINT,
//      LESS_EQUAL, CLAMP.
// Thread (i, j) (i, j in 0..1, flat index t = i + 2j) samples at the centre
// uv = (x + 0.5, y + 0.5) / 4 of the interior mip-0 texel (x, y) =
// (1 + i, 1 + j). Rows of d (float4), 2 per thread:
//   0 sample_l at LOD 0; LOD 1; LOD 0 with aoffimmi (-1, -1); LOD 0.75
//   1 sample_c_lz with ref = texel (x, y), texel + 0.5, texel - 0.5, and
//     ref = texel (x, y) with aoffimmi (-1, -1)
// Rows of s (uint4), 2 per thread: CheckAccessFullyMapped of each status, in
// the order of d's rows.
// fxc sample.hlsl -E main -T cs_5_0 -Fo sample.dxbc -Fc sample.asm
Texture2D<float> tex : register(t0);
SamplerState pt : register(s0);
SamplerComparisonState cmp : register(s1);
RWStructuredBuffer<float4> d : register(u0);
RWStructuredBuffer<uint4> s : register(u1);

uint fm(uint st) { return CheckAccessFullyMapped(st) ? 0xFFFFFFFFu : 0u; }

[numthreads(2, 2, 1)]
void main(uint3 id : SV_GroupThreadID, uint t : SV_GroupIndex)
{
    int x = 1 + (int)id.x, y = 1 + (int)id.y;
    float texel = (float)(1 + x + 4 * y);
    float2 centre = (float2(x, y) + 0.5) * 0.25;
    uint s0, s1, s2, s3, s4, s5, s6, s7;

    float a = tex.SampleLevel(pt, centre, 0, int2(0, 0), s0);
    float b = tex.SampleLevel(pt, centre, 1, int2(0, 0), s1);
    float c = tex.SampleLevel(pt, centre, 0, int2(-1, -1), s2);
    float e = tex.SampleLevel(pt, centre, 0.75, int2(0, 0), s3);
    d[t * 2] = float4(a, b, c, e);
    s[t * 2] = uint4(fm(s0), fm(s1), fm(s2), fm(s3));

    float f = tex.SampleCmpLevelZero(cmp, centre, texel, int2(0, 0), s4);
    float g = tex.SampleCmpLevelZero(cmp, centre, texel + 0.5, int2(0, 0), s5);
    float h = tex.SampleCmpLevelZero(cmp, centre, texel - 0.5, int2(0, 0), s6);
    float k = tex.SampleCmpLevelZero(cmp, centre, texel, int2(-1, -1), s7);
    d[t * 2 + 1] = float4(f, g, h, k);
    s[t * 2 + 1] = uint4(fm(s4), fm(s5), fm(s6), fm(s7));
}
