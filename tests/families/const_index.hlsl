// Covers: dynamic indexing of a cbuffer array (cb0[r.x + N]) including
// indices past the bound (smaller than declared) constant buffer, which must
// read 0; the immediate constant buffer indexed dynamically (icb[r.x + 0]);
// (also past its 8 entries, which reads 0 like a cb); and an indexable
// temp array written and read with dynamic indices
// (x0[r.x + 0]).
// Listing contains: dcl_constantbuffer CB0[18], dynamicIndexed,
// cb0[r0.y + 1].xyzw and cb0[r0.x + 1].y, dcl_immediateConstantBuffer,
// icb[r0.z + 0].x, dcl_indexableTemp x0[12], 4, mov x0[r1.x + 0].x / reads.
// fxc (run in tests/families): /work/fxc/fxc const_index.hlsl -E main -T cs_5_0 -Fo const_index.dxbc -Fc const_index.asm
cbuffer Params : register(b0)
{
    uint4 head;          // cb0[0]
    uint4 table[16];     // cb0[1..16]
    uint4 tail;          // cb0[17]
};
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint> output : register(u0);

static const uint icb_table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

[numthreads(32, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
    uint v = input[gi];
    // cb array: element gi & 15, component from v
    uint4 e = table[gi & 15];
    uint c = e[v & 3];
    // indexed from a value that may be far past the bound size
    uint far = table[v].y;
    // icb
    uint k = icb_table[(v + gi) & 7];
    uint k2 = icb_table[gi & 7] * 16 + icb_table[(gi >> 3) & 7];
    // indexable temp
    uint loc[12];
    [loop] for (uint i = 0; i < 12; i++)
        loc[i] = i * 7 + gi;
    loc[v % 12] = 1000 + head.x;
    loc[(gi + 5) % 12] += 1;
    uint s = loc[(v * 5) % 12] + loc[gi % 12] * 65536;
    output[gi * 7 + 0] = c;
    output[gi * 7 + 1] = far;
    output[gi * 7 + 2] = k;
    output[gi * 7 + 3] = k2;
    output[gi * 7 + 4] = s;
    output[gi * 7 + 5] = tail.w + head.y;
    output[gi * 7 + 6] = icb_table[v];  // past the 8 entries for large v: 0
}
