// Multisample queries (FS §22.4.21 sampleinfo, §22.4.22 samplepos, §19.2.4
// standard sample patterns): Texture2DMS.GetSamplePosition(i) -> samplepos
// with i from a register (in range, and out of range -> the zero vector), and
// GetDimensions(w, h, samples) on views declared without a sample count ->
// sampleinfo (float) / sampleinfo_uint (with a declared count fxc would fold
// the count into a literal).
// Thread t (0..17) takes i = idx[t] and writes, for k over (ms2, ms4, msa4,
// ms8, ms16): pos[5t + k] = GetSamplePosition(i).
// Thread 0 writes cnt[0..4] = sample counts (uint), fcnt[0..4] (float).
// fxc tex_query_ms.hlsl -E main -T cs_5_0 -Fo tex_query_ms.dxbc -Fc tex_query_ms.asm
Texture2DMS<float> ms2 : register(t0);
Texture2DMS<float> ms4 : register(t1);
Texture2DMSArray<float> msa4 : register(t2);
Texture2DMS<float> ms8 : register(t3);
Texture2DMS<float> ms16 : register(t4);
StructuredBuffer<int> idx : register(t5);
RWStructuredBuffer<float2> pos : register(u0);
RWStructuredBuffer<uint> cnt : register(u1);
RWStructuredBuffer<float> fcnt : register(u2);

[numthreads(18, 1, 1)]
void main(uint t : SV_DispatchThreadID)
{
    int i = idx[t];
    pos[5 * t + 0] = ms2.GetSamplePosition(i);
    pos[5 * t + 1] = ms4.GetSamplePosition(i);
    pos[5 * t + 2] = msa4.GetSamplePosition(i);
    pos[5 * t + 3] = ms8.GetSamplePosition(i);
    pos[5 * t + 4] = ms16.GetSamplePosition(i);
    if (t == 0)
    {
        uint w, h, e, s;
        float fw, fh, fe, fs;
        ms2.GetDimensions(w, h, s);        cnt[0] = s;
        ms2.GetDimensions(fw, fh, fs);     fcnt[0] = fs;
        ms4.GetDimensions(w, h, s);        cnt[1] = s;
        ms4.GetDimensions(fw, fh, fs);     fcnt[1] = fs;
        msa4.GetDimensions(w, h, e, s);    cnt[2] = s;
        msa4.GetDimensions(fw, fh, fe, fs); fcnt[2] = fs;
        ms8.GetDimensions(w, h, s);        cnt[3] = s;
        ms8.GetDimensions(fw, fh, fs);     fcnt[3] = fs;
        ms16.GetDimensions(w, h, s);       cnt[4] = s;
        ms16.GetDimensions(fw, fh, fs);    fcnt[4] = fs;
    }
}
