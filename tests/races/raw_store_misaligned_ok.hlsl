// Race benchmark case `raw_store_misaligned` (ok; kind: misaligned-address). See MANIFEST.toml.
// Built with (in tests/races/): fxc raw_store_misaligned_ok.hlsl -E main -T cs_5_0 -Fo raw_store_misaligned_ok.dxbc -Fc raw_store_misaligned_ok.asm
// CORRECT TWIN: the byte address 4*i is 4-byte aligned. (The _bug twin
// stores at 4*i + 2, whose result is undefined, FS §7.13.)
RWByteAddressBuffer o : register(u0);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  o.Store((gid.x * 64 + t) * 4, t);
}
