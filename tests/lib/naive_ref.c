/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * A second, deliberately naive transcription of docs/METRICS.md: whole
 * planes, textbook loops, no rings, no deinterleaving, no shared code with
 * the library except the constant tables. The optimised CPU backend must
 * match it bit for bit on any input. Built with -ffp-contract=off.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "src/metric_tables.h"
#include "naive_ref.h"

static int hss(int i, int n)
{
    return i < 0 ? -1 - i : i >= n ? 2 * n - 1 - i : i;
}

static float *to_float(const uint16_t *s, int w, int h, int bd, float offset)
{
    float *d = malloc(sizeof(float) * (size_t)w * h);
    const float scaler = bd == 8 ? 1.0f : bd == 10 ? 4.0f : bd == 12 ? 16.0f : 256.0f;
    for (size_t i = 0; i < (size_t)w * h; i++)
        d[i] = (float)s[i] / scaler + offset;
    return d;
}

static float *box_decimate(const float *s, int w, int h, int f, int *ow, int *oh)
{
    const int sw = w / f + (w & 1), sh = h / f + (h & 1);
    const int lo = -(f / 2), hi = (f & 1) ? f / 2 : f / 2 - 1;
    const float k = 1.0f / (f * f);
    float *d = malloc(sizeof(float) * (size_t)sw * sh);
    for (int y = 0; y < sh; y++)
        for (int x = 0; x < sw; x++) {
            double sum = 0.0;
            for (int v = lo; v <= hi; v++)
                for (int u = lo; u <= hi; u++)
                    sum += s[hss(y * f + v, h) * w + hss(x * f + u, w)] * k;
            d[y * sw + x] = (float)sum;
        }
    *ow = sw, *oh = sh;
    return d;
}

static float *lpf_decimate(const float *s, int w, int h, int *ow, int *oh)
{
    static const float t[81] = { GPUSSIM_MSSSIM_LPF_TAPS };
    const int sw = w / 2 + (w & 1), sh = h / 2 + (h & 1);
    float *d = malloc(sizeof(float) * (size_t)sw * sh);
    for (int y = 0; y < sh; y++)
        for (int x = 0; x < sw; x++) {
            double sum = 0.0;
            for (int v = -4; v <= 4; v++)
                for (int u = -4; u <= 4; u++)
                    sum += s[hss(2 * y + v, h) * w + hss(2 * x + u, w)] * t[(v + 4) * 9 + (u + 4)];
            d[y * sw + x] = (float)sum;
        }
    *ow = sw, *oh = sh;
    return d;
}

/* valid-mode separable 11-tap Gaussian of a whole plane */
static float *gauss(const float *s, int w, int h)
{
    static const float g[11] = { GPUSSIM_GAUSSIAN11_TAPS };
    const int ow = w - 10, oh = h - 10;
    float *t = malloc(sizeof(float) * (size_t)ow * h), *d = malloc(sizeof(float) * (size_t)ow * oh);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < ow; x++) {
            double sum = 0.0;
            for (int u = 0; u < 11; u++)
                sum += s[y * w + x + u] * g[u];
            t[y * ow + x] = (float)sum;
        }
    for (int y = 0; y < oh; y++)
        for (int x = 0; x < ow; x++) {
            double sum = 0.0;
            for (int v = 0; v < 11; v++)
                sum += t[(y + v) * ow + x] * g[v];
            d[y * ow + x] = (float)sum;
        }
    free(t);
    return d;
}

/* sums[0..3] = term, l, c, s */
static void ssim_sums(const float *r, const float *d, int w, int h, double sums[4])
{
    const size_t n = (size_t)w * h;
    float *rr = malloc(sizeof(float) * n), *dd = malloc(sizeof(float) * n), *rd = malloc(sizeof(float) * n);
    for (size_t i = 0; i < n; i++) {
        rr[i] = r[i] * r[i];
        dd[i] = d[i] * d[i];
        rd[i] = r[i] * d[i];
    }
    float *mx = gauss(r, w, h), *my = gauss(d, w, h), *exx = gauss(rr, w, h), *eyy = gauss(dd, w, h),
          *exy = gauss(rd, w, h);
    const float C1 = (0.01f * 255) * (0.01f * 255), C2 = (0.03f * 255) * (0.03f * 255), C3 = C2 / 2.0f;
    double st = 0, sl = 0, sc = 0, ss = 0;
    for (size_t i = 0; i < (size_t)(w - 10) * (h - 10); i++) {
        float sx2 = exx[i] - mx[i] * mx[i], sy2 = eyy[i] - my[i] * my[i];
        sx2 = 0.0 > sx2 ? 0.0 : sx2;
        sy2 = 0.0 > sy2 ? 0.0 : sy2;
        const float sxy = exy[i] - mx[i] * my[i];
        const float sxsy = (float)sqrt((double)(sx2 * sy2));
        const double l = (2.0 * mx[i] * my[i] + C1) / (mx[i] * mx[i] + my[i] * my[i] + C1);
        const double c = (2.0 * sxsy + C2) / (sx2 + sy2 + C2);
        const float sxy2 = (sxy < 0 && sxsy <= 0) ? 0 : sxy;
        const double s = (sxy2 + C3) / (sxsy + C3);
        st += l * c * s, sl += l, sc += c, ss += s;
    }
    sums[0] = st, sums[1] = sl, sums[2] = sc, sums[3] = ss;
    free(rr), free(dd), free(rd), free(mx), free(my), free(exx), free(eyy), free(exy);
}

static double db(double v, double max_db)
{
    const double x = -10. * log10(1 - v);
    return x < max_db ? x : max_db;
}

int naive_scores(const uint16_t *ref, const uint16_t *dis, int w, int h, int bd,
                 const struct naive_opts *o, double *out)
{
    int n = 0;
    const unsigned peak = (1u << bd) - 1;
    const double max_db = o->clip_db ? ceil(10. * log10(peak * peak / (0.5 / ((double)w * h)))) : INFINITY;
    float *r = to_float(ref, w, h, bd, 0.0f), *d = to_float(dis, w, h, bd, 0.0f);

    if (o->float_ssim) {
        int scale = o->scale;
        if (!scale) {
            const int m = w < h ? w : h;
            scale = (int)lroundf((float)m / 256.0f);
            if (scale < 1)
                scale = 1;
        }
        int sw = w, sh = h;
        float *rs = r, *ds = d;
        if (scale > 1) {
            rs = box_decimate(r, w, h, scale, &sw, &sh);
            ds = box_decimate(d, w, h, scale, &sw, &sh);
        }
        double s[4];
        ssim_sums(rs, ds, sw, sh, s);
        const double nw = (double)(sw - 10) * (sh - 10);
        double v = (float)(s[0] / nw);
        out[n++] = o->db ? db(v, max_db) : v;
        if (o->lcs)
            for (int k = 1; k < 4; k++)
                out[n++] = (float)(s[k] / nw);
        if (scale > 1)
            free(rs), free(ds);
    }
    if (o->ms_ssim) {
        static const float a[5] = { GPUSSIM_MSSSIM_ALPHA }, b[5] = { GPUSSIM_MSSSIM_BETA },
                           g[5] = { GPUSSIM_MSSSIM_GAMMA };
        float *lr = r, *ld = d;
        int cw = w, ch = h;
        float lv[5], cv[5], sv[5];
        double ms = 1.0;
        for (int i = 0; i < 5; i++) {
            double s[4];
            ssim_sums(lr, ld, cw, ch, s);
            const double nw = (double)(cw - 10) * (ch - 10);
            lv[i] = (float)(s[1] / nw), cv[i] = (float)(s[2] / nw), sv[i] = (float)(s[3] / nw);
            ms *= pow(lv[i], a[i]) * pow(cv[i], b[i]) * pow(sv[i], g[i]);
            if (i < 4) {
                int nw2, nh2;
                float *nr = lpf_decimate(lr, cw, ch, &nw2, &nh2);
                float *nd = lpf_decimate(ld, cw, ch, &nw2, &nh2);
                if (i)
                    free(lr), free(ld);
                lr = nr, ld = nd, cw = nw2, ch = nh2;
            }
        }
        free(lr), free(ld);
        out[n++] = o->db ? db(ms, max_db) : ms;
        if (o->lcs) {
            for (int i = 0; i < 5; i++)
                out[n++] = lv[i];
            for (int i = 0; i < 5; i++)
                out[n++] = cv[i];
            for (int i = 0; i < 5; i++)
                out[n++] = sv[i];
        }
    }
    free(r), free(d);

    if (o->ansnr) {
        static const int rw[9] = { GPUSSIM_ANSNR_REF_WEIGHTS }, dw[25] = { GPUSSIM_ANSNR_DIS_WEIGHTS };
        float rc[9], dc[25];
        for (int i = 0; i < 9; i++)
            rc[i] = (float)(rw[i] / 16.0);
        for (int i = 0; i < 25; i++)
            dc[i] = (float)(dw[i] / 571.0);
        float *rf = to_float(ref, w, h, bd, -128.0f), *df = to_float(dis, w, h, bd, -128.0f);
        float sig = 0, noise = 0;
        for (int i = 0; i < h; i++) {
            float srow = 0, nrow = 0;
            for (int j = 0; j < w; j++) {
                float fr[2];
                for (int which = 0; which < 2; which++) {
                    const int K = which ? 5 : 3;
                    const float *c = which ? dc : rc, *src = which ? df : rf;
                    float acc = 0;
                    for (int fi = 0; fi < K; fi++) {
                        float inner = 0;
                        for (int fj = 0; fj < K; fj++) {
                            int ii = i - K / 2 + fi, jj = j - K / 2 + fj;
                            ii = ii < 0 ? -ii : ii >= h ? 2 * h - ii - 1 : ii;
                            jj = jj < 0 ? -jj : jj >= w ? 2 * w - jj - 1 : jj;
                            inner += c[fi * K + fj] * src[ii * w + jj];
                        }
                        acc += inner;
                    }
                    fr[which] = acc;
                }
                srow += fr[0] * fr[0];
                nrow += (fr[0] - fr[1]) * (fr[0] - fr[1]);
            }
            sig += srow, noise += nrow;
        }
        const double pk = bd == 8 ? 255.0 : bd == 10 ? 255.75 : bd == 12 ? 255.9375 : 255.99609375;
        const double pmax = bd == 8 ? 60.0 : bd == 10 ? 72.0 : bd == 12 ? 84.0 : 108.0;
        out[n++] = noise == 0 ? pmax : 10.0 * log10((double)(sig / noise));
        const double v = 10 * log10(pk * pk * w * h / (noise > 1e-10 ? (double)noise : 1e-10));
        out[n++] = v < pmax ? v : pmax;
        free(rf), free(df);
    }

    if (o->issim) {
        static const int k[9] = { GPUSSIM_ISSIM_TAPS };
        const size_t np = (size_t)w * h;
        int64_t *H = calloc(np * 6, sizeof(int64_t));
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                for (int t = 0; t < 9; t++) {
                    const int xx = x + t - 4;
                    if (xx < 0 || xx >= w)
                        continue;
                    const int64_t s = ref[y * w + xx], e = dis[y * w + xx];
                    int64_t *m = H + ((size_t)y * w + x) * 6;
                    m[0] += k[t] * s, m[1] += k[t] * e, m[2] += k[t] * s * s;
                    m[3] += k[t] * s * e, m[4] += k[t] * e * e, m[5] += k[t];
                }
        const double smax = peak;
        double st = 0, sw = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int64_t M[6] = { 0 };
                for (int t = 0; t < 9; t++) {
                    const int yy = y + t - 4;
                    if (yy < 0 || yy >= h)
                        continue;
                    for (int q = 0; q < 6; q++)
                        M[q] += k[t] * H[((size_t)yy * w + x) * 6 + q];
                }
                const double W = (double)M[5];
                const double c1 = smax * peak * (0.01 * 0.01) * W * W;
                const double c2 = smax * peak * (0.03 * 0.03) * W * W;
                const double mx2 = M[0] * (double)M[0], mxy = M[0] * (double)M[1],
                             my2 = M[1] * (double)M[1];
                st += M[5] * (2 * mxy + c1) * (c2 + 2 * (M[3] * W - mxy)) /
                      ((mx2 + my2 + c1) * (M[2] * W - mx2 + M[4] * W - my2 + c2));
                sw += W;
            }
        free(H);
        out[n++] = st / sw;
    }
    return n;
}
