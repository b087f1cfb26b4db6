// Buffer views of an element range (D3D11_BUFFER_SRV / D3D11_BUFFER_UAV
// FirstElement and NumElements): the shader sees the range alone, its size
// (GetDimensions), element 0 at FirstElement, and its bounds (a load past it
// reads 0, a store past it is dropped; sm5-compute-isa.md §14).
ByteAddressBuffer raw_in : register(t0);
StructuredBuffer<uint2> pairs : register(t1);
Buffer<uint> typed_in : register(t2);
RWByteAddressBuffer results : register(u0);
RWStructuredBuffer<uint> window : register(u1);

[numthreads(1, 1, 1)]
void main()
{
    uint n;
    raw_in.GetDimensions(n);
    uint m, stride;
    pairs.GetDimensions(m, stride);
    uint k;
    typed_in.GetDimensions(k);
    uint w, wstride;
    window.GetDimensions(w, wstride);
    results.Store(0, n);
    results.Store(4, m);
    results.Store(8, k);
    results.Store(12, raw_in.Load(0));
    results.Store(16, pairs[0].y);
    results.Store(20, typed_in[0]);
    results.Store(24, raw_in.Load(n));
    results.Store(28, w);
    window[0] = 100;
    window[w] = 200;
}
