// Barriers and fences (FS §22.17.7 sync; reference/sm5-compute-isa.md §13,
// compute-model.md §6): every legal compute form. fxc emits only sync_g_t,
// sync_uglobal_t, sync_uglobal_g_t, sync_g, sync_uglobal and sync_uglobal_g,
// so the job runs sync.asm: fxc's listing of this file with phase B's barrier
// changed to sync_ugroup_t, phase D's to sync_ugroup_g_t, and sync_ugroup and
// sync_ugroup_g added to the fences of phase F. Two groups of 64 threads; in
// each phase every thread writes its slot, passes the barrier, then reads a
// neighbour's slot (data written by another thread, often in another warp).
// Phase F runs the fence-only forms (no _t) in divergent code: only odd
// threads reach them, which is legal because they do not wait for the group.
// Words of o, per thread (t = index in group, g = group, c = 1000 g):
//   0: A g0[(t+1)%64] = 2(t+1)%64+1 + c   1: B u1[(t+3)%64] = ... + 100 + c
//   2: C u1[(t+5)%64] + 200 + c           3: D g1[(t+7)%64] + 300 + c
//   4: D u1[(t+9)%64] + 400 + c           5: E g2[(t+11)%64] + 600 + c
//   6: E u1[(t+13)%64] + 700 + c          7: F own g3 slot t + 500 + c (odd t), else 7
// fxc sync.hlsl -E main -T cs_5_0 -Fo sync.dxbc -Fc sync.asm
// (fxc's listing, then edited by hand as described; the job runs the .asm and
// no .dxbc is kept for it)
RWStructuredBuffer<uint> scratch : register(u1);   // 4 phases x 2 groups x 64
RWStructuredBuffer<uint4> o : register(u0);
groupshared uint g0[64];
groupshared uint g1[64];
groupshared uint g2[64];
groupshared uint g3[64];

[numthreads(64, 1, 1)]
void main(uint t : SV_GroupIndex, uint3 gid : SV_GroupID)
{
    uint c = gid.x * 1000;
    uint b = gid.x * 64;
    uint4 r, s;
    g0[t] = t * 2 + 1 + c;                       // A
    GroupMemoryBarrierWithGroupSync();
    r.x = g0[(t + 1) & 63];
    scratch[b + t] = t + 100 + c;                // B
    DeviceMemoryBarrierWithGroupSync();
    r.y = scratch[b + ((t + 3) & 63)];
    scratch[128 + b + t] = t + 200 + c;          // C
    DeviceMemoryBarrierWithGroupSync();
    r.z = scratch[128 + b + ((t + 5) & 63)];
    g1[t] = t + 300 + c;                         // D
    scratch[256 + b + t] = t + 400 + c;
    AllMemoryBarrierWithGroupSync();
    r.w = g1[(t + 7) & 63];
    s.x = scratch[256 + b + ((t + 9) & 63)];
    g2[t] = t + 600 + c;                         // E
    scratch[384 + b + t] = t + 700 + c;
    AllMemoryBarrierWithGroupSync();
    s.y = g2[(t + 11) & 63];
    s.z = scratch[384 + b + ((t + 13) & 63)];
    s.w = 7;                                     // F
    [branch] if (t & 1) {
        g3[t] = t + 500 + c;
        GroupMemoryBarrier();
        s.w = g3[t];
        DeviceMemoryBarrier();
        AllMemoryBarrier();
    }
    o[(b + t) * 2] = r;
    o[(b + t) * 2 + 1] = s;
}
