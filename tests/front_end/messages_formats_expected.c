/* The expected lines of messages_formats.hlsl: glibc's printf of the same
 * formats on the values fxc encoded (messages_formats.asm), each passed as
 * the C type its conversion reads: int for d i c *, unsigned for u o x X,
 * double for f e g a (a float argument widened exactly). fxc flushes the
 * float literals 1e-40f and asfloat(3u) to 0, so they are 0 here. HLSL's
 * arguments are 32 bits: a length modifier changes nothing, so %ld and its
 * kin get the 32-bit value. The errorf's %s has no argument and is printed
 * as written (sm5sim's rule; C leaves it undefined).
 * Build and run: cc messages_formats_expected.c -o e && ./e > messages_formats.expected */
#include <stdio.h>
#include <math.h>
#define F(x) ((double)(float)(x))
int main(void) {
  printf("d/i: [%d] [%i] [%d] [%5d] [%-5d|] [%+d] [% d] [%05d]\n", 0, 42, -42, 7, 7, 7, 7, -7);
  printf("d prec: [%.3d] [%.0d] [%8.3d] [%-8.3d|] [%+.2d] [%08.3d]\n", 5, 0, -5, 5, 3, 9);
  printf("u: [%u] [%u] [%10u] [%-10u|] [%.4u] [%u]\n", 0u, 4294967295u, 123u, 123u, 7u, 2147483648u);
  printf("o: [%o] [%#o] [%#o] [%6o] [%-6o|] [%.4o] [%o]\n", 8u, 8u, 0u, 64u, 64u, 9u, 4294967295u);
  printf("x: [%x] [%X] [%#x] [%#X] [%#x] [%08x] [%-8x|] [%.6x]\n", 48879u, 48879u, 255u, 255u, 0u, 3054u, 3054u, 255u);
  printf("c: [%c] [%c%c%c] [%3c] [%-3c|]\n", 65, 104, 105, 33, 120, 121);
  printf("f: [%f] [%f] [%.2f] [%.0f] [%.0f] [%#.0f] [%10.3f] [%-10.3f|]\n", F(1.5f), F(-0.1f), F(2.675f), F(0.5f), F(2.5f), F(3.0f), F(3.25f), F(3.25f));
  printf("f more: [%+f] [% f] [%010.2f] [%F] [%.1f] [%f] [%f] [%.3f]\n", F(1.0f), F(1.0f), F(-3.5f), F(1e10f), F(1e-10f), F(16777216.0f), F(3.4028235e38f), F(-0.0f));
  printf("e: [%e] [%E] [%.0e] [%#.0e] [%.2e] [%12.3e] [%-12.3e|] [%+e]\n", F(1.5f), F(123456.0f), F(5e-5f), F(2.0f), F(0.000123f), F(-7.25f), F(7.25f), 0.0);
  printf("g: [%g] [%G] [%g] [%g] [%g] [%g] [%.3g] [%#g]\n", F(0.0001f), F(1e-5f), F(123456.0f), F(1234567.0f), F(100.0f), F(0.5f), F(3.14159274f), F(1.5f));
  printf("g more: [%.0g] [%.1g] [%10.4g] [%-10.2g|] [%+g] [%#.3g] [%g] [%G]\n", F(25.0f), F(0.25f), F(1.0f/3.0f), F(150.0f), F(2.0f), F(100.0f), F(1e20f), F(1e-20f));
  printf("a: [%a] [%A] [%.2a] [%.0a] [%a] [%a] [%13.1a] [%-13a|]\n", F(1.0f), F(-0.75f), F(1.0f/3.0f), F(1.5f), 0.0, 0.0, F(2.0f), F(10.0f));
  printf("special: [%f] [%F] [%e] [%g] [%5.1f] [%-6f|] [%+f] [%E]\n", INFINITY, -INFINITY, INFINITY, -INFINITY, INFINITY, INFINITY, INFINITY, -INFINITY);
  printf("star: [%*d] [%-*d|] [%*d|] [%.*f]\n", 6, 42, 6, 42, -6, 42, 3, F(2.5f));
  printf("star more: [%*.*f] [%.*d]\n", 8, 2, F(2.5f), -1, 7);
  printf("percent and length: [%%] [100%%] [%d] [%u] [%d] [%d] [%u] [%x]\n", -1, 7u, 8, 9, 10u, 255u);
  printf("bits: [%d] [%x] [%f] [%u]\n", 1069547520, 0xc0000000u, 0.0, 0u);
  printf("double: [%f] [%.17g] [%a]\n", 0.1, 0.1, 0.1);
  printf("double more: [%e] [%.3f]\n", 0.1, 2.5);
  printf("errorf: [%d] [%%s]\n", 3);
  return 0;
}
