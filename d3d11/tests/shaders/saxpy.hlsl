// y = a * x + y over n elements, structured buffers and a constant buffer
StructuredBuffer<float> x : register(t0);
RWStructuredBuffer<float> y : register(u0);
cbuffer Params : register(b0)
{
    float a;
    uint n;
};

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (id.x < n)
        y[id.x] = a * x[id.x] + y[id.x];
}
