// Every conversion of C's printf that a shader message can honour, with
// flags, widths, precisions and `*`, on int, uint, float and double
// arguments. sm5sim's format-rule conformance job: the expected lines
// (messages_formats.expected) are glibc's printf of the same formats and
// the same values as C types (messages_formats_expected.c).
RWStructuredBuffer<uint> o : register(u0);
[numthreads(1,1,1)]
void main(uint3 t : SV_DispatchThreadID) {
  printf("d/i: [%d] [%i] [%d] [%5d] [%-5d|] [%+d] [% d] [%05d]", 0, 42, -42, 7, 7, 7, 7, -7);
  printf("d prec: [%.3d] [%.0d] [%8.3d] [%-8.3d|] [%+.2d] [%08.3d]", 5, 0, -5, 5, 3, 9);
  printf("u: [%u] [%u] [%10u] [%-10u|] [%.4u] [%u]", 0u, 4294967295u, 123u, 123u, 7u, 2147483648u);
  printf("o: [%o] [%#o] [%#o] [%6o] [%-6o|] [%.4o] [%o]", 8u, 8u, 0u, 64u, 64u, 9u, 4294967295u);
  printf("x: [%x] [%X] [%#x] [%#X] [%#x] [%08x] [%-8x|] [%.6x]", 48879u, 48879u, 255u, 255u, 0u, 3054u, 3054u, 255u);
  printf("c: [%c] [%c%c%c] [%3c] [%-3c|]", 65, 104, 105, 33, 120, 121);
  printf("f: [%f] [%f] [%.2f] [%.0f] [%.0f] [%#.0f] [%10.3f] [%-10.3f|]", 1.5f, -0.1f, 2.675f, 0.5f, 2.5f, 3.0f, 3.25f, 3.25f);
  printf("f more: [%+f] [% f] [%010.2f] [%F] [%.1f] [%f] [%f] [%.3f]", 1.0f, 1.0f, -3.5f, 1e10f, 1e-10f, 16777216.0f, 3.4028235e38f, -0.0f);
  printf("e: [%e] [%E] [%.0e] [%#.0e] [%.2e] [%12.3e] [%-12.3e|] [%+e]", 1.5f, 123456.0f, 5e-5f, 2.0f, 0.000123f, -7.25f, 7.25f, 1e-40f);
  printf("g: [%g] [%G] [%g] [%g] [%g] [%g] [%.3g] [%#g]", 0.0001f, 1e-5f, 123456.0f, 1234567.0f, 100.0f, 0.5f, 3.14159274f, 1.5f);
  printf("g more: [%.0g] [%.1g] [%10.4g] [%-10.2g|] [%+g] [%#.3g] [%g] [%G]", 25.0f, 0.25f, 1.0f/3.0f, 150.0f, 2.0f, 100.0f, 1e20f, 1e-20f);
  printf("a: [%a] [%A] [%.2a] [%.0a] [%a] [%a] [%13.1a] [%-13a|]", 1.0f, -0.75f, 1.0f/3.0f, 1.5f, 0.0f, 1e-40f, 2.0f, 10.0f);
  printf("special: [%f] [%F] [%e] [%g] [%5.1f] [%-6f|] [%+f] [%E]", asfloat(0x7f800000u), asfloat(0xff800000u), asfloat(0x7f800000u), asfloat(0xff800000u), asfloat(0x7f800000u), asfloat(0x7f800000u), asfloat(0x7f800000u), asfloat(0xff800000u));
  printf("star: [%*d] [%-*d|] [%*d|] [%.*f]", 6, 42, 6, 42, -6, 42, 3, 2.5f);
  printf("star more: [%*.*f] [%.*d]", 8, 2, 2.5f, -1, 7);
  printf("percent and length: [%%] [100%%] [%ld] [%lu] [%hd] [%lld] [%hhu] [%zx]", -1, 7u, 8, 9, 10u, 255u);
  printf("bits: [%d] [%x] [%f] [%u]", asint(1.5f), asuint(-2.0f), asfloat(3u), t.x > 0 ? 1u : 0u);
  double d = 0.1L;
  printf("double: [%f] [%.17g] [%a]", d, d, d);
  printf("double more: [%e] [%.3f]", d, (double)t.x + 2.5L);
  errorf("errorf: [%d] [%s]", 3);
  o[0] = 1;
}
