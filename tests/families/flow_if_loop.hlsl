// Covers: divergent nested if/else, a loop with break inside an if,
// continue, and a conditional break (breakc), with per-thread trip counts
// read from t0.
// Listing contains: if_nz/else/endif (nested), loop/endloop, breakc_nz,
// break inside if_nz, continue inside if_nz, movc, imad, ushr.
// fxc (run in tests/families): /work/fxc/fxc flow_if_loop.hlsl -E main -T cs_5_0 -Fo flow_if_loop.dxbc -Fc flow_if_loop.asm
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint> output : register(u0);

[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
    uint v = input[gi];
    uint r = 0;
    [branch] if (gi & 1) {
        [branch] if (v > 10) {
            r = v * 3;
        } else {
            r = v + 100;
        }
    } else {
        [branch] if (gi & 2) {
            r = 7;
        } else {
            r = 0x1000;
        }
    }
    // loop with a data-dependent break inside an if, and a continue
    uint acc = 0;
    [loop] for (uint i = 0; i < 40; i++) {
        [branch] if (i == v) {
            acc += 1000;
            break;
        }
        [branch] if ((i & 3) == (gi & 3)) {
            continue;
        }
        acc += i;
    }
    // conditional break: while-style loop
    uint n = 0;
    uint x = v + gi;
    [loop] while (true) {
        if (x < 2) break;
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        n++;
    }
    output[gi * 3 + 0] = r;
    output[gi * 3 + 1] = acc;
    output[gi * 3 + 2] = n;
}
