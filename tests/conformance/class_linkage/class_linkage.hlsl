// Covers: class linkage (an HLSL interface with two classes): fcall through
// fp0 calls the body of the function table bound to interface slot 0
// (ft0 = Plus7 -> fb0, ft1 = Twice -> fb1; see tests/class_linkage.rs).
//
// fxc (run in tests/families): /work/fxc/fxc class_linkage.hlsl -E main -T cs_5_0 -Fo class_linkage.dxbc -Fc class_linkage.asm
interface IOp { uint apply(uint x); };
class Twice : IOp { uint apply(uint x) { return x * 2; } };
class Plus7 : IOp { uint apply(uint x) { return x + 7; } };
IOp op;
RWStructuredBuffer<uint> output : register(u0);

[numthreads(8, 1, 1)]
void main(uint t : SV_GroupIndex)
{
    output[t] = op.apply(t);
}
