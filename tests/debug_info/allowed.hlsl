// Suppressions (docs/checking.md, "Suppressions"): tests/races'
// tgsm_raw_no_barrier race, marked as intended in the source, and stores
// past the end of `o`, allowed by allowed.toml's [check] table. The marker on
// the store names no kind the checker knows: it is reported and suppresses
// nothing.
RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  s[t] = t * 3 + 1;
  // sm5sim: allow(raw) the neighbour's new value or its old one: either will do
  uint v = s[(t + 1) & 63];
  o[gid.x * 64 + t] = v + 1; // sm5sim: allow(oob)
}
