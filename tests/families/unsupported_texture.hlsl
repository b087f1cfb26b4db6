// Covers: ld on a Texture2D (once unsupported, hence the name): in-range
// texels and the zero result out of range (FS 22.4.6).
// fxc (run in tests/families): /work/fxc/fxc unsupported_texture.hlsl -E main -T cs_5_0 -Fo unsupported_texture.dxbc -Fc unsupported_texture.asm
Texture2D<float4> image : register(t0);
RWStructuredBuffer<float4> output : register(u0);

[numthreads(8, 1, 1)]
void main(uint t : SV_GroupIndex)
{
    output[t] = image.Load(int3(t, 0, 0));
}
