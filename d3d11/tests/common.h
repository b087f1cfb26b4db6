/* What the D3D11 test programs share: checks that count failures, device
 * creation, buffers, reading a resource back through a staging copy, and
 * loading a shader's DXBC from the directory given as argv[1]. */
#ifndef SM5SIM_D3D11_TEST_COMMON_H
#define SM5SIM_D3D11_TEST_COMMON_H

#define COBJMACROS
#define INITGUID
#include <d3d11_1.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static const char *shader_dir = ".";

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            failures++;                                                     \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
            printf(__VA_ARGS__);                                            \
            printf("\n");                                                   \
        }                                                                   \
    } while (0)

/* A call that must succeed; the program stops when it does not. */
#define HR(call)                                                            \
    do {                                                                    \
        HRESULT hr_ = (call);                                               \
        if (FAILED(hr_)) {                                                  \
            printf("FAIL %s:%d: %s = 0x%08lx\n", __FILE__, __LINE__, #call, \
                   (unsigned long)hr_);                                     \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

static inline void *load_file(const char *name, SIZE_T *size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", shader_dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("FAIL: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc(n);
    if (fread(p, 1, n, f) != (size_t)n) {
        printf("FAIL: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = n;
    return p;
}

static inline ID3D11ComputeShader *load_shader(ID3D11Device *dev, const char *name)
{
    SIZE_T n;
    void *code = load_file(name, &n);
    ID3D11ComputeShader *cs = NULL;
    HR(ID3D11Device_CreateComputeShader(dev, code, n, NULL, &cs));
    free(code);
    return cs;
}

static inline ID3D11Device *make_device(ID3D11DeviceContext **ctx)
{
    D3D_FEATURE_LEVEL want = D3D_FEATURE_LEVEL_11_0, got = 0;
    ID3D11Device *dev = NULL;
    HR(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, &want, 1,
                         D3D11_SDK_VERSION, &dev, &got, ctx));
    CHECK(got == D3D_FEATURE_LEVEL_11_0, "feature level 0x%x", got);
    return dev;
}

static inline ID3D11Buffer *make_buffer(ID3D11Device *dev, UINT bytes, UINT bind,
                                 UINT misc, UINT stride, const void *data)
{
    D3D11_BUFFER_DESC d = {bytes, D3D11_USAGE_DEFAULT, bind, 0, misc, stride};
    D3D11_SUBRESOURCE_DATA init = {data, 0, 0};
    ID3D11Buffer *b = NULL;
    HR(ID3D11Device_CreateBuffer(dev, &d, data ? &init : NULL, &b));
    return b;
}

/* The bytes of a buffer, through a staging copy and Map. */
static inline void read_buffer(ID3D11Device *dev, ID3D11DeviceContext *ctx,
                        ID3D11Buffer *b, void *out, UINT bytes)
{
    D3D11_BUFFER_DESC d;
    ID3D11Buffer_GetDesc(b, &d);
    d.Usage = D3D11_USAGE_STAGING;
    d.BindFlags = 0;
    d.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    d.MiscFlags = 0;
    ID3D11Buffer *staging = NULL;
    HR(ID3D11Device_CreateBuffer(dev, &d, NULL, &staging));
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)staging, (ID3D11Resource *)b);
    D3D11_MAPPED_SUBRESOURCE m;
    HR(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)staging, 0, D3D11_MAP_READ, 0, &m));
    memcpy(out, m.pData, bytes);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)staging, 0);
    ID3D11Buffer_Release(staging);
}

static inline int finish(const char *name)
{
    if (failures)
        printf("%s: %d failures\n", name, failures);
    else
        printf("%s: ok\n", name);
    return failures != 0;
}

#endif
