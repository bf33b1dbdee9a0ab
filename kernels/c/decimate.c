/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The two decimations of the reference (built with -ffp-contract=off):
 * float_ssim's box filter (spec §1.2) and MS-SSIM's 9x9 low-pass (spec §2.3).
 * Both: per output sample a double sum of float products, taps row-major,
 * half-sample-symmetric mirroring, result rounded to float.
 */
#include <stddef.h>

#include "src/geometry.h"
#include "src/metric_tables.h"
#include "scratch.h"

KERNEL_CLONES
void ssim_decimate_box_c(const float *src, int w, int h, int factor, float *dst, CpuScratch *s)
{
    const int sw = gpussim_decimated_size(w, factor), sh = gpussim_decimated_size(h, factor);
    /* even boxes are left/top-biased: scale 4 visits -2..+1 */
    const int lo = -(factor / 2), hi = (factor & 1) ? factor / 2 : factor / 2 - 1;
    const float k = 1.0f / (factor * factor);
    int *idx = s->idx;
    double *acc = s->dacc;

    for (int u = lo; u <= hi; u++)
        for (int x = 0; x < sw; x++)
            idx[(size_t)(u - lo) * sw + x] = mirror_hss(x * factor + u, w);

    for (int y = 0; y < sh; y++) {
        for (int x = 0; x < sw; x++)
            acc[x] = 0.0;
        for (int v = lo; v <= hi; v++) {
            const float *row = src + (size_t)mirror_hss(y * factor + v, h) * w;
            for (int u = lo; u <= hi; u++) {
                const int *ix = idx + (size_t)(u - lo) * sw;
                for (int x = 0; x < sw; x++)
                    acc[x] += (double)(row[ix[x]] * k);
            }
        }
        float *out = dst + (size_t)y * sw;
        for (int x = 0; x < sw; x++)
            out[x] = (float)acc[x];
    }
}

static const float msssim_lpf[GPUSSIM_MSSSIM_LPF_LEN * GPUSSIM_MSSSIM_LPF_LEN] = {
    GPUSSIM_MSSSIM_LPF_TAPS
};

KERNEL_CLONES
void msssim_decimate_lpf_c(const float *src, int w, int h, float *dst, CpuScratch *s)
{
    const int R = GPUSSIM_MSSSIM_LPF_LEN / 2; /* 4 */
    const int sw = gpussim_decimated_size(w, 2), sh = gpussim_decimated_size(h, 2);
    /* Each input row split into even and odd mirrored columns so that the taps
     * of neighbouring outputs are contiguous: even[j] = row[2j - 4],
     * odd[j] = row[2j - 3]. */
    const size_t pw = (size_t)sw + R;
    float *even = s->pad, *odd = s->pad + pw * h;
    double *acc = s->dacc;

    for (int y = 0; y < h; y++) {
        const float *row = src + (size_t)y * w;
        float *e = even + (size_t)y * pw, *o = odd + (size_t)y * pw;
        for (size_t j = 0; j < pw; j++) {
            e[j] = row[mirror_hss(2 * (int)j - R, w)];
            o[j] = row[mirror_hss(2 * (int)j - R + 1, w)];
        }
    }

    for (int y = 0; y < sh; y++) {
        for (int x = 0; x < sw; x++)
            acc[x] = 0.0;
        for (int vi = 0; vi < 2 * R + 1; vi++) {
            const size_t r = (size_t)mirror_hss(2 * y + vi - R, h);
            for (int ui = 0; ui < 2 * R + 1; ui++) {
                const float tap = msssim_lpf[vi * (2 * R + 1) + ui];
                /* input column 2x + ui - 4 */
                const float *in = (ui & 1) ? odd + r * pw + (ui - 1) / 2 : even + r * pw + ui / 2;
                for (int x = 0; x < sw; x++)
                    acc[x] += (double)(in[x] * tap);
            }
        }
        float *out = dst + (size_t)y * sw;
        for (int x = 0; x < sw; x++)
            out[x] = (float)acc[x];
    }
}
