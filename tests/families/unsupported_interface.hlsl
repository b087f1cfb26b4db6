// Covers: loading a shader that uses something sm5sim does not execute
// must fail with LoadError::Unsupported naming the mnemonic and the dword
// offset. Class linkage (an HLSL interface with two classes) is refused at
// its first declaration, dcl_function_body.
// fxc (run in tests/families): /work/fxc/fxc unsupported_interface.hlsl -E main -T cs_5_0 -Fo unsupported_interface.dxbc -Fc unsupported_interface.asm
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
