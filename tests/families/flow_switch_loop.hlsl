// Covers: a switch nested inside a loop whose cases break out of the
// switch (also from inside an if), a loop `continue` right after the switch
// (HLSL forbids `continue` inside a switch: error X3708) and a loop exit
// decided inside a case; and a loop (with breakc and an
// inner break) inside a switch case. Divergent per thread: selectors from
// t0 and SV_GroupIndex.
// Listing contains: loop { switch/case/default/endswitch } with break
// inside if_nz inside a case, if_nz/break and if_nz/continue after the
// switch, breakc_nz; a switch case holding a loop with breakc_nz and
// if_nz/break, another holding a loop with breakc_z.
// fxc (run in tests/families): /work/fxc/fxc flow_switch_loop.hlsl -E main -T cs_5_0 -Fo flow_switch_loop.dxbc -Fc flow_switch_loop.asm
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint> output : register(u0);

[numthreads(32, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
    uint v = input[gi];
    uint acc = 0;
    uint steps = 0;
    bool stop = false;
    bool skip = false;
    [loop] for (uint i = 0; i < 24; i++) {
        steps++;
        skip = false;
        [forcecase] switch ((v + i) % 6) {
            case 0:
                acc += 1;
                break;
            case 1:
            case 2:
                acc += 10;
                [branch] if (i & 1) {
                    skip = true;
                    break;
                }
                acc += 100;
                break;
            case 4:
                [branch] if (i >= (gi & 15)) {
                    stop = true;
                    break;
                }
                acc += 1000;
                break;
            default:
                acc ^= 0x10000 << (i & 7);
                break;
        }
        [branch] if (stop)
            break;
        [branch] if (skip)
            continue;
        acc += i;
    }
    uint w = 0;
    [forcecase] switch (gi & 3) {
        case 1: {
            [loop] for (uint j = 0; j < 16; j++) {
                [branch] if (j * j > v + 3)
                    break;
                w += j;
            }
            break;
        }
        case 2: {
            uint k = v;
            [loop] while (k != 0) {
                w += k & 1;
                k >>= 1;
            }
            w += 500;
            break;
        }
        default:
            w = 77;
            break;
    }
    output[gi * 3 + 0] = acc;
    output[gi * 3 + 1] = steps;
    output[gi * 3 + 2] = w;
}
