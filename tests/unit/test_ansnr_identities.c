/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The three identities by which the GPU kernels' ANSNR filters
 * (kernels/cuda/ansnr.cu, kernels/vulkan/ansnr.comp) compute the spec's
 * float operations (§3.3) with fewer instructions, checked on the host
 * (built with -ffp-contract=off, as the kernels are):
 *  - their premises, for every sample value of 8, 10, 12 and 16 bits:
 *    (float)s / scaler + (-128) is never -0 and is 0 or at least 2^-8 in
 *    magnitude; each product with a tap of the 5x5 filter is +0 (v = 0)
 *    or normal; each product with a tap of the 3x3 filter is exact;
 *  - the identities' outputs, against the spec's loops written out (every
 *    inner sum and accumulator from 0f, every product rounded, then added):
 *    the reference's 3x3 output as fma(c2, v2, fma(c1, v1, c0 * v0)) per
 *    outer row, the middle row's sum twice that, (a + 2b) + c; the 5x5
 *    output from the inner sums of rows 0..2 without the first "0 +",
 *    rows 3 and 4 taken from rows 1 and 0. Every 8-bit triple for the
 *    reference's row, and random windows at every depth, bit for bit.
 * Random windows come from a fixed seed: every run checks the same values.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "metric_tables.h"

#define RK GPUSSIM_ANSNR_REF_LEN
#define DK GPUSSIM_ANSNR_DIS_LEN

static long passed, failed;
static float ref_c[RK * RK], dis_c[DK * DK];

static void check(int ok, const char *what, int depth, double a, double b)
{
    if (ok) {
        passed++;
        return;
    }
    if (failed++ < 20)
        printf("FAIL: %s at %d bits (%a, %a)\n", what, depth, a, b);
}

static int same_bits(float a, float b)
{
    return !memcmp(&a, &b, sizeof(a));
}

/* the sample as every backend converts it (spec §0, offset -128) */
static float sample(uint32_t s, float inv_scaler)
{
    return (float)s * inv_scaler + -128.0f;
}

/* the spec's loops: inner sums and the accumulator from 0f */
static float spec_filter(const float *win, int k, const float *coef)
{
    float accum = 0.0f;
    for (int fi = 0; fi < k; fi++) {
        float inner = 0.0f;
        for (int fj = 0; fj < k; fj++)
            inner += coef[fi * k + fj] * win[fi * k + fj];
        accum += inner;
    }
    return accum;
}

/* the kernels' reference filter: identities 1 and 2 */
static float ref_inner(const float *v)
{
    return fmaf(ref_c[2], v[2], fmaf(ref_c[1], v[1], ref_c[0] * v[0]));
}

static float ref_identities(const float *win)
{
    return fmaf(2.0f, ref_inner(win + RK), ref_inner(win)) + ref_inner(win + 2 * RK);
}

/* the kernels' distorted filter: identities 1 and 3 (row fi from row
 * min(fi, 4 - fi), the first "0 +" of each sum dropped) */
static float dis_inner(int q, const float *v)
{
    float inner = dis_c[q * DK] * v[0];
    for (int fj = 1; fj < DK; fj++)
        inner += dis_c[q * DK + fj] * v[fj];
    return inner;
}

static float dis_identities(const float *win)
{
    float accum = dis_inner(0, win);
    for (int fi = 1; fi < DK; fi++)
        accum += dis_inner(fi < DK - 1 - fi ? fi : DK - 1 - fi, win + fi * DK);
    return accum;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next(uint32_t n)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

int main(void)
{
    static const int ref_w[] = { GPUSSIM_ANSNR_REF_WEIGHTS };
    static const int dis_w[] = { GPUSSIM_ANSNR_DIS_WEIGHTS };
    for (int i = 0; i < RK * RK; i++)
        ref_c[i] = GPUSSIM_ANSNR_COEF(ref_w[i], GPUSSIM_ANSNR_REF_DIV);
    for (int i = 0; i < DK * DK; i++)
        dis_c[i] = GPUSSIM_ANSNR_COEF(dis_w[i], GPUSSIM_ANSNR_DIS_DIV);
    /* the weights' shape the identities rest on */
    for (int i = 0; i < RK; i++) {
        check(same_bits(ref_c[RK + i], 2.0f * ref_c[i]), "3x3 middle row = 2 x outer row", 0,
              ref_c[RK + i], ref_c[i]);
        check(same_bits(ref_c[2 * RK + i], ref_c[i]), "3x3 last row = first row", 0,
              ref_c[2 * RK + i], ref_c[i]);
    }
    for (int i = 0; i < DK * DK; i++)
        check(same_bits(dis_c[i], dis_c[(DK - 1 - i / DK) * DK + i % DK]),
              "5x5 row fi = row 4 - fi", 0, dis_c[i], 0);

    static const int depths[] = { 8, 10, 12, 16 };
    for (size_t d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
        const int bpc = depths[d];
        const float inv_scaler = 1.0f / (float)(1u << (bpc - 8));
        const uint32_t n = 1u << bpc;
        long bad = 0;
        for (uint32_t s = 0; s < n; s++) {
            const float v = sample(s, inv_scaler);
            if (v == 0.0f && signbit(v))
                bad++;
            if (v != 0.0f && fabsf(v) < 1.0f / 256.0f)
                bad++;
            for (int i = 0; i < RK * RK; i++)
                if ((double)(ref_c[i] * v) != (double)ref_c[i] * (double)v)
                    bad++;
            for (int i = 0; i < DK * DK; i++) {
                const float p = dis_c[i] * v;
                if (p == 0.0f ? (signbit(p) || v != 0.0f) : fpclassify(p) != FP_NORMAL)
                    bad++;
            }
        }
        check(bad == 0, "premises over every sample value", bpc, (double)bad, 0);

        /* random windows, both filters, bit for bit */
        for (int t = 0; t < 200000; t++) {
            float win[DK * DK];
            for (int i = 0; i < DK * DK; i++)
                win[i] = sample(next(n), inv_scaler);
            /* edge values often: the extremes and the samples around 128 */
            if (t % 4 == 0)
                for (int i = 0; i < DK * DK; i++)
                    if (next(3) == 0)
                        win[i] = sample(next(2) ? n - 1 - next(2) : next(2), inv_scaler);
            float rwin[RK * RK];
            for (int r = 0; r < RK; r++)
                memcpy(rwin + r * RK, win + (r + 1) * DK + 1, RK * sizeof(float));
            const float rs = spec_filter(rwin, RK, ref_c), ri = ref_identities(rwin);
            const float ds = spec_filter(win, DK, dis_c), di = dis_identities(win);
            check(same_bits(rs, ri), "3x3 output", bpc, rs, ri);
            check(same_bits(ds, di), "5x5 output", bpc, ds, di);
        }
    }

    /* the reference's outer row over every 8-bit triple */
    long bad = 0;
    for (uint32_t a = 0; a < 256; a++)
        for (uint32_t b = 0; b < 256; b++)
            for (uint32_t c = 0; c < 256; c++) {
                const float v[3] = { sample(a, 1.0f), sample(b, 1.0f), sample(c, 1.0f) };
                float outer = 0.0f, middle = 0.0f;
                for (int fj = 0; fj < RK; fj++) {
                    outer += ref_c[fj] * v[fj];
                    middle += ref_c[RK + fj] * v[fj];
                }
                const float fused = ref_inner(v);
                bad += !same_bits(outer, fused) || !same_bits(middle, 2.0f * fused);
            }
    check(bad == 0, "3x3 rows over every 8-bit triple", 8, (double)bad, 0);

    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
