// TextureCube / TextureCubeArray with one constant per face: face selection (ties included), a linear
// sample across a face edge, a linear sample and a gather at a cube corner, cube-array index rounding.
// fxc sample_cube_faces.hlsl -E main -T cs_5_0 -Fo sample_cube_faces.dxbc -Fc sample_cube_faces.asm
TextureCube<float> cube : register(t0);
TextureCubeArray<float> cubes : register(t1);
StructuredBuffer<float4> coords : register(t2);
RWStructuredBuffer<float> o : register(u0);
SamplerState point_clamp : register(s0);
SamplerState linear_clamp : register(s1);
SamplerState linear_border : register(s2);
SamplerState linear_wrap : register(s3);

[numthreads(12, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 c = coords[i];   // direction, cube index
    uint b = i * 16;
    o[b + 0] = cube.SampleLevel(point_clamp, c.xyz, 0);
    o[b + 1] = cube.SampleLevel(linear_clamp, c.xyz, 0);
    o[b + 2] = cube.SampleLevel(linear_border, c.xyz, 0);
    o[b + 3] = cube.SampleLevel(linear_wrap, c.xyz, 0);
    float4 gcube = cube.Gather(linear_clamp, c.xyz);
    o[b + 4] = gcube.x;
    o[b + 5] = gcube.y;
    o[b + 6] = gcube.z;
    o[b + 7] = gcube.w;
    o[b + 8] = cubes.SampleLevel(point_clamp, c, 0);
    o[b + 9] = cubes.SampleLevel(linear_clamp, c, 0);
    o[b + 10] = cubes.SampleLevel(linear_border, c, 0);
    o[b + 11] = cubes.SampleLevel(linear_wrap, c, 0);
    float4 gcubes = cubes.Gather(linear_clamp, c);
    o[b + 12] = gcubes.x;
    o[b + 13] = gcubes.y;
    o[b + 14] = gcubes.z;
    o[b + 15] = gcubes.w;
}
