// Texture views: a sampled 2D texture with mips, a 1D texture, a range of
// slices of a 2D array, a range of W slices of a 3D UAV, and a typeless
// texture written through an R32_FLOAT view
Texture2D<float4> tex : register(t0);
Texture2DArray<uint> arr : register(t1);
Texture1D<float> strip : register(t2);
SamplerState smp : register(s0);
RWTexture2D<float4> out2d : register(u0);
RWTexture3D<uint> vol : register(u1);
RWTexture2D<float> typeless_out : register(u2);

[numthreads(4, 4, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float2 uv = (id.xy + 0.5) / 4.0;
    float4 mip1 = tex.SampleLevel(smp, uv, 1);
    out2d[id.xy] = float4(mip1.x, tex.Load(int3(id.xy, 0)).x, strip.Load(int2(id.x, 0)), 0);
    uint w, h, slices;
    arr.GetDimensions(w, h, slices);
    if (id.x < 2 && id.y < 2) {
        vol[uint3(id.xy, 0)] = arr[uint3(id.xy, 0)];
        vol[uint3(id.xy, 1)] = arr[uint3(id.xy, 1)] + slices * 1000;
    }
    typeless_out[id.xy] = id.x + id.y * 4;
}
