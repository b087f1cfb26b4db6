// Covers: early return by some threads (ret inside an if, and ret inside an
// if inside a loop), after which the remaining threads keep doing work
// (more loop iterations, more stores); divergent by SV_GroupIndex and by
// values from t0.
// Listing contains: if_z/ret/endif (ret inside an if), if_nz/ret inside a
// loop (loop/breakc_nz/endloop), udiv, final ret. fxc emits no retc for any
// `if (c) return;` tried (with or without [branch], /Od, /Gfp).
// fxc (run in tests/families): /work/fxc/fxc flow_return.hlsl -E main -T cs_5_0 -Fo flow_return.dxbc -Fc flow_return.asm
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint> output : register(u0);

[numthreads(48, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
    uint v = input[gi];
    output[gi * 2] = 1;
    [branch] if (v == 0) {
        output[gi * 2 + 1] = 0xdead;
        return;
    }
    uint acc = v;
    [loop] for (uint i = 0; i < v; i++) {
        acc = acc * 5 + i;
        [branch] if (acc > 0x10000) {
            output[gi * 2 + 1] = acc;
            return;
        }
    }
    if ((gi % 3) == 0)
        return;
    output[gi * 2] = acc;
    output[gi * 2 + 1] = 0xbeef;
}
