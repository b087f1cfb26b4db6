// Structured flow control with divergent lanes (FS §22.7; reference/
// sm5-compute-isa.md §9): if_nz/if_z/else/endif, loop/endloop with break,
// breakc and continue, switch with shared case labels, default, a nested
// switch, a switch inside a loop (break leaves the switch, not the loop), and
// ret inside an if (the thread ends; its later stores never happen).
// Each thread reads n = input[t] and writes 4 words of o.
// fxc flow.hlsl -E main -T cs_5_0 -Fo flow.dxbc -Fc flow.asm
StructuredBuffer<uint> input : register(t0);
RWStructuredBuffer<uint4> o : register(u0);

[numthreads(32, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    uint n = input[t];
    uint4 r = 0;

    // 1. if / else chain
    [branch] if (n & 1) {
        r.x = 100;
    } else [branch] if (n > 10) {
        r.x = 200;
    } else {
        r.x = 300 + n;
    }

    // 2. loop: skip multiples of 3 (continue), stop at i*i >= 8n (break)
    uint s = 0;
    [loop] for (uint i = 0; i < 64; i++) {
        [branch] if (i % 3 == 0) continue;
        if (i * i >= 8 * n) break;
        s += i;
    }
    r.y = s;

    // 3. switch in a loop: break leaves the switch only
    uint acc = 0;
    [loop] for (uint j = 0; j < 4; j++) {
        [forcecase] switch ((n + j) % 8) {
        case 0:
        case 1:
            acc += 1;
            break;
        case 2:
            [forcecase] switch (n & 3) {
            case 0: acc += 10; break;
            case 3: acc += 30; break;
            default: acc += 20; break;
            }
            break;
        case 5:
            acc += 500;
            break;
        default:
            acc += 1000;
            break;
        }
    }
    r.z = acc;
    o[t * 2] = r;

    // 4. early return: threads with n % 5 == 4 never write their second word
    [branch] if (n % 5 == 4) return;
    o[t * 2 + 1] = uint4(n, n * n, 7, 0xFFFFFFFF);
}
