// Covers: divergent switch with several cases, an empty-case fallthrough
// (case 1: case 2:), default placed FIRST in one switch and in the MIDDLE in
// another, a nested switch, and a break out of a case from inside an if.
// Selectors come from t0 and SV_GroupIndex.
// Listing contains: switch/case/default/endswitch with `case l(1)` and
// `case l(2)` sharing a block, a nested switch, break inside if_nz inside a
// case, udiv. fxc always moves `default` last (and drops cases merged with
// it); the Rust test moves it first / to the middle in the token stream.
// fxc (run in tests/families): /work/fxc/fxc flow_switch.hlsl -E main -T cs_5_0 -Fo flow_switch.dxbc -Fc flow_switch.asm
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint> output : register(u0);

[numthreads(40, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
    uint v = input[gi];
    uint a = 0;
    [forcecase] switch (v) {
        case 0:
            a = 10;
            break;
        case 1:
        case 2:
            a = 20 + v;
            break;
        case 5:
            [branch] if (gi & 1) {
                a = 55;
                break;
            }
            a = 50;
            break;
        case 7:
            a = 70;
            [forcecase] switch (gi & 3) {
                case 0: a += 1; break;
                case 3: a += 3; break;
                default: a += 100; break;
            }
            break;
        default:
            a = 0xd00 + v;
            break;
    }
    uint b = 0;
    // default first
    [forcecase] switch (gi % 5) {
        default:
            b = 1000 + gi;
            break;
        case 1:
            b = 1;
            break;
        case 3:
        case 4:
            b = 34;
            break;
    }
    uint c = 0;
    // default in the middle, sharing its block with a case
    [forcecase] switch (v & 7) {
        case 6:
            c = 6;
            break;
        case 3:
        default:
            c = 300 + (v & 7);
            break;
        case 0:
            c = 99;
            break;
    }
    output[gi * 3 + 0] = a;
    output[gi * 3 + 1] = b;
    output[gi * 3 + 2] = c;
}
