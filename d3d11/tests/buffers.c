/* Buffer views and the commands on buffers: raw (BUFFEREX, R32_TYPELESS)
 * and typed (R8G8B8A8_UNORM → float, R32_FLOAT) views, structured views of
 * element ranges, a dynamic constant buffer written by Map(WRITE_DISCARD),
 * UpdateSubresource with a box, CopySubresourceRegion, UAV clears, a
 * staging buffer written by Map(WRITE), and the maps D3D11 refuses. */
#include "common.h"

static ID3D11Buffer *buffer(ID3D11Device *dev, UINT bytes, UINT bind, UINT misc, UINT stride,
                            D3D11_USAGE usage, UINT cpu, const void *data)
{
    D3D11_BUFFER_DESC d = {bytes, usage, bind, cpu, misc, stride};
    D3D11_SUBRESOURCE_DATA init = {data, 0, 0};
    ID3D11Buffer *b = NULL;
    HR(ID3D11Device_CreateBuffer(dev, &d, data ? &init : NULL, &b));
    return b;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        shader_dir = argv[1];
    ID3D11DeviceContext *ctx;
    ID3D11Device *dev = make_device(&ctx);
    const UINT SRV = D3D11_BIND_SHADER_RESOURCE, UAV = D3D11_BIND_UNORDERED_ACCESS;
    UINT raw[8], ranged[16], ranged_out[12];
    unsigned char rgba[8][4];
    for (int i = 0; i < 8; i++) {
        raw[i] = i + 1;
        rgba[i][0] = i * 10, rgba[i][1] = 0, rgba[i][2] = 0, rgba[i][3] = 255;
    }
    for (int i = 0; i < 16; i++)
        ranged[i] = 1000 + i;
    for (int i = 0; i < 12; i++)
        ranged_out[i] = 7;
    ID3D11Buffer *b_raw = buffer(dev, sizeof raw, SRV, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0,
                                 D3D11_USAGE_DEFAULT, 0, raw);
    ID3D11Buffer *b_rgba = buffer(dev, sizeof rgba, SRV, 0, 0, D3D11_USAGE_DEFAULT, 0, rgba);
    ID3D11Buffer *b_ranged = buffer(dev, sizeof ranged, SRV, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4,
                                    D3D11_USAGE_DEFAULT, 0, ranged);
    ID3D11Buffer *b_out = buffer(dev, 8 * 16, UAV, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0,
                                 D3D11_USAGE_DEFAULT, 0, NULL);
    ID3D11Buffer *b_typed = buffer(dev, 8 * 4, UAV, 0, 0, D3D11_USAGE_DEFAULT, 0, NULL);
    ID3D11Buffer *b_rout = buffer(dev, sizeof ranged_out, UAV, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4,
                                  D3D11_USAGE_DEFAULT, 0, ranged_out);
    ID3D11Buffer *cb = buffer(dev, 16, D3D11_BIND_CONSTANT_BUFFER, 0, 0, D3D11_USAGE_DYNAMIC,
                              D3D11_CPU_ACCESS_WRITE, NULL);

    ID3D11ShaderResourceView *srv[3];
    D3D11_SHADER_RESOURCE_VIEW_DESC sd = {0};
    sd.Format = DXGI_FORMAT_R32_TYPELESS;
    sd.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
    sd.BufferEx.FirstElement = 0;
    sd.BufferEx.NumElements = 8;
    sd.BufferEx.Flags = D3D11_BUFFEREX_SRV_FLAG_RAW;
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)b_raw, &sd, &srv[0]));
    sd.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    sd.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
    sd.Buffer.FirstElement = 0;
    sd.Buffer.NumElements = 8;
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)b_rgba, &sd, &srv[1]));
    sd.Format = DXGI_FORMAT_UNKNOWN;
    sd.Buffer.FirstElement = 4;
    sd.Buffer.NumElements = 8;
    HR(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)b_ranged, &sd, &srv[2]));
    D3D11_SHADER_RESOURCE_VIEW_DESC got;
    ID3D11ShaderResourceView_GetDesc(srv[0], &got);
    CHECK(got.ViewDimension == D3D11_SRV_DIMENSION_BUFFEREX && got.BufferEx.Flags == D3D11_BUFFEREX_SRV_FLAG_RAW &&
              got.BufferEx.NumElements == 8, "GetDesc gives dimension %d", got.ViewDimension);

    ID3D11UnorderedAccessView *uav[3];
    D3D11_UNORDERED_ACCESS_VIEW_DESC ud = {0};
    ud.Format = DXGI_FORMAT_R32_TYPELESS;
    ud.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    ud.Buffer.FirstElement = 0;
    ud.Buffer.NumElements = 32;
    ud.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_RAW;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)b_out, &ud, &uav[0]));
    ud.Format = DXGI_FORMAT_R32_FLOAT;
    ud.Buffer.NumElements = 8;
    ud.Buffer.Flags = 0;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)b_typed, &ud, &uav[1]));
    ud.Format = DXGI_FORMAT_UNKNOWN;
    ud.Buffer.FirstElement = 2;
    ud.Buffer.NumElements = 8;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)b_rout, &ud, &uav[2]));

    /* views D3D11 refuses: past the end, a raw view of a buffer without
       ALLOW_RAW_VIEWS, a structured view with a format */
    ID3D11ShaderResourceView *bad = NULL;
    sd.Format = DXGI_FORMAT_UNKNOWN;
    sd.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
    sd.Buffer.FirstElement = 10;
    sd.Buffer.NumElements = 8;
    CHECK(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)b_ranged, &sd, &bad) == E_INVALIDARG,
          "a view past the buffer's end");
    sd.Format = DXGI_FORMAT_R32_TYPELESS;
    sd.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
    sd.BufferEx.FirstElement = 0;
    sd.BufferEx.NumElements = 8;
    sd.BufferEx.Flags = D3D11_BUFFEREX_SRV_FLAG_RAW;
    CHECK(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)b_rgba, &sd, &bad) == E_INVALIDARG,
          "a raw view of a buffer without ALLOW_RAW_VIEWS");
    sd.Format = DXGI_FORMAT_UNKNOWN;
    sd.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
    sd.Buffer.FirstElement = 0;
    sd.Buffer.NumElements = 4;
    CHECK(ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)b_rout, &sd, &bad) == E_INVALIDARG,
          "an SRV of a buffer without BIND_SHADER_RESOURCE");
    CHECK(bad == NULL, "a refused view was returned");

    /* a buffer of 6 bytes: D3D11 takes any ByteWidth */
    const unsigned char six[6] = {1, 2, 3, 4, 5, 6};
    ID3D11Buffer *b6 = buffer(dev, 6, SRV, 0, 0, D3D11_USAGE_DEFAULT, 0, six);
    unsigned char back6[6] = {0};
    read_buffer(dev, ctx, b6, back6, 6);
    CHECK(memcmp(back6, six, 6) == 0, "a 6-byte buffer: %u %u", back6[0], back6[5]);
    ID3D11Buffer_Release(b6);

    D3D11_MAPPED_SUBRESOURCE m;
    HR(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)cb, 0, D3D11_MAP_WRITE_DISCARD, 0, &m));
    CHECK(((UINT_PTR)m.pData & 15) == 0, "Map's pointer %p is not 16-byte aligned", m.pData);
    ((UINT *)m.pData)[0] = 3;
    ((UINT *)m.pData)[1] = 1;
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)cb, 0);

    ID3D11ComputeShader *cs = load_shader(dev, "buffers.dxbc");
    ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext_CSSetShaderResources(ctx, 0, 3, srv);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 3, uav, NULL);
    ID3D11DeviceContext_CSSetConstantBuffers(ctx, 0, 1, &cb);
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);

    UINT out[32], rout[12];
    float typed[8];
    read_buffer(dev, ctx, b_out, out, sizeof out);
    read_buffer(dev, ctx, b_typed, typed, sizeof typed);
    read_buffer(dev, ctx, b_rout, rout, sizeof rout);
    for (int i = 0; i < 8; i++) {
        CHECK(out[i * 4] == (i + 1) * 3 + 1, "raw: out[%d] = %u", i, out[i * 4]);
        CHECK(out[i * 4 + 1] == 1004 + (UINT)i, "range: ranged[%d] = %u", i, out[i * 4 + 1]);
        CHECK(out[i * 4 + 2] == 8 && out[i * 4 + 3] == 4, "GetDimensions: %u elements of %u bytes",
              out[i * 4 + 2], out[i * 4 + 3]);
        float want = (float)(i * 10) / 255.0f + 1.0f;
        CHECK(typed[i] - want < 1e-6f && want - typed[i] < 1e-6f, "unorm: typed[%d] = %g, want %g", i,
              typed[i], want);
    }
    for (int i = 0; i < 12; i++) {
        UINT want = i >= 2 && i < 10 ? 100 + i - 2 : 7;
        CHECK(rout[i] == want, "ranged UAV: element %d = %u, want %u", i, rout[i], want);
    }

    /* UpdateSubresource of words 2 and 3 of the raw input, then again */
    UINT two[2] = {50, 60};
    D3D11_BOX box = {8, 0, 0, 16, 1, 1};
    ID3D11DeviceContext_UpdateSubresource(ctx, (ID3D11Resource *)b_raw, 0, &box, two, 0, 0);
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);
    read_buffer(dev, ctx, b_out, out, sizeof out);
    CHECK(out[2 * 4] == 151 && out[3 * 4] == 181 && out[4 * 4] == 16, "after UpdateSubresource: %u %u %u",
          out[8], out[12], out[16]);

    /* clears: a structured range, a typed float view, a raw view */
    const UINT five[4] = {5, 6, 7, 8};
    const float quarter[4] = {0.25f, 0, 0, 0};
    const UINT pattern[4] = {0xABCD1234u, 0, 0, 0};
    ID3D11DeviceContext_ClearUnorderedAccessViewUint(ctx, uav[2], five);
    ID3D11DeviceContext_ClearUnorderedAccessViewFloat(ctx, uav[1], quarter);
    ID3D11DeviceContext_ClearUnorderedAccessViewUint(ctx, uav[0], pattern);
    read_buffer(dev, ctx, b_rout, rout, sizeof rout);
    read_buffer(dev, ctx, b_typed, typed, sizeof typed);
    read_buffer(dev, ctx, b_out, out, sizeof out);
    for (int i = 0; i < 12; i++)
        CHECK(rout[i] == (i >= 2 && i < 10 ? 5u : 7u), "clear: element %d = %u", i, rout[i]);
    for (int i = 0; i < 8; i++)
        CHECK(typed[i] == 0.25f, "float clear: %g", typed[i]);
    for (int i = 0; i < 32; i++)
        CHECK(out[i] == 0xABCD1234u, "raw clear: word %d = %#x", i, out[i]);

    /* CopySubresourceRegion: bytes 0..16 of the ranged input to byte 32 */
    D3D11_BOX first4 = {0, 0, 0, 16, 1, 1};
    ID3D11DeviceContext_CopySubresourceRegion(ctx, (ID3D11Resource *)b_rout, 0, 32, 0, 0,
                                              (ID3D11Resource *)b_ranged, 0, &first4);
    read_buffer(dev, ctx, b_rout, rout, sizeof rout);
    CHECK(rout[7] == 5 && rout[8] == 1000 && rout[11] == 1003, "CopySubresourceRegion: %u %u %u", rout[7],
          rout[8], rout[11]);

    /* a staging buffer written by Map(WRITE), copied to a default buffer */
    ID3D11Buffer *up = buffer(dev, 16, 0, 0, 0, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_WRITE, NULL);
    HR(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)up, 0, D3D11_MAP_WRITE, 0, &m));
    for (int i = 0; i < 4; i++)
        ((UINT *)m.pData)[i] = 0x10 + i;
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)up, 0);
    ID3D11DeviceContext_CopySubresourceRegion(ctx, (ID3D11Resource *)b_rout, 0, 0, 0, 0, (ID3D11Resource *)up, 0,
                                              NULL);
    read_buffer(dev, ctx, b_rout, rout, sizeof rout);
    CHECK(rout[0] == 0x10 && rout[3] == 0x13 && rout[4] == 5, "staging upload: %#x %#x %u", rout[0], rout[3],
          rout[4]);

    /* maps D3D11 refuses: a default buffer, a read of a write-only staging
       buffer, a second map of a mapped subresource */
    CHECK(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)b_raw, 0, D3D11_MAP_READ, 0, &m) == E_INVALIDARG,
          "Map of a default buffer");
    CHECK(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)up, 0, D3D11_MAP_READ, 0, &m) == E_INVALIDARG,
          "Map(READ) of a write-only staging buffer");
    HR(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)up, 0, D3D11_MAP_WRITE, 0, &m));
    CHECK(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)up, 0, D3D11_MAP_WRITE, 0, &m) == E_INVALIDARG,
          "a second Map");
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)up, 0);

    ID3D11Buffer_Release(up);
    for (int i = 0; i < 3; i++) {
        ID3D11ShaderResourceView_Release(srv[i]);
        ID3D11UnorderedAccessView_Release(uav[i]);
    }
    ID3D11ComputeShader_Release(cs);
    ID3D11Buffer *all[] = {b_raw, b_rgba, b_ranged, b_out, b_typed, b_rout, cb};
    for (int i = 0; i < 7; i++)
        ID3D11Buffer_Release(all[i]);
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    return finish("buffers");
}
