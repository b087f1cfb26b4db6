/* Append and consume buffers, their hidden counters and initial counts,
 * CopyStructureCount, and DispatchIndirect with arguments a shader wrote:
 * pass 1 appends the multiples of 3 below 1000, pass 2 turns the count
 * into group counts, pass 3 (DispatchIndirect) consumes them all into a
 * sum, with a pipeline-statistics query counting its threads. */
#include "common.h"

static void read_words(ID3D11Device *dev, ID3D11DeviceContext *ctx, ID3D11Buffer *b, UINT *out, UINT n)
{
    read_buffer(dev, ctx, b, out, n * 4);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        shader_dir = argv[1];
    ID3D11DeviceContext *ctx;
    ID3D11Device *dev = make_device(&ctx);
    const UINT SRV = D3D11_BIND_SHADER_RESOURCE, UAV = D3D11_BIND_UNORDERED_ACCESS;
    const UINT RAW = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
    enum { N = 1000, FOUND = (N + 2) / 3 };
    UINT params[4] = {N, 0, 0, 0};
    ID3D11Buffer *found = make_buffer(dev, N * 4, UAV, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, NULL);
    ID3D11Buffer *counted = make_buffer(dev, 16, SRV, RAW, 0, NULL);
    ID3D11Buffer *args = make_buffer(dev, 12, UAV, RAW | D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS, 0, NULL);
    ID3D11Buffer *plain_args = make_buffer(dev, 12, UAV, RAW, 0, NULL);
    ID3D11Buffer *sum = make_buffer(dev, 8, UAV, RAW, 0, NULL);
    ID3D11Buffer *cb = make_buffer(dev, 16, D3D11_BIND_CONSTANT_BUFFER, 0, 0, params);

    D3D11_UNORDERED_ACCESS_VIEW_DESC ud = {0};
    ud.Format = DXGI_FORMAT_UNKNOWN;
    ud.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    ud.Buffer.NumElements = N;
    ud.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_APPEND;
    ID3D11UnorderedAccessView *found_uav, *args_uav, *sum_uav;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)found, &ud, &found_uav));
    ud.Format = DXGI_FORMAT_R32_TYPELESS;
    ud.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_RAW;
    ud.Buffer.NumElements = 3;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)args, &ud, &args_uav));
    ud.Buffer.NumElements = 2;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)sum, &ud, &sum_uav));
    D3D11_SHADER_RESOURCE_VIEW_DESC sd = {0};
    sd.Format = DXGI_FORMAT_R32_TYPELESS;
    sd.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
    sd.BufferEx.NumElements = 4;
    sd.BufferEx.Flags = D3D11_BUFFEREX_SRV_FLAG_RAW;
    ID3D11ShaderResourceView *counted_srv;
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)counted, &sd, &counted_srv));
    /* a counter needs a structured buffer */
    ID3D11UnorderedAccessView *bad = NULL;
    ud.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_RAW | D3D11_BUFFER_UAV_FLAG_COUNTER;
    CHECK(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)sum, &ud, &bad) == E_INVALIDARG,
          "a counter on a raw view");

    ID3D11ComputeShader *append = load_shader(dev, "append.dxbc");
    ID3D11ComputeShader *make_args = load_shader(dev, "args.dxbc");
    ID3D11ComputeShader *consume = load_shader(dev, "consume.dxbc");
    UINT zero = 0, keep = (UINT)-1, five = 5;

    /* pass 1 */
    ID3D11DeviceContext_CSSetShader(ctx, append, NULL, 0);
    ID3D11DeviceContext_CSSetConstantBuffers(ctx, 0, 1, &cb);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &found_uav, &zero);
    ID3D11DeviceContext_Dispatch(ctx, (N + 63) / 64, 1, 1);
    ID3D11DeviceContext_CopyStructureCount(ctx, counted, 4, found_uav);
    UINT w[4];
    read_words(dev, ctx, counted, w, 4);
    CHECK(w[0] == 0 && w[1] == FOUND, "CopyStructureCount at byte 4: %u %u, want 0 %u", w[0], w[1], FOUND);
    ID3D11DeviceContext_CopyStructureCount(ctx, counted, 0, found_uav);

    /* pass 2: the arguments; `args` leaves u0 before DispatchIndirect reads it */
    ID3D11DeviceContext_CSSetShader(ctx, make_args, NULL, 0);
    ID3D11DeviceContext_CSSetShaderResources(ctx, 0, 1, &counted_srv);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &args_uav, NULL);
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);
    read_words(dev, ctx, args, w, 3);
    CHECK(w[0] == (FOUND + 63) / 64 && w[1] == 1 && w[2] == 1, "arguments %u %u %u", w[0], w[1], w[2]);

    /* pass 3: keep the counter (-1), consume everything */
    ID3D11UnorderedAccessView *pass3[2] = {found_uav, sum_uav};
    UINT counts[2] = {keep, 0};
    ID3D11DeviceContext_CSSetShader(ctx, consume, NULL, 0);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 2, pass3, counts);
    D3D11_QUERY_DESC qd = {D3D11_QUERY_PIPELINE_STATISTICS, 0};
    ID3D11Query *stats;
    HR(ID3D11Device_CreateQuery(dev, &qd, &stats));
    ID3D11DeviceContext_Begin(ctx, (ID3D11Asynchronous *)stats);
    ID3D11DeviceContext_DispatchIndirect(ctx, args, 0);
    ID3D11DeviceContext_End(ctx, (ID3D11Asynchronous *)stats);
    D3D11_QUERY_DATA_PIPELINE_STATISTICS ps;
    HR(ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)stats, &ps, sizeof ps, 0));
    CHECK(ps.CSInvocations == (UINT64)w[0] * 64, "CSInvocations %llu", (unsigned long long)ps.CSInvocations);
    read_words(dev, ctx, sum, w, 2);
    CHECK(w[0] == 3u * (FOUND - 1) * FOUND / 2 && w[1] == FOUND, "sum %u of %u items", w[0], w[1]);
    ID3D11DeviceContext_CopyStructureCount(ctx, counted, 0, found_uav);
    read_words(dev, ctx, counted, w, 1);
    CHECK(w[0] == 0, "the counter after consuming everything: %u", w[0]);

    /* an initial count sets the counter */
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &found_uav, &five);
    ID3D11DeviceContext_CopyStructureCount(ctx, counted, 0, found_uav);
    read_words(dev, ctx, counted, w, 1);
    CHECK(w[0] == 5, "the counter after an initial count of 5: %u", w[0]);

    /* nothing runs: arguments without DRAWINDIRECT_ARGS, and zero groups */
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 2, pass3, counts);
    read_words(dev, ctx, sum, w, 2);
    UINT before = w[1];
    ID3D11DeviceContext_DispatchIndirect(ctx, plain_args, 0);
    ID3D11DeviceContext_Dispatch(ctx, 0, 1, 1);
    read_words(dev, ctx, sum, w, 2);
    CHECK(w[1] == before, "items consumed by dispatches that should not run: %u", w[1] - before);

    ID3D11Query_Release(stats);
    ID3D11ComputeShader_Release(append);
    ID3D11ComputeShader_Release(make_args);
    ID3D11ComputeShader_Release(consume);
    ID3D11UnorderedAccessView_Release(found_uav);
    ID3D11UnorderedAccessView_Release(args_uav);
    ID3D11UnorderedAccessView_Release(sum_uav);
    ID3D11ShaderResourceView_Release(counted_srv);
    ID3D11Buffer *all[] = {found, counted, args, plain_args, sum, cb};
    for (int i = 0; i < 6; i++)
        ID3D11Buffer_Release(all[i]);
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    return finish("append");
}
