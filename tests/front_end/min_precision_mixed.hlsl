RWStructuredBuffer<float> o : register(u0);
StructuredBuffer<min16float> inp : register(t0);
[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    min16float a = inp[tid.x];
    min16int k = (min16int)tid.x;
    min16float b = a * (min16float)2.0 + (min16float)k;
    float c = b * 3.0f + (float)tid.x;
    min16uint u = (min16uint)tid.y;
    o[tid.x] = c + (float)b + (float)u;
}
