// Separable 9-tap Gaussian blur of an RGBA8 image, one dispatch, groupshared tiles.
//
// Each 16x16 thread group produces a 16x16 block of the output:
//   1. it loads the block plus a 4-texel apron on every side (24x24 texels)
//      into groupshared memory, clamping coordinates to the image (clamp-to-edge);
//   2. horizontal pass: blurs the 24 rows of the tile along x into a 24x16
//      groupshared array (apron rows included: the vertical pass needs them);
//   3. vertical pass: each thread blurs its column of that array along y and
//      writes one texel.
// The kernel is the binomial 1 8 28 56 70 56 28 8 1 / 256, the usual
// exact-in-float approximation of a Gaussian (sigma = sqrt(2)).
//
// Dispatch: ceil(width / 16) x ceil(height / 16) x 1 groups.

#define RADIUS 4
#define TILE   16                       // output texels per group side
#define APRON  (TILE + 2 * RADIUS)      // 24: tile side with the apron

Texture2D<float4>            src : register(t0);   // R8G8B8A8_UNORM input
RWTexture2D<unorm float4>    dst : register(u0);   // R8G8B8A8_UNORM output

cbuffer Params : register(b0)
{
    uint2 image_size;                   // width, height of src and dst
};

groupshared float4 tile[APRON * APRON];     // 24x24 source texels  (9 KiB)
groupshared float4 hblur[APRON * TILE];     // 24 rows x 16 columns (6 KiB)

// Binomial weights, C(8, k) / 256; they sum to exactly 1.
static const float W0 = 70.0 / 256.0;
static const float W1 = 56.0 / 256.0;
static const float W2 = 28.0 / 256.0;
static const float W3 =  8.0 / 256.0;
static const float W4 =  1.0 / 256.0;

// Weighted sum of 9 samples: a[0..8] are the taps from -4 to +4.
float4 blur9(float4 a0, float4 a1, float4 a2, float4 a3, float4 a4,
             float4 a5, float4 a6, float4 a7, float4 a8)
{
    float4 s = W4 * a0;
    s += W3 * a1;
    s += W2 * a2;
    s += W1 * a3;
    s += W0 * a4;
    s += W1 * a5;
    s += W2 * a6;
    s += W3 * a7;
    s += W4 * a8;
    return s;
}

[numthreads(TILE, TILE, 1)]
void main(uint3 gid : SV_GroupID, uint3 gtid : SV_GroupThreadID,
          uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    // Top-left texel of the apron'd tile (may be negative at the image edge).
    int2 origin = int2(gid.xy * TILE) - RADIUS;
    int2 last   = int2(image_size) - 1;

    // 1. Load 24x24 = 576 texels with 256 threads: three rounds, the last partial.
    for (uint i = gi; i < APRON * APRON; i += TILE * TILE)
    {
        int2 p = origin + int2(i % APRON, i / APRON);
        p = clamp(p, int2(0, 0), last);                  // clamp to edge
        tile[i] = src.Load(int3(p, 0));
    }
    GroupMemoryBarrierWithGroupSync();

    // 2. Horizontal pass over all 24 rows: 384 outputs, two rounds.
    for (uint j = gi; j < APRON * TILE; j += TILE * TILE)
    {
        uint row = j / TILE;
        uint col = j % TILE;             // output column; taps col .. col+8 of the tile row
        uint t = row * APRON + col;
        hblur[j] = blur9(tile[t + 0], tile[t + 1], tile[t + 2], tile[t + 3], tile[t + 4],
                         tile[t + 5], tile[t + 6], tile[t + 7], tile[t + 8]);
    }
    GroupMemoryBarrierWithGroupSync();

    // 3. Vertical pass: rows gtid.y .. gtid.y+8 of column gtid.x.
    uint h = gtid.y * TILE + gtid.x;
    float4 c = blur9(hblur[h + 0 * TILE], hblur[h + 1 * TILE], hblur[h + 2 * TILE],
                     hblur[h + 3 * TILE], hblur[h + 4 * TILE], hblur[h + 5 * TILE],
                     hblur[h + 6 * TILE], hblur[h + 7 * TILE], hblur[h + 8 * TILE]);

    if (all(dtid.xy < image_size))
        dst[dtid.xy] = c;
}
