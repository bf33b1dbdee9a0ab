/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * GPU benchmark, shared by the GPU backends:
 *
 *   bench_gpu BACKEND [--frames N] [--warmup N] [--quick] [--size W] [--depth D]
 *             [--metric NAME] [--ladder N]
 *
 * For 1080p and 2160p, 8 and 10 bit, each metric alone and all together:
 * frames resident on the device where the backend has a resident-frame
 * provider (CUDA: CUDA-memory pictures, read in place), else host pictures;
 * several distinct frame pairs rotate so that caches see real traffic.
 * After a warm-up, the device time of every frame (the backend's events
 * around its work, gpussim_internal_last_device_ms()) is recorded; the table
 * gives the median (and 10th/90th percentiles) in microseconds, plus the
 * wall-clock frame rate with the pipeline kept full.
 * Then, at 2160p with every metric: device memory taken by one context
 * (CUDA: cuMemGetInfo before create and after the first frame) and the time
 * from create to the first collected result.
 *
 * --ladder N: a ladder frame (one reference, N distorted pictures,
 * gpussim_submit_multi) next to a pair frame, each measured as above (the
 * device time of a whole frame), per metric and for all four; the ratio
 * ladder / pair is what scoring N renditions costs in pairs (N without
 * sharing the reference's terms). Distorted pictures rotate over
 * NB_DIS_PICS, so up to that many renditions of a frame are distinct.
 * --metric NAME runs one row (float_ssim, float_ms_ssim, float_ansnr, ssim,
 * all); --size W one width (16:9, the height even: 1920 and 3840 give 1080p
 * and 2160p) and --depth D one depth, in place of the defaults. A value
 * that would select nothing is a usage error (exit 2), not an empty table;
 * a row that cannot be measured prints its error and the exit status is 1.
 *
 * Never part of make check: no timed assertion anywhere.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "gpussim/gpussim.h"
#include "bench/bench_util.h"
#include "gpussim/gpussim_cuda.h"
#include "src/bench_hooks.h"
#if HAVE_CUDA
#include "hwctx/cuda/cuda_loader.h"
#endif

#define NB_PAIRS 4
/* --size W: the widths taken */
#define BENCH_MIN_W 64
#define BENCH_MAX_W 7680
#define NB_DIS_PICS 8 /* distorted pictures: frame i's rendition k is (i + k) % NB_DIS_PICS */


static uint64_t rng_state = 12345;
static uint32_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* ---- frames ------------------------------------------------------------------ */

struct bench_frames {
    int resident; /* device memory */
    struct gpussim_picture ref[NB_PAIRS], dis[NB_DIS_PICS];
    void *host[2][NB_DIS_PICS];
#if HAVE_CUDA
    CUdeviceptr dev[2][NB_DIS_PICS];
#endif
};

/* Pictures of kind k (0 reference, 1 distorted) */
static int nb_pics_of(int k)
{
    return k ? NB_DIS_PICS : NB_PAIRS;
}

#if HAVE_CUDA
static const struct gpussim_cuda_api *cu;
static CUcontext cu_ctx;
static CUstream cu_stream;

static int cuda_setup(void)
{
    CUdevice dev;
    cu = gpussim_cuda_load();
    if (!cu || cu->cuInit(0) || cu->cuDeviceGet(&dev, 0) ||
        cu->cuDevicePrimaryCtxRetain(&cu_ctx, dev))
        return -1;
    CUcontext dummy;
    cu->cuCtxPushCurrent(cu_ctx);
    int err = cu->cuStreamCreate(&cu_stream, CU_STREAM_NON_BLOCKING);
    cu->cuCtxPopCurrent(&dummy);
    return err ? -1 : 0;
}
#endif

/* Planar 4:2:0 frames of gradient + noise, distorted copies. */
static int make_frames(struct bench_frames *bf, const char *backend, int w, int h, int bd)
{
    const int bps = bd > 8 ? 2 : 1;
    const size_t ysz = (size_t)w * h * bps, csz = (size_t)((w + 1) / 2) * ((h + 1) / 2) * bps;
    const size_t total = ysz + 2 * csz;
    const unsigned max = (1u << bd) - 1;
    memset(bf, 0, sizeof(*bf));
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < nb_pics_of(k); i++) {
            uint8_t *buf = malloc(total);
            if (!buf)
                return -ENOMEM;
            bf->host[k][i] = buf;
            const size_t n = total / bps;
            for (size_t j = 0; j < n; j++) {
                const size_t x = j % w, y = (j / w) % h;
                unsigned v = (unsigned)(((x + 2 * y + 97 * (i % NB_PAIRS)) % 512) * max / 512);
                v = (v + (rnd() % (k ? 24u << (bd - 8) : 4u << (bd - 8)))) % (max + 1);
                if (bps == 1)
                    buf[j] = (uint8_t)v;
                else
                    ((uint16_t *)buf)[j] = (uint16_t)v;
            }
        }
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < nb_pics_of(k); i++) {
            struct gpussim_picture *p = k ? &bf->dis[i] : &bf->ref[i];
            const uint8_t *base = bf->host[k][i];
            p->memory = GPUSSIM_MEMORY_HOST;
            p->data[0] = base, p->data[1] = base + ysz, p->data[2] = base + ysz + csz;
            p->stride[0] = (ptrdiff_t)w * bps;
            p->stride[1] = p->stride[2] = (ptrdiff_t)((w + 1) / 2) * bps;
        }
#if HAVE_CUDA
    if (!strcmp(backend, "cuda")) {
        CUcontext dummy;
        cu->cuCtxPushCurrent(cu_ctx);
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < nb_pics_of(k); i++) {
                struct gpussim_picture *p = k ? &bf->dis[i] : &bf->ref[i];
                if (cu->cuMemAlloc(&bf->dev[k][i], total) ||
                    cu->cuMemcpyHtoD(bf->dev[k][i], bf->host[k][i], total)) {
                    cu->cuCtxPopCurrent(&dummy);
                    return -EIO;
                }
                p->memory = GPUSSIM_MEMORY_CUDA;
                p->data[0] = (const void *)(uintptr_t)bf->dev[k][i];
                p->data[1] = (const void *)(uintptr_t)(bf->dev[k][i] + ysz);
                p->data[2] = (const void *)(uintptr_t)(bf->dev[k][i] + ysz + csz);
            }
        cu->cuCtxPopCurrent(&dummy);
        bf->resident = 1;
    }
#else
    (void)backend;
#endif
    return 0;
}

static void free_frames(struct bench_frames *bf)
{
#if HAVE_CUDA
    if (bf->resident) {
        CUcontext dummy;
        cu->cuCtxPushCurrent(cu_ctx);
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < nb_pics_of(k); i++)
                cu->cuMemFree(bf->dev[k][i]);
        cu->cuCtxPopCurrent(&dummy);
    }
#endif
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < nb_pics_of(k); i++)
            free(bf->host[k][i]);
}

/* ---- running ----------------------------------------------------------------- */

static enum gpussim_backend_type backend_type(const char *name)
{
    enum gpussim_backend_type t = GPUSSIM_BACKEND_AUTO;
    return gpussim_backend_from_name(name, &t) < 0 ? GPUSSIM_BACKEND_AUTO : t;
}

static void log_cb(void *opaque, enum gpussim_log_level level, const char *msg)
{
    (void)opaque;
    if (level <= GPUSSIM_LOG_WARNING)
        fprintf(stderr, "gpussim: %s\n", msg);
}

static void fill_params(struct gpussim_params *p, const char *backend, int w, int h, int bd,
                        unsigned metrics, int resident, int nb_dis)
{
    gpussim_default_params(p);
    p->backend = backend_type(backend);
    p->format = (struct gpussim_format){ .width = w, .height = h, .bit_depth = bd };
    p->metrics = metrics;
    p->nb_distorted = nb_dis;
    p->log_cb = log_cb;
#if HAVE_CUDA
    static struct gpussim_cuda_device hw;
    if (resident) {
        hw.cu_context = cu_ctx;
        hw.cu_stream = cu_stream;
        p->hw_device = &hw;
    }
#else
    (void)resident;
#endif
}

/* Frame i: reference i % NB_PAIRS and nb_dis distorted pictures. */
static int64_t submit_frame(GpussimContext *ctx, const struct bench_frames *bf, int i, int nb_dis)
{
    const struct gpussim_picture *dis[GPUSSIM_MAX_DISTORTED];
    for (int k = 0; k < nb_dis; k++)
        dis[k] = &bf->dis[(i + k) % NB_DIS_PICS];
    if (nb_dis == 1)
        return gpussim_submit(ctx, &bf->ref[i % NB_PAIRS], dis[0]);
    return gpussim_submit_multi(ctx, &bf->ref[i % NB_PAIRS], dis, nb_dis);
}

/* Scores warmup + frames frames of nb_dis distorted pictures each (1: a
 * pair); fills the sorted device times (ms). */
static int run_one(const char *backend, struct bench_frames *bf, int w, int h, int bd,
                   unsigned metrics, int nb_dis, int warmup, int frames, double *times, double *fps)
{
    struct gpussim_params p;
    GpussimContext *ctx = NULL;
    struct gpussim_result res;
    fill_params(&p, backend, w, h, bd, metrics, bf->resident, nb_dis > 1 ? nb_dis : 0);
    int err = gpussim_create(&ctx, &p);
    if (err < 0)
        return err;
    const int total = warmup + frames;
    int submitted = 0, collected = 0, nt = 0;
    double t0 = 0;
    while (collected < total) {
        if (submitted < total) {
            const int64_t r = submit_frame(ctx, bf, submitted, nb_dis);
            if (r >= 0) {
                submitted++;
                continue;
            }
            if (r != -EAGAIN) {
                err = (int)r;
                goto done;
            }
        }
        err = gpussim_collect(ctx, &res, 1);
        if (err <= 0) {
            err = err ? err : -EIO;
            goto done;
        }
        if (collected == warmup - 1)
            t0 = now_s();
        if (collected >= warmup) {
            double ms;
            err = gpussim_internal_last_device_ms(ctx, &ms);
            if (err < 0)
                goto done;
            times[nt++] = ms;
        }
        collected++;
    }
    *fps = frames / (now_s() - t0);
    qsort(times, (size_t)nt, sizeof(double), cmp_double);
    err = 0;
done:
    gpussim_destroy(&ctx);
    return err;
}

/* Device memory of one context scoring nb_dis distorted pictures per frame
 * (CUDA: cuMemGetInfo before create and after the first frame) and the time
 * from create to the first result. */
static int context_cost(const char *backend, struct bench_frames *bf, int w, int h, int nb_dis,
                        double *mib, double *first_ms)
{
    struct gpussim_params p;
    GpussimContext *ctx = NULL;
    struct gpussim_result res;
    size_t free0 = 0, free1 = 0;
    fill_params(&p, backend, w, h, 8, GPUSSIM_METRIC_ALL, bf->resident, nb_dis > 1 ? nb_dis : 0);
#if HAVE_CUDA
    size_t total = 0;
    CUcontext dummy;
    if (bf->resident) {
        cu->cuCtxPushCurrent(cu_ctx);
        cu->cuMemGetInfo(&free0, &total);
        cu->cuCtxPopCurrent(&dummy);
    }
#endif
    const double t0 = now_s();
    int err = gpussim_create(&ctx, &p);
    if (err >= 0)
        err = (int)submit_frame(ctx, bf, 0, nb_dis);
    if (err >= 0)
        err = gpussim_collect(ctx, &res, 1);
    const double t1 = now_s();
#if HAVE_CUDA
    if (bf->resident) {
        cu->cuCtxPushCurrent(cu_ctx);
        cu->cuMemGetInfo(&free1, &total);
        cu->cuCtxPopCurrent(&dummy);
    }
#endif
    gpussim_destroy(&ctx);
    *first_ms = 1000 * (t1 - t0);
    *mib = (double)(free0 - free1) / (1024.0 * 1024.0);
    return err < 0 ? err : 0;
}

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : NULL;
    const char *only_metric = NULL;
    int frames = 300, warmup = 30, quick = 0, only_w = 0, only_d = 0, ladder = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
            warmup = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            only_w = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--depth") && i + 1 < argc)
            only_d = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--metric") && i + 1 < argc)
            only_metric = argv[++i];
        else if (!strcmp(argv[i], "--ladder") && i + 1 < argc)
            ladder = atoi(argv[++i]);
        else
            backend = NULL; /* unknown option: usage */
    }
    /* a filter that matches nothing is an error, not an empty table */
    int metric_known = !only_metric;
    for (size_t mi = 0; mi < NB_BENCH_METRICS && !metric_known; mi++)
        metric_known = !strcmp(only_metric, bench_metrics[mi].name);
    if (backend && backend_type(backend) == GPUSSIM_BACKEND_CPU) {
        fprintf(stderr, "bench_gpu: the cpu backend has no device time; bench/bench_cpu measures "
                        "it\n");
        return 2;
    }
    if (!backend || backend_type(backend) == GPUSSIM_BACKEND_AUTO || frames < 1 || warmup < 1 ||
        (ladder && (ladder < 2 || ladder > GPUSSIM_MAX_DISTORTED)) ||
        (only_w && (only_w < BENCH_MIN_W || only_w > BENCH_MAX_W || only_w % 2)) ||
        (only_d && (only_d < 8 || only_d > 16)) || !metric_known) {
        fprintf(stderr,
                "usage: %s cuda|vulkan|hip|ze [--frames N] [--warmup N] [--quick] "
                "[--size W (even, %d..%d; 1920 and 3840 by default)] [--depth D (8..16; 8 and 10 "
                "by default)] [--metric NAME] [--ladder N (2..%d)]\n  metrics:",
                argv[0], BENCH_MIN_W, BENCH_MAX_W, GPUSSIM_MAX_DISTORTED);
        for (size_t mi = 0; mi < NB_BENCH_METRICS; mi++)
            fprintf(stderr, " %s", bench_metrics[mi].name);
        fprintf(stderr, "\n");
        return 2;
    }
#if HAVE_CUDA
    if (!strcmp(backend, "cuda") && cuda_setup() < 0) {
        fprintf(stderr, "no CUDA device\n");
        return 77;
    }
#endif
    /* the sizes measured: 1080p and 2160p, or --size W at 16:9 (the height
     * even, as 4:2:0 needs) */
    struct {
        int w, h;
    } sizes[2] = { { 1920, 1080 }, { 3840, 2160 } };
    size_t nb_sizes = 2;
    if (only_w) {
        sizes[0].w = only_w;
        sizes[0].h = only_w == 1920 ? 1080 : only_w == 3840 ? 2160 : only_w * 9 / 16 / 2 * 2;
        nb_sizes = 1;
    }
    const int depths[2] = { only_d ? only_d : 8, 10 };
    const int nb_depths = only_d ? 1 : 2;
    int failed = 0;
    double *times = malloc(sizeof(double) * (size_t)frames);
    if (!times)
        return 1;

    printf("gpussim bench_gpu: backend %s, %d frames after %d warm-up, device time per frame\n",
           backend, frames, warmup);
    if (ladder)
        printf("%-10s %-5s %-14s %-8s %10s %10s %8s %10s %10s %13s\n", "size", "depth", "metric",
               "frames", "pair_us", "ladder_us", "ratio", "lad_p10_us", "lad_p90_us",
               "per_rend_us");
    else
        printf("%-10s %-5s %-14s %-8s %10s %10s %10s %10s\n", "size", "depth", "metric", "frames",
               "median_us", "p10_us", "p90_us", "wall_fps");
    for (size_t si = 0; si < nb_sizes; si++)
        for (int di = 0; di < nb_depths; di++) {
            const int bd = depths[di];
            struct bench_frames bf;
            if (make_frames(&bf, backend, sizes[si].w, sizes[si].h, bd) < 0) {
                fprintf(stderr, "cannot make frames\n");
                return 1;
            }
            char size[32];
            snprintf(size, sizeof(size), "%dx%d", sizes[si].w, sizes[si].h);
            for (size_t mi = 0; mi < NB_BENCH_METRICS; mi++) {
                if ((quick && mi == 4) ||
                    (only_metric && strcmp(only_metric, bench_metrics[mi].name)))
                    continue;
                double fps = 0, pair_us = 0;
                int err = run_one(backend, &bf, sizes[si].w, sizes[si].h, bd, bench_metrics[mi].m,
                                  1, warmup, frames, times, &fps);
                pair_us = 1000 * times[frames / 2];
                if (err >= 0 && ladder)
                    err = run_one(backend, &bf, sizes[si].w, sizes[si].h, bd, bench_metrics[mi].m,
                                  ladder, warmup, frames, times, &fps);
                if (err < 0) {
                    printf("%-10s %-5d %-14s error %s\n", size, bd, bench_metrics[mi].name,
                           gpussim_strerror(err));
                    failed = 1;
                    continue;
                }
                if (ladder)
                    printf("%-10s %-5d %-14s %-8s %10.1f %10.1f %7.2fx %10.1f %10.1f %13.1f\n",
                           size, bd, bench_metrics[mi].name, bf.resident ? "device" : "host",
                           pair_us, 1000 * times[frames / 2], 1000 * times[frames / 2] / pair_us,
                           1000 * times[frames / 10], 1000 * times[frames * 9 / 10],
                           1000 * times[frames / 2] / ladder);
                else
                    printf("%-10s %-5d %-14s %-8s %10.1f %10.1f %10.1f %10.0f\n", size, bd,
                           bench_metrics[mi].name, bf.resident ? "device" : "host",
                           1000 * times[frames / 2], 1000 * times[frames / 10],
                           1000 * times[frames * 9 / 10], fps);
                fflush(stdout);
            }
            free_frames(&bf);
        }

    /* memory and start-up at 2160p, every metric (a ladder: pair and ladder) */
    if (!only_w) {
        struct bench_frames bf;
        make_frames(&bf, backend, 3840, 2160, 8);
        for (int n = 1; n <= (ladder ? ladder : 1); n += ladder ? ladder - 1 : 1) {
            double mib = 0, first_ms = 0;
            const int err = context_cost(backend, &bf, 3840, 2160, n, &mib, &first_ms);
            char what[48] = "";
            if (n > 1)
                snprintf(what, sizeof(what), " ladder of %d", n);
            if (err < 0) {
                printf("2160p feature=all%s: error %s\n", what, gpussim_strerror(err));
                failed = 1;
                continue;
            }
            printf("2160p 8-bit feature=all%s: create -> first result %.1f ms (%s frames)\n", what,
                   first_ms, bf.resident ? "device" : "host");
            if (bf.resident)
                printf("2160p 8-bit feature=all%s: device memory of one context %.1f MiB "
                       "(cuMemGetInfo difference, CUDA-memory frames)\n",
                       what, mib);
        }
        free_frames(&bf);
    }
    free(times);
    return failed; /* 1 when a row could not be measured (its line says why) */
}
