// A format string with a tab, quotes, a backslash and a newline: the
// listing prints C escapes for all but the quotes.
RWStructuredBuffer<uint> o : register(u0);
[numthreads(4,1,1)]
void main(uint3 t : SV_DispatchThreadID) {
  printf("tab\there \"quoted\" back\\slash newline\n");
  printf("%8.3e %-5d %+i %o %X %g|", 1.0f, t.x, t.y, t.x, t.x, 2.0f);
  o[t.x] = t.x;
}
