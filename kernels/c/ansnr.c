/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * float_ansnr totals (spec §3), built with -ffp-contract=off. Everything is
 * float: per output sample a float sum over filter rows of float sums over
 * filter columns; then per-row float sums of r*r and (r-d)^2, added row by row.
 */
#include <stddef.h>

#include "src/metric_tables.h"
#include "scratch.h"

/* Border rule of the reference: reflect without repeating the edge below 0,
 * with repeating it past the end. */
static inline int ansnr_reflect(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - i - 1;
    return i;
}

#define ANSNR_PAD 2 /* half width of the larger (5x5) filter */

/* Filters output row i of a K x K filter over padded rows (stride pw), all in
 * float; K is a compile-time constant after inlining. */
static inline __attribute__((always_inline)) void
ansnr_filter_row(const float *pad, size_t pw, int w, int h, int i, const float *coef, int K,
                 float *restrict out)
{
    const float *rows[GPUSSIM_ANSNR_DIS_LEN];
    for (int fi = 0; fi < K; fi++)
        rows[fi] = pad + (size_t)ansnr_reflect(i - K / 2 + fi, h) * pw + ANSNR_PAD - K / 2;
    for (int j = 0; j < w; j++) {
        float accum = 0.0f;
        for (int fi = 0; fi < K; fi++) {
            float inner = 0.0f;
            for (int fj = 0; fj < K; fj++)
                inner += coef[fi * K + fj] * rows[fi][j + fj];
            accum += inner;
        }
        out[j] = accum;
    }
}

KERNEL_CLONES
void ansnr_sums_c(const float *ref, const float *dis, int w, int h, float *sig, float *noise,
                  CpuScratch *s)
{
    static const int ref_w[] = { GPUSSIM_ANSNR_REF_WEIGHTS };
    static const int dis_w[] = { GPUSSIM_ANSNR_DIS_WEIGHTS };
    float ref_coef[GPUSSIM_ANSNR_REF_LEN * GPUSSIM_ANSNR_REF_LEN];
    float dis_coef[GPUSSIM_ANSNR_DIS_LEN * GPUSSIM_ANSNR_DIS_LEN];
    for (int i = 0; i < GPUSSIM_ANSNR_REF_LEN * GPUSSIM_ANSNR_REF_LEN; i++)
        ref_coef[i] = GPUSSIM_ANSNR_COEF(ref_w[i], GPUSSIM_ANSNR_REF_DIV);
    for (int i = 0; i < GPUSSIM_ANSNR_DIS_LEN * GPUSSIM_ANSNR_DIS_LEN; i++)
        dis_coef[i] = GPUSSIM_ANSNR_COEF(dis_w[i], GPUSSIM_ANSNR_DIS_DIV);

    const size_t pw = (size_t)w + 2 * ANSNR_PAD;
    float *rpad = s->pad, *dpad = s->pad + pw * h;
    for (int y = 0; y < h; y++) {
        const float *r = ref + (size_t)y * w, *d = dis + (size_t)y * w;
        float *rp = rpad + (size_t)y * pw, *dp = dpad + (size_t)y * pw;
        for (int j = -ANSNR_PAD; j < w + ANSNR_PAD; j++) {
            rp[j + ANSNR_PAD] = r[ansnr_reflect(j, w)];
            dp[j + ANSNR_PAD] = d[ansnr_reflect(j, w)];
        }
    }

    float *rf = s->frow, *df = s->frow + pw;
    float sig_total = 0.0f, noise_total = 0.0f;
    for (int i = 0; i < h; i++) {
        ansnr_filter_row(rpad, pw, w, h, i, ref_coef, GPUSSIM_ANSNR_REF_LEN, rf);
        ansnr_filter_row(dpad, pw, w, h, i, dis_coef, GPUSSIM_ANSNR_DIS_LEN, df);
        /* the reference's per-row float sums: sequential on purpose */
        float sig_row = 0.0f, noise_row = 0.0f;
        for (int j = 0; j < w; j++) {
            const float rv = rf[j], dv = df[j];
            sig_row += rv * rv;
            noise_row += (rv - dv) * (rv - dv);
        }
        sig_total += sig_row;
        noise_total += noise_row;
    }
    *sig = sig_total;
    *noise = noise_total;
}

/* The ladder's split of ansnr_sums_c: the reference's filtered plane and its
 * signal total once, then each distorted picture's noise total against it.
 * The signal and noise sums have separate accumulators in ansnr_sums_c, so
 * the split gives the same bits. */
KERNEL_CLONES
void ansnr_ref_c(const float *ref, int w, int h, float *rfilt, float *sig, CpuScratch *s)
{
    static const int ref_w[] = { GPUSSIM_ANSNR_REF_WEIGHTS };
    float ref_coef[GPUSSIM_ANSNR_REF_LEN * GPUSSIM_ANSNR_REF_LEN];
    for (int i = 0; i < GPUSSIM_ANSNR_REF_LEN * GPUSSIM_ANSNR_REF_LEN; i++)
        ref_coef[i] = GPUSSIM_ANSNR_COEF(ref_w[i], GPUSSIM_ANSNR_REF_DIV);

    const size_t pw = (size_t)w + 2 * ANSNR_PAD;
    float *rpad = s->pad;
    for (int y = 0; y < h; y++) {
        const float *r = ref + (size_t)y * w;
        float *rp = rpad + (size_t)y * pw;
        for (int j = -ANSNR_PAD; j < w + ANSNR_PAD; j++)
            rp[j + ANSNR_PAD] = r[ansnr_reflect(j, w)];
    }
    float sig_total = 0.0f;
    for (int i = 0; i < h; i++) {
        float *rf = rfilt + (size_t)i * w;
        ansnr_filter_row(rpad, pw, w, h, i, ref_coef, GPUSSIM_ANSNR_REF_LEN, rf);
        float sig_row = 0.0f;
        for (int j = 0; j < w; j++)
            sig_row += rf[j] * rf[j];
        sig_total += sig_row;
    }
    *sig = sig_total;
}

KERNEL_CLONES
void ansnr_noise_c(const float *rfilt, const float *dis, int w, int h, float *noise, CpuScratch *s)
{
    static const int dis_w[] = { GPUSSIM_ANSNR_DIS_WEIGHTS };
    float dis_coef[GPUSSIM_ANSNR_DIS_LEN * GPUSSIM_ANSNR_DIS_LEN];
    for (int i = 0; i < GPUSSIM_ANSNR_DIS_LEN * GPUSSIM_ANSNR_DIS_LEN; i++)
        dis_coef[i] = GPUSSIM_ANSNR_COEF(dis_w[i], GPUSSIM_ANSNR_DIS_DIV);

    const size_t pw = (size_t)w + 2 * ANSNR_PAD;
    float *dpad = s->pad + pw * h;
    for (int y = 0; y < h; y++) {
        const float *d = dis + (size_t)y * w;
        float *dp = dpad + (size_t)y * pw;
        for (int j = -ANSNR_PAD; j < w + ANSNR_PAD; j++)
            dp[j + ANSNR_PAD] = d[ansnr_reflect(j, w)];
    }
    float *df = s->frow + pw;
    float noise_total = 0.0f;
    for (int i = 0; i < h; i++) {
        const float *rf = rfilt + (size_t)i * w;
        ansnr_filter_row(dpad, pw, w, h, i, dis_coef, GPUSSIM_ANSNR_DIS_LEN, df);
        float noise_row = 0.0f;
        for (int j = 0; j < w; j++) {
            const float rv = rf[j], dv = df[j];
            noise_row += (rv - dv) * (rv - dv);
        }
        noise_total += noise_row;
    }
    *noise = noise_total;
}
