/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The SSIM window computation shared by float_ssim and every MS-SSIM scale
 * (spec §1.3-1.6), mirroring kernels/c/ssim_window.c element for element.
 *
 * Pass 1: the five horizontally filtered moment planes, (w-10) x h each.
 * Pass 2: vertical filter, per-window l, c, s, term in the reference's
 * typing, and per-work-group double partial sums. A work-group is
 * GPUSSIM_ZE_REDUCE_WG windows of one row; its partial is the sequential
 * left-to-right sum of those windows (no float atomics, no
 * scheduling-dependent order), and the host adds the partials in raster
 * order. Nothing assumes a SIMD width.
 */
#include "common.h"

__constant float gauss11_ze[GPUSSIM_GAUSSIAN11_LEN] = { GPUSSIM_GAUSSIAN11_TAPS };

/* hmom holds 5 planes of ow x h: x, y, x*x, y*y, x*y. */
__kernel void ssim_hfilter_ze(__global const float *ref, __global const float *dis, int w, int h,
                              __global float *hmom)
{
    const int ow = w - (GPUSSIM_GAUSSIAN11_LEN - 1);
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= ow || y >= h)
        return;
    __global const float *r = ref + (size_t)y * w + x, *d = dis + (size_t)y * w + x;
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0;
    for (int u = 0; u < GPUSSIM_GAUSSIAN11_LEN; u++) {
        const float k = gauss11_ze[u];
        const float rv = r[u], dv = d[u];
        a0 += (double)(rv * k);
        a1 += (double)(dv * k);
        a2 += (double)((rv * rv) * k);
        a3 += (double)((dv * dv) * k);
        a4 += (double)((rv * dv) * k);
    }
    const size_t plane = (size_t)ow * h, i = (size_t)y * ow + x;
    hmom[i] = (float)a0;
    hmom[plane + i] = (float)a1;
    hmom[2 * plane + i] = (float)a2;
    hmom[3 * plane + i] = (float)a3;
    hmom[4 * plane + i] = (float)a4;
}

/*
 * Global size (round_up(ow, WG), oh), local (WG, 1). partials gets 4 doubles
 * (term, l, c, s) per work-group, at index (y * groups_x + group_x).
 */
__kernel __attribute__((reqd_work_group_size(GPUSSIM_ZE_REDUCE_WG, 1, 1)))
void ssim_vfilter_terms_ze(__global const float *hmom, int w, int h,
                           __global double *partials)
{
    const int K = GPUSSIM_GAUSSIAN11_LEN;
    const int ow = w - (K - 1), oh = h - (K - 1);
    const int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0);
    __local double lt[GPUSSIM_ZE_REDUCE_WG], ll[GPUSSIM_ZE_REDUCE_WG],
                   lc[GPUSSIM_ZE_REDUCE_WG], ls[GPUSSIM_ZE_REDUCE_WG];

    if (x < ow && y < oh) {
        const size_t plane = (size_t)ow * h;
        float mom[5];
        for (int m = 0; m < 5; m++) {
            __global const float *col = hmom + m * plane + (size_t)y * ow + x;
            double a = 0.0;
            for (int v = 0; v < K; v++)
                a += (double)(col[(size_t)v * ow] * gauss11_ze[v]);
            mom[m] = (float)a;
        }
        const float C1 = (GPUSSIM_SSIM_K1 * GPUSSIM_SSIM_L) * (GPUSSIM_SSIM_K1 * GPUSSIM_SSIM_L);
        const float C2 = (GPUSSIM_SSIM_K2 * GPUSSIM_SSIM_L) * (GPUSSIM_SSIM_K2 * GPUSSIM_SSIM_L);
        const float C3 = C2 / 2.0f;
        const float mx = mom[0], my = mom[1];
        float sx2 = mom[2] - mx * mx;
        float sy2 = mom[3] - my * my;
        /* MAX(0.0, v) of the reference: keeps -0.0, zeroes negatives */
        sx2 = 0.0f > sx2 ? 0.0f : sx2;
        sy2 = 0.0f > sy2 ? 0.0f : sy2;
        const float sxy = mom[4] - mx * my;
        const float sxsy = (float)sqrt((double)(sx2 * sy2));
        /* double numerator (2.0 is a double literal), float denominator */
        const double l = (2.0 * mx * my + C1) / (mx * mx + my * my + C1);
        const double c = (2.0 * sxsy + C2) / (sx2 + sy2 + C2);
        const float sxy_c = (sxy < 0.0f && sxsy <= 0.0f) ? 0.0f : sxy;
        const double s = (sxy_c + C3) / (sxsy + C3);
        lt[lx] = l * c * s;
        ll[lx] = l;
        lc[lx] = c;
        ls[lx] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lx == 0 && y < oh) {
        const int x0 = get_group_id(0) * GPUSSIM_ZE_REDUCE_WG;
        const int n = min(GPUSSIM_ZE_REDUCE_WG, ow - x0);
        double st = 0.0, sl = 0.0, sc = 0.0, ss = 0.0;
        for (int i = 0; i < n; i++) {
            st += lt[i];
            sl += ll[i];
            sc += lc[i];
            ss += ls[i];
        }
        __global double *p = partials + ((size_t)y * get_num_groups(0) + get_group_id(0)) * 4;
        p[0] = st, p[1] = sl, p[2] = sc, p[3] = ss;
    }
}
