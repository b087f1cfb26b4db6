// Race benchmark case `critical_section_without_lock` (ok; kind: raw). See MANIFEST.toml.
// Built with (in tests/races/): fxc critical_section_without_lock_ok.hlsl -E main -T cs_5_0 -Fo critical_section_without_lock_ok.dxbc -Fc critical_section_without_lock_ok.asm
// CORRECT TWIN: a spin lock around the read-modify-write, in the form that
// cannot deadlock a warp: the lane whose compare-exchange wins does its
// work and releases the lock inside the loop, the others try again. The
// lock orders the critical sections. (The _bug twin has no lock, and two
// threads' additions can be lost.)
RWStructuredBuffer<uint> lock : register(u0);
RWStructuredBuffer<uint> total : register(u1);
[numthreads(64,1,1)]
void main(uint3 gid : SV_GroupID, uint t : SV_GroupIndex) {
  bool done = false;
  [allow_uav_condition] while (!done) {
    uint prev;
    InterlockedCompareExchange(lock[0], 0, 1, prev);
    if (prev == 0) {
      if (t & 1) total[0] = total[0] + t;
      InterlockedExchange(lock[0], 0, prev);
      done = true;
    }
  }
}
