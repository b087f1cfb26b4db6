// Subroutines and conditional flow instructions that fxc does not emit
// (FS §22.7.7 continuec, §22.7.9 breakc, §22.7.10-11 call/callc, §22.7.15
// label, §22.7.16-17 ret/retc, §22.10.13 nop; reference/sm5-compute-isa.md §9).
// fxc inlines every function and writes `if (c) continue;` as if/continue/
// endif, so the job runs flow_calls.asm: fxc's listing of this file with the
// functions turned into label l0..l4 subroutines reached by call/callc_nz/
// callc_z (one nested, one called inside a loop, one returning from inside a
// loop with retc_nz, one returning early with retc_z) and the loops written
// with breakc_z/breakc_nz/continuec_z/continuec_nz. Words of o, per thread:
//   0 sum of the odd i <= n   1 count of k in [1, n] with k % 4 != 0
//   2 x = f(n) = 3n + 1, applied twice when n is odd   3 1000 when n is odd
//   4 n, plus 7 when n is even and n % 3 != 0   5 (n % 5) + 1   6 n   7 ~0
//   (threads with n % 4 == 3 end at a retc_nz before writing words 4-7)
// fxc flow_calls.hlsl -E main -T cs_5_0 -Fo flow_calls.dxbc -Fc flow_calls.asm
// (fxc's listing, then edited by hand as described; the job runs the .asm and
// no .dxbc is kept for it)
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint4> o : register(u0);

uint f(uint x) { return x * 3 + 1; }

uint count_to(uint m)
{
    uint c = 0;
    [loop] while (true) { c++; if (c == m) return c; }
}

[numthreads(32, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint n = input[t];
    uint sum = 0, i = 0;
    [loop] while (i < n) { i++; if ((i & 1) == 0) continue; sum += i; }
    uint count = 0, k = 0;
    [loop] while (true) { k++; if (n < k) break; if ((k & 3) == 0) continue; count++; }
    uint x = f(n), y = 0, z = n;
    [branch] if (n & 1) { y += 1000; x = f(x); }
    else [branch] if (n % 3 != 0) { z += 7; }
    uint w = count_to(n % 5 + 1);
    o[t * 2] = uint4(sum, count, x, y);
    [branch] if ((n & 3) == 3) return;
    o[t * 2 + 1] = uint4(z, w, n, 0xFFFFFFFF);
}
