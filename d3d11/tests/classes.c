/* Class linkage: a shader created with a linkage, class instances created
 * by type name (CreateClassInstance) and bound to its three interface
 * slots at CSSetShader, which choose the methods its interface calls run;
 * the instances' names and descriptions; the bindings D3D11 refuses. */
#include "common.h"

static ID3D11ClassInstance *instance(ID3D11ClassLinkage *l, const char *type)
{
    ID3D11ClassInstance *i = NULL;
    HR(ID3D11ClassLinkage_CreateClassInstance(l, type, 0, 0, 0, 0, &i));
    return i;
}

static void run(ID3D11Device *dev, ID3D11DeviceContext *ctx, ID3D11ComputeShader *cs,
                ID3D11ClassInstance **inst, ID3D11UnorderedAccessView *uav, ID3D11Buffer *out, UINT *v)
{
    const UINT zero[4] = {0, 0, 0, 0};
    ID3D11DeviceContext_ClearUnorderedAccessViewUint(ctx, uav, zero);
    ID3D11DeviceContext_CSSetShader(ctx, cs, inst, 3);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &uav, NULL);
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);
    read_buffer(dev, ctx, out, v, 32);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        shader_dir = argv[1];
    ID3D11DeviceContext *ctx;
    ID3D11Device *dev = make_device(&ctx);
    ID3D11ClassLinkage *linkage = NULL;
    HR(ID3D11Device_CreateClassLinkage(dev, &linkage));
    SIZE_T n;
    void *code = load_file("classes.dxbc", &n);
    ID3D11ComputeShader *cs = NULL;
    HR(ID3D11Device_CreateComputeShader(dev, code, n, linkage, &cs));
    free(code);
    ID3D11Buffer *out = make_buffer(dev, 32, D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, NULL);
    ID3D11UnorderedAccessView *uav;
    HR(ID3D11Device_CreateUnorderedAccessView(dev, (ID3D11Resource *)out, NULL, &uav));

    ID3D11ClassInstance *twice = instance(linkage, "Twice"), *plus7 = instance(linkage, "Plus7");
    ID3D11ClassInstance *times3 = instance(linkage, "Times3"), *times5 = instance(linkage, "Times5");
    char name[16];
    SIZE_T len = sizeof name;
    ID3D11ClassInstance_GetTypeName(twice, name, &len);
    CHECK(strcmp(name, "Twice") == 0 && len == 6, "GetTypeName: %s (%u)", name, (unsigned)len);
    D3D11_CLASS_INSTANCE_DESC d;
    ID3D11ClassInstance_GetDesc(twice, &d);
    CHECK(d.Created, "a created instance's description");
    ID3D11ClassLinkage *back = NULL;
    ID3D11ClassInstance_GetClassLinkage(twice, &back);
    CHECK(back == linkage, "GetClassLinkage");
    if (back)
        ID3D11ClassLinkage_Release(back);

    /* slots: op (0), sc[0] (1), sc[1] (2) */
    UINT v[8];
    ID3D11ClassInstance *first[3] = {twice, times3, times5};
    run(dev, ctx, cs, first, uav, out, v);
    for (UINT t = 0; t < 8; t++)
        CHECK(v[t] == 13 * t, "Twice, Times3, Times5: output[%u] = %u, want %u", t, v[t], 13 * t);
    ID3D11ClassInstance *second[3] = {plus7, times5, times3};
    run(dev, ctx, cs, second, uav, out, v);
    for (UINT t = 0; t < 8; t++)
        CHECK(v[t] == 8 * t + 21, "Plus7, Times5, Times3: output[%u] = %u, want %u", t, v[t], 8 * t + 21);
    ID3D11ClassInstance *got[3] = {NULL, NULL, NULL};
    UINT count = 3;
    ID3D11ComputeShader *got_cs = NULL;
    ID3D11DeviceContext_CSGetShader(ctx, &got_cs, got, &count);
    CHECK(got_cs == cs && count == 3 && got[0] == plus7 && got[2] == times3, "CSGetShader: %u instances", count);
    if (got_cs)
        ID3D11ComputeShader_Release(got_cs);
    for (int i = 0; i < 3; i++)
        if (got[i])
            ID3D11ClassInstance_Release(got[i]);

    /* refused: a class the slot's interface does not have (nothing runs) */
    ID3D11ClassInstance *wrong[3] = {times3, times5, times3};
    run(dev, ctx, cs, wrong, uav, out, v);
    CHECK(v[3] == 0, "a dispatch with a class the slot does not take ran: %u", v[3]);
    ID3D11ClassInstance *none = (ID3D11ClassInstance *)1;
    CHECK(ID3D11ClassLinkage_GetClassInstance(linkage, "nothing", 0, &none) == E_INVALIDARG,
          "GetClassInstance of a name no shader declares");

    ID3D11ClassInstance *all[4] = {twice, plus7, times3, times5};
    for (int i = 0; i < 4; i++)
        ID3D11ClassInstance_Release(all[i]);
    ID3D11ClassLinkage_Release(linkage);
    ID3D11ComputeShader_Release(cs);
    ID3D11UnorderedAccessView_Release(uav);
    ID3D11Buffer_Release(out);
    ID3D11DeviceContext_Release(ctx);
    ULONG left = ID3D11Device_Release(dev);
    CHECK(left == 0, "the device has %lu references left", (unsigned long)left);
    return finish("classes");
}
