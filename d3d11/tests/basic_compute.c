/* Modelled on the flow of the DirectX SDK's BasicCompute11 sample (written
 * here, not copied): a hardware device at 11_0 with a fallback to 10_x when
 * D3D10_X_HARDWARE_OPTIONS allows compute on cs_4_x, debug object names,
 * structured buffers (and, with the argument "raw", byte-address buffers
 * with BUFFEREX views) of {int, float}, one thread per element, the result
 * read through a staging copy of the output's own description, and the
 * compute stage unbound with arrays of nulls. */
#include "common.h"

typedef struct { int i; float f; } BufType;
enum { NUM_ELEMENTS = 1024 };

static void name(ID3D11DeviceChild *child, const char *n)
{
    HR(ID3D11DeviceChild_SetPrivateData(child, &WKPDID_D3DDebugObjectName, (UINT)strlen(n), n));
}

static ID3D11Buffer *create_buffer(ID3D11Device *dev, int raw, const void *data)
{
    D3D11_BUFFER_DESC d;
    memset(&d, 0, sizeof d);
    d.BindFlags = D3D11_BIND_UNORDERED_ACCESS | D3D11_BIND_SHADER_RESOURCE;
    d.ByteWidth = sizeof(BufType) * NUM_ELEMENTS;
    if (raw) {
        d.BindFlags |= D3D11_BIND_INDEX_BUFFER | D3D11_BIND_VERTEX_BUFFER;
        d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
    } else {
        d.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED;
        d.StructureByteStride = sizeof(BufType);
    }
    D3D11_SUBRESOURCE_DATA init = {data, 0, 0};
    ID3D11Buffer *b = NULL;
    HR(ID3D11Device_CreateBuffer(dev, &d, data ? &init : NULL, &b));
    return b;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        shader_dir = argv[1];
    int raw = argc > 2 && strcmp(argv[2], "raw") == 0;
    static const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_0};
    D3D_FEATURE_LEVEL got;
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    UINT flags = D3D11_CREATE_DEVICE_SINGLETHREADED | D3D11_CREATE_DEVICE_DEBUG;
    HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, flags, levels, 1, D3D11_SDK_VERSION, &dev,
                                   &got, &ctx);
    if (FAILED(hr)) {
        /* the sample's fallback: any level, then ask for cs_4_x */
        HR(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, flags, NULL, 0, D3D11_SDK_VERSION, &dev, &got, &ctx));
        D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS hw;
        HR(ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS, &hw, sizeof hw));
        CHECK(hw.ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x, "no compute on 10_x");
    }
    ID3D11ComputeShader *cs = load_shader(dev, raw ? "basic_compute_raw.dxbc" : "basic_compute.dxbc");
    name((ID3D11DeviceChild *)cs, "CSMain");

    static BufType buf0[NUM_ELEMENTS], buf1[NUM_ELEMENTS];
    for (int i = 0; i < NUM_ELEMENTS; ++i) {
        buf0[i].i = i;
        buf0[i].f = (float)i;
        buf1[i].i = i;
        buf1[i].f = (float)i;
    }
    ID3D11Buffer *b0 = create_buffer(dev, raw, buf0), *b1 = create_buffer(dev, raw, buf1);
    ID3D11Buffer *result = create_buffer(dev, raw, NULL);
    name((ID3D11DeviceChild *)b0, "Buffer0");
    name((ID3D11DeviceChild *)b1, "Buffer1");
    name((ID3D11DeviceChild *)result, "Result");

    D3D11_SHADER_RESOURCE_VIEW_DESC sd;
    memset(&sd, 0, sizeof sd);
    sd.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
    D3D11_UNORDERED_ACCESS_VIEW_DESC ud;
    memset(&ud, 0, sizeof ud);
    ud.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    if (raw) {
        sd.Format = DXGI_FORMAT_R32_TYPELESS;
        sd.BufferEx.Flags = D3D11_BUFFEREX_SRV_FLAG_RAW;
        sd.BufferEx.NumElements = sizeof buf0 / 4;
        ud.Format = DXGI_FORMAT_R32_TYPELESS;
        ud.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_RAW;
        ud.Buffer.NumElements = sizeof buf0 / 4;
    } else {
        sd.Format = DXGI_FORMAT_UNKNOWN;
        sd.BufferEx.NumElements = NUM_ELEMENTS;
        ud.Format = DXGI_FORMAT_UNKNOWN;
        ud.Buffer.NumElements = NUM_ELEMENTS;
    }
    ID3D11ShaderResourceView *srv[2];
    ID3D11UnorderedAccessView *uav;
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)b0, &sd, &srv[0]));
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)b1, &sd, &srv[1]));
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)result, &ud, &uav));

    /* RunComputeShader */
    ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext_CSSetShaderResources(ctx, 0, 2, srv);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &uav, NULL);
    ID3D11DeviceContext_Dispatch(ctx, NUM_ELEMENTS, 1, 1);
    ID3D11DeviceContext_CSSetShader(ctx, NULL, NULL, 0);
    ID3D11UnorderedAccessView *null_uav[1] = {NULL};
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, null_uav, NULL);
    ID3D11ShaderResourceView *null_srv[2] = {NULL, NULL};
    ID3D11DeviceContext_CSSetShaderResources(ctx, 0, 2, null_srv);
    ID3D11Buffer *null_cb[1] = {NULL};
    ID3D11DeviceContext_CSSetConstantBuffers(ctx, 0, 1, null_cb);

    /* CreateAndCopyToDebugBuf: the output's description, made a staging one */
    D3D11_BUFFER_DESC d;
    ID3D11Buffer_GetDesc(result, &d);
    d.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    d.Usage = D3D11_USAGE_STAGING;
    d.BindFlags = 0;
    d.MiscFlags = 0;
    ID3D11Buffer *debug = NULL;
    HR(ID3D11Device_CreateBuffer(dev, &d, NULL, &debug));
    name((ID3D11DeviceChild *)debug, "Debug");
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)debug, (ID3D11Resource *)result);
    D3D11_MAPPED_SUBRESOURCE m;
    HR(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)debug, 0, D3D11_MAP_READ, 0, &m));
    const BufType *p = (const BufType *)m.pData;
    int wrong = 0;
    for (int i = 0; i < NUM_ELEMENTS; ++i)
        wrong += p[i].i != buf0[i].i + buf1[i].i || p[i].f != buf0[i].f + buf1[i].f;
    CHECK(wrong == 0, "%d of %d results wrong", wrong, NUM_ELEMENTS);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)debug, 0);

    ID3D11Buffer_Release(debug);
    ID3D11ShaderResourceView_Release(srv[0]);
    ID3D11ShaderResourceView_Release(srv[1]);
    ID3D11UnorderedAccessView_Release(uav);
    ID3D11Buffer_Release(result);
    ID3D11Buffer_Release(b0);
    ID3D11Buffer_Release(b1);
    ID3D11ComputeShader_Release(cs);
    ID3D11DeviceContext_Release(ctx);
    CHECK(ID3D11Device_Release(dev) == 0, "the device outlives its last reference");
    return finish("basic_compute");
}
