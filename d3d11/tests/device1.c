/* Direct3D 11.1 and DXGI where compute uses them: ID3D11Device1 and
 * ID3D11DeviceContext1 by QueryInterface and GetImmediateContext1,
 * constant-buffer offsets (CSSetConstantBuffers1: saxpy's constants at
 * constant 16 of a 32-constant buffer) and their getter, the
 * D3D11_OPTIONS caps, and the adapter IDXGIDevice gives. */
#include "common.h"

int main(int argc, char **argv)
{
    if (argc > 1)
        shader_dir = argv[1];
    ID3D11DeviceContext *ctx0;
    ID3D11Device *dev0 = make_device(&ctx0);
    ID3D11Device1 *dev = NULL;
    ID3D11DeviceContext1 *ctx = NULL, *ctx1 = NULL;
    HR(ID3D11Device_QueryInterface(dev0, &IID_ID3D11Device1, (void **)&dev));
    HR(ID3D11DeviceContext_QueryInterface(ctx0, &IID_ID3D11DeviceContext1, (void **)&ctx));
    ID3D11Device1_GetImmediateContext1(dev, &ctx1);
    CHECK(ctx1 != NULL, "GetImmediateContext1");

    D3D11_FEATURE_DATA_D3D11_OPTIONS o;
    memset(&o, 0, sizeof o);
    HR(ID3D11Device1_CheckFeatureSupport(dev, D3D11_FEATURE_D3D11_OPTIONS, &o, sizeof o));
    CHECK(o.ConstantBufferOffsetting && o.ConstantBufferPartialUpdate && o.ExtendedDoublesShaderInstructions,
          "D3D11_OPTIONS");

    enum { N = 256 };
    static float x[N], y[N], out[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)i, y[i] = 1;
    /* constants 0-15: a = 100, n = 0; constant 16: a = 3, n = N */
    static float constants[32][4];
    constants[0][0] = 100;
    constants[16][0] = 3;
    ((UINT *)constants[16])[1] = N;
    ID3D11Buffer *bx = make_buffer((ID3D11Device *)dev, sizeof x, D3D11_BIND_SHADER_RESOURCE,
                                   D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, x);
    ID3D11Buffer *by = make_buffer((ID3D11Device *)dev, sizeof y, D3D11_BIND_UNORDERED_ACCESS,
                                   D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, y);
    ID3D11Buffer *cb = make_buffer((ID3D11Device *)dev, sizeof constants, D3D11_BIND_CONSTANT_BUFFER, 0, 0, constants);
    ID3D11ShaderResourceView *srv;
    ID3D11UnorderedAccessView *uav;
    HR(ID3D11Device1_CreateShaderResourceView(dev, (ID3D11Resource *)bx, NULL, &srv));
    HR(ID3D11Device1_CreateUnorderedAccessView(dev, (ID3D11Resource *)by, NULL, &uav));
    ID3D11ComputeShader *cs = load_shader((ID3D11Device *)dev, "saxpy.dxbc");
    UINT first = 16, count = 16;
    ID3D11DeviceContext1_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext1_CSSetShaderResources(ctx, 0, 1, &srv);
    ID3D11DeviceContext1_CSSetUnorderedAccessViews(ctx, 0, 1, &uav, NULL);
    ID3D11DeviceContext1_CSSetConstantBuffers1(ctx, 0, 1, &cb, &first, &count);
    ID3D11DeviceContext1_Dispatch(ctx1, N / 64, 1, 1);
    read_buffer((ID3D11Device *)dev, (ID3D11DeviceContext *)ctx, by, out, sizeof out);
    CHECK(out[5] == 16 && out[N - 1] == 3.0f * (N - 1) + 1, "offset constants: y[5] = %g", out[5]);
    ID3D11Buffer *got = NULL;
    UINT gf = 0, gc = 0;
    ID3D11DeviceContext1_CSGetConstantBuffers1(ctx, 0, 1, &got, &gf, &gc);
    CHECK(got == cb && gf == 16 && gc == 16, "CSGetConstantBuffers1: %u %u", gf, gc);
    if (got)
        ID3D11Buffer_Release(got);
    /* CSSetConstantBuffers binds the whole buffer again: a = 100, n = 0 */
    ID3D11DeviceContext1_CSSetConstantBuffers(ctx, 0, 1, &cb);
    ID3D11DeviceContext1_CSGetConstantBuffers1(ctx, 0, 1, &got, &gf, &gc);
    CHECK(gf == 0 && gc == 32, "the whole buffer: %u %u", gf, gc);
    if (got)
        ID3D11Buffer_Release(got);
    /* a range that does not start on a 16-constant block: the call is dropped */
    UINT bad_first = 3;
    ID3D11DeviceContext1_CSSetConstantBuffers1(ctx, 0, 1, &cb, &bad_first, &count);
    ID3D11DeviceContext1_CSGetConstantBuffers1(ctx, 0, 1, &got, &gf, &gc);
    CHECK(gf == 0 && gc == 32, "after a dropped call: %u %u", gf, gc);
    if (got)
        ID3D11Buffer_Release(got);

    /* the adapter */
    IDXGIDevice *dxgi = NULL;
    IDXGIAdapter *adapter = NULL;
    HR(ID3D11Device1_QueryInterface(dev, &IID_IDXGIDevice, (void **)&dxgi));
    HR(IDXGIDevice_GetAdapter(dxgi, &adapter));
    DXGI_ADAPTER_DESC ad;
    HR(IDXGIAdapter_GetDesc(adapter, &ad));
    char name[129];
    for (int i = 0; i < 128; i++)
        name[i] = (char)ad.Description[i];
    name[128] = 0;
    CHECK(strncmp(name, "sm5sim", 6) == 0, "adapter %s", name);
    IDXGIOutput *output = NULL;
    CHECK(IDXGIAdapter_EnumOutputs(adapter, 0, &output) == DXGI_ERROR_NOT_FOUND, "no outputs");
    IDXGIAdapter_Release(adapter);
    IDXGIDevice_Release(dxgi);

    ID3D11ComputeShader_Release(cs);
    ID3D11ShaderResourceView_Release(srv);
    ID3D11UnorderedAccessView_Release(uav);
    ID3D11Buffer_Release(bx);
    ID3D11Buffer_Release(by);
    ID3D11Buffer_Release(cb);
    ID3D11DeviceContext1_Release(ctx1);
    ID3D11DeviceContext1_Release(ctx);
    ID3D11Device1_Release(dev);
    ID3D11DeviceContext_Release(ctx0);
    ID3D11Device_Release(dev0);
    return finish("device1");
}
