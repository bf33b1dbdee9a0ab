/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * float_ansnr (spec §3), mirroring kernels/c/ansnr.c. Everything is float.
 * The totals are exact, not merely close: the reference sums each row
 * left to right and then adds the row sums top to bottom, so one work-item
 * per row reproduces the row sums and the host adds them in row order.
 */
#include "common.h"

/* Border rule of the reference: reflect without repeating the edge below 0,
 * with repeating it past the end. */
inline int ansnr_reflect(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - i - 1;
    return i;
}

inline float ansnr_filter_at(__global const float *src, int w, int h, int x, int y,
                             __constant float *coef, int K)
{
    float accum = 0.0f;
    for (int fi = 0; fi < K; fi++) {
        __global const float *row = src + (size_t)ansnr_reflect(y - K / 2 + fi, h) * w;
        float inner = 0.0f;
        for (int fj = 0; fj < K; fj++)
            inner += coef[fi * K + fj] * row[ansnr_reflect(x - K / 2 + fj, w)];
        accum += inner;
    }
    return accum;
}

/* ref_coef: 3x3 (float)(w / 16.0), dis_coef: 5x5 (float)(w / 571.0), both
 * rounded on the host exactly as the reference rounds them. */
__kernel void ansnr_filter_ze(__global const float *ref, __global const float *dis, int w, int h,
                              __constant float *ref_coef, __constant float *dis_coef,
                              __global float *ref_f, __global float *dis_f)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    ref_f[(size_t)y * w + x] = ansnr_filter_at(ref, w, h, x, y, ref_coef, GPUSSIM_ANSNR_REF_LEN);
    dis_f[(size_t)y * w + x] = ansnr_filter_at(dis, w, h, x, y, dis_coef, GPUSSIM_ANSNR_DIS_LEN);
}

/* One work-item per row: the reference's per-row float sums, left to right. */
__kernel void ansnr_row_sums_ze(__global const float *ref_f, __global const float *dis_f, int w,
                                int h, __global float *sig_rows, __global float *noise_rows)
{
    const int y = get_global_id(0);
    if (y >= h)
        return;
    __global const float *r = ref_f + (size_t)y * w, *d = dis_f + (size_t)y * w;
    float sig_row = 0.0f, noise_row = 0.0f;
    for (int j = 0; j < w; j++) {
        const float rv = r[j], dv = d[j];
        sig_row += rv * rv;
        noise_row += (rv - dv) * (rv - dv);
    }
    sig_rows[y] = sig_row;
    noise_rows[y] = noise_row;
}
