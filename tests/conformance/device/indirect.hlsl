// Each thread group records its SV_GroupID in seen[gid.x + 4 gid.y + 16 gid.z]
// as 1 + x + 10 y + 100 z, so a job can see which groups a Dispatch or a
// DispatchIndirect ran (FS §18.6.5: three uint group counts).
RWByteAddressBuffer seen : register(u0);

[numthreads(1, 1, 1)]
void main(uint3 gid : SV_GroupID)
{
    uint slot = gid.x + 4 * gid.y + 16 * gid.z;
    seen.Store(4 * slot, 1 + gid.x + 10 * gid.y + 100 * gid.z);
}
