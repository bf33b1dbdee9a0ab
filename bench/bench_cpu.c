/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * CPU backend benchmark: per-frame time of each metric alone on one worker
 * thread (median over frames, after warm-up; unpacking included), then
 * throughput scaling with worker threads for feature=all.
 *
 *   bench/bench_cpu [-w 1920 -h 1080 -b 8] [-n frames] [-t max_threads]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpussim/gpussim.h"
#include "bench/bench_util.h"


/* CPU time of the whole process: with one worker and the caller blocked in
 * collect, this is the frame's compute time even on a loaded machine. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}


static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* A natural-looking 4:2:0 pair: gradient + texture, distorted by noise. */
static void make_pair(uint8_t *ref, uint8_t *dis, int w, int h, int bd, int seed)
{
    const int bps = bd > 8 ? 2 : 1, max = (1 << bd) - 1;
    const size_t n = (size_t)w * h * 3 / 2;
    uint64_t s = (uint64_t)seed * 7919;
    for (size_t i = 0; i < n; i++) {
        const int x = (int)(i % w), y = (int)(i / w);
        int v = (int)((double)(x + y + seed * 3) / (w + h) * max) + (int)(rnd(&s) % 32) - 16;
        v = v < 0 ? 0 : v > max ? max : v;
        int d = v + (int)(rnd(&s) % (max / 16 + 1)) - max / 32;
        d = d < 0 ? 0 : d > max ? max : d;
        if (bps == 1)
            ref[i] = (uint8_t)v, dis[i] = (uint8_t)d;
        else
            ((uint16_t *)ref)[i] = (uint16_t)v, ((uint16_t *)dis)[i] = (uint16_t)d;
    }
}

static void fill_pic(struct gpussim_picture *p, uint8_t *buf, int w, int h, int bps)
{
    memset(p, 0, sizeof(*p));
    p->data[0] = buf;
    p->data[1] = buf + (size_t)w * h * bps;
    p->data[2] = buf + (size_t)w * h * bps * 5 / 4;
    p->stride[0] = (ptrdiff_t)w * bps;
    p->stride[1] = p->stride[2] = (ptrdiff_t)w / 2 * bps;
}

int main(int argc, char **argv)
{
    int w = 1920, h = 1080, bd = 8, frames = 12, max_threads = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-w")) w = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-h")) h = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-b")) bd = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-n")) frames = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-t")) max_threads = atoi(argv[i + 1]);
    }
    const int bps = bd > 8 ? 2 : 1;
    const int nsets = 4; /* rotate inputs so caches do not flatter */
    const size_t fsize = (size_t)w * h * 3 / 2 * bps;
    uint8_t *bufs = malloc(fsize * 2 * nsets);
    struct gpussim_picture ref[4], dis[4];
    for (int i = 0; i < nsets; i++) {
        make_pair(bufs + 2 * i * fsize, bufs + (2 * i + 1) * fsize, w, h, bd, i);
        fill_pic(&ref[i], bufs + 2 * i * fsize, w, h, bps);
        fill_pic(&dis[i], bufs + (2 * i + 1) * fsize, w, h, bps);
    }

    printf("gpussim CPU backend, %dx%d %d-bit 4:2:0, luma\n", w, h, bd);
    printf("per frame, 1 worker thread (median of %d frames after 2 warm-up; unpack included):\n", frames);
    for (size_t m = 0; m < NB_BENCH_METRICS; m++) {
        struct gpussim_params p;
        gpussim_default_params(&p);
        p.backend = GPUSSIM_BACKEND_CPU;
        p.format = (struct gpussim_format){ w, h, bd, GPUSSIM_CHROMA_420, 0, 0 };
        p.metrics = bench_metrics[m].m;
        p.threads = 1;
        p.max_in_flight = 1;
        GpussimContext *ctx = NULL;
        if (gpussim_create(&ctx, &p) < 0) {
            printf("  %-14s cannot create context\n", bench_metrics[m].name);
            continue;
        }
        double *t = malloc(sizeof(double) * frames), *c = malloc(sizeof(double) * frames);
        struct gpussim_result res;
        for (int f = -2; f < frames; f++) {
            const double t0 = now_s(), c0 = cpu_ms();
            gpussim_submit(ctx, &ref[(f + 2) % nsets], &dis[(f + 2) % nsets]);
            gpussim_collect(ctx, &res, 1);
            if (f >= 0)
                t[f] = (now_s() - t0) * 1e3, c[f] = cpu_ms() - c0;
        }
        qsort(t, frames, sizeof(double), cmp_double);
        qsort(c, frames, sizeof(double), cmp_double);
        printf("  %-14s %8.2f ms wall %8.2f ms cpu\n", bench_metrics[m].name, t[frames / 2], c[frames / 2]);
        free(t);
        free(c);
        gpussim_destroy(&ctx);
    }

    printf("throughput, feature=all, %d frames:\n", frames * 2);
    double fps1 = 0;
    for (int threads = 1; threads <= max_threads; threads++) {
        struct gpussim_params p;
        gpussim_default_params(&p);
        p.backend = GPUSSIM_BACKEND_CPU;
        p.format = (struct gpussim_format){ w, h, bd, GPUSSIM_CHROMA_420, 0, 0 };
        p.threads = threads;
        GpussimContext *ctx = NULL;
        if (gpussim_create(&ctx, &p) < 0)
            break;
        struct gpussim_result res;
        const double t0 = now_s();
        int done = 0;
        for (int f = 0; f < frames * 2; f++) {
            while (gpussim_submit(ctx, &ref[f % nsets], &dis[f % nsets]) == -EAGAIN)
                done += gpussim_collect(ctx, &res, 1) == 1;
        }
        while (gpussim_collect(ctx, &res, 1) == 1)
            done++;
        const double fps = done / (now_s() - t0);
        if (threads == 1)
            fps1 = fps;
        printf("  %2d thread(s): %7.2f fps (x%.2f)\n", threads, fps, fps / fps1);
        gpussim_destroy(&ctx);
    }
    free(bufs);
    return 0;
}
