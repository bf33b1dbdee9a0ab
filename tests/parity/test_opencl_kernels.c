/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The OpenCL C kernels of the Level Zero backend (kernels/ze/kernels.cl,
 * the source that is also compiled offline to the embedded SPIR-V) run
 * through an OpenCL platform — PoCL on CI — with the Level Zero backend's
 * own frame plan (hwctx/ze/ze_plan.c) and the library's shared recipe, and are
 * compared with the CPU reference backend:
 *   - every score within spec §5 (5e-5; integer ssim 1e-9);
 *   - ANSNR bit-identical (its totals are exact by construction);
 *   - the decimations bit-identical per element with kernels/c;
 *   - frames whose windows fit one work-group (where the kernels' sums are
 *     in the reference's order) bit-identical.
 * Counts of bit-identical scores are printed. No OpenCL platform/device, or
 * no fp64 on it: exit 77.
 *
 * Env: GPUSSIM_FIXTURES (fixtures dir; default tests/fixtures, missing
 * fixtures fail the test), GPUSSIM_SRCDIR (source tree; default the
 * configured one), GPUSSIM_OPENCL_VERBOSE=1 (print every case).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <unistd.h>

#include "src/dmabuf.h"
#include "hwctx/ze/ze_plan.h"
#include "src/core.h"
#include "kernels/c/kernels.h"
#include "tests/lib/opencl_ops.h"
#include "tests/lib/testutil.h"

/* Scores nb pairs through the plan; values[frame * n + k]. Returns n or < 0. */
static int cl_score(struct cl_env *e, const struct gpussim_params *params,
                    const struct gpussim_picture *refs, const struct gpussim_picture *dis, int nb,
                    const struct ze_plane_src (*dev)[2][3], double **values)
{
    struct gpussim_config cfg;
    ZePlan *plan = NULL;
    const struct ze_plan_ops ops = cl_ops(e);
    int err = gpussim_config_init(&cfg, params);
    if (err < 0)
        return err;
    const int n = gpussim_scores_count(&cfg);
    double *v = calloc((size_t)nb * n, sizeof(*v));
    if (!v)
        return -ENOMEM;
    /* two slots used alternately, as a backend keeps frames in flight: the
     * slots' buffers and partials must not alias */
    err = ze_plan_create(&plan, &cfg, &ops, 2);
    if (err < 0)
        goto fail;
    int pending[2] = { -1, -1 };
    for (int f = 0; f <= nb; f++) {
        const int s = f % 2;
        for (int k = 0; k < 2; k++) {
            /* before reusing slot s (and at the end) collect what is pending */
            if (pending[k] < 0 || (f < nb && k != s))
                continue;
            struct gpussim_frame_sums sums;
            if (clFinish(e->queue) != CL_SUCCESS) {
                err = -EIO;
                goto fail;
            }
            ze_plan_collect(plan, k, &sums);
            gpussim_scores_finish(&cfg, &sums, v + (size_t)pending[k] * n);
            pending[k] = -1;
        }
        if (f == nb)
            break;
        err = dev ? ze_plan_record_device(plan, s, dev[f][0], dev[f][1])
                  : ze_plan_record_host(plan, s, &refs[f], &dis[f]);
        if (err < 0)
            goto fail;
        pending[s] = f;
    }
    ze_plan_destroy(&plan);
    *values = v;
    return n;

fail:
    ze_plan_destroy(&plan);
    free(v);
    return err;
}

/* ---- comparison -------------------------------------------------------------- */

static int verbose;
static long total_values, total_identical;

/* spec §5: integer ssim 1e-9, everything else 5e-5 */
static double tolerance(const char *name)
{
    return !strncmp(name, "ssim", 4) ? 1e-9 : 5e-5;
}

static int is_ansnr(const char *name)
{
    return !strncmp(name, "float_ansnr", 11) || !strncmp(name, "float_anpsnr", 12);
}

/* Scores nb frames on the CPU backend and through OpenCL and compares.
 * exact: every value must be bit-identical (the sums are in the reference's
 * order for this input). */
static void compare_dev(struct cl_env *e, const char *desc, const struct gpussim_params *params,
                        const struct gpussim_picture *refs, const struct gpussim_picture *dis,
                        int nb, int exact, const struct ze_plane_src (*dev)[2][3])
{
    double *cpu = NULL, *gpu = NULL;
    char **names = NULL;
    struct gpussim_params p = *params;
    p.backend = GPUSSIM_BACKEND_CPU;
    p.log_cb = test_log_cb;
    const int n = test_score(&p, refs, dis, nb, &cpu, &names);
    CHECK(n > 0, "%s: CPU backend failed: %d (%s)", desc, n, test_last_error);
    if (n <= 0)
        return;
    const int m = cl_score(e, &p, refs, dis, nb, dev, &gpu);
    CHECK(m == n, "%s: OpenCL plan gave %d scores (want %d)", desc, m, n);
    if (m != n)
        goto done;

    int identical = 0;
    double worst = 0.0;
    const char *worst_name = "";
    for (int f = 0; f < nb; f++) {
        for (int k = 0; k < n; k++) {
            const double a = cpu[(size_t)f * n + k], b = gpu[(size_t)f * n + k];
            const int same = a == b || (isnan(a) && isnan(b));
            const double d = same ? 0.0 : fabs(a - b);
            identical += same;
            if (d > worst || (isnan(d) && !same))
                worst = d, worst_name = names[k];
            if (!same && verbose)
                printf("    %s frame %d %s: cpu %.17g opencl %.17g (diff %.3g)\n", desc, f,
                       names[k], a, b, d);
            CHECK(same || d <= tolerance(names[k]),
                  "%s frame %d %s: cpu %.17g opencl %.17g, diff %.3g over spec §5's %.0e", desc,
                  f, names[k], a, b, d, tolerance(names[k]));
            CHECK(same || !is_ansnr(names[k]),
                  "%s frame %d %s: ANSNR must be bit-identical: cpu %.17g opencl %.17g", desc, f,
                  names[k], a, b);
            CHECK(same || !exact,
                  "%s frame %d %s: must be bit-identical here: cpu %.17g opencl %.17g", desc, f,
                  names[k], a, b);
        }
    }
    total_values += (long)nb * n;
    total_identical += identical;
    printf("  %-58s %4d/%-4d bit-identical", desc, identical, nb * n);
    if (identical < nb * n)
        printf(", max diff %.3g (%s)", worst, worst_name);
    printf("\n");
done:
    free(cpu);
    free(gpu);
    test_free_names(names, n);
}

static void compare(struct cl_env *e, const char *desc, const struct gpussim_params *params,
                    const struct gpussim_picture *refs, const struct gpussim_picture *dis, int nb,
                    int exact)
{
    compare_dev(e, desc, params, refs, dis, nb, exact, NULL);
}

/* ---- cases ------------------------------------------------------------------- */

struct gen_case {
    int w, h, bd;
    enum gpussim_chroma chroma;
    enum gpussim_packing packing;
    int msb;
    enum test_pattern ref_pat, dis_pat; /* dis_pat RANDOM: ref + noise */
    unsigned metrics;
    int scale;
    enum gpussim_planes planes;
    int exact;
};

static const char *pattern_name(enum test_pattern p)
{
    static const char *const n[] = { "random", "flat", "max", "zero", "checker", "gradient" };
    return n[p];
}

static void run_generated(struct cl_env *e, const struct gen_case *c, uint64_t seed)
{
    const struct gpussim_format fmt = { .width = c->w, .height = c->h, .bit_depth = c->bd,
                                        .chroma = c->chroma, .packing = c->packing,
                                        .msb_aligned = c->msb };
    struct test_frame ref, dis;
    struct test_packed pr, pd;
    test_frame_alloc(&ref, &fmt);
    test_frame_alloc(&dis, &fmt);
    test_fill(&ref, c->bd, c->ref_pat, seed);
    if (c->dis_pat == PATTERN_RANDOM)
        test_distort(&ref, &dis, c->bd, (1 << c->bd) / 16, seed + 1);
    else
        test_fill(&dis, c->bd, c->dis_pat, seed + 2);
    test_pack(&ref, &fmt, &pr);
    test_pack(&dis, &fmt, &pd);

    struct gpussim_params p;
    gpussim_default_params(&p);
    p.format = fmt;
    p.metrics = c->metrics;
    p.ssim_scale = c->scale;
    p.enable_lcs = 1;
    p.planes = c->planes;
    char desc[160];
    snprintf(desc, sizeof(desc), "%dx%d %2db %s%s%s %s/%s scale=%d", c->w, c->h, c->bd,
             c->chroma == GPUSSIM_CHROMA_GRAY ? "gray" : c->chroma == GPUSSIM_CHROMA_420 ? "420"
             : c->chroma == GPUSSIM_CHROMA_422 ? "422" : "444",
             c->packing == GPUSSIM_PACKING_PLANAR ? "p" : c->packing == GPUSSIM_PACKING_SEMIPLANAR_UV ? "uv" : "vu",
             c->msb ? "msb" : "", pattern_name(c->ref_pat),
             c->dis_pat == PATTERN_RANDOM ? "noisy" : pattern_name(c->dis_pat), c->scale);
    if (c->planes == GPUSSIM_PLANES_ALL)
        strncat(desc, " all-planes", sizeof(desc) - strlen(desc) - 1);
    compare(e, desc, &p, &pr.pic, &pd.pic, 1, c->exact);

    test_packed_free(&pr);
    test_packed_free(&pd);
    test_frame_free(&ref);
    test_frame_free(&dis);
}

static void run_fixtures(struct cl_env *e)
{
    const char *dir = test_fixtures_dir();
    if (!dir)
        return;
    static const struct { int bd; const char *suffix; } depths[] = {
        { 8, "yuv420p" }, { 10, "yuv420p10le" }, { 12, "yuv420p12le" }, { 16, "yuv420p16le" },
    };
    const int w = 576, h = 324, nb = 3;
    for (size_t d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
        char path[2][1024];
        uint8_t *data[2];
        size_t size[2];
        for (int k = 0; k < 2; k++) {
            snprintf(path[k], sizeof(path[k]), "%s/src01_576x324_3f/src01_hrc0%d_576x324_3f.%s.yuv",
                     dir, k, depths[d].suffix);
            data[k] = test_read_file(path[k], &size[k]);
        }
        const int bps = depths[d].bd > 8 ? 2 : 1;
        const size_t frame = (size_t)w * h * 3 / 2 * bps;
        CHECK(data[0] && data[1] && size[0] >= frame * nb && size[1] >= frame * nb,
              "fixture %s: cannot read %s / %s", depths[d].suffix, path[0], path[1]);
        if (data[0] && data[1] && size[0] >= frame * nb && size[1] >= frame * nb) {
            struct gpussim_picture pics[2][3];
            memset(pics, 0, sizeof(pics));
            for (int k = 0; k < 2; k++)
                for (int f = 0; f < nb; f++) {
                    const uint8_t *base = data[k] + frame * f;
                    struct gpussim_picture *pc = &pics[k][f];
                    pc->memory = GPUSSIM_MEMORY_HOST;
                    pc->data[0] = base;
                    pc->data[1] = base + (size_t)w * h * bps;
                    pc->data[2] = base + (size_t)w * h * bps * 5 / 4;
                    pc->stride[0] = (ptrdiff_t)w * bps;
                    pc->stride[1] = pc->stride[2] = (ptrdiff_t)w / 2 * bps;
                }
            struct gpussim_params p;
            gpussim_default_params(&p);
            p.format = (struct gpussim_format){ w, h, depths[d].bd, GPUSSIM_CHROMA_420,
                                                GPUSSIM_PACKING_PLANAR, 0 };
            p.enable_lcs = 1;
            char desc[128];
            snprintf(desc, sizeof(desc), "fixture src01 576x324 %s, 3 frames", depths[d].suffix);
            compare(e, desc, &p, pics[0], pics[1], nb, 0);
            if (depths[d].bd == 8) {
                /* chroma 288x162 is under MS-SSIM's 176x176 */
                p.planes = GPUSSIM_PLANES_ALL;
                p.metrics = GPUSSIM_METRIC_ALL & ~GPUSSIM_METRIC_FLOAT_MS_SSIM;
                snprintf(desc, sizeof(desc), "fixture src01 576x324 %s all planes, no MS-SSIM",
                         depths[d].suffix);
                compare(e, desc, &p, pics[0], pics[1], 1, 0);
            }
        }
        free(data[0]);
        free(data[1]);
    }
}

/* The decimation kernels per element against kernels/c, memcmp-exact. */
static void check_decimation_elements(struct cl_env *e, int w, int h, uint64_t seed)
{
    const size_t n = (size_t)w * h;
    float *src = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float)),
          *got = malloc(n * sizeof(float));
    CpuScratch *s = cpu_scratch_alloc(w, h);
    cl_int st;
    cl_mem in = clCreateBuffer(e->ctx, CL_MEM_READ_ONLY, n * sizeof(float), NULL, &st);
    cl_mem out = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &st);
    const struct ze_plan_ops ops = cl_ops(e);
    if (!src || !want || !got || !s || !in || !out) {
        CHECK(0, "decimation elements: out of memory");
        goto done;
    }
    uint16_t *raw = malloc(n * sizeof(uint16_t));
    if (!raw) {
        CHECK(0, "decimation elements: out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        raw[i] = test_rand(&seed) & 1023;
    convert_to_float_c(raw, w, h, w, 4.0f, 0.0f, src); /* 10-bit samples on the 0..255.x scale */
    free(raw);
    clEnqueueWriteBuffer(e->queue, in, CL_TRUE, 0, n * sizeof(float), src, 0, NULL, NULL);

    for (int f = 1; f <= 10; f++) {
        const int is_lpf = f == 1; /* 1: the MS-SSIM low-pass, then box factors 2..10 */
        const int factor = is_lpf ? 2 : f;
        const int sw = gpussim_decimated_size(w, factor), sh = gpussim_decimated_size(h, factor);
        const size_t gl[2] = { (size_t)(sw + 31) / 32 * 32, (size_t)(sh + 3) / 4 * 4 };
        const size_t lo[2] = { 32, 4 };
        int err;
        if (is_lpf) {
            msssim_decimate_lpf_c(src, w, h, want, s);
            const struct ze_arg a[] = {
                { ZE_ARG_BUF, { .buf = in } }, { ZE_ARG_I32, { .i32 = w } },
                { ZE_ARG_I32, { .i32 = h } }, { ZE_ARG_BUF, { .buf = out } },
                { ZE_ARG_I32, { .i32 = sw } }, { ZE_ARG_I32, { .i32 = sh } },
            };
            err = ops.launch(e, 0, ZE_K_MSSSIM_DECIMATE_LPF, gl, lo, 6, a);
        } else {
            ssim_decimate_box_c(src, w, h, factor, want, s);
            const struct ze_arg a[] = {
                { ZE_ARG_BUF, { .buf = in } }, { ZE_ARG_I32, { .i32 = w } },
                { ZE_ARG_I32, { .i32 = h } }, { ZE_ARG_I32, { .i32 = factor } },
                { ZE_ARG_F32, { .f32 = 1.0f / (factor * factor) } }, { ZE_ARG_BUF, { .buf = out } },
                { ZE_ARG_I32, { .i32 = sw } }, { ZE_ARG_I32, { .i32 = sh } },
            };
            err = ops.launch(e, 0, ZE_K_SSIM_DECIMATE_BOX, gl, lo, 8, a);
        }
        CHECK(err == 0, "decimation launch failed");
        clEnqueueReadBuffer(e->queue, out, CL_TRUE, 0, (size_t)sw * sh * sizeof(float), got, 0,
                            NULL, NULL);
        size_t diff = 0;
        for (size_t i = 0; i < (size_t)sw * sh; i++)
            diff += memcmp(&got[i], &want[i], sizeof(float)) != 0;
        CHECK(diff == 0, "%dx%d %s: %zu of %d decimated samples differ from kernels/c", w, h,
              is_lpf ? "MS-SSIM low-pass" : "box", diff, sw * sh);
        if (verbose || diff)
            printf("  %dx%d %s factor %d: %zu/%d samples differ\n", w, h,
                   is_lpf ? "MS-SSIM low-pass" : "box", factor, diff, sw * sh);
    }
    printf("  decimation per element %dx%d (9x9 low-pass, box 2..10): %s\n", w, h,
           test_failed ? "see failures" : "bit-identical");
done:
    if (in)
        clReleaseMemObject(in);
    if (out)
        clReleaseMemObject(out);
    cpu_scratch_free(&s);
    free(src), free(want), free(got);
}

/*
 * The dma-buf path of the plan (ze_plan_record_device): the picture planes
 * in one device buffer at offsets with padded pitches, as a VAAPI NV12/P010
 * surface exported as DRM PRIME lays them out (one fd, luma then UV). The
 * CPU reads the same bytes as a host picture.
 */
static void run_surface_layout(struct cl_env *e, int w, int h, int bd, int msb, unsigned metrics)
{
    const struct gpussim_format fmt = { w, h, bd, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_UV,
                                        msb };
    struct test_frame fr[2];
    struct test_packed pk[2];
    struct gpussim_picture host[2];
    struct ze_plane_src dev[1][2][3];
    uint8_t *surf[2] = { NULL, NULL };
    cl_mem mem[2] = { NULL, NULL };
    const int bps = bd > 8 ? 2 : 1;
    const size_t pitch = ((size_t)w * bps + 255) / 256 * 256;
    const size_t off_y = 4096, off_uv = off_y + pitch * (((size_t)h + 31) / 32 * 32);
    const size_t size = off_uv + pitch * (((size_t)h + 1) / 2);

    test_frame_alloc(&fr[0], &fmt);
    test_frame_alloc(&fr[1], &fmt);
    test_fill(&fr[0], bd, PATTERN_GRADIENT, 4242);
    test_distort(&fr[0], &fr[1], bd, (1 << bd) / 16, 4243);
    memset(dev, 0, sizeof(dev));
    for (int k = 0; k < 2; k++) {
        test_pack(&fr[k], &fmt, &pk[k]);
        surf[k] = calloc(size, 1);
        if (!surf[k])
            goto done;
        const int rows[2] = { h, (h + 1) / 2 };
        const size_t row_bytes[2] = { (size_t)w * bps, (size_t)((w + 1) / 2) * 2 * bps };
        const size_t off[2] = { off_y, off_uv };
        for (int p = 0; p < 2; p++)
            for (int y = 0; y < rows[p]; y++)
                memcpy(surf[k] + off[p] + pitch * y, pk[k].plane[p] + pk[k].stride[p] * y,
                       row_bytes[p]);
        memset(&host[k], 0, sizeof(host[k]));
        host[k].memory = GPUSSIM_MEMORY_HOST;
        for (int p = 0; p < 2; p++) {
            host[k].data[p] = surf[k] + off[p];
            host[k].stride[p] = (ptrdiff_t)pitch;
        }
        cl_int st;
        mem[k] = clCreateBuffer(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, size, surf[k], &st);
        if (st != CL_SUCCESS)
            goto done;
        dev[0][k][0] = (struct ze_plane_src){ mem[k], off_y, (int64_t)pitch };
        dev[0][k][1] = (struct ze_plane_src){ mem[k], off_uv, (int64_t)pitch };
    }
    struct gpussim_params p;
    gpussim_default_params(&p);
    p.format = fmt;
    p.metrics = metrics;
    p.enable_lcs = 1;
    p.planes = GPUSSIM_PLANES_ALL;
    char desc[128];
    snprintf(desc, sizeof(desc), "%dx%d %s surface, pitch %zu, UV at %zu (device path)", w, h,
             bd == 8 ? "NV12" : "P010-style", pitch, off_uv);
    compare_dev(e, desc, &p, &host[0], &host[1], 1, 0, (const struct ze_plane_src(*)[2][3])dev);
done:
    CHECK(surf[0] && surf[1] && mem[0] && mem[1], "surface layout %dx%d: setup failed", w, h);
    for (int k = 0; k < 2; k++) {
        if (mem[k])
            clReleaseMemObject(mem[k]);
        free(surf[k]);
        test_packed_free(&pk[k]);
        test_frame_free(&fr[k]);
    }
}

/* The dma-buf rules shared by the HIP and Level Zero backends: linear only,
 * the modifier named in the error, planes bounded by the buffer's size
 * (a memfd stands in for the dma-buf: lseek gives its size the same way). */
static void check_dmabuf_rules(void)
{
    struct gpussim_params p;
    struct gpussim_config cfg;
    gpussim_default_params(&p);
    p.format = (struct gpussim_format){ 640, 360, 8, GPUSSIM_CHROMA_420,
                                        GPUSSIM_PACKING_SEMIPLANAR_UV, 0 };
    p.planes = GPUSSIM_PLANES_ALL;
    p.log_cb = test_log_cb;
    CHECK(gpussim_config_init(&cfg, &p) == 0, "config: %s", test_last_error);

    CHECK(gpussim_dmabuf_check_linear(&cfg.log, "ze", GPUSSIM_DRM_MOD_LINEAR) == 0,
          "linear modifier refused");
    CHECK(gpussim_dmabuf_check_linear(&cfg.log, "ze", 0x0100000000000002ull) == -EINVAL &&
              strstr(test_last_error, "I915_FORMAT_MOD_Y_TILED") &&
              strstr(test_last_error, "backend=vulkan"),
          "Y-tiled surface: want -EINVAL naming I915_FORMAT_MOD_Y_TILED, got '%s'", test_last_error);
    CHECK(gpussim_dmabuf_check_linear(&cfg.log, "hip", 0x0200000000000000ull | (9u << 8) | 3u) ==
                  -EINVAL && strstr(test_last_error, "AMD_FMT_MOD"),
          "AMD tiled surface: want -EINVAL naming AMD_FMT_MOD, got '%s'", test_last_error);
    CHECK(gpussim_dmabuf_check_linear(&cfg.log, "ze", GPUSSIM_DRM_MOD_INVALID) == -EINVAL &&
              strstr(test_last_error, "DRM_FORMAT_MOD_INVALID"),
          "implicit modifier: want -EINVAL naming DRM_FORMAT_MOD_INVALID, got '%s'", test_last_error);

    const int fd = memfd_create("gpussim-test-surface", 0);
    CHECK(fd >= 0, "memfd_create failed");
    if (fd < 0)
        return;
    const size_t pitch = 640, size = pitch * 368 + pitch * 184;
    CHECK(ftruncate(fd, (off_t)size) == 0, "ftruncate failed");
    struct gpussim_picture pic = { .memory = GPUSSIM_MEMORY_DMABUF };
    pic.fd[0] = pic.fd[1] = fd;
    pic.offset[0] = 0, pic.offset[1] = pitch * 368;
    pic.stride[0] = pic.stride[1] = (ptrdiff_t)pitch;
    struct gpussim_dmabuf_plane planes[3];
    int nb = 0;
    CHECK(gpussim_dmabuf_planes(&cfg, "ze", &pic, planes, &nb) == 0 && nb == 2 &&
              planes[1].row_bytes == 640 && planes[1].rows == 180,
          "NV12 surface in a memfd: %s (nb %d)", test_last_error, nb);
    pic.offset[1] = pitch * 368 + 4 * pitch + 1; /* the UV plane runs past the end */
    CHECK(gpussim_dmabuf_planes(&cfg, "ze", &pic, planes, &nb) == -EINVAL &&
              strstr(test_last_error, "past the buffer"),
          "UV plane past the end: want -EINVAL, got '%s'", test_last_error);
    pic.offset[1] = pitch * 368;
    pic.stride[0] = 600; /* below the 640-byte row */
    CHECK(gpussim_dmabuf_planes(&cfg, "ze", &pic, planes, &nb) == -EINVAL &&
              strstr(test_last_error, "pitch"),
          "short pitch: want -EINVAL, got '%s'", test_last_error);
    pic.stride[0] = (ptrdiff_t)pitch;
    pic.fd[1] = -1;
    CHECK(gpussim_dmabuf_planes(&cfg, "ze", &pic, planes, &nb) == -EINVAL,
          "missing fd: want -EINVAL, got '%s'", test_last_error);
    close(fd);
    printf("  dma-buf rules: linear only, modifiers named, planes bounded: checked\n");
}

int main(void)
{
    struct cl_env env;
    memset(&env, 0, sizeof(env));
    verbose = getenv("GPUSSIM_OPENCL_VERBOSE") && atoi(getenv("GPUSSIM_OPENCL_VERBOSE"));
    const int r = cl_setup(&env);
    if (r) {
        cl_teardown(&env);
        return r == TEST_SKIP ? TEST_SKIP : 1;
    }
    printf("OpenCL device: %s\n", env.device_name);

    const unsigned ALL = GPUSSIM_METRIC_ALL;
    const unsigned NO_MS = ALL & ~GPUSSIM_METRIC_FLOAT_MS_SSIM;
    const unsigned FSSIM = GPUSSIM_METRIC_FLOAT_SSIM, ISSIM = GPUSSIM_METRIC_SSIM;
    const enum gpussim_chroma C420 = GPUSSIM_CHROMA_420, C422 = GPUSSIM_CHROMA_422,
                              C444 = GPUSSIM_CHROMA_444, GRAY = GPUSSIM_CHROMA_GRAY;
    const enum gpussim_packing PL = GPUSSIM_PACKING_PLANAR, UV = GPUSSIM_PACKING_SEMIPLANAR_UV,
                               VU = GPUSSIM_PACKING_SEMIPLANAR_VU;
    const enum gpussim_planes LUMA = GPUSSIM_PLANES_LUMA, PALL = GPUSSIM_PLANES_ALL;
    const enum test_pattern RND = PATTERN_RANDOM, FLAT = PATTERN_FLAT, MAX = PATTERN_MAX,
                            ZERO = PATTERN_ZERO, CHK = PATTERN_CHECKER, GRAD = PATTERN_GRADIENT;
    const struct gen_case cases[] = {
        /* MS-SSIM's minimum, 8 and 16 bit */
        { 176, 176, 8, GRAY, PL, 0, RND, RND, ALL, 0, LUMA, 0 },
        { 176, 176, 16, C444, PL, 0, GRAD, RND, ALL, 0, PALL, 0 },
        /* odd size: scale 3 (odd box) on luma, chroma 641x360 at scale 1 */
        { 1281, 719, 10, C420, PL, 0, GRAD, RND, ALL, 0, PALL, 0 },
        /* scale 2 (even, left-biased box), odd width, 12-bit 4:2:2 */
        { 513, 385, 12, C422, PL, 0, RND, RND, NO_MS, 0, PALL, 0 },
        /* scale 4 like 1080p, and forced odd/even scales */
        { 1025, 1030, 8, GRAY, PL, 0, GRAD, RND, FSSIM, 0, LUMA, 0 },
        { 301, 203, 16, GRAY, PL, 0, RND, RND, FSSIM | ISSIM, 5, LUMA, 0 },
        { 300, 200, 8, GRAY, PL, 0, RND, RND, FSSIM, 10, LUMA, 0 },
        /* semi-planar layouts through the unpack kernel: NV12, NV21, P010, P016
         * (4:2:0 chroma reaches MS-SSIM's 176 from 352 luma) */
        { 353, 289, 8, C420, UV, 0, GRAD, RND, NO_MS, 0, PALL, 0 },
        { 352, 288, 8, C420, VU, 0, GRAD, RND, NO_MS, 0, PALL, 0 },
        { 353, 353, 10, C420, UV, 1, GRAD, RND, ALL, 0, PALL, 0 },
        { 354, 290, 16, C420, UV, 1, RND, RND, NO_MS, 0, PALL, 0 },
        /* flat, extreme and checkerboard content */
        { 200, 180, 8, GRAY, PL, 0, FLAT, FLAT, ALL, 0, LUMA, 0 },
        { 200, 180, 12, GRAY, PL, 0, MAX, MAX, ALL, 0, LUMA, 0 },
        { 200, 180, 16, GRAY, PL, 0, MAX, ZERO, ALL, 0, LUMA, 0 },
        { 200, 180, 10, GRAY, PL, 0, ZERO, ZERO, ALL, 0, LUMA, 0 },
        { 203, 181, 8, GRAY, PL, 0, CHK, FLAT, ALL, 0, LUMA, 0 },
        /* tiny planes: the 11x11 window and the ANSNR borders */
        { 11, 11, 8, GRAY, PL, 0, RND, RND, NO_MS, 0, LUMA, 0 },
        { 23, 13, 12, C444, PL, 0, CHK, RND, NO_MS, 0, PALL, 0 },
        /* every window in one work-group (<= 128 wide, one row): the sums are
         * in the reference's order, so everything is bit-identical */
        { 138, 11, 8, GRAY, PL, 0, RND, RND, FSSIM | GPUSSIM_METRIC_FLOAT_ANSNR, 0, LUMA, 1 },
        { 128, 11, 16, GRAY, PL, 0, GRAD, RND, FSSIM, 0, LUMA, 1 },
        { 128, 1, 10, GRAY, PL, 0, RND, RND, ISSIM, 0, LUMA, 1 },
        { 77, 1, 16, GRAY, PL, 0, RND, RND, ISSIM, 0, LUMA, 1 },
    };

    printf("decimation kernels per element:\n");
    check_decimation_elements(&env, 1281, 719, 11);
    check_decimation_elements(&env, 177, 176, 12);
    printf("fixtures (CPU backend vs OpenCL kernels through the Level Zero plan):\n");
    run_fixtures(&env);
    printf("generated inputs:\n");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_generated(&env, &cases[i], 1000 + i);

    printf("device-memory path (dma-buf layout):\n");
    run_surface_layout(&env, 1280, 720, 8, 0, GPUSSIM_METRIC_ALL & ~GPUSSIM_METRIC_FLOAT_MS_SSIM);
    run_surface_layout(&env, 722, 406, 10, 1, GPUSSIM_METRIC_ALL);
    check_dmabuf_rules();

    printf("bit-identical scores: %ld of %ld\n", total_identical, total_values);
    cl_teardown(&env);
    return test_summary();
}
