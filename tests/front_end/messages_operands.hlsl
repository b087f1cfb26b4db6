// printf with register, constant-buffer and literal arguments, width and
// precision, %%; one without arguments; errorf under a condition.
RWStructuredBuffer<uint> o : register(u0);
cbuffer C : register(b0) { float scale; uint4 v; };
[numthreads(4,1,1)]
void main(uint3 t : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
  printf("t=%d gi=%u f=%f x=%x s=%5.2f %%", t.x, gi, scale * t.y, v.z, 2.5f);
  printf("no args");
  if (t.x > 2) errorf("too big: %d", t.x);
  o[t.x] = t.x;
}
