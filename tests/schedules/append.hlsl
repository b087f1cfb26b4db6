// Schedule exploration test shader (tests/it/schedules.rs): every thread
// appends (its index, 3 x its index) to `items` through the buffer's hidden
// counter. The order of the elements depends on the schedule by design; as a
// multiset they do not, and the counter ends at the thread count.
// Built with: fxc append.hlsl -E main -T cs_5_0 -Fo append.dxbc -Fc append.asm
RWStructuredBuffer<uint2> items : register(u0);
[numthreads(64,1,1)]
void main(uint3 dtid : SV_DispatchThreadID) {
  uint i = items.IncrementCounter();
  items[i] = uint2(dtid.x, dtid.x * 3);
}
