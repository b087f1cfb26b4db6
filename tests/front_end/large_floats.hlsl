// Float literals of 2^64 and more (FLT_MAX, 1e20, 1.2345679e22): fxc under
// Wine prints every digit, fxc on Windows 17 significant digits then zeros
// (`sm5sim disasm --float-digits`).
RWStructuredBuffer<float> o : register(u0);
[numthreads(4,1,1)]
void main(uint3 t : SV_DispatchThreadID) {
  o[t.x] = t.x * 3.402823466e38 + 1e20 * t.y + 12345678901234567890123.0 * t.z;
}
