/* Structured buffers, a constant buffer, Dispatch, CopyResource to a staging
 * buffer and Map: y = a*x + y over 1000 elements (16 groups of 64). */
#include "common.h"

int main(int argc, char **argv)
{
    if (argc > 1)
        shader_dir = argv[1];
    ID3D11DeviceContext *ctx;
    ID3D11Device *dev = make_device(&ctx);
    enum { N = 1000 };
    static float x[N], y[N], out[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 0.5f * i;
    }
    struct { float a; UINT n; UINT pad[2]; } params = {2.0f, N};
    ID3D11Buffer *bx = make_buffer(dev, sizeof x, D3D11_BIND_SHADER_RESOURCE,
                                   D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, x);
    ID3D11Buffer *by = make_buffer(dev, sizeof y, D3D11_BIND_UNORDERED_ACCESS,
                                   D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, y);
    ID3D11Buffer *cb = make_buffer(dev, sizeof params, D3D11_BIND_CONSTANT_BUFFER, 0, 0, &params);
    ID3D11ShaderResourceView *srv;
    ID3D11UnorderedAccessView *uav;
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)bx, NULL, &srv));
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)by, NULL, &uav));
    ID3D11ComputeShader *cs = load_shader(dev, "saxpy.dxbc");

    ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext_CSSetShaderResources(ctx, 0, 1, &srv);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &uav, NULL);
    ID3D11DeviceContext_CSSetConstantBuffers(ctx, 0, 1, &cb);
    ID3D11DeviceContext_Dispatch(ctx, (N + 63) / 64, 1, 1);
    read_buffer(dev, ctx, by, out, sizeof out);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += out[i] != 2.0f * i + 0.5f * i;
    CHECK(wrong == 0, "%d of %d elements wrong (y[7] = %g)", wrong, N, out[7]);

    /* a second dispatch sees the first's results */
    ID3D11DeviceContext_Dispatch(ctx, (N + 63) / 64, 1, 1);
    read_buffer(dev, ctx, by, out, sizeof out);
    CHECK(out[10] == 2.0f * 10 * 2 + 5.0f, "y[10] = %g after two dispatches", out[10]);

    ID3D11ComputeShader_Release(cs);
    ID3D11ShaderResourceView_Release(srv);
    ID3D11UnorderedAccessView_Release(uav);
    ID3D11Buffer_Release(bx);
    ID3D11Buffer_Release(by);
    ID3D11Buffer_Release(cb);
    ID3D11DeviceContext_Release(ctx);
    /* what is still bound holds no reference: the device goes now */
    ULONG left = ID3D11Device_Release(dev);
    CHECK(left == 0, "the device has %lu references left", (unsigned long)left);
    return finish("saxpy");
}
