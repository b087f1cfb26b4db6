// Race benchmark case `raw_store_misaligned` (bug; kind: misaligned-address). See MANIFEST.toml.
// Built with (in tests/races/): fxc raw_store_misaligned_bug.hlsl -E main -T cs_5_0 -Fo raw_store_misaligned_bug.dxbc -Fc raw_store_misaligned_bug.asm
// BUG: the byte address 4*i + 2 is not a multiple of 4. A raw buffer access
// must be 4-byte aligned; otherwise the memory written is undefined (FS
// §7.13; sm5-compute-isa.md §10).
// Correct twin: the address is 4*i.
RWByteAddressBuffer o : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  o.Store((gid.x * 64 + t) * 4 + 2, t);
}
