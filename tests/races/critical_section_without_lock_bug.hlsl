// Race benchmark case `critical_section_without_lock` (bug; kind: raw). See MANIFEST.toml.
// Built with (in tests/races/): fxc critical_section_without_lock_bug.hlsl -E main -T cs_5_0 -Fo critical_section_without_lock_bug.dxbc -Fc critical_section_without_lock_bug.asm
// BUG: the odd threads add to total[0] with a plain read-modify-write and
// no lock: two threads can read the same old value, and one addition is
// lost (compute-model.md §6.1.2).
// Correct twin: a spin lock taken by compare-exchange, in the form that
// cannot deadlock a warp (the lane that wins does its work and releases
// inside the loop), around the read-modify-write.
RWStructuredBuffer<uint> lock : register(u0);
RWStructuredBuffer<uint> total : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  if (t & 1) total[0] = total[0] + t;
}
