// Constant-buffer packing as HLSL lays it out (RDEF gives the offsets):
// the shader copies every element of Params to Out as a float, one word
// each, in declaration order (integers converted, so that an integer stored
// as float bits, or the reverse, shows), and a job that sets Params through
// `fields` can expect exactly the values it gave.
//   w[3]        one 16-byte register per element (c0.x, c1.x, c2.x; 36 bytes)
//   after       a float3 in the spare 12 bytes of w[2]'s register (offset 36)
//   light       a struct, from a register boundary
//   lights[2]   an array of structs, each element from a register boundary
//   rm          row_major float2x3: each row in a register
//   cm          column_major float2x3 (the default): each column in a register
//   cms[2]      an array of column_major float2x2
//   tail        an int4 after them
struct Light
{
    float3 pos;
    float radius;
    uint2 ids;
};

cbuffer Params : register(b0)
{
    float w[3];
    float3 after;
    Light light;
    Light lights[2];
    row_major float2x3 rm;
    float2x3 cm;
    float2x2 cms[2];
    int4 tail;
};

RWByteAddressBuffer Out : register(u0);

#define PUT(v) { Out.Store(o, asuint(v)); o += 4; }

void put_light(Light l, inout uint o)
{
    PUT(l.pos.x) PUT(l.pos.y) PUT(l.pos.z) PUT(l.radius) PUT(float(l.ids.x)) PUT(float(l.ids.y))
}

[numthreads(1, 1, 1)]
void main()
{
    uint o = 0;
    [unroll] for (uint i = 0; i < 3; i++) PUT(w[i])
    PUT(after.x) PUT(after.y) PUT(after.z)
    put_light(light, o);
    [unroll] for (uint k = 0; k < 2; k++) put_light(lights[k], o);
    [unroll] for (uint r = 0; r < 2; r++) [unroll] for (uint c = 0; c < 3; c++) PUT(rm[r][c])
    [unroll] for (uint r2 = 0; r2 < 2; r2++) [unroll] for (uint c2 = 0; c2 < 3; c2++) PUT(cm[r2][c2])
    [unroll] for (uint m = 0; m < 2; m++)
        [unroll] for (uint r3 = 0; r3 < 2; r3++) [unroll] for (uint c3 = 0; c3 < 2; c3++) PUT(cms[m][r3][c3])
    PUT(float(tail.x)) PUT(float(tail.y)) PUT(float(tail.z)) PUT(float(tail.w))
}
