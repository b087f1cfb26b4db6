// Flow control nested across switch, loop and subroutines (FS §22.7.6
// continue: "at the beginning of the current loop", also from inside a
// switch; §22.7.8 break: the innermost loop or switch; §22.7.16 ret; §7.12
// and §22.7.10: subroutines nest 32 deep, a call issued with 32 return
// addresses on the stack is skipped). HLSL allows no continue inside a switch
// and fxc inlines every function, so the job runs nesting.asm: fxc's listing
// of this file with case 0's flag turned into a continue inside the switch
// and f1..f33 turned into subroutines l1..l33, each called by the one
// before, so the 33rd call is skipped. Per thread (n = input[t], one uint4):
//   x = subroutines entered (32; the HLSL inlines all 33)
//   y = increments after each call returns or is skipped (32)
//   z = the loop/switch sum below, w = loop iterations that reached the end
//   (n == 5 returns from inside the switch with (0, 0, z, 99))
// fxc nesting.hlsl -E main -T cs_5_0 -Fo nesting.dxbc -Fc nesting.asm
// (fxc's listing, then edited by hand as described; the job runs the .asm and
// no .dxbc is kept for it)
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint4> o : register(u0);

static uint2 depth;
#define F(k, next) void f##k() { depth.x++; next(); depth.y++; }
void f33() { depth.x++; }
F(32, f33) F(31, f32) F(30, f31) F(29, f30) F(28, f29) F(27, f28) F(26, f27)
F(25, f26) F(24, f25) F(23, f24) F(22, f23) F(21, f22) F(20, f21) F(19, f20)
F(18, f19) F(17, f18) F(16, f17) F(15, f16) F(14, f15) F(13, f14) F(12, f13)
F(11, f12) F(10, f11) F(9, f10) F(8, f9) F(7, f8) F(6, f7) F(5, f6) F(4, f5)
F(3, f4) F(2, f3) F(1, f2)

[numthreads(8, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint n = input[t];
    uint z = 0, w = 0;
    [loop] for (uint i = 0; i < 6; i++) {
        bool skip = false;
        [forcecase] switch ((n + i) & 3) {
        case 0: z += 1; skip = true; break;          // the listing: continue
        case 1: {
            [loop] for (uint j = 0; j < n; ) { j++; z += 10; if (j == 2) break; }
            break;
        }
        case 2:
            [branch] if (n == 5) { o[t] = uint4(0, 0, z, 99); return; }
            z += 100;
            break;
        default: z += 1000; break;
        }
        if (skip) continue;
        w += 1;
    }
    depth = 0;
    f1();
    o[t] = uint4(depth, z, w);
}
