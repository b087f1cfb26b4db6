// Moves and selects (FS §22.9.1 mov, §22.9.2 movc, §22.9.3 swapc, §22.18
// modifiers, §22.19.1 _sat; reference/sm5-compute-isa.md §4). fxc turns the
// pair of opposite selects below into one swapc (see moves.asm). Words of o,
// per thread (one uint4 each):
//   0 c ? b : a   1 c ? a : b   (swapc dest1 and dest0)
//   2 movc(c.wzyx, a, b.yxwz)   3 -|f.x|, -|f.y|, -f.z, |f.w|
//   4 saturate(c ? f : -f)      (movc_sat)
// fxc moves.hlsl -E main -T cs_5_0 -Fo moves.dxbc -Fc moves.asm
struct Case { uint4 c, a, b, f; };
StructuredBuffer<Case> cases : register(t0);
RWStructuredBuffer<uint4> o : register(u0);

[numthreads(16, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    Case k = cases[t];
    bool4 c = k.c != 0;
    float4 f = asfloat(k.f);
    o[t * 5 + 0] = c ? k.b : k.a;
    o[t * 5 + 1] = c ? k.a : k.b;
    o[t * 5 + 2] = (k.c.wzyx != 0) ? k.a : k.b.yxwz;
    o[t * 5 + 3] = asuint(float4(-abs(f.xy), -f.z, abs(f.w)));
    o[t * 5 + 4] = asuint(saturate(c ? f : -f));
}
