// Pass 1: stream compaction. Every element of `input` that is a multiple of
// `divisor` is appended to `list`. The order of `list` depends on the order
// in which the threads run; its length ends up in the hidden counter.
StructuredBuffer<uint> input : register(t0);
AppendStructuredBuffer<uint> list : register(u0);

cbuffer CompactParams : register(b0)
{
    uint element_count;   // elements of `input`
    uint divisor;         // the predicate: value % divisor == 0
};

[numthreads(64, 1, 1)]
void main(uint3 dtid : SV_DispatchThreadID)
{
    if (dtid.x >= element_count)
        return;
    uint value = input[dtid.x];
    if (value % divisor == 0)
        list.Append(value);
}
