/* The device and context outside dispatches: device creation and feature
 * levels, swap chains refused, COM reference counts, QueryInterface and
 * GetDevice, private data, the CS getters, GetImmediateContext, the
 * SRV/UAV hazard rule, ClearState, queries, feature and format support,
 * the calls outside compute, and the input D3D11 refuses. */
#include "common.h"
#include <d3d11sdklayers.h>

DEFINE_GUID(TEST_GUID, 0x12345678, 0x1234, 0x1234, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0);

static void creation(void)
{
    D3D_FEATURE_LEVEL got = 0, both[2] = {D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0};
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    HR(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, &got, &ctx));
    CHECK(got == D3D_FEATURE_LEVEL_11_0, "default level 0x%x", got);
    CHECK(ID3D11Device_GetFeatureLevel(dev) == got, "GetFeatureLevel");
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    HR(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_WARP, NULL, D3D11_CREATE_DEVICE_DEBUG, both, 2, D3D11_SDK_VERSION,
                         &dev, &got, NULL));
    CHECK(got == D3D_FEATURE_LEVEL_11_1, "first asked level 0x%x", got);
    CHECK(ID3D11Device_GetCreationFlags(dev) == D3D11_CREATE_DEVICE_DEBUG, "creation flags");
    ID3D11Device_Release(dev);
    /* a refusal leaves the out parameters null */
    D3D_FEATURE_LEVEL nine = D3D_FEATURE_LEVEL_9_1;
    dev = (ID3D11Device *)1;
    ctx = (ID3D11DeviceContext *)1;
    got = 1;
    CHECK(FAILED(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, &nine, 1, D3D11_SDK_VERSION, &dev, &got,
                                   &ctx)),
          "feature level 9_1 (no compute shaders)");
    CHECK(dev == NULL && ctx == NULL && got == 0, "out parameters after a refusal");
    got = 0;
    CHECK(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, NULL, &got, NULL) ==
              S_FALSE,
          "no device asked for: S_FALSE");
    CHECK(got == D3D_FEATURE_LEVEL_11_0, "level without a device 0x%x", got);
    DXGI_SWAP_CHAIN_DESC scd;
    memset(&scd, 0, sizeof scd);
    IDXGISwapChain *sc = (IDXGISwapChain *)1;
    CHECK(FAILED(D3D11CreateDeviceAndSwapChain(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION,
                                               &scd, &sc, &dev, NULL, NULL)),
          "a swap chain is refused");
    CHECK(sc == NULL, "the refused swap chain is null");
    HR(D3D11CreateDeviceAndSwapChain(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, NULL, NULL,
                                     &dev, NULL, &ctx));
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
}

/* Bound objects outlive the application's references to them (the
 * dispatch still sees them; the getters give null), and a device goes with
 * the application's last reference, whatever is still bound. */
static void lifetimes(void)
{
    ID3D11DeviceContext *ctx;
    ID3D11Device *dev = make_device(&ctx);
    float x[64], y[64], out[64];
    for (int i = 0; i < 64; i++)
        x[i] = (float)i, y[i] = 1;
    struct { float a; UINT n; UINT pad[2]; } params = {2.0f, 64};
    ID3D11Buffer *bx = make_buffer(dev, sizeof x, D3D11_BIND_SHADER_RESOURCE, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, x);
    ID3D11Buffer *by = make_buffer(dev, sizeof y, D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, y);
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
    CHECK(ID3D11ShaderResourceView_Release(srv) == 0, "binding holds no reference");
    ID3D11UnorderedAccessView_Release(uav);
    ID3D11ComputeShader_Release(cs);
    ID3D11Buffer_Release(cb);
    ID3D11Buffer_Release(bx);
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);
    read_buffer(dev, ctx, by, out, sizeof out);
    CHECK(out[10] == 21.0f, "a dispatch of released objects: y[10] = %g", out[10]);
    ID3D11ShaderResourceView *got = (ID3D11ShaderResourceView *)1;
    ID3D11DeviceContext_CSGetShaderResources(ctx, 0, 1, &got);
    CHECK(got == NULL, "the getter of a released view");
    ID3D11Buffer_Release(by);
    ID3D11DeviceContext_Release(ctx);
    ULONG left = ID3D11Device_Release(dev);
    CHECK(left == 0, "the device has %lu references left", (unsigned long)left);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        shader_dir = argv[1];
    creation();
    lifetimes();
    ID3D11DeviceContext *ctx;
    ID3D11Device *dev = make_device(&ctx);
    HRESULT hr;

    /* COM: identity, interfaces, reference counts, GetDevice */
    IUnknown *u1 = NULL, *u2 = NULL;
    HR(ID3D11Device_QueryInterface(dev, &IID_IUnknown, (void **)&u1));
    HR(ID3D11DeviceContext_QueryInterface(ctx, &IID_IUnknown, (void **)&u2));
    CHECK(u1 != NULL && u1 != u2, "device and context are different objects");
    IUnknown_Release(u1);
    IUnknown_Release(u2);
    ULONG n = ID3D11Device_AddRef(dev);
    CHECK(n >= 2 && ID3D11Device_Release(dev) == n - 1, "the device's count %lu", (unsigned long)n);
    ID3D11Buffer *b = make_buffer(dev, 64, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS,
                                  D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 16, NULL);
    ID3D11Resource *r = NULL;
    ID3D11Texture2D *t = (ID3D11Texture2D *)1;
    HR(ID3D11Buffer_QueryInterface(b, &IID_ID3D11Resource, (void **)&r));
    CHECK(ID3D11Buffer_QueryInterface(b, &IID_ID3D11Texture2D, (void **)&t) == E_NOINTERFACE && t == NULL,
          "a buffer is no Texture2D");
    D3D11_RESOURCE_DIMENSION dim;
    ID3D11Resource_GetType(r, &dim);
    CHECK(dim == D3D11_RESOURCE_DIMENSION_BUFFER, "GetType %d", dim);
    ID3D11Resource_Release(r);
    ID3D11Device *parent = NULL;
    ID3D11Buffer_GetDevice(b, &parent);
    CHECK(parent == dev, "GetDevice gives the device");
    ID3D11Device_Release(parent);
    D3D11_BUFFER_DESC bd;
    ID3D11Buffer_GetDesc(b, &bd);
    CHECK(bd.ByteWidth == 64 && bd.StructureByteStride == 16, "GetDesc %u %u", bd.ByteWidth, bd.StructureByteStride);

    /* private data */
    const char name[] = "particles";
    HR(ID3D11Buffer_SetPrivateData(b, &WKPDID_D3DDebugObjectName, sizeof name - 1, name));
    UINT size = 0;
    HR(ID3D11Buffer_GetPrivateData(b, &WKPDID_D3DDebugObjectName, &size, NULL));
    CHECK(size == sizeof name - 1, "private data size %u", size);
    char back[32] = {0};
    size = 2;
    CHECK(ID3D11Buffer_GetPrivateData(b, &WKPDID_D3DDebugObjectName, &size, back) == DXGI_ERROR_MORE_DATA,
          "too small a buffer");
    size = sizeof back;
    HR(ID3D11Buffer_GetPrivateData(b, &WKPDID_D3DDebugObjectName, &size, back));
    CHECK(strcmp(back, name) == 0 && size == sizeof name - 1, "private data %s", back);
    CHECK(ID3D11Buffer_GetPrivateData(b, &TEST_GUID, &size, back) == DXGI_ERROR_NOT_FOUND, "unknown GUID");
    HR(ID3D11Device_SetPrivateDataInterface(dev, &TEST_GUID, (IUnknown *)b));
    IUnknown *stored = NULL;
    size = sizeof stored;
    HR(ID3D11Device_GetPrivateData(dev, &TEST_GUID, &size, &stored));
    CHECK(stored == (IUnknown *)b, "interface private data");
    IUnknown_Release(stored);
    HR(ID3D11Device_SetPrivateDataInterface(dev, &TEST_GUID, NULL));

    /* the CS getters give what was set, and null elsewhere */
    ID3D11ComputeShader *cs = load_shader(dev, "saxpy.dxbc");
    ID3D11ShaderResourceView *srv;
    ID3D11UnorderedAccessView *uav;
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)b, NULL, &srv));
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)b, NULL, &uav));
    ID3D11Resource *viewed = NULL;
    ID3D11ShaderResourceView_GetResource(srv, &viewed);
    CHECK(viewed == (ID3D11Resource *)b, "GetResource");
    ID3D11Resource_Release(viewed);
    D3D11_SAMPLER_DESC sdesc = {D3D11_FILTER_MIN_MAG_MIP_LINEAR, D3D11_TEXTURE_ADDRESS_WRAP, D3D11_TEXTURE_ADDRESS_WRAP,
                                D3D11_TEXTURE_ADDRESS_WRAP, 0, 1, D3D11_COMPARISON_NEVER, {0, 0, 0, 0}, 0, 1000};
    ID3D11SamplerState *smp;
    HR(ID3D11Device_CreateSamplerState(dev, &sdesc, &smp));
    ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext_CSSetShaderResources(ctx, 3, 1, &srv);
    ID3D11Buffer *cb = make_buffer(dev, 16, D3D11_BIND_CONSTANT_BUFFER, 0, 0, NULL);
    ID3D11DeviceContext_CSSetConstantBuffers(ctx, 12, 1, &b); /* no BIND_CONSTANT_BUFFER: bound as null */
    ID3D11DeviceContext_CSSetConstantBuffers(ctx, 13, 1, &cb);
    ID3D11DeviceContext_CSSetSamplers(ctx, 15, 1, &smp);
    ID3D11ComputeShader *got_cs = NULL;
    UINT ninst = 7;
    ID3D11DeviceContext_CSGetShader(ctx, &got_cs, NULL, &ninst);
    CHECK(got_cs == cs && ninst == 0, "CSGetShader");
    ID3D11ComputeShader_Release(got_cs);
    ID3D11ShaderResourceView *srvs[5];
    ID3D11DeviceContext_CSGetShaderResources(ctx, 0, 5, srvs);
    CHECK(!srvs[0] && !srvs[2] && srvs[3] == srv && !srvs[4], "CSGetShaderResources");
    ID3D11ShaderResourceView_Release(srvs[3]);
    ID3D11Buffer *cbs[2];
    ID3D11DeviceContext_CSGetConstantBuffers(ctx, 12, 2, cbs);
    CHECK(!cbs[0] && cbs[1] == cb, "CSGetConstantBuffers");
    ID3D11Buffer_Release(cbs[1]);
    /* a call past the slots is dropped */
    ID3D11DeviceContext_CSSetConstantBuffers(ctx, 13, 2, cbs);
    ID3D11DeviceContext_CSGetConstantBuffers(ctx, 13, 1, cbs);
    CHECK(cbs[0] == cb, "a dropped call changed cb13");
    ID3D11Buffer_Release(cbs[0]);
    ID3D11SamplerState *smps[1];
    ID3D11DeviceContext_CSGetSamplers(ctx, 15, 1, smps);
    CHECK(smps[0] == smp, "CSGetSamplers");
    ID3D11SamplerState_Release(smps[0]);

    /* every context handle of the device sees one state */
    ID3D11DeviceContext *again = NULL;
    ID3D11Device_GetImmediateContext(dev, &again);
    ID3D11DeviceContext_CSGetShader(again, &got_cs, NULL, NULL);
    CHECK(got_cs == cs, "GetImmediateContext's context has the CS state");
    CHECK(again == ctx, "GetImmediateContext gives the one immediate context");
    if (got_cs)
        ID3D11ComputeShader_Release(got_cs);
    CHECK(ID3D11DeviceContext_GetType(again) == D3D11_DEVICE_CONTEXT_IMMEDIATE, "GetType");
    ID3D11DeviceContext_Release(again);

    /* binding the buffer as a UAV unbinds its SRV (the hazard rule) */
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 1, 1, &uav, NULL);
    ID3D11DeviceContext_CSGetShaderResources(ctx, 3, 1, srvs);
    CHECK(srvs[0] == NULL, "an SRV of a resource bound as a UAV is unbound");
    ID3D11UnorderedAccessView *uavs[2];
    ID3D11DeviceContext_CSGetUnorderedAccessViews(ctx, 0, 2, uavs);
    CHECK(!uavs[0] && uavs[1] == uav, "CSGetUnorderedAccessViews");
    ID3D11UnorderedAccessView_Release(uavs[1]);

    /* ClearState: everything null */
    ID3D11DeviceContext_ClearState(ctx);
    ID3D11DeviceContext_CSGetShader(ctx, &got_cs, NULL, NULL);
    ID3D11DeviceContext_CSGetUnorderedAccessViews(ctx, 1, 1, uavs);
    ID3D11DeviceContext_CSGetSamplers(ctx, 15, 1, smps);
    CHECK(!got_cs && !uavs[0] && !smps[0], "ClearState");
    /* a dispatch with no shader runs nothing */
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);

    /* queries */
    D3D11_QUERY_DESC qd = {D3D11_QUERY_EVENT, 0};
    ID3D11Query *event, *disjoint, *ts1, *ts2, *occlusion = NULL;
    HR(ID3D11Device_CreateQuery(dev, &qd, &event));
    CHECK(ID3D11Query_GetDataSize(event) == sizeof(BOOL), "event data size");
    BOOL done = FALSE;
    CHECK(ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)event, &done, sizeof done, 0) == S_FALSE,
          "an event before End");
    ID3D11DeviceContext_End(ctx, (ID3D11Asynchronous *)event);
    hr = ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)event, &done, sizeof done, 0);
    CHECK(hr == S_OK && done == TRUE, "an event after End: 0x%lx %d", (unsigned long)hr, done);
    CHECK(ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)event, &done, 2, 0) == E_INVALIDARG,
          "the wrong data size");
    qd.Query = D3D11_QUERY_TIMESTAMP_DISJOINT;
    HR(ID3D11Device_CreateQuery(dev, &qd, &disjoint));
    qd.Query = D3D11_QUERY_TIMESTAMP;
    HR(ID3D11Device_CreateQuery(dev, &qd, &ts1));
    HR(ID3D11Device_CreateQuery(dev, &qd, &ts2));
    ID3D11DeviceContext_Begin(ctx, (ID3D11Asynchronous *)disjoint);
    ID3D11DeviceContext_End(ctx, (ID3D11Asynchronous *)ts1);
    Sleep(2);
    ID3D11DeviceContext_End(ctx, (ID3D11Asynchronous *)ts2);
    ID3D11DeviceContext_End(ctx, (ID3D11Asynchronous *)disjoint);
    D3D11_QUERY_DATA_TIMESTAMP_DISJOINT dj;
    UINT64 t1 = 0, t2 = 0;
    HR(ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)disjoint, &dj, sizeof dj, 0));
    HR(ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)ts1, &t1, sizeof t1, 0));
    HR(ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)ts2, &t2, sizeof t2, 0));
    CHECK(dj.Frequency > 0 && !dj.Disjoint, "disjoint %llu %d", (unsigned long long)dj.Frequency, dj.Disjoint);
    double ms = (double)(t2 - t1) * 1000.0 / (double)dj.Frequency;
    CHECK(t2 > t1 && ms >= 1.0 && ms < 10000.0, "timestamps %llu %llu: %g ms", (unsigned long long)t1,
          (unsigned long long)t2, ms);
    qd.Query = D3D11_QUERY_OCCLUSION;
    CHECK(ID3D11Device_CreateQuery(dev, &qd, &occlusion) == E_NOTIMPL && !occlusion, "occlusion queries");

    /* feature and format support */
    D3D11_FEATURE_DATA_THREADING th = {0};
    HR(ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_THREADING, &th, sizeof th));
    CHECK(th.DriverConcurrentCreates && !th.DriverCommandLists, "threading");
    D3D11_FEATURE_DATA_DOUBLES dbl = {0};
    HR(ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_DOUBLES, &dbl, sizeof dbl));
    CHECK(dbl.DoublePrecisionFloatShaderOps, "doubles");
    D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS hw = {0};
    HR(ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS, &hw, sizeof hw));
    CHECK(hw.ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x, "cs_4_x");
    CHECK(ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_DOUBLES, &th, sizeof th) == E_INVALIDARG,
          "the wrong size");
    D3D11_FEATURE_DATA_FORMAT_SUPPORT2 fs2 = {DXGI_FORMAT_R32_UINT, 0};
    HR(ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_FORMAT_SUPPORT2, &fs2, sizeof fs2));
    CHECK((fs2.OutFormatSupport2 & D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_ADD) &&
              (fs2.OutFormatSupport2 & D3D11_FORMAT_SUPPORT2_UAV_TYPED_LOAD),
          "R32_UINT support2 0x%x", fs2.OutFormatSupport2);
    UINT fs = 0;
    HR(ID3D11Device_CheckFormatSupport(dev, DXGI_FORMAT_R32_FLOAT, &fs));
    CHECK((fs & D3D11_FORMAT_SUPPORT_BUFFER) && (fs & D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW) &&
              (fs & D3D11_FORMAT_SUPPORT_SHADER_SAMPLE) && (fs & D3D11_FORMAT_SUPPORT_TEXTURE2D),
          "R32_FLOAT support 0x%x", fs);
    HR(ID3D11Device_CheckFormatSupport(dev, DXGI_FORMAT_R32G32B32A32_UINT, &fs));
    CHECK(!(fs & D3D11_FORMAT_SUPPORT_SHADER_SAMPLE), "integer formats are not sampled");
    CHECK(ID3D11Device_CheckFormatSupport(dev, DXGI_FORMAT_NV12, &fs) == E_FAIL, "a video format");

    /* outside compute: E_NOTIMPL, nulls, and no effect */
    ID3D11PixelShader *ps = (ID3D11PixelShader *)1;
    CHECK(ID3D11Device_CreatePixelShader(dev, "DXBC", 4, NULL, &ps) == E_NOTIMPL, "CreatePixelShader");
    ID3D11RenderTargetView *rtv = NULL;
    CHECK(ID3D11Device_CreateRenderTargetView(dev, (ID3D11Resource *)b, NULL, &rtv) == E_NOTIMPL, "RTV");
    ID3D11DeviceContext_Draw(ctx, 3, 0);
    ID3D11VertexShader *vs = (ID3D11VertexShader *)1;
    ID3D11DeviceContext_VSGetShader(ctx, &vs, NULL, NULL);
    CHECK(vs == NULL, "VSGetShader gives null");
    ID3D11ShaderResourceView *ps_srvs[2] = {(ID3D11ShaderResourceView *)1, (ID3D11ShaderResourceView *)1};
    ID3D11DeviceContext_PSGetShaderResources(ctx, 0, 2, ps_srvs);
    CHECK(!ps_srvs[0] && !ps_srvs[1], "PSGetShaderResources gives nulls");

    /* input D3D11 refuses */
    ID3D11ComputeShader *bad_cs = NULL;
    char garbage[64] = "DXBC and then nothing a compute shader has";
    CHECK(ID3D11Device_CreateComputeShader(dev, garbage, sizeof garbage, NULL, &bad_cs) == E_INVALIDARG && !bad_cs,
          "garbage bytecode");
    ID3D11Buffer *bad = NULL;
    D3D11_BUFFER_DESC zero = {0, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, 0, 0};
    CHECK(ID3D11Device_CreateBuffer(dev, &zero, NULL, &bad) == E_INVALIDARG, "ByteWidth 0");
    D3D11_BUFFER_DESC odd = {20, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS,
                             0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 8};
    CHECK(ID3D11Device_CreateBuffer(dev, &odd, NULL, &bad) == E_INVALIDARG, "20 bytes of 8-byte structures");
    D3D11_BUFFER_DESC cb20 = {20, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
    CHECK(ID3D11Device_CreateBuffer(dev, &cb20, NULL, &bad) == E_INVALIDARG, "a 20-byte constant buffer");
    CHECK(ID3D11Device_CreateBuffer(dev, NULL, NULL, &bad) == E_INVALIDARG, "no description");
    CHECK(bad == NULL, "a refused buffer was returned");
    D3D11_BUFFER_DESC fine = {64, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, 0, 0};
    CHECK(ID3D11Device_CreateBuffer(dev, &fine, NULL, NULL) == S_FALSE, "a valid description without a buffer");
    D3D11_BUFFER_DESC wide = {4096, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS,
                              0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4096};
    CHECK(ID3D11Device_CreateBuffer(dev, &wide, NULL, &bad) == E_INVALIDARG, "a 4096-byte structure");
    sdesc.MaxAnisotropy = 17;
    ID3D11SamplerState *bad_smp = NULL;
    CHECK(ID3D11Device_CreateSamplerState(dev, &sdesc, &bad_smp) == E_INVALIDARG, "anisotropy 17");

    ID3D11Query_Release(event);
    ID3D11Query_Release(disjoint);
    ID3D11Query_Release(ts1);
    ID3D11Query_Release(ts2);
    ID3D11SamplerState_Release(smp);
    ID3D11ShaderResourceView_Release(srv);
    ID3D11UnorderedAccessView_Release(uav);
    ID3D11ComputeShader_Release(cs);
    ID3D11Buffer_Release(b);
    ID3D11Buffer_Release(cb);
    ID3D11DeviceContext_Release(ctx);
    ULONG left = ID3D11Device_Release(dev);
    CHECK(left == 0, "the device has %lu references left", (unsigned long)left);
    return finish("state");
}
