// Buffer views: raw, typed with a format conversion, structured element
// ranges (the shader sees the range alone), a dynamic constant buffer
ByteAddressBuffer raw_in : register(t0);
Buffer<float4> unorm_in : register(t1);
StructuredBuffer<uint> ranged : register(t2);
RWByteAddressBuffer raw_out : register(u0);
RWBuffer<float> typed_out : register(u1);
RWStructuredBuffer<uint> ranged_out : register(u2);
cbuffer Constants : register(b0)
{
    uint scale;
    uint bias;
};

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint i = id.x;
    uint n, stride;
    ranged.GetDimensions(n, stride);
    raw_out.Store4(i * 16, uint4(raw_in.Load(i * 4) * scale + bias, ranged[i], n, stride));
    float4 c = unorm_in[i];
    typed_out[i] = c.x + c.w;
    ranged_out[i] = i + 100;
}
