#include "helpers.hlsli"
RWStructuredBuffer<float> o : register(u0);
float poly(float x)
{
    float a = sq(x);
    return a * 3.0f + x;
}
[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID)
{
    float v = (float)dtid.x;
    float r = poly(v);
    o[dtid.x] = r + sq(v + 1.0f);
}
