/* The C API's test program (capi/tests/it/c_programs.rs builds it against
 * include/sm5sim.h and libsm5sim_capi, and runs it with the repository's
 * root as its argument; exit status 0 is a pass).
 *
 * It runs six of the example workloads through the C API against C
 * references of the same algorithms (saxpy_structured, histogram, matmul,
 * mandelbrot, gaussian_blur on a texture, reduce from its listing with
 * constants as bytes), under two device configurations; the concurrency
 * checker on a seeded race; the profile and the watchdog; reflection; and
 * the API's refusals of bad input, each with its status and a message
 * naming what is wrong.
 *
 * Float results are compared bit for bit: sm5sim evaluates mad unfused, as
 * the references write a * b + c (built with -ffp-contract=off). */
#include "sm5sim.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static char *path(const char *relative) {
    static char buf[8][4096];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/%s", root, relative);
    return p;
}

static uint32_t rng_state;
static uint32_t next_u32(void) { /* xorshift32 */
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}
/* a float in [lo, hi) */
static float next_float(float lo, float hi) {
    return lo + (hi - lo) * (float)(next_u32() >> 8) / 16777216.0f;
}

static sm5_kernel *kernel_of(sm5_device *device, const char *example) {
    char rel[256];
    sm5_shader *shader;
    sm5_kernel *kernel;
    snprintf(rel, sizeof rel, "examples/%s/%s.dxbc", example, example);
    CHECK(sm5_shader_load(device, path(rel), &shader));
    CHECK(sm5_kernel_create(shader, &kernel));
    sm5_shader_destroy(shader); /* the kernel keeps what it needs */
    return kernel;
}

static void saxpy(sm5_device *device) {
    enum { N = 1001 }; /* float4 elements, not a multiple of the group (128) */
    static float x[N][4], y0[N][4], y[N][4], want[N][4];
    const float a = 1.7f;
    sm5_resource *xr, *yr;
    sm5_kernel *k = kernel_of(device, "saxpy_structured");
    rng_state = 7;
    for (int i = 0; i < N; i++)
        for (int c = 0; c < 4; c++) {
            x[i][c] = next_float(-10, 10);
            y0[i][c] = next_float(-10, 10);
            want[i][c] = a * x[i][c] + y0[i][c];
        }
    CHECK(sm5_buffer_create(device, x, sizeof x, &xr));
    CHECK(sm5_buffer_create(device, y0, sizeof y0, &yr));
    CHECK(sm5_kernel_bind(k, "x", xr)); /* t0, structured, stride 16 */
    CHECK(sm5_kernel_bind_uav(k, "y", yr, NULL));
    CHECK(sm5_kernel_set_constant_f32(k, "Params", "a", a));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "element_count", N));
    CHECK(sm5_kernel_dispatch(k, (N + 127) / 128, 1, 1, NULL));
    CHECK(sm5_resource_read(yr, y, sizeof y));
    EXPECT(memcmp(y, want, sizeof y) == 0);
    sm5_resource_destroy(xr);
    sm5_resource_destroy(yr);
    sm5_kernel_destroy(k);
}

static void histogram(sm5_device *device) {
    enum { N = 20003 };
    static uint32_t keys[N];
    uint32_t want[256] = {0}, bins[256];
    sm5_resource *kr, *br;
    sm5_dispatch_result *result;
    sm5_dispatch_stats stats;
    uint32_t group[3];
    sm5_kernel *k = kernel_of(device, "histogram");
    rng_state = 1;
    for (int i = 0; i < N; i++) {
        keys[i] = next_u32();
        want[keys[i] & 255]++;
    }
    CHECK(sm5_buffer_create(device, keys, sizeof keys, &kr));
    CHECK(sm5_buffer_create(device, NULL, sizeof bins, &br)); /* zeros */
    CHECK(sm5_kernel_bind_srv(k, "keys", kr, NULL));
    CHECK(sm5_kernel_bind(k, "u0", br)); /* by slot */
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "key_count", N));
    {
        sm5_shader *s;
        CHECK(sm5_shader_load(device, path("examples/histogram/histogram.dxbc"), &s));
        CHECK(sm5_shader_thread_group(s, group));
        sm5_shader_destroy(s);
    }
    EXPECT(group[0] == 256 && group[1] == 1 && group[2] == 1);
    CHECK(sm5_kernel_dispatch(k, (N + 255) / 256, 1, 1, &result));
    CHECK(sm5_result_stats(result, &stats));
    EXPECT(stats.groups == (N + 255) / 256);
    EXPECT(stats.threads == stats.groups * 256);
    CHECK(sm5_resource_read(br, bins, sizeof bins));
    EXPECT(memcmp(bins, want, sizeof bins) == 0);
    sm5_result_destroy(result);
    sm5_resource_destroy(kr);
    sm5_resource_destroy(br);
    sm5_kernel_destroy(k);
}

static void matmul(sm5_device *device) {
    enum { N = 32 };
    static float a[N * N], b[N * N], c[N * N], want[N * N];
    sm5_resource *ar, *br, *cr;
    sm5_kernel *k = kernel_of(device, "matmul");
    rng_state = 5;
    for (int i = 0; i < N * N; i++) {
        a[i] = next_float(-1, 1);
        b[i] = next_float(-1, 1);
    }
    for (int r = 0; r < N; r++)
        for (int col = 0; col < N; col++) {
            float acc = 0.0f;
            for (int i = 0; i < N; i++)
                acc += a[r * N + i] * b[i * N + col];
            want[r * N + col] = acc;
        }
    CHECK(sm5_buffer_create(device, a, sizeof a, &ar));
    CHECK(sm5_buffer_create(device, b, sizeof b, &br));
    CHECK(sm5_buffer_create(device, NULL, sizeof c, &cr));
    CHECK(sm5_kernel_bind(k, "A", ar));
    CHECK(sm5_kernel_bind(k, "B", br));
    CHECK(sm5_kernel_bind(k, "C", cr));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "n", N));
    CHECK(sm5_kernel_dispatch(k, N / 16, N / 16, 1, NULL));
    CHECK(sm5_resource_read(cr, c, sizeof c));
    EXPECT(memcmp(c, want, sizeof c) == 0);
    sm5_resource_destroy(ar);
    sm5_resource_destroy(br);
    sm5_resource_destroy(cr);
    sm5_kernel_destroy(k);
}

static void mandelbrot(sm5_device *device, int profiled) {
    enum { W = 50, H = 37, MAX_ITER = 100 }; /* not multiples of 8 */
    static uint32_t want[W * H], got[W * H];
    sm5_resource *it;
    sm5_dispatch_result *result;
    sm5_kernel *k = kernel_of(device, "mandelbrot");
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            float cx = ((float)x * 3.0f) / (float)W + -2.0f;
            float cy = ((float)y * 3.0f) / (float)H + -1.5f;
            float zx = 0.0f, zy = 0.0f;
            uint32_t i = 0;
            while (i < MAX_ITER && zx * zx + zy * zy < 4.0f) {
                float t = zx * zx - zy * zy + cx;
                zy = 2.0f * zx * zy + cy;
                zx = t;
                i++;
            }
            want[y * W + x] = i;
        }
    CHECK(sm5_buffer_create(device, NULL, sizeof got, &it));
    CHECK(sm5_kernel_bind(k, "iterations", it));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "width", W));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "height", H));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "max_iter", MAX_ITER));
    CHECK(sm5_kernel_dispatch(k, (W + 7) / 8, (H + 7) / 8, 1, &result));
    CHECK(sm5_resource_read(it, got, sizeof got));
    EXPECT(memcmp(got, want, sizeof got) == 0);
    if (profiled) {
        sm5_profile p;
        const char *json;
        CHECK(sm5_result_profile(result, &p));
        EXPECT(p.warp_instructions > 0);
        EXPECT(p.lane_instructions >= p.warp_instructions);
        EXPECT(p.simd_efficiency > 0.0 && p.simd_efficiency <= 1.0);
        EXPECT(p.uav_bytes_written == sizeof got);
        CHECK(sm5_result_profile_json(result, &json));
        EXPECT(json[0] == '{');
        EXPECT(strstr(json, "\"opcodes\"") != NULL);
        EXPECT(strstr(json, "\"mnemonic\"") != NULL);
    } else {
        EXPECT_FAIL(sm5_result_profile(result, &(sm5_profile){0}),
                    SM5_ERROR_INVALID_ARGUMENT, "without a profile");
    }
    sm5_result_destroy(result);
    sm5_resource_destroy(it);
    sm5_kernel_destroy(k);
}

static void gaussian_blur(sm5_device *device) {
    /* a 9-tap binomial blur (weights sum to 1) of a constant image leaves it
     * as it was; every texel of dst is written */
    enum { W = 40, H = 24 }; /* not multiples of the 16x16 tile */
    static uint8_t image[H][W][4], out[H][W][4];
    const uint32_t size[2] = {W, H};
    sm5_resource *src, *dst;
    size_t bytes;
    sm5_kernel *k = kernel_of(device, "gaussian_blur");
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            image[y][x][0] = 200;
            image[y][x][1] = 100;
            image[y][x][2] = 50;
            image[y][x][3] = 255;
        }
    CHECK(sm5_texture2d_create(device, "R8G8B8A8_UNORM", W, H, image, sizeof image, &src));
    {
        sm5_texture_desc d = {0};
        d.dimension = SM5_TEXTURE_2D;
        d.format = "DXGI_FORMAT_R8G8B8A8_UNORM";
        d.width = W;
        d.height = H;
        d.mip_levels = 1;
        CHECK(sm5_texture_create(device, &d, &dst));
    }
    CHECK(sm5_resource_size(dst, &bytes));
    EXPECT(bytes == sizeof out);
    CHECK(sm5_kernel_bind(k, "src", src));
    {
        sm5_view_desc v = {0};
        v.kind = SM5_VIEW_TEXTURE; /* the declared dimension, the texture's format */
        CHECK(sm5_kernel_bind_uav(k, "dst", dst, &v));
    }
    CHECK(sm5_kernel_set_constant_u32v(k, "Params", "image_size", size, 2));
    CHECK(sm5_kernel_dispatch(k, (W + 15) / 16, (H + 15) / 16, 1, NULL));
    CHECK(sm5_texture_read(dst, 0, 0, out, sizeof out));
    EXPECT(memcmp(out, image, sizeof out) == 0);
    /* a buffer where the shader declares a texture; a view of another
     * dimension; a wrong-sized read; a subresource that is not there */
    {
        sm5_resource *buf;
        sm5_view_desc v = {0};
        CHECK(sm5_buffer_create(device, NULL, 16, &buf));
        EXPECT_FAIL(sm5_kernel_bind(k, "src", buf), SM5_ERROR_BINDING,
                    "declares t0 as a texture2d");
        v.kind = SM5_VIEW_TEXTURE;
        v.dimension = "texture2darray";
        EXPECT_FAIL(sm5_kernel_bind_srv(k, "src", src, &v), SM5_ERROR_BINDING,
                    "texture2d, not texture2darray");
        v.dimension = "texture4d";
        EXPECT_FAIL(sm5_kernel_bind_srv(k, "src", src, &v),
                    SM5_ERROR_INVALID_ARGUMENT, "'texture4d'");
        sm5_resource_destroy(buf);
    }
    EXPECT_FAIL(sm5_texture_read(dst, 0, 0, out, sizeof out - 4),
                SM5_ERROR_INVALID_ARGUMENT, "3840 bytes");
    EXPECT_FAIL(sm5_texture_read(dst, 1, 0, out, sizeof out), SM5_ERROR_RESOURCE,
                "mip 1");
    EXPECT_FAIL(sm5_texture2d_create(device, "R8G8B8A8_UNORM", W, H, image, 12, &src),
                SM5_ERROR_RESOURCE, "");
    EXPECT(src == NULL); /* out is NULL after a failure */
    EXPECT_FAIL(sm5_texture2d_create(device, "R8G8B8A8_UNROM", W, H, NULL, 0, &src),
                SM5_ERROR_INVALID_ARGUMENT, "'R8G8B8A8_UNROM'");
    sm5_resource_destroy(dst);
    sm5_kernel_destroy(k);
}

/* reduce from its fxc listing, bound by slot, its cbuffer set as bytes */
static void reduce_listing(sm5_device *device) {
    const uint32_t values[3] = {1, 2, 3}, params[4] = {3, 0, 0, 0};
    uint32_t total;
    sm5_shader *s;
    sm5_kernel *k;
    sm5_resource *vr, *tr;
    CHECK(sm5_shader_load(device, path("examples/reduce/reduce.asm"), &s));
    CHECK(sm5_kernel_create(s, &k));
    CHECK(sm5_buffer_create(device, values, sizeof values, &vr));
    CHECK(sm5_buffer_create(device, NULL, 4, &tr));
    CHECK(sm5_kernel_bind(k, "t0", vr));
    CHECK(sm5_kernel_bind(k, "u0", tr));
    CHECK(sm5_kernel_set_constants_bytes(k, "cb0", params, sizeof params));
    CHECK(sm5_kernel_dispatch(k, 1, 1, 1, NULL));
    CHECK(sm5_resource_read(tr, &total, sizeof total));
    EXPECT(total == 6);
    /* again, after writing the total back to 0 */
    total = 0;
    CHECK(sm5_resource_write(tr, &total, sizeof total));
    CHECK(sm5_kernel_dispatch(k, 1, 1, 1, NULL));
    CHECK(sm5_resource_read(tr, &total, sizeof total));
    EXPECT(total == 6);
    EXPECT_FAIL(sm5_kernel_set_constants_bytes(k, "cb0", params, 6),
                SM5_ERROR_INVALID_ARGUMENT, "multiple of 4");
    sm5_resource_destroy(vr);
    sm5_resource_destroy(tr);
    sm5_kernel_destroy(k);
    sm5_shader_destroy(s);
}

static void reflection(sm5_device *device) {
    sm5_shader *s;
    size_t n;
    sm5_resource_info r;
    CHECK(sm5_shader_load(device, path("examples/histogram/histogram.dxbc"), &s));
    CHECK(sm5_shader_resource_count(s, &n));
    EXPECT(n == 3);
    CHECK(sm5_shader_resource(s, 0, &r));
    EXPECT(strcmp(r.name, "keys") == 0 && strcmp(r.slot, "t0") == 0);
    EXPECT(strcmp(r.declared, "raw") == 0);
    CHECK(sm5_shader_resource(s, 1, &r));
    EXPECT(strcmp(r.name, "bins") == 0 && strcmp(r.slot, "u0") == 0);
    CHECK(sm5_shader_resource(s, 2, &r));
    EXPECT(strcmp(r.name, "Params") == 0 && strcmp(r.slot, "cb0") == 0);
    EXPECT_FAIL(sm5_shader_resource(s, 3, &r), SM5_ERROR_INVALID_ARGUMENT,
                "declares 3 slots");
    sm5_shader_destroy(s);
}

/* the checker on a seeded race: a plain read-modify-write of bins that
 * other groups also write */
static void race_check(void) {
    sm5_device_options o = {0};
    sm5_device *device;
    sm5_shader *s;
    sm5_kernel *k;
    sm5_resource *hist;
    sm5_dispatch_result *result;
    size_t n;
    int found = 0;
    const char *stopped;
    o.check = 1;
    CHECK(sm5_device_create(&o, &device));
    CHECK(sm5_shader_load(device, path("tests/races/histogram_plain_rmw_bug.dxbc"), &s));
    CHECK(sm5_kernel_create(s, &k));
    CHECK(sm5_buffer_create(device, NULL, 32, &hist));
    CHECK(sm5_kernel_bind(k, "hist", hist));
    CHECK(sm5_kernel_dispatch(k, 4, 1, 1, &result));
    CHECK(sm5_result_finding_count(result, &n));
    EXPECT(n > 0);
    for (size_t i = 0; i < n; i++) {
        sm5_finding f;
        CHECK(sm5_result_finding(result, i, &f));
        EXPECT(f.text != NULL && f.kind != NULL && f.severity != NULL);
        if (strcmp(f.kind, "cross-group-rmw") == 0) {
            found = 1;
            EXPECT(f.is_error == 1 && strcmp(f.severity, "error") == 0);
            EXPECT(f.resource_name != NULL && strcmp(f.resource_name, "hist") == 0);
            EXPECT(strstr(f.text, "error[cross-group-rmw]") != NULL);
            EXPECT(f.count >= 1);
        }
    }
    EXPECT(found);
    EXPECT_FAIL(sm5_result_finding(result, n, &(sm5_finding){0}),
                SM5_ERROR_INVALID_ARGUMENT, "findings");
    CHECK(sm5_result_stopped(result, &stopped));
    EXPECT(stopped == NULL);
    sm5_result_destroy(result);
    sm5_resource_destroy(hist);
    sm5_kernel_destroy(k);
    sm5_shader_destroy(s);
    sm5_device_destroy(device);
}

/* printf and errorf: the messages in order, with their threads */
static void messages(sm5_device *device) {
    sm5_shader *s;
    sm5_kernel *k;
    sm5_resource *o;
    sm5_dispatch_result *result;
    sm5_message m;
    size_t n;
    uint64_t not_kept = 99, errorf = 0;
    CHECK(sm5_shader_load(device, path("tests/front_end/messages_basic.dxbc"), &s));
    CHECK(sm5_kernel_create(s, &k));
    CHECK(sm5_buffer_create(device, NULL, 32, &o));
    CHECK(sm5_kernel_bind(k, "o", o));
    CHECK(sm5_kernel_dispatch(k, 2, 1, 1, &result));
    CHECK(sm5_result_message_count(result, &n));
    EXPECT(n == 2);
    CHECK(sm5_result_message(result, 0, &m));
    EXPECT(strcmp(m.kind, "printf") == 0 && strcmp(m.text, "thread 1 value 1.500000") == 0);
    EXPECT(m.group[0] == 0 && m.thread[0] == 1 && m.dispatch_thread[0] == 1);
    EXPECT(m.file == NULL && m.line == 0);
    CHECK(sm5_result_message(result, 1, &m));
    EXPECT(strcmp(m.kind, "errorf") == 0 && strcmp(m.text, "bad 1") == 0);
    CHECK(sm5_result_message_totals(result, &not_kept, &errorf));
    EXPECT(not_kept == 0 && errorf == 1);
    CHECK(sm5_result_message_totals(result, NULL, NULL));
    EXPECT_FAIL(sm5_result_message(result, 2, &m), SM5_ERROR_INVALID_ARGUMENT, "2 messages");
    sm5_result_destroy(result);
    sm5_resource_destroy(o);
    sm5_kernel_destroy(k);
    sm5_shader_destroy(s);
}

static void bad_input(sm5_device *device) {
    sm5_shader *s = NULL;
    sm5_kernel *k;
    sm5_resource *r, *bins;
    uint32_t word;
    /* unknown names: the message names the name and what is declared */
    CHECK(sm5_shader_load(device, path("examples/histogram/histogram.dxbc"), &s));
    CHECK(sm5_kernel_create(s, &k));
    CHECK(sm5_buffer_create(device, NULL, 1024, &bins));
    EXPECT_FAIL(sm5_kernel_bind(k, "kyes", bins), SM5_ERROR_UNKNOWN_NAME, "'kyes'");
    EXPECT(strstr(sm5_last_error_message(), "t0 ('keys')") != NULL);
    EXPECT(strstr(sm5_last_error_message(), "sm5_kernel_bind: ") == sm5_last_error_message());
    EXPECT_FAIL(sm5_kernel_set_constant_u32(k, "Parms", "key_count", 1),
                SM5_ERROR_UNKNOWN_NAME, "'Parms'");
    EXPECT_FAIL(sm5_kernel_set_constant_u32(k, "Params", "key_cnt", 1), SM5_ERROR_FIELD,
                "key_cnt");
    EXPECT_FAIL(sm5_kernel_set_constant_f32(k, "Params", "key_count", 1.5f),
                SM5_ERROR_FIELD, "key_count");
    /* SRV for UAV, and a view that does not fit the declaration */
    EXPECT_FAIL(sm5_kernel_bind_uav(k, "keys", bins, NULL), SM5_ERROR_BINDING,
                "'keys' is t0");
    {
        sm5_view_desc v = {0};
        v.kind = SM5_VIEW_STRUCTURED;
        v.structure_stride = 4;
        EXPECT_FAIL(sm5_kernel_bind_srv(k, "keys", bins, &v), SM5_ERROR_BINDING, "'keys'");
        v.kind = SM5_VIEW_TYPED;
        v.format = "R32_UINT";
        EXPECT_FAIL(sm5_kernel_bind_srv(k, "keys", bins, &v), SM5_ERROR_BINDING, "'keys'");
        v.format = NULL;
        EXPECT_FAIL(sm5_kernel_bind_srv(k, "keys", bins, &v), SM5_ERROR_NULL_POINTER,
                    "view->format");
        v.kind = 99;
        EXPECT_FAIL(sm5_kernel_bind_srv(k, "keys", bins, &v),
                    SM5_ERROR_INVALID_ARGUMENT, "view->kind 99");
    }
    /* null pointers */
    EXPECT_FAIL(sm5_kernel_bind(k, NULL, bins), SM5_ERROR_NULL_POINTER, "name is NULL");
    EXPECT_FAIL(sm5_kernel_bind(k, "bins", NULL), SM5_ERROR_NULL_POINTER,
                "resource is NULL");
    EXPECT_FAIL(sm5_kernel_bind(NULL, "bins", bins), SM5_ERROR_NULL_POINTER,
                "kernel is NULL");
    EXPECT_FAIL(sm5_buffer_create(device, NULL, 16, NULL), SM5_ERROR_NULL_POINTER,
                "out is NULL");
    EXPECT_FAIL(sm5_shader_load(NULL, "x.dxbc", &s), SM5_ERROR_NULL_POINTER,
                "device is NULL");
    EXPECT(s == NULL);
    EXPECT_FAIL(sm5_resource_read(bins, NULL, 1024), SM5_ERROR_NULL_POINTER, "dst");
    /* wrong sizes */
    EXPECT_FAIL(sm5_resource_read(bins, &word, sizeof word), SM5_ERROR_INVALID_ARGUMENT,
                "holds 1024 bytes");
    EXPECT_FAIL(sm5_resource_write(bins, &word, sizeof word), SM5_ERROR_INVALID_ARGUMENT,
                "1024 bytes");
    EXPECT_FAIL(sm5_buffer_create(device, "abc", 3, &r), SM5_ERROR_RESOURCE, "3 bytes");
    EXPECT_FAIL(sm5_buffer_create(device, NULL, 0, &r), SM5_ERROR_RESOURCE, "ByteWidth of 0");
    {
        sm5_resource *keys;
        CHECK(sm5_buffer_create(device, NULL, 20, &keys));
        CHECK(sm5_kernel_bind(k, "keys", keys));
        sm5_resource_destroy(keys);
    }
    /* nothing bound at u0; D3D's group limit; files */
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "key_count", 5));
    EXPECT_FAIL(sm5_kernel_dispatch(k, 1, 1, 1, NULL), SM5_ERROR_UNBOUND, "u0 ('bins')");
    CHECK(sm5_kernel_bind(k, "bins", bins));
    EXPECT_FAIL(sm5_kernel_dispatch(k, 70000, 1, 1, NULL), SM5_ERROR_DISPATCH, "65535");
    CHECK(sm5_kernel_dispatch(k, 1, 1, 1, NULL));
    EXPECT_FAIL(sm5_shader_load(device, path("no/such.dxbc"), &s), SM5_ERROR_IO, "no/such.dxbc");
    EXPECT_FAIL(sm5_shader_from_bytes(device, "DXBC", 4, "four.dxbc", &s), SM5_ERROR_LOAD,
                "four.dxbc");
    EXPECT_FAIL(sm5_shader_load(device, "\xff.dxbc", &s), SM5_ERROR_INVALID_ARGUMENT,
                "not UTF-8");
    /* the statuses' names */
    EXPECT(strcmp(sm5_status_name(SM5_ERROR_UNKNOWN_NAME), "SM5_ERROR_UNKNOWN_NAME") == 0);
    EXPECT(strcmp(sm5_status_name(1234), "SM5_UNKNOWN_STATUS") == 0);
    /* destroying NULL is nothing */
    sm5_kernel_destroy(NULL);
    sm5_resource_destroy(NULL);
    sm5_shader_destroy(NULL);
    sm5_result_destroy(NULL);
    sm5_device_destroy(NULL);
    sm5_resource_destroy(bins);
    sm5_kernel_destroy(k);
}

static void watchdog(void) {
    sm5_device_options o = {0};
    sm5_device *device;
    sm5_resource *it;
    sm5_kernel *k;
    o.watchdog_warp_instructions = 100;
    CHECK(sm5_device_create(&o, &device));
    k = kernel_of(device, "mandelbrot");
    CHECK(sm5_buffer_create(device, NULL, 64 * 64 * 4, &it));
    CHECK(sm5_kernel_bind(k, "iterations", it));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "width", 64));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "height", 64));
    CHECK(sm5_kernel_set_constant_u32(k, "Params", "max_iter", 1000));
    EXPECT_FAIL(sm5_kernel_dispatch(k, 8, 8, 1, NULL), SM5_ERROR_DISPATCH, "");
    sm5_resource_destroy(it);
    sm5_kernel_destroy(k);
    sm5_device_destroy(device);
    o.watchdog_warp_instructions = 0;
    o.timeout_seconds = 0.0 / 0.0;
    EXPECT_FAIL(sm5_device_create(&o, &device), SM5_ERROR_INVALID_ARGUMENT, "NaN");
}

int main(int argc, char **argv) {
    sm5_device_options configs[2] = {{0}, {0}};
    if (argc != 2) {
        fprintf(stderr, "usage: %s REPOSITORY_ROOT\n", argv[0]);
        return 2;
    }
    root = argv[1];
    EXPECT(strlen(sm5_version()) > 0);
    /* parallel on 2 threads at warp width 32; a seeded schedule at warp
     * width 1, with a profile */
    configs[0].threads = 2;
    configs[0].warp_width = 32;
    configs[1].use_schedule = 1;
    configs[1].schedule_seed = 7;
    configs[1].warp_width = 1;
    configs[1].profile = 1;
    for (int c = 0; c < 2; c++) {
        sm5_device *device;
        CHECK(sm5_device_create(&configs[c], &device));
        saxpy(device);
        histogram(device);
        matmul(device);
        mandelbrot(device, configs[c].profile);
        sm5_device_destroy(device);
    }
    {
        sm5_device *device;
        CHECK(sm5_device_create(NULL, &device)); /* the defaults */
        gaussian_blur(device);
        reduce_listing(device);
        reflection(device);
        messages(device);
        bad_input(device);
        sm5_device_destroy(device);
    }
    race_check();
    watchdog();
    printf("ok: %d checks\n", checks);
    return 0;
}
