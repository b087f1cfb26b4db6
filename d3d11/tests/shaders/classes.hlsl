// Class linkage through two interfaces (one an array): the class instances
// bound at CSSetShader choose the methods. classes.c binds Twice, Times3
// and Times5 (output = 5 * (2t) + 3t), then Plus7, Times5 and Times3
// (output = 3 * (t + 7) + 5t).
interface IOp { uint apply(uint x); };
interface IScale { uint scale(uint x); };
class Twice : IOp { uint apply(uint x) { return x * 2; } };
class Plus7 : IOp { uint apply(uint x) { return x + 7; } };
class Times3 : IScale { uint scale(uint x) { return x * 3; } };
class Times5 : IScale { uint scale(uint x) { return x * 5; } };
IOp op;
IScale sc[2];
RWStructuredBuffer<uint> output : register(u0);

[numthreads(8, 1, 1)]
void main(uint t : SV_GroupIndex)
{
    output[t] = sc[1].scale(op.apply(t)) + sc[0].scale(t);
}
