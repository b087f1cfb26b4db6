RWStructuredBuffer<float4> o : register(u0);
RWStructuredBuffer<min16float4> o16 : register(u1);
RWStructuredBuffer<int4> oi : register(u2);
StructuredBuffer<min16float4> inp : register(t0);
StructuredBuffer<min16int4> inpi : register(t1);
Texture2D<min16float4> tex : register(t2);
SamplerState s : register(s0);
cbuffer C : register(b0) { float4 cf; min16float4 ch; int4 ci; min16int4 chi; }
groupshared min16float sh[64];
[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    min16float4 a = inp[tid.x];
    min16int4 k = inpi[tid.x];
    float4 f = o[tid.x];
    int4 i = oi[tid.x];
    // conversions
    min16int ka = (min16int)a.x;          // ftoi min16f -> min16i
    int fi = (int)a.y;                    // ftoi min16f -> def32
    min16float kf = (min16float)i.x;      // itof def32 -> min16f
    min16uint ku = (min16uint)f.z;        // ftou
    float ff = (float)k.y;                // itof min16i -> def32
    // shifts, movc, bfe
    min16int sh1 = k.x << (i.y & 7);
    min16int sh2 = k.z >> k.w;
    min16float sel = (f.w > 0) ? a.z : a.w;
    min16float sel2 = (a.x > a.y) ? a.z : (min16float)f.x;
    bool cmp = a.x < (min16float)f.y;
    min16uint bf = ((min16uint)k.x >> 3) & 7;
    // dot, rcp, sqrt, frc, round
    min16float d = dot(a.xyz, (min16float3)f.xyz);
    min16float r = rcp(a.x) + sqrt(a.y) + frac(a.z) + round(a.w) + exp2(a.x) + log2(a.y) + rsqrt(a.z) + sin(a.w);
    // texture sample and ld into min16
    min16float4 t = tex.SampleLevel(s, f.xy, 0) + tex.Load(int3(i.xy, 0));
    // groupshared
    sh[gi] = a.x + ch.x;
    GroupMemoryBarrierWithGroupSync();
    min16float g = sh[(gi + 1) & 63];
    // min16 int ops with cbuffer
    min16int m = k.x * chi.y + (min16int)ci.z;
    min16uint um = (min16uint)k.y / (min16uint)3u;
    // atomics, stores
    o16[tid.x] = a * (min16float)cf.x + t + (min16float4)(d, r, g, sel + sel2);
    o[tid.x] = float4(ff + (float)ka + (float)fi + (float)kf, (float)ku + (float)sh1 + (float)sh2, cmp ? 1.0 : 0.0, (float)bf + (float)m + (float)um);
    oi[tid.x] = int4(k.x, ka, i.x, (int)um) + ci;
}
