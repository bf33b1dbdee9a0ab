/*
 * Integer SSIM (spec §4), one instance per horizontal-moment type:
 * uint32_t is exact for depths up to 12 bits (256 * 4095^2 < 2^32) and lets
 * the compiler vectorise; 16-bit samples need int64_t. Included by issim_c.c
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
    int64_t *wsum = s->iwsum;
    int64_t *m = (int64_t *)s->dacc; /* 5 vertical moments of one row */
    double *term = s->terms;
    const unsigned samplemax = (1u << bit_depth) - 1;
    const double c1base = (double)samplemax * samplemax * (0.01 * 0.01);
    const double c2base = (double)samplemax * samplemax * (0.03 * 0.03);
    double acc_term = 0.0, acc_weight = 0.0;

    /* the horizontal weight sum depends on the column only */
    for (int x = 0; x < w; x++) {
        int64_t ws = 0;
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
        int64_t *mux = m, *muy = m + rs, *mx2 = m + 2 * rs, *mxy2 = m + 3 * rs, *my2 = m + 4 * rs;
        int64_t vw = 0;
        for (int x = 0; x < w; x++)
            mux[x] = muy[x] = mx2[x] = mxy2[x] = my2[x] = 0;
        for (int k = 0; k < K; k++) {
            const int yy = y + k - R;
            if (yy < 0 || yy >= h)
                continue;
            /* unsigned 32x32->64 products: exact (moments are non-negative) and
             * a single pmuludq for the compiler */
            const uint64_t wk = (uint64_t)issim_taps[k];
            const HMOM_T *h0 = HROW(yy, 0), *h1 = HROW(yy, 1), *h2 = HROW(yy, 2),
                         *h3 = HROW(yy, 3), *h4 = HROW(yy, 4);
            for (int x = 0; x < w; x++) {
                mux[x] += (int64_t)(wk * (uint64_t)h0[x]);
                muy[x] += (int64_t)(wk * (uint64_t)h1[x]);
                mx2[x] += (int64_t)(wk * (uint64_t)h2[x]);
                mxy2[x] += (int64_t)(wk * (uint64_t)h3[x]);
                my2[x] += (int64_t)(wk * (uint64_t)h4[x]);
            }
            vw += (int64_t)wk;
        }
        for (int x = 0; x < w; x++) {
            const int64_t mw = vw * wsum[x];
            const double W = (double)mw;
            const double c1 = c1base * W * W;
            const double c2 = c2base * W * W;
            const double mx2d = mux[x] * (double)mux[x];
            const double mxyd = mux[x] * (double)muy[x];
            const double my2d = muy[x] * (double)muy[x];
            const double A = 2 * mxyd + c1;
            const double B = c2 + 2 * (mxy2[x] * W - mxyd);
            const double D = (mx2d + my2d + c1) * (mx2[x] * W - mx2d + my2[x] * W - my2d + c2);
            term[x] = mw * A * B / D;
        }
        /* raster-order sums of the reference: sequential on purpose */
        for (int x = 0; x < w; x++) {
            acc_term += term[x];
            acc_weight += (double)(vw * wsum[x]);
        }
    }
#undef HROW
    *sum_term = acc_term;
    *sum_weight = acc_weight;
}
