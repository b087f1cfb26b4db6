RWStructuredBuffer<double2> o : register(u0);
RWStructuredBuffer<float4> f : register(u1);
[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    precise double2 a = o[tid.x];
    precise double2 b = a * double2(0.5, 0.25) + double2(1.0, 3.0);
    o[tid.x] = b;
    float4 v = f[tid.x];
    precise float x = v.x * v.y + v.z;
    float4 w = v * 2.0f;
    w.x = x;
    f[tid.x] = w;
}
