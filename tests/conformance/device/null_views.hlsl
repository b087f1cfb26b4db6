// Every access kind on slots that a job binds to D3D11's null view (or to
// resources, in a second dispatch): loads, atomics, the hidden counter,
// GetDimensions, a constant buffer (sm5-compute-isa.md §14: an unbound slot
// reads 0, its writes are dropped; FS §7.5 for cb#).
ByteAddressBuffer src : register(t0);
RWByteAddressBuffer dst : register(u0);
RWByteAddressBuffer side : register(u1);
RWStructuredBuffer<uint> cnt : register(u2);
cbuffer Params : register(b0)
{
    uint value;
};

[numthreads(1, 1, 1)]
void main()
{
    dst.Store(0, src.Load(0));
    dst.Store(4, side.Load(0));
    side.Store(0, 7);
    uint old;
    side.InterlockedAdd(4, 5, old);
    dst.Store(8, old);
    dst.Store(12, cnt.IncrementCounter());
    uint n;
    side.GetDimensions(n);
    dst.Store(16, n);
    dst.Store(20, value);
}
