// Matrix transpose through 16x16 tiles in groupshared memory.
// Input holds a matrix of `height` rows of `width` uints (row-major); Output
// receives its transpose: `width` rows of `height` uints. One thread group
// per 16x16 tile, dispatched as (width / 16, height / 16, 1); both sizes are
// multiples of 16.
StructuredBuffer<uint> Input : register(t0);
RWStructuredBuffer<uint> Output : register(u0);

cbuffer TransposeParams : register(b0)
{
    uint width;   // columns of Input (= rows of Output)
    uint height;  // rows of Input (= columns of Output)
};

#define TILE 16
groupshared uint tile[TILE][TILE];

[numthreads(TILE, TILE, 1)]
void main(uint3 gid : SV_GroupID, uint3 gtid : SV_GroupThreadID)
{
    // Read the tile row by row: neighbouring threads read neighbouring words.
    uint2 src = gid.xy * TILE + gtid.xy;          // (column, row) in Input
    tile[gtid.y][gtid.x] = Input[src.y * width + src.x];
    GroupMemoryBarrierWithGroupSync();

    // Write it back transposed, again with neighbouring threads on
    // neighbouring words: Output row = Input column.
    uint2 dst = gid.yx * TILE + gtid.xy;          // (column, row) in Output
    Output[dst.y * height + dst.x] = tile[gtid.x][gtid.y];
}
