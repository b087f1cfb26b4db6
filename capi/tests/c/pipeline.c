/* The C API's pipeline test (capi/tests/it/c_programs.rs builds it against
 * include/sm5sim.h and libsm5sim_capi, and runs it with the repository's
 * root as its argument; exit status 0 is a pass).
 *
 * It runs examples/stream_compaction end to end through the C API, under
 * two device configurations: compact.dxbc appends the multiples of 3 of
 * 16384 random words to an append buffer; sm5_buffer_copy_structure_count
 * copies its hidden counter into `count`; make_args.dxbc turns the count
 * into indirect arguments; sm5_kernel_dispatch_indirect runs process.dxbc
 * with them, which sums into `totals`. The figures are reference.py's
 * (examples/stream_compaction/README.md, totals.npy and args.npy).
 *
 * Then one level of examples/mip_chain through texture views of one mip,
 * the copies (CopyResource, CopySubresourceRegion on buffers and textures),
 * null views, and the refusals of each new call with its status and a
 * message naming what is wrong. */
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

static sm5_kernel *kernel_of(sm5_device *device, const char *file) {
    sm5_shader *shader;
    sm5_kernel *kernel;
    CHECK(sm5_shader_load(device, path(file), &shader));
    CHECK(sm5_kernel_create(shader, &kernel));
    sm5_shader_destroy(shader); /* the kernel keeps what it needs */
    return kernel;
}

/* ------------------------------------------------------------------------ */
/* examples/stream_compaction */

enum { N = 16384, SEED = 21, DIVISOR = 3 };

/* The expected figures: what examples/stream_compaction/reference.py prints
 * (its README: "kept 5349 of 16384 ...; sum of kept (mod 2^32) 1023080363;
 * args [84, 1, 1]; totals [sum of squares, processed, max] [1835682395,
 * 5349, 4293564294]"), the contents of args.npy and totals.npy. */
static const uint32_t KEPT = 5349;
static const uint32_t KEPT_SUM = 1023080363u;
static const uint32_t ARGS[3] = {84, 1, 1};
static const uint32_t TOTALS[3] = {1835682395u, 5349, 4293564294u};

/* The job's init = { random_u32 = { seed = 21 } }: SplitMix64, one step
 * per word (docs/job-files.md, "Random inputs"; reference.py's random_u32
 * over the full range, where the value is the high half of the mix). */
static void random_u32(uint64_t seed, uint32_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint64_t z = seed + (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        out[i] = (uint32_t)(z >> 32);
    }
}

static void stream_compaction(sm5_device *device) {
    static uint32_t input[N], list[N];
    sm5_kernel *compact = kernel_of(device, "examples/stream_compaction/compact.dxbc");
    sm5_kernel *make_args = kernel_of(device, "examples/stream_compaction/make_args.dxbc");
    sm5_kernel *process = kernel_of(device, "examples/stream_compaction/process.dxbc");
    sm5_resource *values, *listed, *count, *args, *totals;
    sm5_dispatch_result *result;
    sm5_dispatch_stats stats;
    uint32_t n, word, got[3], kept = 0, sum = 0, list_sum = 0;

    random_u32(SEED, input, N);
    for (int i = 0; i < N; i++)
        if (input[i] % DIVISOR == 0) {
            kept++;
            sum += input[i];
        }
    EXPECT(kept == KEPT && sum == KEPT_SUM); /* the generator is the job's */

    /* the resources: handles shared by every kernel they are bound to */
    CHECK(sm5_buffer_create(device, input, sizeof input, &values));
    CHECK(sm5_buffer_create(device, NULL, sizeof list, &listed));
    CHECK(sm5_buffer_set_counter(listed, 0)); /* the UAV's initial count */
    CHECK(sm5_buffer_create(device, NULL, 4, &count));
    CHECK(sm5_buffer_create(device, NULL, 12, &args));
    CHECK(sm5_buffer_create(device, NULL, 12, &totals));

    /* pass 1: append the multiples of 3 */
    CHECK(sm5_kernel_bind(compact, "input", values));
    CHECK(sm5_kernel_bind_uav(compact, "list", listed, NULL)); /* u0, append */
    CHECK(sm5_kernel_set_constant_u32(compact, "CompactParams", "element_count", N));
    CHECK(sm5_kernel_set_constant_u32(compact, "CompactParams", "divisor", DIVISOR));
    CHECK(sm5_kernel_dispatch(compact, N / 64, 1, 1, NULL));
    CHECK(sm5_buffer_counter(listed, &n));
    EXPECT(n == KEPT);
    CHECK(sm5_resource_read(listed, list, sizeof list));
    for (uint32_t i = 0; i < N; i++) {
        EXPECT(i < n || list[i] == 0);              /* the tail stays 0 */
        EXPECT(i >= n || list[i] % DIVISOR == 0);  /* only multiples of 3 */
        list_sum += list[i];
    }
    EXPECT(list_sum == KEPT_SUM);

    /* CopyStructureCount(count, 0, list) */
    CHECK(sm5_buffer_copy_structure_count(count, 0, listed));
    CHECK(sm5_resource_read(count, &word, 4));
    EXPECT(word == KEPT);

    /* pass 2: the indirect arguments */
    CHECK(sm5_kernel_bind(make_args, "count", count));
    CHECK(sm5_kernel_bind(make_args, "args", args));
    CHECK(sm5_kernel_dispatch(make_args, 1, 1, 1, NULL));
    CHECK(sm5_resource_read(args, got, sizeof got));
    EXPECT(memcmp(got, ARGS, sizeof got) == 0);

    /* a view of an element range (FirstElement, NumElements): make_args
       reads word 0 of its view, here word 1 of a two-word buffer (128:
       two groups of 64) */
    {
        uint32_t two[2] = {7, 128}, out[3];
        sm5_resource *pair, *args2;
        sm5_view_desc v = {0};
        CHECK(sm5_buffer_create(device, two, sizeof two, &pair));
        CHECK(sm5_buffer_create(device, NULL, 12, &args2));
        v.kind = SM5_VIEW_RAW;
        v.first_element = 1;
        v.num_elements = 1;
        CHECK(sm5_kernel_bind_srv(make_args, "count", pair, &v));
        CHECK(sm5_kernel_bind(make_args, "args", args2));
        CHECK(sm5_kernel_dispatch(make_args, 1, 1, 1, NULL));
        CHECK(sm5_resource_read(args2, out, sizeof out));
        EXPECT(out[0] == 2 && out[1] == 1 && out[2] == 1);
        v.num_elements = 2; /* past the buffer's end */
        EXPECT_FAIL(sm5_kernel_bind_srv(make_args, "count", pair, &v), SM5_ERROR_BINDING,
                    "not a range");
        v.num_elements = 0; /* a first element without a count */
        EXPECT_FAIL(sm5_kernel_bind_srv(make_args, "count", pair, &v), SM5_ERROR_BINDING,
                    "needs num_elements");
        sm5_resource_destroy(pair);
        sm5_resource_destroy(args2);
    }

    /* pass 3: DispatchIndirect(args, 0); list is t0 here */
    CHECK(sm5_kernel_bind_srv(process, "list", listed, NULL));
    CHECK(sm5_kernel_bind(process, "count", count));
    CHECK(sm5_kernel_bind(process, "totals", totals));
    CHECK(sm5_kernel_dispatch_indirect(process, args, 0, &result));
    CHECK(sm5_result_stats(result, &stats));
    EXPECT(stats.groups == ARGS[0] && stats.threads == ARGS[0] * 64);
    sm5_result_destroy(result);
    CHECK(sm5_resource_read(totals, got, sizeof got));
    EXPECT(memcmp(got, TOTALS, sizeof got) == 0);

    /* refusals of DispatchIndirect */
    {
        sm5_resource *tex;
        sm5_texture_desc d = {0};
        d.dimension = SM5_TEXTURE_1D;
        d.format = "R32_UINT";
        d.width = 4;
        CHECK(sm5_texture_create(device, &d, &tex));
        result = (sm5_dispatch_result *)1;
        EXPECT_FAIL(sm5_kernel_dispatch_indirect(process, args, 2, &result), SM5_ERROR_RESOURCE,
                    "the offset 2 is not a multiple of 4");
        EXPECT(result == NULL); /* out is NULL after a failure */
        EXPECT(strstr(sm5_last_error_message(), "sm5_kernel_dispatch_indirect: ") ==
               sm5_last_error_message());
        EXPECT_FAIL(sm5_kernel_dispatch_indirect(process, args, 4, NULL), SM5_ERROR_RESOURCE,
                    "three uints at byte 4 are not inside its 12 bytes");
        EXPECT_FAIL(sm5_kernel_dispatch_indirect(process, count, 0, NULL), SM5_ERROR_RESOURCE,
                    "not inside its 4 bytes");
        EXPECT_FAIL(sm5_kernel_dispatch_indirect(process, tex, 0, NULL), SM5_ERROR_RESOURCE,
                    "reads its arguments from a buffer");
        EXPECT_FAIL(sm5_kernel_dispatch_indirect(process, totals, 0, NULL), SM5_ERROR_BINDING,
                    "bound as a UAV of the same dispatch");
        EXPECT_FAIL(sm5_kernel_dispatch_indirect(process, NULL, 0, NULL), SM5_ERROR_NULL_POINTER,
                    "args is NULL");
        EXPECT_FAIL(sm5_kernel_dispatch_indirect(NULL, args, 0, NULL), SM5_ERROR_NULL_POINTER,
                    "kernel is NULL");
        {
            sm5_resource *big;
            uint32_t many[3] = {70000, 1, 1}; /* over D3D's 65535 groups */
            CHECK(sm5_buffer_create(device, many, sizeof many, &big));
            EXPECT_FAIL(sm5_kernel_dispatch_indirect(process, big, 0, NULL), SM5_ERROR_DISPATCH,
                        "65535");
            sm5_resource_destroy(big);
        }
        /* refusals of CopyStructureCount */
        EXPECT_FAIL(sm5_buffer_copy_structure_count(args, 2, listed), SM5_ERROR_RESOURCE,
                    "offset 2 is not a multiple of 4");
        EXPECT_FAIL(sm5_buffer_copy_structure_count(args, 12, listed), SM5_ERROR_RESOURCE,
                    "does not fit the destination's 12 bytes");
        EXPECT_FAIL(sm5_buffer_copy_structure_count(tex, 0, listed), SM5_ERROR_RESOURCE,
                    "goes into a buffer");
        EXPECT_FAIL(sm5_buffer_copy_structure_count(args, 0, NULL), SM5_ERROR_NULL_POINTER,
                    "src is NULL");
        EXPECT_FAIL(sm5_buffer_counter(tex, &n), SM5_ERROR_RESOURCE, "only a buffer");
        EXPECT_FAIL(sm5_buffer_counter(listed, NULL), SM5_ERROR_NULL_POINTER, "value is NULL");
        EXPECT_FAIL(sm5_buffer_set_counter(tex, 1), SM5_ERROR_RESOURCE, "only a buffer");
        sm5_resource_destroy(tex);
    }

    /* a null view: the writes to totals are dropped, the reads of list are 0 */
    memset(got, 0, sizeof got);
    CHECK(sm5_resource_write(totals, got, sizeof got));
    CHECK(sm5_kernel_bind_null(process, "totals"));
    CHECK(sm5_kernel_dispatch_indirect(process, args, 0, NULL));
    CHECK(sm5_resource_read(totals, got, sizeof got));
    EXPECT(got[0] == 0 && got[1] == 0 && got[2] == 0);
    CHECK(sm5_kernel_bind(process, "totals", totals));
    CHECK(sm5_kernel_bind_null(process, "t0")); /* list: every value reads 0 */
    CHECK(sm5_kernel_dispatch_indirect(process, args, 0, NULL));
    CHECK(sm5_resource_read(totals, got, sizeof got));
    EXPECT(got[0] == 0 && got[1] == KEPT && got[2] == 0);
    EXPECT_FAIL(sm5_kernel_bind_null(process, "lsit"), SM5_ERROR_UNKNOWN_NAME, "'lsit'");
    EXPECT_FAIL(sm5_kernel_bind_null(process, NULL), SM5_ERROR_NULL_POINTER, "name is NULL");

    sm5_resource_destroy(values);
    sm5_resource_destroy(listed);
    sm5_resource_destroy(count);
    sm5_resource_destroy(args);
    sm5_resource_destroy(totals);
    sm5_kernel_destroy(compact);
    sm5_kernel_destroy(make_args);
    sm5_kernel_destroy(process);
}

/* ------------------------------------------------------------------------ */
/* examples/mip_chain, one level: Src and Dst views of one mip each */

static void mip_level(sm5_device *device) {
    enum { S = 16 };
    static float mip0[S][S][4], mip1[S / 2][S / 2][4];
    sm5_kernel *k = kernel_of(device, "examples/mip_chain/downsample.dxbc");
    sm5_texture_desc d = {0};
    sm5_view_desc src = {0}, dst = {0};
    sm5_resource *tex;
    uint32_t size[2] = {S / 2, S / 2};

    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++)
            for (int c = 0; c < 4; c++)
                mip0[y][x][c] = (float)(y * 64 + x * 4 + c); /* small integers: exact */
    d.dimension = SM5_TEXTURE_2D;
    d.format = "R32G32B32A32_FLOAT";
    d.width = S;
    d.height = S;
    d.mip_levels = 0; /* the full chain */
    CHECK(sm5_texture_create(device, &d, &tex));
    CHECK(sm5_texture_write(tex, 0, 0, mip0, sizeof mip0));
    src.kind = dst.kind = SM5_VIEW_TEXTURE;
    src.first_mip = 0;
    src.mip_count = 1;
    dst.first_mip = 1;
    CHECK(sm5_kernel_bind_srv(k, "Src", tex, &src));
    CHECK(sm5_kernel_bind_uav(k, "Dst", tex, &dst));
    CHECK(sm5_kernel_set_constant_u32v(k, "MipParams", "dst_size", size, 2));
    CHECK(sm5_kernel_dispatch(k, 1, 1, 1, NULL));
    CHECK(sm5_texture_read(tex, 1, 0, mip1, sizeof mip1));
    for (int y = 0; y < S / 2; y++)
        for (int x = 0; x < S / 2; x++)
            for (int c = 0; c < 4; c++) {
                float a = mip0[2 * y][2 * x][c], b = mip0[2 * y][2 * x + 1][c];
                float e = mip0[2 * y + 1][2 * x][c], f = mip0[2 * y + 1][2 * x + 1][c];
                EXPECT(mip1[y][x][c] == ((a + b) + (e + f)) * 0.25f);
            }
    /* a mip the texture does not have */
    dst.first_mip = 9;
    EXPECT_FAIL(sm5_kernel_bind_uav(k, "Dst", tex, &dst), SM5_ERROR_BINDING, "'Dst' (u0)");
    sm5_resource_destroy(tex);
    sm5_kernel_destroy(k);
}

/* ------------------------------------------------------------------------ */
/* CopyResource and CopySubresourceRegion */

static void copies(sm5_device *device) {
    uint32_t a_words[16], b_words[16], small[4] = {0};
    sm5_resource *a, *b, *c, *t1, *t2, *t8;
    sm5_texture_desc d = {0};
    sm5_box box = {1, 0, 0, 3, 2, 1};
    uint32_t texels[4][8], got[4][8];

    for (int i = 0; i < 16; i++)
        a_words[i] = (uint32_t)i * 3u;
    CHECK(sm5_buffer_create(device, a_words, sizeof a_words, &a));
    CHECK(sm5_buffer_create(device, NULL, sizeof b_words, &b));
    CHECK(sm5_buffer_create(device, NULL, sizeof small, &c));
    CHECK(sm5_resource_copy(b, a));
    CHECK(sm5_resource_read(b, b_words, sizeof b_words));
    EXPECT(memcmp(a_words, b_words, sizeof a_words) == 0);
    CHECK(sm5_buffer_copy_region(c, 4, a, 8, 8)); /* words 2, 3 to 1, 2 */
    CHECK(sm5_resource_read(c, small, sizeof small));
    EXPECT(small[0] == 0 && small[1] == 6 && small[2] == 9 && small[3] == 0);
    CHECK(sm5_buffer_copy_region(c, 0, a, 4, 1)); /* one byte */
    CHECK(sm5_resource_read(c, small, sizeof small));
    EXPECT(small[0] == 3);
    CHECK(sm5_buffer_copy_region(c, 0, a, 0, 0)); /* an empty box: nothing */

    EXPECT_FAIL(sm5_resource_copy(c, a), SM5_ERROR_RESOURCE, "needs the same ByteWidth");
    EXPECT_FAIL(sm5_resource_copy(a, a), SM5_ERROR_RESOURCE, "the same resource");
    EXPECT_FAIL(sm5_resource_copy(NULL, a), SM5_ERROR_NULL_POINTER, "dst is NULL");
    EXPECT_FAIL(sm5_buffer_copy_region(c, 0, a, 60, 8), SM5_ERROR_RESOURCE,
                "not inside the source's 64 bytes");
    EXPECT_FAIL(sm5_buffer_copy_region(c, 12, a, 0, 8), SM5_ERROR_RESOURCE,
                "do not fit the destination's 16 bytes");
    EXPECT_FAIL(sm5_buffer_copy_region(a, 32, a, 0, 4), SM5_ERROR_RESOURCE, "same buffer");
    EXPECT(strstr(sm5_last_error_message(), "sm5_buffer_copy_region: ") ==
           sm5_last_error_message());

    /* textures: 8x4 R32_UINT, and one with 2 mips */
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++)
            texels[y][x] = (uint32_t)(y * 8 + x);
    d.dimension = SM5_TEXTURE_2D;
    d.format = "R32_UINT";
    d.width = 8;
    d.height = 4;
    d.mip_levels = 1; /* 0 would be the full chain */
    CHECK(sm5_texture_create(device, &d, &t1));
    CHECK(sm5_texture_create(device, &d, &t2));
    d.mip_levels = 2;
    CHECK(sm5_texture_create(device, &d, &t8));
    CHECK(sm5_texture_write(t1, 0, 0, texels, sizeof texels));
    CHECK(sm5_resource_copy(t2, t1));
    CHECK(sm5_texture_read(t2, 0, 0, got, sizeof got));
    EXPECT(memcmp(got, texels, sizeof got) == 0);
    /* the box x 1..3, y 0..2 of t1 into t8's mip 1 (4x2) at (2, 0) */
    CHECK(sm5_texture_copy_region(t8, 1, 0, 2, 0, 0, t1, 0, 0, &box));
    {
        uint32_t m1[2][4];
        CHECK(sm5_texture_read(t8, 1, 0, m1, sizeof m1));
        EXPECT(m1[0][0] == 0 && m1[0][1] == 0 && m1[0][2] == 1 && m1[0][3] == 2);
        EXPECT(m1[1][0] == 0 && m1[1][1] == 0 && m1[1][2] == 9 && m1[1][3] == 10);
    }
    /* NULL box: the whole subresource */
    memset(got, 0, sizeof got);
    CHECK(sm5_texture_write(t2, 0, 0, got, sizeof got));
    CHECK(sm5_texture_copy_region(t2, 0, 0, 0, 0, 0, t1, 0, 0, NULL));
    CHECK(sm5_texture_read(t2, 0, 0, got, sizeof got));
    EXPECT(memcmp(got, texels, sizeof got) == 0);

    EXPECT_FAIL(sm5_resource_copy(t8, t1), SM5_ERROR_RESOURCE, "differ in dimension, size");
    EXPECT_FAIL(sm5_resource_copy(a, t1), SM5_ERROR_RESOURCE, "one is a buffer and the other");
    EXPECT_FAIL(sm5_texture_copy_region(t8, 1, 0, 0, 0, 0, t1, 0, 0, NULL), SM5_ERROR_RESOURCE,
                "texture"); /* 8x4 does not fit the 4x2 mip */
    EXPECT_FAIL(sm5_texture_copy_region(t2, 0, 0, 0, 0, 0, t1, 2, 0, NULL), SM5_ERROR_RESOURCE,
                "the source has no subresource mip 2");
    EXPECT_FAIL(sm5_texture_copy_region(t1, 0, 0, 0, 0, 0, t1, 0, 0, NULL), SM5_ERROR_RESOURCE,
                "same subresource");
    EXPECT_FAIL(sm5_texture_copy_region(t1, 0, 0, 0, 0, 0, a, 0, 0, NULL), SM5_ERROR_RESOURCE,
                "buffers take copy_region");
    EXPECT_FAIL(sm5_buffer_copy_region(a, 0, t1, 0, 4), SM5_ERROR_RESOURCE,
                "textures take copy_texture_region");
    {
        sm5_resource *rgba;
        d.format = "R8G8B8A8_UNORM";
        d.mip_levels = 1;
        CHECK(sm5_texture_create(device, &d, &rgba));
        EXPECT_FAIL(sm5_texture_copy_region(rgba, 0, 0, 0, 0, 0, t1, 0, 0, NULL),
                    SM5_ERROR_RESOURCE, "not in one type group");
        sm5_resource_destroy(rgba);
    }
    sm5_resource_destroy(a);
    sm5_resource_destroy(b);
    sm5_resource_destroy(c);
    sm5_resource_destroy(t1);
    sm5_resource_destroy(t2);
    sm5_resource_destroy(t8);
}

int main(int argc, char **argv) {
    sm5_device_options configs[2] = {{0}, {0}};
    if (argc != 2) {
        fprintf(stderr, "usage: %s REPOSITORY_ROOT\n", argv[0]);
        return 2;
    }
    root = argv[1];
    /* parallel on 2 threads at warp width 32; a seeded schedule at warp
     * width 1 (the list's order differs; the figures do not) */
    configs[0].threads = 2;
    configs[0].warp_width = 32;
    configs[1].use_schedule = 1;
    configs[1].schedule_seed = 7;
    configs[1].warp_width = 1;
    for (int c = 0; c < 2; c++) {
        sm5_device *device;
        CHECK(sm5_device_create(&configs[c], &device));
        stream_compaction(device);
        mip_level(device);
        sm5_device_destroy(device);
    }
    {
        sm5_device *device;
        CHECK(sm5_device_create(NULL, &device));
        copies(device);
        sm5_device_destroy(device);
    }
    printf("ok: %d checks\n", checks);
    return 0;
}
