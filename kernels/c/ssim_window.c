/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The SSIM window computation shared by float_ssim and every MS-SSIM scale
 * (spec §1.3-1.6). Built with -ffp-contract=off.
 *
 * The five moment planes (x, y, x*x, y*y, x*y) are filtered horizontally row
 * by row into an 11-row ring, then vertically one output row at a time; the
 * per-window terms of that row are computed across x (vectorised) and then
 * added to the frame sums strictly in raster order.
 */
#include <math.h>
#include <stddef.h>

#include "src/metric_tables.h"
#include "scratch.h"

static const float gauss11[GPUSSIM_GAUSSIAN11_LEN] = { GPUSSIM_GAUSSIAN11_TAPS };

/* One input row -> the five horizontally filtered moment rows (valid mode).
 * Each tap: the float product k*v widened and added to a double sum, taps
 * left to right (spec §1.4). The moment products are float products made
 * before filtering (once per input sample, in prod[]). */
KERNEL_CLONES
static void ssim_hfilter_row(const float *restrict r, const float *restrict d, int w,
                             float *restrict prod, float *restrict mx, float *restrict my,
                             float *restrict mxx, float *restrict myy, float *restrict mxy)
{
    const int ow = w - (GPUSSIM_GAUSSIAN11_LEN - 1);
    float *restrict rr = prod, *restrict dd = prod + w, *restrict rd = prod + 2 * w;
    for (int x = 0; x < w; x++) {
        rr[x] = r[x] * r[x];
        dd[x] = d[x] * d[x];
        rd[x] = r[x] * d[x];
    }
    for (int x = 0; x < ow; x++) {
        double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0;
        for (int u = 0; u < GPUSSIM_GAUSSIAN11_LEN; u++) {
            const float k = gauss11[u];
            a0 += (double)(r[x + u] * k);
            a1 += (double)(d[x + u] * k);
            a2 += (double)(rr[x + u] * k);
            a3 += (double)(dd[x + u] * k);
            a4 += (double)(rd[x + u] * k);
        }
        mx[x] = (float)a0;
        my[x] = (float)a1;
        mxx[x] = (float)a2;
        myy[x] = (float)a3;
        mxy[x] = (float)a4;
    }
}

/* The reference's two moments of one row (x, x*x), as ssim_hfilter_row
 * computes them: each moment has its own accumulator there, so filtering it
 * alone gives the same bits. */
KERNEL_CLONES
static void ssim_hfilter_ref_row(const float *restrict r, int w, float *restrict prod,
                                 float *restrict mx, float *restrict mxx)
{
    const int ow = w - (GPUSSIM_GAUSSIAN11_LEN - 1);
    float *restrict rr = prod;
    for (int x = 0; x < w; x++)
        rr[x] = r[x] * r[x];
    for (int x = 0; x < ow; x++) {
        double a0 = 0.0, a2 = 0.0;
        for (int u = 0; u < GPUSSIM_GAUSSIAN11_LEN; u++) {
            const float k = gauss11[u];
            a0 += (double)(r[x + u] * k);
            a2 += (double)(rr[x + u] * k);
        }
        mx[x] = (float)a0;
        mxx[x] = (float)a2;
    }
}

/* The moments of one row that involve the distorted picture (y, y*y, x*y). */
KERNEL_CLONES
static void ssim_hfilter_dis_row(const float *restrict r, const float *restrict d, int w,
                                 float *restrict prod, float *restrict my, float *restrict myy,
                                 float *restrict mxy)
{
    const int ow = w - (GPUSSIM_GAUSSIAN11_LEN - 1);
    float *restrict dd = prod + w, *restrict rd = prod + 2 * w;
    for (int x = 0; x < w; x++) {
        dd[x] = d[x] * d[x];
        rd[x] = r[x] * d[x];
    }
    for (int x = 0; x < ow; x++) {
        double a1 = 0.0, a3 = 0.0, a4 = 0.0;
        for (int u = 0; u < GPUSSIM_GAUSSIAN11_LEN; u++) {
            const float k = gauss11[u];
            a1 += (double)(d[x + u] * k);
            a3 += (double)(dd[x + u] * k);
            a4 += (double)(rd[x + u] * k);
        }
        my[x] = (float)a1;
        myy[x] = (float)a3;
        mxy[x] = (float)a4;
    }
}

/* Vertical pass of one moment over 11 ring rows, top to bottom. */
KERNEL_CLONES
static void ssim_vfilter_row(const float *const rows[GPUSSIM_GAUSSIAN11_LEN], int ow,
                             float *restrict out)
{
    for (int x = 0; x < ow; x++) {
        double a = 0.0;
        for (int v = 0; v < GPUSSIM_GAUSSIAN11_LEN; v++)
            a += (double)(rows[v][x] * gauss11[v]);
        out[x] = (float)a;
    }
}

/* Per-window luminance, contrast, structure with the reference's typing. */
KERNEL_CLONES
static void ssim_window_terms(const float *restrict mux, const float *restrict muy,
                              const float *restrict exx, const float *restrict eyy,
                              const float *restrict exy, int n, double *restrict term,
                              double *restrict lo, double *restrict co, double *restrict so)
{
    const float C1 = (GPUSSIM_SSIM_K1 * GPUSSIM_SSIM_L) * (GPUSSIM_SSIM_K1 * GPUSSIM_SSIM_L);
    const float C2 = (GPUSSIM_SSIM_K2 * GPUSSIM_SSIM_L) * (GPUSSIM_SSIM_K2 * GPUSSIM_SSIM_L);
    const float C3 = C2 / 2.0f;

    for (int x = 0; x < n; x++) {
        const float mx = mux[x], my = muy[x];
        float sx2 = exx[x] - mx * mx;
        float sy2 = eyy[x] - my * my;
        /* MAX(0.0, v) of the reference: keeps -0.0, zeroes negatives */
        sx2 = 0.0f > sx2 ? 0.0f : sx2;
        sy2 = 0.0f > sy2 ? 0.0f : sy2;
        const float sxy = exy[x] - mx * my;
        const float sxsy = (float)sqrt((double)(sx2 * sy2));
        /* double numerator (2.0 is a double literal), float denominator */
        const double l = (2.0 * mx * my + C1) / (mx * mx + my * my + C1);
        const double c = (2.0 * sxsy + C2) / (sx2 + sy2 + C2);
        const float sxy_c = (sxy < 0.0f && sxsy <= 0.0f) ? 0.0f : sxy;
        const double s = (sxy_c + C3) / (sxsy + C3);
        term[x] = l * c * s;
        lo[x] = l;
        co[x] = c;
        so[x] = s;
    }
}

void ssim_ref_moments_c(const float *ref, int w, int h, float *mu, float *exx, CpuScratch *s)
{
    const int K = GPUSSIM_GAUSSIAN11_LEN;
    const int ow = w - (K - 1);
    const size_t rs = (size_t)s->max_width + 32;
    float *ring = s->ring;

#define RING(m, row) (ring + ((size_t)(m) * K + (size_t)(row)) * rs)
    for (int y = 0; y < h; y++) {
        const int slot = y % K;
        ssim_hfilter_ref_row(ref + (size_t)y * w, w, s->pad, RING(0, slot), RING(2, slot));
        if (y < K - 1)
            continue;
        const int top = y - (K - 1);
        for (int m = 0; m < 3; m += 2) {
            const float *rows[GPUSSIM_GAUSSIAN11_LEN];
            for (int v = 0; v < K; v++)
                rows[v] = RING(m, (top + v) % K);
            ssim_vfilter_row(rows, ow, (m ? exx : mu) + (size_t)top * ow);
        }
    }
#undef RING
}

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* The window loop, written once. A pair (ladder = 0) filters all five
 * moments of (ref, dis); a ladder's distorted picture (ladder = 1) takes the
 * reference's two (ref_mu, ref_exx from ssim_ref_moments_c) and filters only
 * the three that involve dis. Each caller passes ladder as a constant and
 * gets its own inlined copy, so no copy tests it at run time; the per-pixel
 * loops are the same functions either way, hence the same bits. */
static ALWAYS_INLINE void window_sums(const int ladder, const float *ref, const float *ref_mu,
                                      const float *ref_exx, const float *dis, int w, int h,
                                      double sums[4], CpuScratch *s)
{
    const int K = GPUSSIM_GAUSSIAN11_LEN;
    const int ow = w - (K - 1);
    const size_t rs = (size_t)s->max_width + 32; /* ring row stride */
    float *ring = s->ring;                       /* [moment][ring row][x] */
    float *vrow = s->vrow;
    double *t = s->terms, *l = t + rs, *c = l + rs, *sv = c + rs;
    double sum_t = 0.0, sum_l = 0.0, sum_c = 0.0, sum_s = 0.0;
    /* moments 0 (x) and 2 (x*x) come from ref_mu / ref_exx when given */
    static const int all[] = { 0, 1, 2, 3, 4 }, dis_only[] = { 1, 3, 4 };
    const int *moments = ladder ? dis_only : all;
    const int nb_moments = ladder ? 3 : 5;

#define RING(m, row) (ring + ((size_t)(m) * K + (size_t)(row)) * rs)
    for (int y = 0; y < h; y++) {
        const int slot = y % K;
        if (ladder)
            ssim_hfilter_dis_row(ref + (size_t)y * w, dis + (size_t)y * w, w, s->pad, RING(1, slot),
                                 RING(3, slot), RING(4, slot));
        else
            ssim_hfilter_row(ref + (size_t)y * w, dis + (size_t)y * w, w, s->pad, RING(0, slot),
                             RING(1, slot), RING(2, slot), RING(3, slot), RING(4, slot));
        if (y < K - 1)
            continue;
        const int top = y - (K - 1);
        for (int i = 0; i < nb_moments; i++) {
            const int m = moments[i];
            const float *rows[GPUSSIM_GAUSSIAN11_LEN];
            for (int v = 0; v < K; v++)
                rows[v] = RING(m, (top + v) % K);
            ssim_vfilter_row(rows, ow, vrow + (size_t)m * rs);
        }
        const float *mux = ladder ? ref_mu + (size_t)top * ow : vrow;
        const float *exx = ladder ? ref_exx + (size_t)top * ow : vrow + 2 * rs;
        ssim_window_terms(mux, vrow + rs, exx, vrow + 3 * rs, vrow + 4 * rs, ow, t, l, c, sv);
        /* the reference's raster-order double sums: sequential on purpose */
        for (int x = 0; x < ow; x++) {
            sum_t += t[x];
            sum_l += l[x];
            sum_c += c[x];
            sum_s += sv[x];
        }
    }
#undef RING
    sums[0] = sum_t;
    sums[1] = sum_l;
    sums[2] = sum_c;
    sums[3] = sum_s;
}

void ssim_window_sums_ref_c(const float *ref, const float *mu, const float *exx, const float *dis,
                            int w, int h, double sums[4], CpuScratch *s)
{
    window_sums(1, ref, mu, exx, dis, w, h, sums, s);
}

void ssim_window_sums_c(const float *ref, const float *dis, int w, int h, double sums[4],
                        CpuScratch *s)
{
    window_sums(0, ref, NULL, NULL, dis, w, h, sums, s);
}
