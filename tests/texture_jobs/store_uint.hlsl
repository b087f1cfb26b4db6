// Writes x + 1000 * y into every texel of a RWTexture2D<uint>.
RWTexture2D<uint> dst : register(u0);

[numthreads(4, 4, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    dst[id.xy] = id.x + 1000 * id.y;
}
