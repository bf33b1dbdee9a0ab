/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * CUDA backend against the CPU reference (spec §5), checkasm style:
 *   - generated inputs: every depth, every layout (planar 4:2:0/4:2:2/4:4:4,
 *     gray, NV12/NV21, P010/P012/P016 MSB-aligned), random/flat/max/zero/
 *     checker/gradient content, odd and minimum sizes, luma and all planes,
 *     float_ssim scales 1..10;
 *   - the same frames as CUDA-memory pictures read in place, through an
 *     adopted context and stream (FFmpeg's AVCUDADeviceContext path): they
 *     must give exactly the values of the host pictures;
 *   - the libvmaf fixtures (tests/fixtures, or GPUSSIM_FIXTURES; missing
 *     fixtures fail the test);
 *   - ordering after the producer: pictures written on the legacy default
 *     stream (FFmpeg's) behind a gate that only the host opens. The frame
 *     must not complete while the gate is closed, and its scores must be
 *     those of the written pictures (the backend runs on its own stream and
 *     waits for the producer's event, spec of gpussim_cuda.h).
 * Asserts: every value within the spec's tolerance (5e-5 float metrics,
 * 1e-9 integer ssim), CUDA-memory == host-memory bit for bit, a second run
 * identical to the first (determinism). Reports the bit-identical counts per
 * metric. Exit 77 without a CUDA device.
 *
 * GPUSSIM_PARITY_QUICK=1 runs a reduced set (compute-sanitizer memcheck),
 * GPUSSIM_PARITY_QUICK=2 a tiny one, 3 two cases, 4 one frame of one case
 * (racecheck, which is far slower).
 */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpussim/gpussim_cuda.h"
#include "hwctx/cuda/cuda_loader.h"
#include "tests/lib/testutil.h"

static const struct gpussim_cuda_api *cu;
static CUcontext cu_ctx;
static CUstream cu_stream;
static int quick;

/* per metric family: values compared, bit-identical, max |diff| */
enum fam { FAM_SSIM, FAM_MS_SSIM, FAM_ANSNR, FAM_ISSIM, FAM_N };
static const char *const fam_names[FAM_N] = { "float_ssim(+lcs)", "float_ms_ssim(+lcs)",
                                              "float_ansnr/anpsnr", "ssim" };
static long long fam_total[FAM_N], fam_exact[FAM_N];
static double fam_maxdiff[FAM_N];
static long long frames_total, frames_exact;

static enum fam family(const char *name)
{
    if (!strncmp(name, "float_ms_ssim", 13))
        return FAM_MS_SSIM;
    if (!strncmp(name, "float_ssim", 10))
        return FAM_SSIM;
    if (!strncmp(name, "float_an", 8))
        return FAM_ANSNR;
    return FAM_ISSIM;
}

static double tolerance(enum fam f)
{
    return f == FAM_ISSIM ? 1e-9 : 5e-5;
}

static int cuda_setup(void)
{
    cu = gpussim_cuda_load();
    if (!cu)
        return -1;
    int count = 0;
    CUdevice dev;
    if (cu->cuInit(0) || cu->cuDeviceGetCount(&count) || count < 1)
        return -1;
    if (cu->cuDeviceGet(&dev, 0) || cu->cuDevicePrimaryCtxRetain(&cu_ctx, dev))
        return -1;
    if (cu->cuCtxPushCurrent(cu_ctx))
        return -1;
    int err = cu->cuStreamCreate(&cu_stream, CU_STREAM_NON_BLOCKING);
    CUcontext dummy;
    cu->cuCtxPopCurrent(&dummy);
    return err ? -1 : 0;
}

/* Copies a packed host picture to device memory (same pitches). */
static int to_device(const struct test_packed *hp, int nb_planes, const int rows[3],
                     struct gpussim_picture *dp, CUdeviceptr mem[3])
{
    CUcontext dummy;
    memset(dp, 0, sizeof(*dp));
    dp->memory = GPUSSIM_MEMORY_CUDA;
    if (cu->cuCtxPushCurrent(cu_ctx))
        return -EIO;
    int err = 0;
    for (int p = 0; p < nb_planes && !err; p++) {
        const size_t bytes = (size_t)hp->stride[p] * rows[p];
        err = cu->cuMemAlloc(&mem[p], bytes) || cu->cuMemcpyHtoD(mem[p], hp->plane[p], bytes);
        dp->data[p] = (const void *)(uintptr_t)mem[p];
        dp->stride[p] = hp->stride[p];
    }
    cu->cuCtxPopCurrent(&dummy);
    return err ? -EIO : 0;
}

static void free_device(CUdeviceptr mem[3])
{
    CUcontext dummy;
    cu->cuCtxPushCurrent(cu_ctx);
    for (int p = 0; p < 3; p++)
        if (mem[p])
            cu->cuMemFree(mem[p]);
    cu->cuCtxPopCurrent(&dummy);
}

/* Compares CUDA values with the CPU's for one case; returns failures. */
static void compare(const char *label, const double *cpu, const double *gpu, char **names, int n,
                    int nb_frames)
{
    for (int f = 0; f < nb_frames; f++) {
        int frame_exact = 1;
        for (int k = 0; k < n; k++) {
            const double a = cpu[f * n + k], b = gpu[f * n + k];
            const enum fam fm = family(names[k]);
            const int same = a == b || (isnan(a) && isnan(b));
            const double d = fabs(a - b);
            fam_total[fm]++;
            fam_exact[fm] += same;
            frame_exact &= same;
            if (!same && d > fam_maxdiff[fm])
                fam_maxdiff[fm] = d;
            CHECK(same || d <= tolerance(fm), "%s frame %d %s: cpu %.17g cuda %.17g (diff %.3g)",
                  label, f, names[k], a, b, b - a);
        }
        frames_total++;
        frames_exact += frame_exact;
    }
}

struct layout {
    const char *name;
    enum gpussim_chroma chroma;
    enum gpussim_packing packing;
    int msb; /* P01x */
};

static const struct layout layouts[] = {
    { "yuv420p", GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 },
    { "yuv422p", GPUSSIM_CHROMA_422, GPUSSIM_PACKING_PLANAR, 0 },
    { "yuv444p", GPUSSIM_CHROMA_444, GPUSSIM_PACKING_PLANAR, 0 },
    { "gray", GPUSSIM_CHROMA_GRAY, GPUSSIM_PACKING_PLANAR, 0 },
    { "nv12/p01x", GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_UV, 1 },
    { "nv21", GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_VU, 0 },
};

/* Runs one configuration over nb frame pairs on CPU, CUDA (host) and CUDA
 * (device memory, adopted context) and compares. */
static void run_case(const char *tag, int w, int h, int bd, const struct layout *lo,
                     enum test_pattern pat, int planes_all, unsigned metrics, int scale, int nb,
                     uint64_t seed)
{
    char label[256];
    struct gpussim_params p;
    gpussim_default_params(&p);
    p.format = (struct gpussim_format){ .width = w, .height = h, .bit_depth = bd, .chroma = lo->chroma,
                                        .packing = lo->packing,
                                        .msb_aligned = lo->msb && bd > 8 };
    p.metrics = metrics;
    p.enable_lcs = 1;
    p.ssim_scale = scale;
    p.planes = planes_all ? GPUSSIM_PLANES_ALL : GPUSSIM_PLANES_LUMA;
    p.log_cb = test_log_cb;
    snprintf(label, sizeof(label), "%s %dx%d %d-bit %s%s planes=%s scale=%d pat=%d", tag, w, h, bd,
             lo->name, p.format.msb_aligned ? "(msb)" : "", planes_all ? "all" : "luma", scale,
             (int)pat);

    struct test_frame rf[4], df[4];
    struct test_packed rpk[4], dpk[4];
    struct gpussim_picture rp[4], dp[4], rdev[4], ddev[4];
    CUdeviceptr rmem[4][3], dmem[4][3];
    memset(rmem, 0, sizeof(rmem));
    memset(dmem, 0, sizeof(dmem));
    const int semi = lo->packing != GPUSSIM_PACKING_PLANAR;
    const int nb_planes = lo->chroma == GPUSSIM_CHROMA_GRAY ? 1 : semi ? 2 : 3;
    for (int i = 0; i < nb; i++) {
        test_frame_alloc(&rf[i], &p.format);
        test_frame_alloc(&df[i], &p.format);
        test_fill(&rf[i], bd, pat, seed + 17 * i);
        if (pat == PATTERN_RANDOM || pat == PATTERN_GRADIENT)
            test_distort(&rf[i], &df[i], bd, 1 + (int)((seed + i) % 40) * (1 << (bd - 8)), seed + 31 * i);
        else
            test_fill(&df[i], bd, i & 1 ? PATTERN_RANDOM : pat, seed + 99 * i);
        test_pack(&rf[i], &p.format, &rpk[i]);
        test_pack(&df[i], &p.format, &dpk[i]);
        rp[i] = rpk[i].pic;
        dp[i] = dpk[i].pic;
        const int rows[3] = { h, rf[i].ch, rf[i].ch };
        CHECK(to_device(&rpk[i], nb_planes, rows, &rdev[i], rmem[i]) == 0 &&
                  to_device(&dpk[i], nb_planes, rows, &ddev[i], dmem[i]) == 0,
              "%s: device upload failed", label);
    }

    double *vc = NULL, *vg = NULL, *vg2 = NULL, *vd = NULL;
    char **names = NULL;
    p.backend = GPUSSIM_BACKEND_CPU;
    const int n = test_score(&p, rp, dp, nb, &vc, &names);
    CHECK(n > 0, "%s: cpu failed: %d %s", label, n, test_last_error);
    p.backend = GPUSSIM_BACKEND_CUDA;
    const int ng = test_score(&p, rp, dp, nb, &vg, NULL);
    CHECK(ng == n, "%s: cuda (host pictures) failed: %d %s", label, ng, test_last_error);
    /* the smallest racecheck set scores each frame once */
    const int ng2 = quick > 3 ? n : test_score(&p, rp, dp, nb, &vg2, NULL);
    struct gpussim_cuda_device hw = { cu_ctx, cu_stream };
    p.hw_device = &hw;
    p.max_in_flight = 2;
    const int nd = quick > 3 ? n : test_score(&p, rdev, ddev, nb, &vd, NULL);
    CHECK(nd == n, "%s: cuda (CUDA pictures) failed: %d %s", label, nd, test_last_error);
    if (n > 0 && ng == n) {
        compare(label, vc, vg, names, n, nb);
        if (ng2 == n && vg2)
            CHECK(!memcmp(vg, vg2, sizeof(double) * n * nb), "%s: second run differs", label);
        if (nd == n && vd)
            CHECK(!memcmp(vg, vd, sizeof(double) * n * nb),
                  "%s: CUDA-memory pictures differ from host pictures", label);
    }
    free(vc);
    free(vg);
    free(vg2);
    free(vd);
    test_free_names(names, n);
    for (int i = 0; i < nb; i++) {
        free_device(rmem[i]);
        free_device(dmem[i]);
        test_packed_free(&rpk[i]);
        test_packed_free(&dpk[i]);
        test_frame_free(&rf[i]);
        test_frame_free(&df[i]);
    }
}

static void run_generated(void)
{
    static const int depths[] = { 8, 10, 12, 16 };
    static const struct { int w, h; unsigned metrics; } sizes[] = {
        { 576, 324, GPUSSIM_METRIC_ALL },
        { 177, 181, GPUSSIM_METRIC_ALL },   /* odd, just above MS-SSIM's minimum */
        { 176, 176, GPUSSIM_METRIC_ALL },   /* MS-SSIM's minimum */
        { 11, 11, GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_ANSNR | GPUSSIM_METRIC_SSIM },
        { 37, 13, GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_ANSNR | GPUSSIM_METRIC_SSIM },
        { 3, 3, GPUSSIM_METRIC_FLOAT_ANSNR | GPUSSIM_METRIC_SSIM },
        { 1, 1, GPUSSIM_METRIC_SSIM },
        { 1283, 721, GPUSSIM_METRIC_ALL },  /* odd, auto scale 3 */
    };
    const int nsizes = quick ? 4 : (int)(sizeof(sizes) / sizeof(sizes[0]));
    uint64_t seed = 1;
    for (int si = 0; si < nsizes; si++)
        for (int di = 0; di < 4; di++)
            for (size_t li = 0; li < sizeof(layouts) / sizeof(layouts[0]); li++) {
                const struct layout *lo = &layouts[li];
                const int w = sizes[si].w, h = sizes[si].h;
                if (quick && li > 1 && di != 1)
                    continue;
                if (quick > 1 && (si == 0 || (di != 0 && di != 3) || (li != 0 && li != 4)))
                    continue;
                /* racecheck: one 4:2:0 8-bit and one P016 case at MS-SSIM's minimum */
                if (quick > 2 && (si != 2 || (li == 0) != (di == 0)))
                    continue;
                if (quick > 3 && (li != 0 || di != 0))
                    continue;
                /* chroma planes of tiny frames are below the metrics' minimum */
                const int planes_all = lo->chroma != GPUSSIM_CHROMA_GRAY && w >= 352 && h >= 352 &&
                                       !(si == 0 && lo->chroma == GPUSSIM_CHROMA_420);
                const enum test_pattern pat = (enum test_pattern)((si + di + li) % 6);
                run_case("gen", w, h, depths[di], lo, pat, planes_all, sizes[si].metrics, 0,
                         quick > 3 ? 1 : quick ? 2 : 3, seed++);
                if (!quick && pat != PATTERN_RANDOM)
                    run_case("gen", w, h, depths[di], lo, PATTERN_RANDOM, 0, sizes[si].metrics, 0,
                             2, seed++);
            }
    /* forced float_ssim scales, including odd ones and scales the auto rule never picks */
    for (int scale = quick > 1 ? 2 : 1; scale <= (quick > 2 ? 1 : quick ? 3 : 10); scale++)
        run_case("scale", 451, 263, scale & 1 ? 8 : 10, &layouts[0], PATTERN_GRADIENT, 0,
                 GPUSSIM_METRIC_FLOAT_SSIM, scale, 2, 1000 + scale);
    /* 1080p, one frame per depth, all planes of 4:4:4 */
    if (!quick) {
        run_case("1080p", 1920, 1080, 8, &layouts[0], PATTERN_GRADIENT, 0, GPUSSIM_METRIC_ALL, 0, 2, 7);
        run_case("1080p", 1920, 1080, 10, &layouts[4], PATTERN_RANDOM, 0, GPUSSIM_METRIC_ALL, 0, 2, 8);
        run_case("1080p", 1920, 1080, 12, &layouts[2], PATTERN_GRADIENT, 1, GPUSSIM_METRIC_ALL, 0, 1, 9);
    }
}

/* The fixtures through CUDA against libvmaf's values (spec §5 tolerance,
 * bit-identical counted). */
static void run_fixtures(void)
{
    const char *dir = test_fixtures_dir();
    if (!dir)
        return;
    static const struct { const char *json, *suffix; int bd; } sets[] = {
        { "expected_8bit.json", "yuv420p", 8 },
        { "expected_10bit.json", "yuv420p10le", 10 },
        { "expected_12bit.json", "yuv420p12le", 12 },
        { "expected_16bit.json", "yuv420p16le", 16 },
        { "expected_8bit_identity.json", "yuv420p", 8 },
    };
    const int W = 576, H = 324;
    for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
        char path[4096];
        struct test_expected exp;
        snprintf(path, sizeof(path), "%s/src01_576x324_3f/%s", dir, sets[s].json);
        if (test_expected_load(path, &exp)) {
            CHECK(0, "cannot load %s", path);
            continue;
        }
        const int identity = strstr(sets[s].json, "identity") != NULL;
        size_t rs = 0, ds = 0;
        snprintf(path, sizeof(path), "%s/src01_576x324_3f/src01_hrc00_576x324_3f.%s.yuv", dir,
                 sets[s].suffix);
        uint8_t *ref = test_read_file(path, &rs);
        snprintf(path, sizeof(path), "%s/src01_576x324_3f/src01_hrc0%d_576x324_3f.%s.yuv", dir,
                 identity ? 0 : 1, sets[s].suffix);
        uint8_t *dis = test_read_file(path, &ds);
        const int bps = sets[s].bd > 8 ? 2 : 1;
        const size_t fsz = (size_t)W * H * 3 / 2 * bps, ysz = (size_t)W * H * bps;
        if (!ref || !dis || rs != 3 * fsz || ds != 3 * fsz) {
            CHECK(0, "%s: bad yuv files", sets[s].json);
            free(ref), free(dis), test_expected_free(&exp);
            continue;
        }
        struct gpussim_picture rp[3], dp[3];
        memset(rp, 0, sizeof(rp));
        memset(dp, 0, sizeof(dp));
        for (int i = 0; i < 3; i++) {
            const uint8_t *rb = ref + i * fsz, *db = dis + i * fsz;
            rp[i].data[0] = rb, rp[i].data[1] = rb + ysz, rp[i].data[2] = rb + ysz + ysz / 4;
            dp[i].data[0] = db, dp[i].data[1] = db + ysz, dp[i].data[2] = db + ysz + ysz / 4;
            for (int k = 0; k < 3; k++)
                rp[i].stride[k] = dp[i].stride[k] = (k ? W / 2 : W) * bps;
        }
        struct gpussim_params p;
        gpussim_default_params(&p);
        p.backend = GPUSSIM_BACKEND_CUDA;
        p.format = (struct gpussim_format){ .width = W, .height = H, .bit_depth = sets[s].bd };
        p.enable_lcs = 1;
        p.log_cb = test_log_cb;
        double *v = NULL;
        char **names = NULL;
        const int n = test_score(&p, rp, dp, 3, &v, &names);
        CHECK(n == 23, "%s: cuda: %d scores (%s)", sets[s].json, n, test_last_error);
        int exact = 0, total = 0;
        double maxd = 0;
        for (int f = 0; n > 0 && f < 3; f++)
            for (int k = 0; k < n; k++) {
                int found;
                const double want = test_expected_get(&exp, f, names[k], &found);
                const double got = v[f * n + k], d = fabs(got - want);
                total++;
                exact += got == want;
                if (d > maxd)
                    maxd = d;
                CHECK(found && d <= tolerance(family(names[k])),
                      "%s frame %d %s: cuda %.17g libvmaf %.17g (diff %.3g)", sets[s].json, f,
                      names[k], got, want, got - want);
            }
        printf("fixture %-28s cuda: %d/%d values bit-identical to libvmaf, max |diff| %.3g\n",
               sets[s].json, exact, total, maxd);
        free(v);
        test_free_names(names, n);
        free(ref);
        free(dis);
        test_expected_free(&exp);
    }
}

/* Pictures written on the legacy default stream after a host-opened gate:
 * scoring must wait for the writes (not run on stale memory) and must not
 * finish before the gate opens. */
static void run_producer_order(void)
{
    typedef CUresult (*wait_value_fn)(CUstream s, CUdeviceptr addr, unsigned v, unsigned flags);
    typedef CUresult (*host_dptr_fn)(CUdeviceptr *d, void *p, unsigned flags);
    wait_value_fn wait_value = (wait_value_fn)dlsym(cu->lib, "cuStreamWaitValue32_v2");
    if (!wait_value)
        wait_value = (wait_value_fn)dlsym(cu->lib, "cuStreamWaitValue32");
    host_dptr_fn host_dptr = (host_dptr_fn)dlsym(cu->lib, "cuMemHostGetDevicePointer_v2");
    if (!wait_value || !host_dptr) {
        printf("producer ordering: no cuStreamWaitValue32 in this driver: skipped\n");
        return;
    }
    const int W = 576, H = 324;
    struct gpussim_params p;
    gpussim_default_params(&p);
    p.format = (struct gpussim_format){ .width = W, .height = H, .bit_depth = 8 };
    p.log_cb = test_log_cb;
    struct test_frame rf, df;
    struct test_packed rpk, dpk;
    test_frame_alloc(&rf, &p.format);
    test_frame_alloc(&df, &p.format);
    test_fill(&rf, 8, PATTERN_GRADIENT, 4242);
    test_distort(&rf, &df, 8, 12, 4243);
    test_pack(&rf, &p.format, &rpk);
    test_pack(&df, &p.format, &dpk);
    double *vc = NULL;
    char **names = NULL;
    p.backend = GPUSSIM_BACKEND_CPU;
    const int n = test_score(&p, &rpk.pic, &dpk.pic, 1, &vc, &names);
    CHECK(n > 0, "producer ordering: cpu failed: %s", test_last_error);

    const struct test_packed *pk[2] = { &rpk, &dpk };
    const int rows[3] = { H, rf.ch, rf.ch };
    struct gpussim_picture dev[2];
    CUdeviceptr mem[2][3] = { { 0 } }, gate_dev = 0;
    void *staged[2][3] = { { NULL } };
    volatile uint32_t *gate = NULL;
    CUcontext dummy;
    GpussimContext *g = NULL;
    int ok = cu->cuCtxPushCurrent(cu_ctx) == CUDA_SUCCESS;
    CHECK(ok, "producer ordering: cannot push the context");
    if (!ok)
        goto done;
    memset(dev, 0, sizeof(dev));
    for (int k = 0; k < 2 && ok; k++) {
        dev[k].memory = GPUSSIM_MEMORY_CUDA;
        for (int pl = 0; pl < 3 && ok; pl++) {
            const size_t bytes = (size_t)pk[k]->stride[pl] * rows[pl];
            ok = !cu->cuMemAlloc(&mem[k][pl], bytes) &&
                 !cu->cuMemsetD8Async(mem[k][pl], 0, bytes, NULL) &&
                 !cu->cuMemAllocHost(&staged[k][pl], bytes);
            if (ok)
                memcpy(staged[k][pl], pk[k]->plane[pl], bytes);
            dev[k].data[pl] = (const void *)(uintptr_t)mem[k][pl];
            dev[k].stride[pl] = pk[k]->stride[pl];
        }
    }
    ok = ok && !cu->cuMemAllocHost((void **)&gate, sizeof(*gate));
    if (ok)
        *gate = 0;
    ok = ok && !host_dptr(&gate_dev, (void *)gate, 0) && !cu->cuStreamSynchronize(NULL);
    cu->cuCtxPopCurrent(&dummy);
    CHECK(ok, "producer ordering: device set-up failed");
    if (!ok)
        goto done;

    struct gpussim_cuda_device hw = { cu_ctx, NULL }; /* FFmpeg's default: the legacy stream */
    p.backend = GPUSSIM_BACKEND_CUDA;
    p.hw_device = &hw;
    ok = gpussim_create(&g, &p) == 0;
    CHECK(ok, "producer ordering: create failed: %s", test_last_error);
    if (!ok)
        goto done;
    /* the producer: gate, then the pictures' contents, on the legacy stream */
    cu->cuCtxPushCurrent(cu_ctx);
    CUresult r = wait_value(NULL, gate_dev, 1, 0 /* CU_STREAM_WAIT_VALUE_GEQ */);
    for (int k = 0; k < 2 && r == CUDA_SUCCESS; k++)
        for (int pl = 0; pl < 3 && r == CUDA_SUCCESS; pl++)
            r = cu->cuMemcpyHtoDAsync(mem[k][pl], staged[k][pl],
                                      (size_t)pk[k]->stride[pl] * rows[pl], NULL);
    cu->cuCtxPopCurrent(&dummy);
    if (r != CUDA_SUCCESS) {
        *gate = 1;
        printf("producer ordering: stream memory operations unavailable (%d): skipped\n", r);
        goto done;
    }
    const int64_t idx = gpussim_submit(g, &dev[0], &dev[1]);
    CHECK(idx == 0, "producer ordering: submit failed: %s", test_last_error);
    struct gpussim_result res;
    int early = 0;
    /* the frame cannot be done while its pictures are not written */
    for (int i = 0; i < 50 && idx == 0 && !early; i++) {
        const struct timespec ts = { 0, 2000000 };
        early = gpussim_collect(g, &res, 0) != 0;
        nanosleep(&ts, NULL);
    }
    CHECK(!early, "producer ordering: the frame finished before its producer wrote the pictures");
    *gate = 1;
    if (idx == 0 && !early) {
        const int got = gpussim_collect(g, &res, 1);
        CHECK(got == 1 && res.nb_values == n, "producer ordering: collect failed: %s",
              test_last_error);
        if (got == 1 && res.nb_values == n)
            compare("producer ordering", vc, res.values, names, n, 1);
    }

done:
    if (gate)
        *gate = 1;
    gpussim_destroy(&g);
    cu->cuCtxPushCurrent(cu_ctx);
    cu->cuStreamSynchronize(NULL);
    for (int k = 0; k < 2; k++)
        for (int pl = 0; pl < 3; pl++) {
            if (mem[k][pl])
                cu->cuMemFree(mem[k][pl]);
            if (staged[k][pl])
                cu->cuMemFreeHost(staged[k][pl]);
        }
    if (gate)
        cu->cuMemFreeHost((void *)gate);
    cu->cuCtxPopCurrent(&dummy);
    free(vc);
    test_free_names(names, n);
    test_packed_free(&rpk);
    test_packed_free(&dpk);
    test_frame_free(&rf);
    test_frame_free(&df);
}

int main(void)
{
    quick = getenv("GPUSSIM_PARITY_QUICK") ? atoi(getenv("GPUSSIM_PARITY_QUICK")) : 0;
    if (cuda_setup() < 0) {
        printf("SKIP: no CUDA device\n");
        return TEST_SKIP;
    }
    if (quick < 2)
        run_fixtures();
    run_producer_order();
    run_generated();
    printf("\nCUDA vs CPU reference on generated inputs (%s set):\n", quick ? "quick" : "full");
    for (int f = 0; f < FAM_N; f++)
        printf("  %-22s %8lld/%-8lld values bit-identical, max |diff| %.3g (tolerance %g)\n",
               fam_names[f], fam_exact[f], fam_total[f], fam_maxdiff[f], tolerance(f));
    printf("  frames with every value bit-identical: %lld/%lld\n", frames_exact, frames_total);
    CUcontext dummy;
    cu->cuCtxPushCurrent(cu_ctx);
    cu->cuStreamDestroy(cu_stream);
    cu->cuCtxPopCurrent(&dummy);
    CUdevice dev;
    cu->cuDeviceGet(&dev, 0);
    cu->cuDevicePrimaryCtxRelease(dev);
    return test_summary();
}
