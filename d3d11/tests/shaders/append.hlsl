// Pass 1 of append.c: every thread whose index is a multiple of 3 (below
// `count`) appends it
AppendStructuredBuffer<uint> found : register(u0);
cbuffer Params : register(b0)
{
    uint count;
};

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (id.x < count && id.x % 3 == 0)
        found.Append(id.x);
}
