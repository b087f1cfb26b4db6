// Schedule exploration test shader (tests/it/schedules.rs): every thread
// raises the running maximum `best[0]` to its index, and counts on `records`'
// hidden counter the times it raised it. The maximum does not depend on the
// schedule; how many times it was raised (the counter) does.
// Built with: fxc records.hlsl -E main -T cs_5_0 -Fo records.dxbc -Fc records.asm
RWStructuredBuffer<uint> best : register(u0);
RWStructuredBuffer<uint> records : register(u1);
[numthreads(64,1,1)]
void main(uint3 dtid : SV_DispatchThreadID) {
  uint prev;
  InterlockedMax(best[0], dtid.x + 1, prev);
  if (prev < dtid.x + 1) records.IncrementCounter();
}
