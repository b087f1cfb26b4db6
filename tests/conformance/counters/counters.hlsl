// UAV hidden counters (FS §22.17.17 imm_atomic_alloc: returns the old value,
// §22.17.18 imm_atomic_consume: returns the new value, both wrap without
// clamping; reference/sm5-compute-isa.md §12.2). 8 threads; every thread
// does one Append, one Consume, one IncrementCounter and one
// DecrementCounter. Which thread gets which value is unspecified, so results
// are stored where the returned value says:
//   o[0] = sum, o[1] = or of the consumed values (indices past the view read 0)
//   o[2 + (k & 7)] = k for the IncrementCounter results k
//   o[10 + (d & 7)] = d for the DecrementCounter results d
//   cnt[k] = k + 0x1000 (a Count UAV: the location is meaningful; indices
//   past the view are dropped)
// fxc counters.hlsl -E main -T cs_5_0 -Fo counters.dxbc -Fc counters.asm
AppendStructuredBuffer<uint> app : register(u0);
ConsumeStructuredBuffer<uint> con : register(u1);
RWStructuredBuffer<uint> cnt : register(u2);
RWStructuredBuffer<uint> dec : register(u3);
RWStructuredBuffer<uint> o : register(u4);

[numthreads(8, 1, 1)]
void main(uint t : SV_GroupIndex)
{
    app.Append(0xA0 + t);
    uint v = con.Consume();
    InterlockedAdd(o[0], v);
    InterlockedOr(o[1], v);
    uint k = cnt.IncrementCounter();
    o[2 + (k & 7)] = k;
    cnt[k] = k + 0x1000;
    uint d = dec.DecrementCounter();
    o[10 + (d & 7)] = d;
}
