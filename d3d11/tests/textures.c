/* Textures and their views: a 4x4 RGBA8 texture with its full mip chain
 * from initial data with padded row pitches, sampled at mip 1 with a point
 * sampler; a 1D texture; slices 1-2 of a 2D array; W slices 1-2 of a 3D
 * UAV; a typeless texture written through an R32_FLOAT view; staging maps
 * with their row and depth pitches; UpdateSubresource and
 * CopySubresourceRegion with boxes; a float clear of a texture UAV; and
 * the textures and views D3D11 refuses. */
#include "common.h"

static ID3D11Texture2D *tex2d(ID3D11Device *dev, UINT w, UINT h, UINT mips, UINT array, DXGI_FORMAT f,
                              D3D11_USAGE usage, UINT bind, UINT cpu, const D3D11_SUBRESOURCE_DATA *init)
{
    D3D11_TEXTURE2D_DESC d = {w, h, mips, array, f, {1, 0}, usage, bind, cpu, 0};
    ID3D11Texture2D *t = NULL;
    HR(ID3D11Device_CreateTexture2D(dev, &d, init, &t));
    return t;
}

/* Subresource `sub` of a 2D texture, through a staging copy, rows packed
 * `row` bytes apart in `out`. */
static void read_tex2d(ID3D11Device *dev, ID3D11DeviceContext *ctx, ID3D11Texture2D *t, UINT sub, void *out,
                       UINT row, UINT rows)
{
    D3D11_TEXTURE2D_DESC d;
    ID3D11Texture2D_GetDesc(t, &d);
    d.Usage = D3D11_USAGE_STAGING;
    d.BindFlags = 0;
    d.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    ID3D11Texture2D *s = NULL;
    HR(ID3D11Device_CreateTexture2D(dev, &d, NULL, &s));
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)s, (ID3D11Resource *)t);
    D3D11_MAPPED_SUBRESOURCE m;
    HR(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)s, sub, D3D11_MAP_READ, 0, &m));
    CHECK(m.RowPitch >= row, "RowPitch %u < %u", m.RowPitch, row);
    for (UINT y = 0; y < rows; y++)
        memcpy((char *)out + y * row, (char *)m.pData + y * m.RowPitch, row);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)s, sub);
    ID3D11Texture2D_Release(s);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        shader_dir = argv[1];
    ID3D11DeviceContext *ctx;
    ID3D11Device *dev = make_device(&ctx);
    const UINT SRV = D3D11_BIND_SHADER_RESOURCE, UAV = D3D11_BIND_UNORDERED_ACCESS;

    /* 4x4, 2x2, 1x1 RGBA8; R of mip 0 = (x + 4y) * 10, of mip 1 = 200 + x + 2y;
       mip 0's rows are 32 bytes apart (16 of padding) */
    static unsigned char mip0[4][32], mip1[2][8], mip2[4];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            mip0[y][x * 4] = (x + 4 * y) * 10, mip0[y][x * 4 + 3] = 255;
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++)
            mip1[y][x * 4] = 200 + x + 2 * y;
    D3D11_SUBRESOURCE_DATA tex_init[3] = {{mip0, 32, 0}, {mip1, 8, 0}, {mip2, 4, 0}};
    ID3D11Texture2D *tex = tex2d(dev, 4, 4, 0, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, SRV, 0, tex_init);
    D3D11_TEXTURE2D_DESC td;
    ID3D11Texture2D_GetDesc(tex, &td);
    CHECK(td.MipLevels == 3, "MipLevels 0 gave %u mips", td.MipLevels);

    /* 2x2 R32_UINT, 4 slices: slice s texel (x, y) = 100 s + x + 2y */
    static UINT arr_data[4][4];
    D3D11_SUBRESOURCE_DATA arr_init[4];
    for (int s = 0; s < 4; s++) {
        for (int i = 0; i < 4; i++)
            arr_data[s][i] = 100 * s + i;
        arr_init[s] = (D3D11_SUBRESOURCE_DATA){arr_data[s], 8, 0};
    }
    ID3D11Texture2D *arr = tex2d(dev, 2, 2, 1, 4, DXGI_FORMAT_R32_UINT, D3D11_USAGE_DEFAULT, SRV, 0, arr_init);

    float strip_data[8];
    for (int i = 0; i < 8; i++)
        strip_data[i] = i * 0.5f;
    D3D11_TEXTURE1D_DESC d1 = {8, 1, 1, DXGI_FORMAT_R32_FLOAT, D3D11_USAGE_IMMUTABLE, SRV, 0, 0};
    D3D11_SUBRESOURCE_DATA strip_init = {strip_data, 0, 0};
    ID3D11Texture1D *strip = NULL;
    HR(ID3D11Device_CreateTexture1D(dev, &d1, &strip_init, &strip));

    ID3D11Texture2D *out2d = tex2d(dev, 4, 4, 1, 1, DXGI_FORMAT_R32G32B32A32_FLOAT, D3D11_USAGE_DEFAULT, UAV, 0, NULL);
    static UINT nines[16];
    for (int i = 0; i < 16; i++)
        nines[i] = 9;
    D3D11_TEXTURE3D_DESC d3 = {2, 2, 4, 1, DXGI_FORMAT_R32_UINT, D3D11_USAGE_DEFAULT, UAV, 0, 0};
    D3D11_SUBRESOURCE_DATA vol_init = {nines, 8, 16};
    ID3D11Texture3D *vol = NULL;
    HR(ID3D11Device_CreateTexture3D(dev, &d3, &vol_init, &vol));
    ID3D11Texture2D *typeless = tex2d(dev, 4, 4, 1, 1, DXGI_FORMAT_R32_TYPELESS, D3D11_USAGE_DEFAULT, UAV, 0, NULL);

    ID3D11ShaderResourceView *srv[3];
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)tex, NULL, &srv[0]));
    D3D11_SHADER_RESOURCE_VIEW_DESC sd = {0};
    sd.Format = DXGI_FORMAT_R32_UINT;
    sd.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
    sd.Texture2DArray.MostDetailedMip = 0;
    sd.Texture2DArray.MipLevels = 1;
    sd.Texture2DArray.FirstArraySlice = 1;
    sd.Texture2DArray.ArraySize = 2;
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)arr, &sd, &srv[1]));
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)strip, NULL, &srv[2]));
    ID3D11ShaderResourceView_GetDesc(srv[0], &sd);
    CHECK(sd.ViewDimension == D3D11_SRV_DIMENSION_TEXTURE2D && sd.Texture2D.MipLevels == 3 &&
              sd.Format == DXGI_FORMAT_R8G8B8A8_UNORM,
          "default view: dimension %d, %u mips", sd.ViewDimension, sd.Texture2D.MipLevels);

    ID3D11UnorderedAccessView *uav[3];
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)out2d, NULL, &uav[0]));
    D3D11_UNORDERED_ACCESS_VIEW_DESC ud = {0};
    ud.Format = DXGI_FORMAT_R32_UINT;
    ud.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE3D;
    ud.Texture3D.MipSlice = 0;
    ud.Texture3D.FirstWSlice = 1;
    ud.Texture3D.WSize = 2;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)vol, &ud, &uav[1]));
    ud.Format = DXGI_FORMAT_R32_FLOAT;
    ud.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2D;
    ud.Texture2D.MipSlice = 0;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)typeless, &ud, &uav[2]));

    /* a description with format UNKNOWN takes the resource's */
    ID3D11UnorderedAccessView *unknown = NULL;
    ud.Format = DXGI_FORMAT_UNKNOWN;
    ud.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2D;
    ud.Texture2D.MipSlice = 0;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)out2d, &ud, &unknown));
    ID3D11UnorderedAccessView_GetDesc(unknown, &ud);
    CHECK(ud.Format == DXGI_FORMAT_R32G32B32A32_FLOAT, "UNKNOWN became %d", ud.Format);
    ID3D11UnorderedAccessView_Release(unknown);

    /* refused: a view of a typeless texture without a format, a texture of
       width 0, slices past the array's end */
    ID3D11UnorderedAccessView *bad = NULL;
    CHECK(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)typeless, NULL, &bad) == E_INVALIDARG,
          "a view of a typeless texture without a description");
    D3D11_TEXTURE2D_DESC zero = {0, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, {1, 0}, D3D11_USAGE_DEFAULT, SRV, 0, 0};
    ID3D11Texture2D *none = NULL;
    CHECK(ID3D11Device_CreateTexture2D(dev, &zero, NULL, &none) == E_INVALIDARG, "a texture of width 0");
    ud.Format = DXGI_FORMAT_R32G32B32A32_UINT;
    ud.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2D;
    ud.Texture2D.MipSlice = 0;
    CHECK(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)out2d, &ud, &bad) == E_INVALIDARG,
          "a UINT view of a fully typed FLOAT texture");
    ID3D11ShaderResourceView *bad_srv = NULL;
    sd.Format = DXGI_FORMAT_R32_UINT;
    sd.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
    sd.Texture2DArray.MipLevels = 1;
    sd.Texture2DArray.FirstArraySlice = 3;
    sd.Texture2DArray.ArraySize = 2;
    CHECK(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)arr, &sd, &bad_srv) == E_INVALIDARG,
          "slices 3..5 of a 4-slice array");

    D3D11_SAMPLER_DESC smp_desc = {D3D11_FILTER_MIN_MAG_MIP_POINT, D3D11_TEXTURE_ADDRESS_CLAMP,
                                   D3D11_TEXTURE_ADDRESS_CLAMP, D3D11_TEXTURE_ADDRESS_CLAMP, 0, 1,
                                   D3D11_COMPARISON_NEVER, {0, 0, 0, 0}, 0, D3D11_FLOAT32_MAX};
    ID3D11SamplerState *smp = NULL;
    HR(ID3D11Device_CreateSamplerState(dev, &smp_desc, &smp));

    ID3D11ComputeShader *cs = load_shader(dev, "textures.dxbc");
    ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext_CSSetShaderResources(ctx, 0, 3, srv);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 3, uav, NULL);
    ID3D11DeviceContext_CSSetSamplers(ctx, 0, 1, &smp);
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);

    static float o[4][16];
    read_tex2d(dev, ctx, out2d, 0, o, 64, 4);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            float *t = &o[y][x * 4];
            float want1 = (200 + x / 2 + 2 * (y / 2)) / 255.0f, want0 = (x + 4 * y) * 10 / 255.0f;
            CHECK(t[0] == want1, "mip 1 at (%d, %d): %g, want %g", x, y, t[0], want1);
            CHECK(t[1] == want0, "mip 0 at (%d, %d): %g, want %g", x, y, t[1], want0);
            CHECK(t[2] == x * 0.5f, "1D at %d: %g", x, t[2]);
        }
    static float tl[16];
    read_tex2d(dev, ctx, typeless, 0, tl, 16, 4);
    for (int i = 0; i < 16; i++)
        CHECK(tl[i] == (float)i, "typeless texel %d: %g", i, tl[i]);

    /* the 3D texture through a staging map: its row and depth pitches */
    d3.Usage = D3D11_USAGE_STAGING;
    d3.BindFlags = 0;
    d3.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    ID3D11Texture3D *vs = NULL;
    HR(ID3D11Device_CreateTexture3D(dev, &d3, NULL, &vs));
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)vs, (ID3D11Resource *)vol);
    D3D11_MAPPED_SUBRESOURCE m;
    HR(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)vs, 0, D3D11_MAP_READ, 0, &m));
    CHECK(m.RowPitch >= 8 && m.DepthPitch >= 2 * m.RowPitch, "pitches %u %u", m.RowPitch, m.DepthPitch);
    for (UINT z = 0; z < 4; z++)
        for (UINT y = 0; y < 2; y++)
            for (UINT x = 0; x < 2; x++) {
                UINT v = *(UINT *)((char *)m.pData + z * m.DepthPitch + y * m.RowPitch + x * 4);
                UINT want = z == 1 ? 100 + x + 2 * y : z == 2 ? 2000 + 200 + x + 2 * y : 9;
                CHECK(v == want, "3D texel (%u, %u, %u): %u, want %u", x, y, z, v, want);
            }
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)vs, 0);

    /* UpdateSubresource of texels (1, 1)-(3, 3) of slice 2 of the array
       (subresource 2), then CopySubresourceRegion of its texel (1, 1) to
       texel (0, 0) of slice 0 */
    UINT patch[2][2] = {{7001, 7002}, {7003, 7004}};
    D3D11_BOX box = {1, 1, 0, 2, 2, 1};
    ID3D11DeviceContext_UpdateSubresource(ctx, (ID3D11Resource *)arr, 2, &box, patch, 8, 0);
    ID3D11DeviceContext_CopySubresourceRegion(ctx, (ID3D11Resource *)arr, 0, 0, 0, 0, (ID3D11Resource *)arr, 2,
                                              &box);
    UINT slice[4];
    read_tex2d(dev, ctx, arr, 2, slice, 8, 2);
    CHECK(slice[0] == 200 && slice[3] == 7001, "slice 2 after the update: %u %u", slice[0], slice[3]);
    read_tex2d(dev, ctx, arr, 0, slice, 8, 2);
    CHECK(slice[0] == 7001 && slice[1] == 1, "slice 0 after the copy: %u %u", slice[0], slice[1]);

    /* a float clear of the RGBA32F UAV */
    const float c[4] = {1.5f, -2, 0.25f, 8};
    ID3D11DeviceContext_ClearUnorderedAccessViewFloat(ctx, uav[0], c);
    read_tex2d(dev, ctx, out2d, 0, o, 64, 4);
    CHECK(o[3][12] == 1.5f && o[3][13] == -2 && o[3][14] == 0.25f && o[3][15] == 8, "cleared texel: %g %g %g %g",
          o[3][12], o[3][13], o[3][14], o[3][15]);

    ID3D11Texture3D_Release(vs);
    for (int i = 0; i < 3; i++) {
        ID3D11ShaderResourceView_Release(srv[i]);
        ID3D11UnorderedAccessView_Release(uav[i]);
    }
    ID3D11SamplerState_Release(smp);
    ID3D11ComputeShader_Release(cs);
    ID3D11Texture2D_Release(tex);
    ID3D11Texture2D_Release(arr);
    ID3D11Texture1D_Release(strip);
    ID3D11Texture2D_Release(out2d);
    ID3D11Texture3D_Release(vol);
    ID3D11Texture2D_Release(typeless);
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    return finish("textures");
}
