// swapc forms fxc does not produce (FS §22.9.3: "making sure destination
// registers are not updated until the end"; reference/sm5-compute-isa.md §1,
// §4). The job runs swapc_forms.asm: fxc's listing of this file with each
// pair of selects replaced by one swapc whose registers alias, as noted.
// Words of o, per thread (one uint4 each):
//   0, 1  swapc r4, r5, c, r4, r5 (r4 = a, r5 = b before): c ? b : a, c ? a : b
//   2, 3  swapc r5, r4, c, r4, r5 (crossed), r5 then r4: c ? b : a, c ? a : b
//   4, 5  swapc r4.xz, r5.yw, c.wzyx, a.yxwz, b.zwxy (other components keep
//         0x11111111 / 0x22222222)
//   6, 7  swapc r4, r5, r4, a, b with r4 = c before (the condition aliases dest0)
// fxc swapc_forms.hlsl -E main -T cs_5_0 -Fo swapc_forms.dxbc -Fc swapc_forms.asm
// (fxc's listing, then edited by hand as described; the job runs the .asm and
// no .dxbc is kept for it)
struct Case { uint4 c, a, b, f; };
StructuredBuffer<Case> cases : register(t0);
RWStructuredBuffer<uint4> o : register(u0);

[numthreads(16, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    Case k = cases[t];
    bool4 c = k.c != 0;
    bool4 cs = k.c.wzyx != 0;
    uint4 as = k.a.yxwz, bs = k.b.zwxy;
    o[t * 8 + 0] = c ? k.b : k.a;
    o[t * 8 + 1] = c ? k.a : k.b;
    o[t * 8 + 2] = c ? k.b : k.a;
    o[t * 8 + 3] = c ? k.a : k.b;
    o[t * 8 + 4] = uint4(cs.x ? bs.x : as.x, 0x11111111, cs.z ? bs.z : as.z, 0x11111111);
    o[t * 8 + 5] = uint4(0x22222222, cs.y ? as.y : bs.y, 0x22222222, cs.w ? as.w : bs.w);
    o[t * 8 + 6] = c ? k.b : k.a;
    o[t * 8 + 7] = c ? k.a : k.b;
}
