/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The two decimations of the reference, one work-item per output sample,
 * mirroring kernels/c/decimate.c: a double sum of float products, taps
 * row-major, half-sample-symmetric mirroring, result rounded to float.
 */
#include "common.h"

__constant float msssim_lpf_ze[GPUSSIM_MSSSIM_LPF_LEN * GPUSSIM_MSSSIM_LPF_LEN] = {
    GPUSSIM_MSSSIM_LPF_TAPS
};

/* float_ssim's box (spec §1.2). k = 1.0f / (factor * factor) is computed by
 * the host in float, exactly as the reference does. */
__kernel void ssim_decimate_box_ze(__global const float *src, int w, int h, int factor, float k,
                                   __global float *dst, int sw, int sh)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= sw || y >= sh)
        return;
    /* even boxes are left/top-biased: scale 4 visits -2..+1 */
    const int lo = -(factor / 2), hi = (factor & 1) ? factor / 2 : factor / 2 - 1;
    double acc = 0.0;
    for (int v = lo; v <= hi; v++) {
        __global const float *row = src + (size_t)mirror_hss(y * factor + v, h) * w;
        for (int u = lo; u <= hi; u++)
            acc += (double)(row[mirror_hss(x * factor + u, w)] * k);
    }
    dst[(size_t)y * sw + x] = (float)acc;
}

/* MS-SSIM's 2:1 low-pass with the 2-D 9x9 table (spec §2.3). */
__kernel void msssim_decimate_lpf_ze(__global const float *src, int w, int h,
                                     __global float *dst, int sw, int sh)
{
    const int x = get_global_id(0), y = get_global_id(1);
    const int R = GPUSSIM_MSSSIM_LPF_LEN / 2;
    if (x >= sw || y >= sh)
        return;
    double acc = 0.0;
    for (int vi = 0; vi < GPUSSIM_MSSSIM_LPF_LEN; vi++) {
        __global const float *row = src + (size_t)mirror_hss(2 * y + vi - R, h) * w;
        for (int ui = 0; ui < GPUSSIM_MSSSIM_LPF_LEN; ui++)
            acc += (double)(row[mirror_hss(2 * x + ui - R, w)] *
                            msssim_lpf_ze[vi * GPUSSIM_MSSSIM_LPF_LEN + ui]);
    }
    dst[(size_t)y * sw + x] = (float)acc;
}
