/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Vulkan backend benchmark: per metric and frame size, the device time of a
 * frame's dispatches (timestamp queries around the compute work, after the
 * upload copy; median over the measured frames after warm-up) and the
 * pipelined throughput with host pictures (staging copy + upload + compute +
 * host sums, frames kept in flight as an application would).
 *
 *   bench_vulkan [--frames N] [--warmup N] [--depth 8..16] [--sizes 1080,2160] [--device I]
 *                [--steps] [--ladder N]
 *
 * --sizes: heights, 16:9 (1080 and 2160 give 1920 and 3840 wide). An
 * unknown option or a value out of range is a usage error (exit 2).
 *
 * --steps also prints the device time of every dispatch of the last frame.
 * --ladder N: all four metrics, a ladder frame (one reference, N distorted
 * pictures, gpussim_submit_multi: one command buffer, the reference's terms
 * computed once) next to one pair's frame, with their ratio.
 *
 * Prints a table; never part of make check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpussim/gpussim.h"
#include "bench/bench_util.h"
#include "src/bench_hooks.h"

/* --steps: the per-dispatch device times of the last frame */
static char step_log[16384];
static size_t step_len;

static void log_cb(void *o, enum gpussim_log_level l, const char *m)
{
    (void)o;
    if (!strncmp(m, "vulkan step", 11)) {
        const int n = snprintf(step_log + step_len, sizeof(step_log) - step_len, "    %s\n", m);
        if (n > 0 && step_len + (size_t)n < sizeof(step_log))
            step_len += (size_t)n;
    } else if (l <= GPUSSIM_LOG_WARNING) {
        fprintf(stderr, "gpussim: %s\n", m);
    }
}

#define MAX_PICS (1 + GPUSSIM_MAX_DISTORTED)

/* Two distinct 4:2:0 frames of nb_pics pictures: textured content, the
 * reference (k = 0) and distorted ones, noisier with k. */
static void make_frames(int w, int h, int bd, int nb_pics, struct gpussim_picture pic[2][MAX_PICS],
                        uint8_t *bufs[2][MAX_PICS])
{
    const int bps = bd > 8 ? 2 : 1;
    const unsigned maxv = (1u << bd) - 1;
    unsigned r = 1;
    for (int f = 0; f < 2; f++)
        for (int k = 0; k < nb_pics; k++) {
            const size_t luma = (size_t)w * h, chroma = (size_t)((w + 1) / 2) * ((h + 1) / 2);
            uint8_t *b = malloc((luma + 2 * chroma) * bps);
            bufs[f][k] = b;
            for (size_t i = 0; i < luma + 2 * chroma; i++) {
                r = r * 1664525u + 1013904223u;
                const size_t x = i % (size_t)w, y = i / (size_t)w;
                unsigned v = (unsigned)((x * 3 + y * 2 + (x * y) / 97 + f * 17) & maxv);
                v = (v + (r >> 26) * (k ? 4 * k : 1)) & maxv;
                if (bps == 1)
                    b[i] = (uint8_t)v;
                else
                    ((uint16_t *)b)[i] = (uint16_t)v;
            }
            memset(&pic[f][k], 0, sizeof(pic[f][k]));
            pic[f][k].data[0] = b;
            pic[f][k].data[1] = b + luma * bps;
            pic[f][k].data[2] = b + (luma + chroma) * bps;
            pic[f][k].stride[0] = (ptrdiff_t)w * bps;
            pic[f][k].stride[1] = pic[f][k].stride[2] = (ptrdiff_t)((w + 1) / 2) * bps;
        }
}

struct run_figures {
    double med_ms, min_ms, fps;
};

/* Scores warmup + frames frames (pairs, or ladder frames of nb_dis
 * distorted pictures) with frames kept in flight; the device time of the
 * measured ones (median, minimum) and the pipelined frame rate. */
static int run_frames(const struct gpussim_params *p, int nb_dis, int frames, int warmup,
                      struct gpussim_picture pic[2][MAX_PICS], struct run_figures *out)
{
    GpussimContext *ctx = NULL;
    int err = gpussim_create(&ctx, p);
    if (err < 0) {
        fprintf(stderr, "cannot create a Vulkan context: %s\n", gpussim_strerror(err));
        return 77;
    }
    double *dev_ms = calloc((size_t)frames, sizeof(double));
    int nb_ms = 0;
    double t0 = 0;
    const int total = warmup + frames;
    int submitted = 0, collected = 0;
    while (collected < total) {
        if (submitted < total) {
            const struct gpussim_picture *d[GPUSSIM_MAX_DISTORTED];
            for (int k = 0; k < nb_dis; k++)
                d[k] = &pic[submitted & 1][1 + k];
            const int64_t r = nb_dis > 1
                                  ? gpussim_submit_multi(ctx, &pic[submitted & 1][0], d, nb_dis)
                                  : gpussim_submit(ctx, &pic[submitted & 1][0], d[0]);
            if (r >= 0) {
                submitted++;
                continue;
            }
            if (r != -11 /* EAGAIN */) {
                fprintf(stderr, "submit: %s\n", gpussim_strerror((int)r));
                return 1;
            }
        }
        struct gpussim_result res;
        step_len = 0;
        const int c = gpussim_collect(ctx, &res, 1);
        if (c != 1) {
            fprintf(stderr, "collect: %s\n", gpussim_strerror(c));
            return 1;
        }
        if (collected == warmup - 1 || (warmup == 0 && collected == 0))
            t0 = now_s();
        if (collected >= warmup) {
            double ms;
            if (gpussim_internal_last_device_ms(ctx, &ms) == 0)
                dev_ms[nb_ms++] = ms;
        }
        collected++;
    }
    const double wall = now_s() - t0;
    qsort(dev_ms, (size_t)nb_ms, sizeof(double), cmp_double);
    out->med_ms = nb_ms ? dev_ms[nb_ms / 2] : -1.0;
    out->min_ms = nb_ms ? dev_ms[0] : -1.0;
    out->fps = (frames - (warmup == 0)) / wall;
    free(dev_ms);
    gpussim_destroy(&ctx);
    return 0;
}

int main(int argc, char **argv)
{
    int frames = 200, warmup = 20, depth = 8, device = 0, steps = 0, ladder = 0, bad = 0;
    const char *sizes = "1080,2160";
    for (int i = 1; i < argc && !bad; i++) {
        if (!strcmp(argv[i], "--steps")) {
            steps = 1;
            setenv("GPUSSIM_VK_STEP_TIMES", "1", 1);
            continue;
        }
        const char *v = i + 1 < argc ? argv[++i] : NULL;
        if (!v)
            bad = 1;
        else if (!strcmp(argv[i - 1], "--frames"))
            frames = atoi(v);
        else if (!strcmp(argv[i - 1], "--warmup"))
            warmup = atoi(v);
        else if (!strcmp(argv[i - 1], "--depth"))
            depth = atoi(v);
        else if (!strcmp(argv[i - 1], "--sizes"))
            sizes = v;
        else if (!strcmp(argv[i - 1], "--device"))
            device = atoi(v);
        else if (!strcmp(argv[i - 1], "--ladder"))
            ladder = atoi(v);
        else
            bad = 1; /* unknown option */
    }
    /* --sizes: heights 36..4320, comma-separated */
    for (const char *t = sizes; !bad;) {
        char *end;
        const long hh = strtol(t, &end, 10);
        bad = end == t || hh < 36 || hh > 4320 || (*end && *end != ',') || (*end && !end[1]);
        if (!*end)
            break;
        t = end + 1;
    }
    if (bad || frames < 1 || warmup < 1 || depth < 8 || depth > 16 || device < 0 || ladder == 1 ||
        ladder < 0 || ladder > GPUSSIM_MAX_DISTORTED) {
        fprintf(stderr,
                "usage: %s [--frames N] [--warmup N] [--depth 8..16] "
                "[--sizes H,H,... (heights 36..4320)] [--device I] [--steps] "
                "[--ladder N (2..%d)]\n",
                argv[0], GPUSSIM_MAX_DISTORTED);
        return 2;
    }
    static const struct {
        const char *name;
        unsigned bits;
    } sets[] = {
        { "float_ssim", GPUSSIM_METRIC_FLOAT_SSIM },
        { "float_ms_ssim", GPUSSIM_METRIC_FLOAT_MS_SSIM },
        { "float_ansnr", GPUSSIM_METRIC_FLOAT_ANSNR },
        { "ssim (integer)", GPUSSIM_METRIC_SSIM },
        { "all four", GPUSSIM_METRIC_ALL },
    };
    const size_t first_set = ladder ? sizeof(sets) / sizeof(sets[0]) - 1 : 0;
    if (ladder) {
        printf(
            "bench_vulkan: %d-bit 4:2:0 luma, all four metrics, a ladder of %d distorted pictures "
            "vs one pair, %d frames after %d warm-up, host pictures\n",
            depth, ladder, frames, warmup);
        printf("%-6s %14s %16s %12s %16s %12s %12s\n", "size", "pair ms(med)", "ladder ms(med)",
               "ladder/pair", "ms/rendition", "fps(pair)", "fps(ladder)");
    } else {
        printf("bench_vulkan: %d-bit 4:2:0 luma, %d frames after %d warm-up, host pictures\n",
               depth, frames, warmup);
        printf("%-6s %-16s %14s %14s %12s\n", "size", "metrics", "device ms(med)", "device ms(min)",
               "fps(pipe)");
    }
    char *list = strdup(sizes);
    char *save = NULL;
    const int nb_pics = 1 + (ladder ? ladder : 1);
    /* strtok_r: drivers may use strtok's hidden state */
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const int hh = atoi(tok), ww = hh == 2160 ? 3840 : hh == 1080 ? 1920 : hh * 16 / 9;
        struct gpussim_picture pic[2][MAX_PICS];
        uint8_t *bufs[2][MAX_PICS];
        make_frames(ww, hh, depth, nb_pics, pic, bufs);
        for (size_t s = first_set; s < sizeof(sets) / sizeof(sets[0]); s++) {
            struct gpussim_params p;
            gpussim_default_params(&p);
            p.backend = GPUSSIM_BACKEND_VULKAN;
            p.device = device;
            p.metrics = sets[s].bits;
            p.format = (struct gpussim_format){ ww, hh, depth, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 };
            p.log_cb = log_cb;
            if (steps)
                p.log_level = GPUSSIM_LOG_DEBUG;
            struct run_figures pair, lad;
            int err = run_frames(&p, 1, frames, warmup, pic, &pair);
            if (err)
                return err;
            if (!ladder) {
                printf("%-6d %-16s %14.3f %14.3f %12.1f\n", hh, sets[s].name, pair.med_ms,
                       pair.min_ms, pair.fps);
            } else {
                if (steps && step_len)
                    fputs(step_log, stdout);
                p.nb_distorted = ladder;
                err = run_frames(&p, ladder, frames, warmup, pic, &lad);
                if (err)
                    return err;
                printf("%-6d %14.3f %16.3f %12.2f %16.3f %12.1f %12.1f\n", hh, pair.med_ms,
                       lad.med_ms, lad.med_ms / pair.med_ms, lad.med_ms / ladder, pair.fps,
                       lad.fps);
            }
            if (steps && step_len)
                fputs(step_log, stdout);
            fflush(stdout);
        }
        for (int f = 0; f < 2; f++)
            for (int k = 0; k < nb_pics; k++)
                free(bufs[f][k]);
    }
    free(list);
    return 0;
}
