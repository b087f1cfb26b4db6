// Raw and structured memory on t#, u# and g# (FS §22.4.10-13 ld_raw,
// store_raw, ld_structured, store_structured incl. their out-of-bounds rules,
// §22.4.1 bufinfo; reference/sm5-compute-isa.md §10, §11, §14). fxc makes
// the groupshared arrays structured g# and the groupshared vectors raw g#.
// Words of o, per thread t (5 x uint4), then two uint4 from thread 0:
//   0 rawIn.Load4(4t)            1 sIn[t].xy, sIn[15 - t].yx
//   2 rawUav.Load2(4t), gArr[5t % 32], gArr[31 - t]
//   3 gS[15 - t].xy, gS[(t + 3) % 16].yx
//   4 gV[(t + 1) & 3], gW.yzw
//   80 bufinfo of rawIn (bytes), sIn (structs), typedIn (elements), rawUav (bytes)
//   81 bufinfo of sUav (structs), the two strides (literals from fxc), 0
// fxc memory.hlsl -E main -T cs_5_0 -Fo memory.dxbc -Fc memory.asm
ByteAddressBuffer rawIn : register(t0);
StructuredBuffer<uint2> sIn : register(t1);
Buffer<uint> typedIn : register(t2);
RWByteAddressBuffer rawUav : register(u0);
RWStructuredBuffer<uint4> sUav : register(u1);
RWStructuredBuffer<uint4> o : register(u2);
groupshared uint gArr[32];
groupshared uint2 gS[16];
groupshared uint4 gV;
groupshared uint4 gW;

[numthreads(16, 1, 1)]
void main(uint t : SV_GroupIndex)
{
    // t# raw: a 4-dword window; dwords past the view read 0
    o[t * 5] = rawIn.Load4(t * 4);
    // t# structured: indices past the view read 0
    o[t * 5 + 1] = uint4(sIn[t], sIn[15 - t].yx);
    // u# raw: load from the first 17 words; store_raw .xyz into words 17 and up
    // (parts past the view are dropped, the rest written)
    uint2 u = rawUav.Load2(t * 4);
    rawUav.Store3(68 + t * 12, uint3(t, t + 100, t + 200));
    // u# structured: read own element, then write it (dropped past the view)
    uint4 s = sUav[t];
    sUav[t] = uint4(t, s.x, s.y + s.z, s.w ^ t);
    // g#: every thread writes, barrier, then reads other threads' data
    gArr[t] = u.x * 3;
    gArr[t + 16] = u.y;
    gS[t] = uint2(t, t * t);
    [branch] if (t < 4) gV[t] = u.x + t;
    [branch] if (t == 6) gW = uint4(t, u, 0xC0FFEE);
    GroupMemoryBarrierWithGroupSync();
    o[t * 5 + 2] = uint4(u, gArr[(t * 5) % 32], gArr[31 - t]);
    o[t * 5 + 3] = uint4(gS[15 - t], gS[(t + 3) % 16].yx);
    o[t * 5 + 4] = uint4(gV[(t + 1) & 3], gW.yzw);
    [branch] if (t == 0) {
        uint a, b, c, d, e, stride1, stride2;
        rawIn.GetDimensions(a);
        sIn.GetDimensions(b, stride1);
        typedIn.GetDimensions(c);
        rawUav.GetDimensions(d);
        sUav.GetDimensions(e, stride2);
        o[80] = uint4(a, b, c, d);
        o[81] = uint4(e, stride1, stride2, 0);
    }
}
