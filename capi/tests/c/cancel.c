/* Cancelling a dispatch from another thread, and input echoed clipped
 * (issue #44). capi/tests/it/c_programs.rs builds it (with -pthread)
 * against include/sm5sim.h and libsm5sim_capi and runs it with the
 * repository's root as its argument; exit status 0 is a pass.
 *
 * A mandelbrot dispatch whose loop never ends (max_iter 2^32 - 1) under a
 * 60 s timeout is cancelled by sm5_cancel from a second thread after
 * 300 ms: it returns SM5_ERROR_CANCELLED within a few seconds (it prints
 * how long the stop took). A token set before a dispatch stops it at once;
 * reset, or detached, the kernel runs again; a watchdog stop is still
 * SM5_ERROR_DISPATCH. Then each entry point that echoes a name is given a
 * 16 MiB one: its message shows 120 characters and how many bytes it left
 * out. */
#define _POSIX_C_SOURCE 200809L
#include "sm5sim.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static sm5_kernel *mandelbrot(sm5_device *device, sm5_resource **out, uint32_t max_iter) {
    char p[4096];
    sm5_shader *shader;
    sm5_kernel *k;
    snprintf(p, sizeof p, "%s/examples/mandelbrot/mandelbrot.dxbc", root);
    CHECK(sm5_shader_load(device, p, &shader));
    CHECK(sm5_kernel_create(shader, &k));
    sm5_shader_destroy(shader);
    CHECK(sm5_buffer_create(device, NULL, 64 * 64 * 4, out));
    CHECK(sm5_kernel_bind(k, "iterations", *out));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "width", 64));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "height", 64));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "max_iter", max_iter));
    return k;
}

static void *canceller(void *token) {
    sleep_ms(300);
    CHECK(sm5_cancel((const sm5_cancel_token *)token));
    return NULL;
}

static void cancel(void) {
    sm5_device_options o = {0};
    sm5_device *device;
    sm5_resource *it;
    sm5_kernel *k;
    sm5_cancel_token *token;
    pthread_t thread;
    uint32_t set = 7;
    double start, took;
    o.threads = 2;
    o.timeout_seconds = 60.0;
    CHECK(sm5_device_create(&o, &device));
    k = mandelbrot(device, &it, 0xffffffffu); /* the inner points never end */
    CHECK(sm5_cancel_token_create(&token));
    CHECK(sm5_cancel_is_set(token, &set));
    EXPECT(set == 0);
    CHECK(sm5_kernel_set_cancel(k, token));

    /* cancelled from another thread while it runs */
    EXPECT(pthread_create(&thread, NULL, canceller, token) == 0);
    start = now();
    EXPECT_FAIL(sm5_kernel_dispatch(k, 8, 8, 1, NULL), SM5_ERROR_CANCELLED, "cancelled");
    took = now() - start;
    EXPECT(pthread_join(thread, NULL) == 0);
    EXPECT(strstr(sm5_last_error_message(), "sm5_kernel_dispatch: ") ==
           sm5_last_error_message());
    EXPECT(took >= 0.25 && took < 10.0);
    printf("cancelled after %.3f s (sm5_cancel at 0.300 s): %s\n", took,
           sm5_last_error_message());
    CHECK(sm5_cancel_is_set(token, &set));
    EXPECT(set == 1);
    EXPECT(strcmp(sm5_status_name(SM5_ERROR_CANCELLED), "SM5_ERROR_CANCELLED") == 0);

    /* still set: the next dispatch stops at once, indirect ones too */
    start = now();
    EXPECT_FAIL(sm5_kernel_dispatch(k, 8, 8, 1, NULL), SM5_ERROR_CANCELLED, "cancelled");
    EXPECT(now() - start < 5.0);
    {
        uint32_t groups[3] = {8, 8, 1};
        sm5_resource *args;
        CHECK(sm5_buffer_create(device, groups, sizeof groups, &args));
        EXPECT_FAIL(sm5_kernel_dispatch_indirect(k, args, 0, NULL), SM5_ERROR_CANCELLED,
                    "cancelled");
        sm5_resource_destroy(args);
    }

    /* reset, a dispatch that ends runs to its end */
    CHECK(sm5_cancel_reset(token));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "max_iter", 50));
    CHECK(sm5_kernel_dispatch(k, 8, 8, 1, NULL));
    /* set again but detached: the kernel does not watch it */
    CHECK(sm5_cancel(token));
    CHECK(sm5_kernel_set_cancel(k, NULL));
    CHECK(sm5_kernel_dispatch(k, 8, 8, 1, NULL));
    /* the kernel keeps the flag: the token may go first */
    CHECK(sm5_kernel_set_cancel(k, token));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "max_iter", 0xffffffffu));
    sm5_cancel_token_destroy(token);
    EXPECT_FAIL(sm5_kernel_dispatch(k, 8, 8, 1, NULL), SM5_ERROR_CANCELLED, "cancelled");
    sm5_cancel_token_destroy(NULL);
    EXPECT_FAIL(sm5_cancel(NULL), SM5_ERROR_NULL_POINTER, "token is NULL");
    EXPECT_FAIL(sm5_cancel_token_create(NULL), SM5_ERROR_NULL_POINTER, "out is NULL");
    sm5_resource_destroy(it);
    sm5_kernel_destroy(k);
    sm5_device_destroy(device);

    /* a watchdog stop is not a cancellation */
    o.watchdog_warp_instructions = 1000;
    CHECK(sm5_device_create(&o, &device));
    k = mandelbrot(device, &it, 0xffffffffu);
    CHECK(sm5_cancel_token_create(&token));
    CHECK(sm5_kernel_set_cancel(k, token));
    EXPECT_FAIL(sm5_kernel_dispatch(k, 8, 8, 1, NULL), SM5_ERROR_DISPATCH, "dispatch stopped");
    sm5_cancel_token_destroy(token);
    sm5_resource_destroy(it);
    sm5_kernel_destroy(k);
    sm5_device_destroy(device);
}

/* the message of the last failure is short and shows the name clipped */
static void expect_clipped(const char *clipped) {
    const char *m = sm5_last_error_message();
    checks++;
    if (strlen(m) > 20000 || strstr(m, clipped) == NULL) {
        fprintf(stderr, "%s:%d: a message of %zu bytes without the clipped name: %.300s\n",
                __FILE__, __LINE__, strlen(m), m);
        exit(1);
    }
}

static void huge_names(void) {
    enum { HUGE = 16 << 20 };
    char *huge = malloc(HUGE + 1), *clipped = malloc(256);
    sm5_device *device;
    sm5_shader *s;
    sm5_kernel *k;
    sm5_resource *r, *it;
    sm5_view_desc view = {0};
    char p[4096];
    EXPECT(huge != NULL && clipped != NULL);
    memset(huge, 'n', HUGE);
    huge[HUGE] = 0;
    /* the first 120 characters, then what was left out */
    memset(clipped, 'n', 120);
    snprintf(clipped + 120, 136, "\xe2\x80\xa6(%d more bytes)", HUGE - 120);
    CHECK(sm5_device_create(NULL, &device));
    k = mandelbrot(device, &it, 10);
    CHECK(sm5_buffer_create(device, NULL, 64, &r));

    EXPECT_FAIL(sm5_kernel_bind(k, huge, r), SM5_ERROR_UNKNOWN_NAME, "is neither");
    expect_clipped(clipped);
    EXPECT_FAIL(sm5_kernel_bind_srv(k, huge, r, NULL), SM5_ERROR_UNKNOWN_NAME, "is neither");
    expect_clipped(clipped);
    EXPECT_FAIL(sm5_kernel_bind_null(k, huge), SM5_ERROR_UNKNOWN_NAME, "is neither");
    expect_clipped(clipped);
    EXPECT_FAIL(sm5_kernel_set_constant_u32(k, huge, "width", 1), SM5_ERROR_UNKNOWN_NAME,
                "is neither");
    expect_clipped(clipped);
    EXPECT_FAIL(sm5_kernel_set_constant_u32(k, "Params", huge, 1), SM5_ERROR_FIELD,
                "has no variable");
    expect_clipped(clipped);
    EXPECT_FAIL(sm5_kernel_bind_sampler(k, huge, NULL, NULL), SM5_ERROR_UNKNOWN_NAME, "");
    expect_clipped(clipped);
    CHECK(sm5_kernel_bind_sampler(k, "s0", NULL, NULL));
    EXPECT_FAIL(sm5_kernel_bind_sampler(k, "s0", huge, NULL), SM5_ERROR_INVALID_ARGUMENT,
                "no D3D11 filter");
    expect_clipped(clipped);
    EXPECT_FAIL(sm5_kernel_bind_sampler(k, "s0", NULL, huge), SM5_ERROR_INVALID_ARGUMENT,
                "no D3D11 address mode");
    expect_clipped(clipped);
    view.kind = SM5_VIEW_TYPED;
    view.format = huge;
    EXPECT_FAIL(sm5_kernel_bind_uav(k, "iterations", r, &view), SM5_ERROR_RESOURCE,
                "typed-buffer format");
    expect_clipped(clipped);
    view.kind = SM5_VIEW_TEXTURE;
    view.format = NULL;
    view.dimension = huge;
    EXPECT_FAIL(sm5_kernel_bind_uav(k, "iterations", r, &view), SM5_ERROR_INVALID_ARGUMENT,
                "no view dimension");
    expect_clipped(clipped);
    view.dimension = "texture2d";
    view.format = huge;
    EXPECT_FAIL(sm5_kernel_bind_uav(k, "iterations", r, &view), SM5_ERROR_INVALID_ARGUMENT,
                "no DXGI format");
    expect_clipped(clipped);
    EXPECT_FAIL(sm5_texture2d_create(device, huge, 1, 1, NULL, 0, &r), SM5_ERROR_INVALID_ARGUMENT,
                "no DXGI format");
    expect_clipped(clipped);
    EXPECT_FAIL(sm5_shader_from_bytes(device, "DXBC", 4, huge, &s), SM5_ERROR_LOAD, "");
    expect_clipped(clipped);
    /* a path too long to open: the OS's error, the path clipped */
    snprintf(p, sizeof p, "%s/", root);
    memcpy(huge, p, strlen(p));
    EXPECT_FAIL(sm5_shader_load(device, huge, &s), SM5_ERROR_IO, "more bytes)");
    EXPECT(strlen(sm5_last_error_message()) < 20000);
    free(huge);
    free(clipped);
    sm5_resource_destroy(it);
    sm5_kernel_destroy(k);
    sm5_device_destroy(device);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s REPOSITORY_ROOT\n", argv[0]);
        return 2;
    }
    root = argv[1];
    cancel();
    huge_names();
    printf("ok: %d checks\n", checks);
    return 0;
}
