/* A dispatch that never ends by itself (spin.hlsl waits on a flag no thread
 * sets): SM5SIM_TIMEOUT stops it, the program goes on, and a dispatch after
 * it runs. */
#include "common.h"

int main(int argc, char **argv)
{
    if (argc > 1)
        shader_dir = argv[1];
    ID3D11DeviceContext *ctx;
    ID3D11Device *dev = make_device(&ctx);
    ID3D11Buffer *flag = make_buffer(dev, 16, D3D11_BIND_UNORDERED_ACCESS,
                                     D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0, NULL);
    D3D11_UNORDERED_ACCESS_VIEW_DESC ud = {0};
    ud.Format = DXGI_FORMAT_R32_TYPELESS;
    ud.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    ud.Buffer.NumElements = 4;
    ud.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_RAW;
    ID3D11UnorderedAccessView *uav;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)flag, &ud, &uav));
    ID3D11ComputeShader *cs = load_shader(dev, "spin.dxbc");
    ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &uav, NULL);
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);
    UINT w[4];
    read_buffer(dev, ctx, flag, w, sizeof w);
    CHECK(w[1] == 0, "the stopped dispatch got past its wait");
    /* with the flag set, the same shader ends */
    const UINT one[4] = {1, 0, 0, 0};
    ID3D11DeviceContext_ClearUnorderedAccessViewUint(ctx, uav, one);
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);
    read_buffer(dev, ctx, flag, w, sizeof w);
    CHECK(w[1] == 1, "the second dispatch did not end its wait: %u", w[1]);
    ID3D11ComputeShader_Release(cs);
    ID3D11UnorderedAccessView_Release(uav);
    ID3D11Buffer_Release(flag);
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    return finish("hang");
}
