/* A two-pass sum reduction through groupshared memory: 65536 floats to 256
 * partial sums (Dispatch(256)), then to one (Dispatch(1)), with the pass's
 * element count set by UpdateSubresource on the constant buffer. With the
 * argument "race" it runs reduce_race.dxbc, whose first barrier is missing:
 * under SM5SIM_CHECK=1 the checker reports the race of dispatch #1. */
#include "common.h"

int main(int argc, char **argv)
{
    if (argc > 1)
        shader_dir = argv[1];
    int race = argc > 2 && strcmp(argv[2], "race") == 0;
    ID3D11DeviceContext *ctx;
    ID3D11Device *dev = make_device(&ctx);
    enum { N = 65536, GROUPS = N / 256 };
    static float data[N];
    double expected = 0;
    for (int i = 0; i < N; i++) {
        data[i] = (float)(i % 7);
        expected += data[i];
    }
    UINT count[4] = {N, 0, 0, 0};
    ID3D11Buffer *input = make_buffer(dev, sizeof data, D3D11_BIND_SHADER_RESOURCE,
                                      D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, data);
    UINT bind = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS;
    ID3D11Buffer *partial = make_buffer(dev, GROUPS * 4, bind, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, NULL);
    ID3D11Buffer *total = make_buffer(dev, 4, bind, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, NULL);
    ID3D11Buffer *cb = make_buffer(dev, sizeof count, D3D11_BIND_CONSTANT_BUFFER, 0, 0, count);
    ID3D11ShaderResourceView *input_srv, *partial_srv;
    ID3D11UnorderedAccessView *partial_uav, *total_uav;
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)input, NULL, &input_srv));
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)partial, NULL, &partial_srv));
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)partial, NULL, &partial_uav));
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)total, NULL, &total_uav));
    ID3D11ComputeShader *cs = load_shader(dev, race ? "reduce_race.dxbc" : "reduce.dxbc");

    /* pass 1: N elements to GROUPS partial sums */
    ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext_CSSetConstantBuffers(ctx, 0, 1, &cb);
    ID3D11DeviceContext_CSSetShaderResources(ctx, 0, 1, &input_srv);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &partial_uav, NULL);
    ID3D11DeviceContext_Dispatch(ctx, GROUPS, 1, 1);

    /* pass 2: the partial sums to one; the partial buffer leaves u0 first */
    count[0] = GROUPS;
    ID3D11DeviceContext_UpdateSubresource(ctx, (ID3D11Resource *)cb, 0, NULL, count, 0, 0);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &total_uav, NULL);
    ID3D11DeviceContext_CSSetShaderResources(ctx, 0, 1, &partial_srv);
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);

    static float partials[GROUPS];
    float sum = 0;
    read_buffer(dev, ctx, partial, partials, sizeof partials);
    read_buffer(dev, ctx, total, &sum, 4);
    printf("total %.1f (expected %.1f)\n", sum, expected);
    if (!race) {
        CHECK(sum == (float)expected, "total %g, expected %g", sum, expected);
        float first = 0;
        for (int i = 0; i < 256; i++)
            first += data[i];
        CHECK(partials[0] == first, "partial 0 is %g, expected %g", partials[0], first);
    }

    ID3D11ComputeShader_Release(cs);
    ID3D11ShaderResourceView_Release(input_srv);
    ID3D11ShaderResourceView_Release(partial_srv);
    ID3D11UnorderedAccessView_Release(partial_uav);
    ID3D11UnorderedAccessView_Release(total_uav);
    ID3D11Buffer_Release(input);
    ID3D11Buffer_Release(partial);
    ID3D11Buffer_Release(total);
    ID3D11Buffer_Release(cb);
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    return finish(race ? "reduce race" : "reduce");
}
