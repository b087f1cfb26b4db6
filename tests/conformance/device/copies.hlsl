// The shader of copies.toml, which dispatches nothing: a job names a shader.
RWByteAddressBuffer seen : register(u0);

[numthreads(1, 1, 1)]
void main(uint3 gid : SV_GroupID)
{
    uint slot = gid.x + 4 * gid.y + 16 * gid.z;
    seen.Store(4 * slot, 1 + gid.x + 10 * gid.y + 100 * gid.z);
}
