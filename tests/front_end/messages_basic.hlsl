// printf and errorf with literal arguments (fxc folds t.x == 1 into them).
RWStructuredBuffer<uint> o : register(u0);
[numthreads(4,1,1)]
void main(uint3 t : SV_DispatchThreadID) {
  if (t.x == 1) {
    printf("thread %d value %f", t.x, 1.5f);
    errorf("bad %u", t.x);
  }
  o[t.x] = t.x;
}
