// The correct twin of texture_race_bug: a race on a texture UAV (issue 6 + 5): thread t stores texel (t, 0) and then
// reads texel (t + 1, 0), written by its neighbour, with no barrier between.
// The _ok twin puts DeviceMemoryBarrierWithGroupSync() between them.
// fxc: /work/fxc/fxc texture_race_ok.hlsl -E main -T cs_5_0 -Fo texture_race_ok.dxbc -Fc texture_race_ok.asm
RWTexture2D<uint> img : register(u0);
RWStructuredBuffer<uint> result : register(u1);

[numthreads(64, 1, 1)]
void main(uint t : SV_GroupIndex, uint3 g : SV_GroupID)
{
    uint row = g.x;
    img[uint2(t, row)] = t * 3 + 1;
#if 1
    DeviceMemoryBarrierWithGroupSync();
#endif
    result[row * 64 + t] = img[uint2((t + 1) & 63, row)];
}
