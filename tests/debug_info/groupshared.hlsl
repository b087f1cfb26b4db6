// Two groupshared variables, each in a g# register of its own, both read
// before a barrier orders their writes: the checker's reports name them
// ('partial', 'ready') from the debug information's S_LDATA_HLSL records.
RWStructuredBuffer<uint> o : register(u0);
groupshared uint partial[8];
groupshared uint ready;
[numthreads(8,1,1)]
void main(uint t : SV_GroupIndex) {
  partial[t] = t;
  if (t == 0) ready = 1;
  o[t] = partial[(t + 1) & 7] + ready;
}
