// Copies a texture texel by texel: ld from a Texture2D, store_uav_typed to a
// RWTexture2D of the same size.
Texture2D<float4> src : register(t0);
RWTexture2D<float4> dst : register(u0);

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    dst[id.xy] = src.Load(int3(id.xy, 0));
}
