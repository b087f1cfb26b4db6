/* HLSL compiled at run time, as many programs do: D3DCompile (with a
 * macro, and with debug information), D3DReflect's thread-group size,
 * then CreateComputeShader and a dispatch. The shader reverses each group
 * of 64 through groupshared memory; with the macro RACE its barrier is
 * left out, which SM5SIM_CHECK=1 reports at its HLSL line. Under Wine it
 * needs Microsoft's d3dcompiler_47.dll beside it (Wine's own compiles
 * few compute shaders). */
#include "common.h"
#include <d3dcompiler.h>

static const char source[] =
    "RWStructuredBuffer<uint> output : register(u0);\n"
    "groupshared uint s[64];\n"
    "[numthreads(64, 1, 1)]\n"
    "void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)\n"
    "{\n"
    "    s[gi] = id.x;\n"
    "#ifndef RACE\n"
    "    GroupMemoryBarrierWithGroupSync();\n"
    "#endif\n"
    "    output[id.x] = s[63 - gi];\n"
    "}\n";

int main(int argc, char **argv)
{
    int race = argc > 2 && strcmp(argv[2], "race") == 0;
    D3D_SHADER_MACRO macros[] = {{"RACE", "1"}, {NULL, NULL}};
    ID3DBlob *code = NULL, *errors = NULL;
    HRESULT hr = D3DCompile(source, sizeof source - 1, "reverse.hlsl", race ? macros : NULL, NULL, "main", "cs_5_0",
                            D3DCOMPILE_DEBUG | D3DCOMPILE_SKIP_OPTIMIZATION, 0, &code, &errors);
    if (FAILED(hr)) {
        printf("FAIL: D3DCompile 0x%08lx: %s\n", (unsigned long)hr,
               errors ? (const char *)ID3D10Blob_GetBufferPointer(errors) : "");
        return 1;
    }
    ID3D11ShaderReflection *refl = NULL;
    HR(D3DReflect(ID3D10Blob_GetBufferPointer(code), ID3D10Blob_GetBufferSize(code), &IID_ID3D11ShaderReflection,
                  (void **)&refl));
    UINT gx = 0, gy = 0, gz = 0;
    refl->lpVtbl->GetThreadGroupSize(refl, &gx, &gy, &gz);
    CHECK(gx == 64 && gy == 1 && gz == 1, "thread group %u %u %u", gx, gy, gz);
    refl->lpVtbl->Release(refl);

    ID3D11DeviceContext *ctx;
    ID3D11Device *dev = make_device(&ctx);
    ID3D11ComputeShader *cs = NULL;
    HR(ID3D11Device_CreateComputeShader(dev, ID3D10Blob_GetBufferPointer(code), ID3D10Blob_GetBufferSize(code), NULL,
                                        &cs));
    enum { N = 256 };
    ID3D11Buffer *out = make_buffer(dev, N * 4, D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4,
                                    NULL);
    ID3D11UnorderedAccessView *uav;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)out, NULL, &uav));
    ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &uav, NULL);
    ID3D11DeviceContext_Dispatch(ctx, N / gx, 1, 1);
    UINT v[N];
    read_buffer(dev, ctx, out, v, sizeof v);
    if (!race) {
        int wrong = 0;
        for (int i = 0; i < N; i++)
            wrong += v[i] != (UINT)(i / 64 * 64 + 63 - i % 64);
        CHECK(wrong == 0, "%d of %d elements wrong (v[0] = %u)", wrong, N, v[0]);
    }
    ID3D10Blob_Release(code);
    ID3D11ComputeShader_Release(cs);
    ID3D11UnorderedAccessView_Release(uav);
    ID3D11Buffer_Release(out);
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    return finish(race ? "runtime_compile race" : "runtime_compile");
}
