/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Integer SSIM (spec §4), one instance per horizontal-moment type:
 * int32_t holds the horizontal moments exactly up to 10 bits
 * (256 * 1023^2 < 2^31), uint32_t up to 12 bits, int64_t beyond; narrower
 * types let the compiler vectorise. The vertical moments are integers below
 * 2^53 (at 16 bits, 65536 * 65535^2 < 2^49), so they are accumulated in
 * double exactly — the same values as the reference's int64 moments, with
 * no int64->double conversion in the per-pixel loop. Included by issim.c
 * with HMOM_T and FN() defined.
 */

/* Horizontal pass of one row, taps outside the row skipped (truncation). */
KERNEL_CLONES
static void FN(issim_hfilter_row)(const uint16_t *restrict r, const uint16_t *restrict d, int w,
                                  HMOM_T *restrict mux, HMOM_T *restrict muy,
                                  HMOM_T *restrict x2, HMOM_T *restrict xy,
                                  HMOM_T *restrict y2)
{
    const int R = GPUSSIM_ISSIM_LEN / 2;
    const int inner_lo = R < w ? R : w, inner_hi = w - R > inner_lo ? w - R : inner_lo;

    for (int x = inner_lo; x < inner_hi; x++) {
        HMOM_T a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0;
        for (int k = 0; k < GPUSSIM_ISSIM_LEN; k++) {
            const HMOM_T wk = (HMOM_T)issim_taps[k];
            const HMOM_T s = r[x + k - R], t = d[x + k - R];
            a0 += wk * s;
            a1 += wk * t;
            a2 += wk * s * s;
            a3 += wk * s * t;
            a4 += wk * t * t;
        }
        mux[x] = a0, muy[x] = a1, x2[x] = a2, xy[x] = a3, y2[x] = a4;
    }
    for (int x = 0; x < w; x++) {
        if (x == inner_lo)
            x = inner_hi;
        if (x >= w)
            break;
        HMOM_T a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0;
        for (int k = 0; k < GPUSSIM_ISSIM_LEN; k++) {
            const int xx = x + k - R;
            if (xx < 0 || xx >= w)
                continue;
            const HMOM_T wk = (HMOM_T)issim_taps[k];
            const HMOM_T s = r[xx], t = d[xx];
            a0 += wk * s;
            a1 += wk * t;
            a2 += wk * s * s;
            a3 += wk * s * t;
            a4 += wk * t * t;
        }
        mux[x] = a0, muy[x] = a1, x2[x] = a2, xy[x] = a3, y2[x] = a4;
    }
}

KERNEL_CLONES
static void FN(issim_sums)(const uint16_t *ref, const uint16_t *dis, int w, int h, int bit_depth,
                           double *sum_term, double *sum_weight, CpuScratch *s)
{
    const int K = GPUSSIM_ISSIM_LEN, R = K / 2;
    const size_t rs = (size_t)s->max_width + 32;
    HMOM_T *ring = (HMOM_T *)s->imom; /* [ring row][moment][x] */
    double *wsum = (double *)s->iwsum; /* per-column horizontal weight sums */
    double *m = s->dacc;               /* 5 vertical moments of one row */
    double *term = s->terms;
    const unsigned samplemax = (1u << bit_depth) - 1;
    const double c1base = GPUSSIM_ISSIM_C1BASE(samplemax);
    const double c2base = GPUSSIM_ISSIM_C2BASE(samplemax);
    double acc_term = 0.0, acc_weight = 0.0;

    /* the horizontal weight sum depends on the column only */
    for (int x = 0; x < w; x++) {
        int ws = 0;
        for (int k = 0; k < K; k++)
            if (x + k - R >= 0 && x + k - R < w)
                ws += issim_taps[k];
        wsum[x] = ws;
    }

#define HROW(row, mom) (ring + ((size_t)((row) % K) * 5 + (mom)) * rs)
    for (int y = -R; y < h; y++) {
        /* bring input row y + R into the ring */
        if (y + R < h) {
            const int rr = y + R;
            FN(issim_hfilter_row)(ref + (size_t)rr * w, dis + (size_t)rr * w, w, HROW(rr, 0),
                                  HROW(rr, 1), HROW(rr, 2), HROW(rr, 3), HROW(rr, 4));
        }
        if (y < 0)
            continue;
        double *mux = m, *muy = m + rs, *mx2 = m + 2 * rs, *mxy2 = m + 3 * rs, *my2 = m + 4 * rs;
        int vw = 0;
        for (int x = 0; x < w; x++)
            mux[x] = muy[x] = mx2[x] = mxy2[x] = my2[x] = 0.0;
        for (int k = 0; k < K; k++) {
            const int yy = y + k - R;
            if (yy < 0 || yy >= h)
                continue;
            /* exact: each product and partial sum is an integer below 2^53 */
            const double wk = issim_taps[k];
            const HMOM_T *h0 = HROW(yy, 0), *h1 = HROW(yy, 1), *h2 = HROW(yy, 2),
                         *h3 = HROW(yy, 3), *h4 = HROW(yy, 4);
            for (int x = 0; x < w; x++) {
                mux[x] += wk * (double)h0[x];
                muy[x] += wk * (double)h1[x];
                mx2[x] += wk * (double)h2[x];
                mxy2[x] += wk * (double)h3[x];
                my2[x] += wk * (double)h4[x];
            }
            vw += issim_taps[k];
        }
        const double vwd = vw;
        for (int x = 0; x < w; x++) {
            const double W = vwd * wsum[x]; /* M.w, an exact integer */
            const double c1 = c1base * W * W;
            const double c2 = c2base * W * W;
            const double mx2d = mux[x] * mux[x];
            const double mxyd = mux[x] * muy[x];
            const double my2d = muy[x] * muy[x];
            const double A = 2 * mxyd + c1;
            const double B = c2 + 2 * (mxy2[x] * W - mxyd);
            const double D = (mx2d + my2d + c1) * (mx2[x] * W - mx2d + my2[x] * W - my2d + c2);
            term[x] = W * A * B / D;
        }
        /* raster-order sums of the reference: sequential on purpose */
        for (int x = 0; x < w; x++) {
            acc_term += term[x];
            acc_weight += vwd * wsum[x];
        }
    }
#undef HROW
    *sum_term = acc_term;
    *sum_weight = acc_weight;
}
