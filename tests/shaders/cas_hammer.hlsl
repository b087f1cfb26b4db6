// CAS hammer: every thread of every group does `per_thread` compare-and-swap
// increment loops (imm_atomic_cmp_exch retried until the returned original
// equals the compare value) on u0 word 0, counts each successful exchange
// with atomic_iadd on u0 word 1, and marks the original it won with
// atomic_iadd on won[original] (u1). No increment may be lost: word 0 ==
// word 1 == threads * per_thread, and every won[] slot is exactly 1.
// The same is done on one groupshared word per group (g0); thread 0 adds the
// group's final value to u0 word 2 after a barrier.
// Built with: fxc cas_hammer.hlsl -E main -T cs_5_0 -Fo cas_hammer.dxbc -Fc cas_hammer.asm
RWByteAddressBuffer counter : register(u0);
RWStructuredBuffer<uint> won : register(u1);
cbuffer P : register(b0) { uint per_thread; };
groupshared uint gc;
[numthreads(64,1,1)]
void main(uint t : SV_GroupIndex) {
  if (t == 0) gc = 0;
  GroupMemoryBarrierWithGroupSync();
  for (uint n = 0; n < per_thread; n++) {
    uint expected = counter.Load(0);
    uint original;
    [allow_uav_condition]
    while (true) {
      counter.InterlockedCompareExchange(0, expected, expected + 1, original);
      if (original == expected) break;
      expected = original;
    }
    counter.InterlockedAdd(4, 1);
    InterlockedAdd(won[original], 1);
    uint gexp = gc;
    uint gorig;
    [allow_uav_condition]
    while (true) {
      InterlockedCompareExchange(gc, gexp, gexp + 1, gorig);
      if (gorig == gexp) break;
      gexp = gorig;
    }
  }
  GroupMemoryBarrierWithGroupSync();
  if (t == 0) counter.InterlockedAdd(8, gc);
}
