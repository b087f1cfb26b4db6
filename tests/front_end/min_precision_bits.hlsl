RWStructuredBuffer<min16uint4> o : register(u0);
RWStructuredBuffer<min16int4> oi : register(u1);
RWStructuredBuffer<uint4> o32 : register(u2);
StructuredBuffer<min16uint4> inp : register(t0);
StructuredBuffer<min16int4> inpi : register(t1);
cbuffer C : register(b0) { uint4 cu; int4 ci; float4 cf; }
[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    min16uint4 a = inp[tid.x];
    min16int4 k = inpi[tid.x];
    min16uint m = (min16uint)((1u << cu.x) - 1u);
    min16uint ins = (a.x & ~(m << cu.y)) | ((a.y << cu.y) & (m << cu.y));
    min16int sx = (k.x << 8) >> 12;
    min16uint cb = countbits(a.z) + firstbithigh(a.w) + reversebits(a.x);
    min16uint sr = a.y >> cu.z;
    min16uint mx = max(a.x, (min16uint)cu.w) + min(a.y, a.z);
    min16int ab = abs(k.y) + max(k.z, (min16int)ci.x);
    min16int ng = -k.w;
    uint f16 = f32tof16(cf.x + (float)a.x);
    min16uint xo = a.x ^ (min16uint)cu.x;
    min16uint nt = ~a.y;
    if (a.z > (min16uint)3) { xo += 1; }
    o[tid.x] = min16uint4(ins, cb, sr, mx + xo + nt);
    oi[tid.x] = min16int4(sx, ab, ng, k.x * k.y);
    o32[tid.x] = uint4(f16, (uint)ins, (uint)sx, (uint)a.w * cu.x);
}
