// Loads with a residency status (tiled-resource feedback, FS §5.9.4.5.2-3,
// §22.4.8, §22.4.10, §22.4.12 "_s", §22.4.26 check_access_mapped;
// reference/sm5-compute-isa.md §16): ld_raw_s, ld_structured_s and
// ld_uav_typed_s load exactly what their plain forms load, and
// check_access_fully_mapped turns the status of an access to a resource that
// is not tiled (all of it mapped) into 0xFFFFFFFF (true). fxc's ld_raw_s
// writes its data over its own address register (see feedback.asm). The typed UAV is
// a uint4 view: for a scalar RWBuffer<uint>, fxc gives ld_uav_typed_s a
// resource swizzle of .w for the loaded component (e.g. u1.wxxx), which by
// the operand rules would read the format's missing A channel.
// Words of o, per thread t (one uint4 each):
//   0 raw.Load2(8t): both words, fully mapped, 0
//   1 sIn[t] (uint2): both words, fully mapped, 0
//   2 typed[t].yw, fully mapped, typed[t].x
// fxc feedback.hlsl -E main -T cs_5_0 -Fo feedback.dxbc -Fc feedback.asm
ByteAddressBuffer raw : register(t0);
StructuredBuffer<uint2> sIn : register(t1);
RWBuffer<uint4> typed : register(u1);
RWStructuredBuffer<uint4> o : register(u0);

[numthreads(8, 1, 1)]
void main(uint t : SV_GroupIndex)
{
    uint s0, s1, s2;
    uint2 a = raw.Load2(t * 8, s0);
    o[t * 3] = uint4(a, CheckAccessFullyMapped(s0) ? 0xFFFFFFFFu : 0u, 0);
    uint2 b = sIn.Load(t, s1);
    o[t * 3 + 1] = uint4(b, CheckAccessFullyMapped(s1) ? 0xFFFFFFFFu : 0u, 0);
    uint4 c = typed.Load(t, s2);
    o[t * 3 + 2] = uint4(c.yw, CheckAccessFullyMapped(s2) ? 0xFFFFFFFFu : 0u, c.x);
}
