/* The installed library (capi/install.sh), as a program outside the
 * repository uses it: the header from the include path, the library from
 * pkg-config's or CMake's link line. examples/saxpy_structured (y = a·x + y
 * over 1000 float4 elements) checked element by element, and one refusal
 * with its message. Argument: the repository's root. */
#include <sm5sim.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                           \
    do {                                                                      \
        sm5_status s_ = (call);                                               \
        if (s_ != SM5_OK) {                                                   \
            fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, \
                    #call, sm5_status_name(s_), sm5_last_error_message());    \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

enum { N = 1000 };

int main(int argc, char **argv) {
    static float x[N][4], y[N][4];
    char path[4096];
    sm5_device_options options = {0};
    sm5_device *device;
    sm5_shader *shader;
    sm5_kernel *kernel;
    sm5_resource *xb, *yb;
    sm5_resource *bad = NULL;
    sm5_status status;

    if (argc != 2) {
        fprintf(stderr, "usage: installed REPOSITORY\n");
        return 2;
    }
    snprintf(path, sizeof path, "%s/examples/saxpy_structured/saxpy_structured.dxbc",
             argv[1]);
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 4; c++) {
            x[i][c] = (float)(i * 4 + c);
            y[i][c] = 1.0f;
        }

    options.threads = 2;
    CHECK(sm5_device_create(&options, &device));
    CHECK(sm5_shader_load(device, path, &shader));
    CHECK(sm5_buffer_create(device, x, sizeof x, &xb));
    CHECK(sm5_buffer_create(device, y, sizeof y, &yb));
    CHECK(sm5_kernel_create(shader, &kernel));
    CHECK(sm5_kernel_bind(kernel, "x", xb));
    CHECK(sm5_kernel_bind(kernel, "y", yb));
    CHECK(sm5_kernel_set_constant_f32(kernel, "Params", "a", 2.0f));
    CHECK(sm5_kernel_set_constant_u32(kernel, "Params", "element_count", N));
    CHECK(sm5_kernel_dispatch(kernel, (N + 127) / 128, 1, 1, NULL));
    CHECK(sm5_resource_read(yb, y, sizeof y));
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 4; c++)
            if (y[i][c] != 2.0f * (float)(i * 4 + c) + 1.0f) {
                fprintf(stderr, "y[%d][%d] = %g, expected %g\n", i, c, y[i][c],
                        2.0f * (float)(i * 4 + c) + 1.0f);
                return 1;
            }

    /* a refusal, with its status and message */
    status = sm5_buffer_create(device, NULL, 3, &bad);
    if (status != SM5_ERROR_RESOURCE || bad != NULL ||
        strstr(sm5_last_error_message(), "multiple of 4") == NULL) {
        fprintf(stderr, "sm5_buffer_create of 3 bytes: %s: %s\n", sm5_status_name(status),
                sm5_last_error_message());
        return 1;
    }

    sm5_kernel_destroy(kernel);
    sm5_resource_destroy(xb);
    sm5_resource_destroy(yb);
    sm5_shader_destroy(shader);
    sm5_device_destroy(device);
    printf("ok: sm5sim %s: y = 2x + 1 over %d float4 elements\n", sm5_version(), N);
    return 0;
}
