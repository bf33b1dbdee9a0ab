/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Integer SSIM (spec §4), mirroring kernels/c/issim_tmpl.c. The moments are
 * 64-bit integers (exact in any order); the per-pixel term is the
 * reference's double expression with the same grouping. Each work-group
 * (GPUSSIM_ZE_REDUCE_WG pixels of one row) writes the sequential sum of its
 * terms and the exact integer sum of its weights; the host adds them in
 * raster order.
 */
#include "common.h"

__constant int issim_taps_ze[GPUSSIM_ISSIM_LEN] = { GPUSSIM_ISSIM_TAPS };

/* Horizontal pass, taps outside the row skipped (truncation). hmom: 5 planes
 * of w x h: mux, muy, x2, xy, y2. */
__kernel void issim_hfilter_ze(__global const ushort *ref, __global const ushort *dis, int w,
                               int h, __global long *hmom)
{
    const int R = GPUSSIM_ISSIM_LEN / 2;
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    __global const ushort *r = ref + (size_t)y * w, *d = dis + (size_t)y * w;
    long a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0;
    for (int k = 0; k < GPUSSIM_ISSIM_LEN; k++) {
        const int xx = x + k - R;
        if (xx < 0 || xx >= w)
            continue;
        const long wk = issim_taps_ze[k];
        const long s = r[xx], t = d[xx];
        a0 += wk * s;
        a1 += wk * t;
        a2 += wk * s * s;
        a3 += wk * s * t;
        a4 += wk * t * t;
    }
    const size_t plane = (size_t)w * h, i = (size_t)y * w + x;
    hmom[i] = a0;
    hmom[plane + i] = a1;
    hmom[2 * plane + i] = a2;
    hmom[3 * plane + i] = a3;
    hmom[4 * plane + i] = a4;
}

/*
 * Global (round_up(w, WG), h), local (WG, 1). c1base/c2base are
 * samplemax^2 * 1e-4 and * 9e-4 computed by the host in double exactly as
 * the reference writes them. Per work-group: term_partials[g] (double),
 * weight_partials[g] (exact integer).
 */
__kernel __attribute__((reqd_work_group_size(GPUSSIM_ZE_REDUCE_WG, 1, 1)))
void issim_vfilter_terms_ze(__global const long *hmom, int w, int h, double c1base,
                            double c2base, __global double *term_partials,
                            __global long *weight_partials)
{
    const int K = GPUSSIM_ISSIM_LEN, R = K / 2;
    const int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0);
    __local double lterm[GPUSSIM_ZE_REDUCE_WG];
    __local long lweight[GPUSSIM_ZE_REDUCE_WG];

    if (x < w && y < h) {
        const size_t plane = (size_t)w * h;
        long mux = 0, muy = 0, mx2 = 0, mxy2 = 0, my2 = 0, vw = 0, ws = 0;
        for (int k = 0; k < K; k++) {
            const int yy = y + k - R;
            if (yy < 0 || yy >= h)
                continue;
            const long wk = issim_taps_ze[k];
            const size_t i = (size_t)yy * w + x;
            mux += wk * hmom[i];
            muy += wk * hmom[plane + i];
            mx2 += wk * hmom[2 * plane + i];
            mxy2 += wk * hmom[3 * plane + i];
            my2 += wk * hmom[4 * plane + i];
            vw += wk;
        }
        /* the horizontal weight sum depends on the column only */
        for (int k = 0; k < K; k++)
            if (x + k - R >= 0 && x + k - R < w)
                ws += issim_taps_ze[k];
        const long mw = vw * ws;
        const double W = (double)mw;
        const double c1 = c1base * W * W;
        const double c2 = c2base * W * W;
        const double mx2d = mux * (double)mux;
        const double mxyd = mux * (double)muy;
        const double my2d = muy * (double)muy;
        const double A = 2 * mxyd + c1;
        const double B = c2 + 2 * (mxy2 * W - mxyd);
        const double D = (mx2d + my2d + c1) * (mx2 * W - mx2d + my2 * W - my2d + c2);
        lterm[lx] = mw * A * B / D;
        lweight[lx] = mw;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lx == 0 && y < h) {
        const int x0 = get_group_id(0) * GPUSSIM_ZE_REDUCE_WG;
        const int n = min(GPUSSIM_ZE_REDUCE_WG, w - x0);
        double st = 0.0;
        long sw = 0;
        for (int i = 0; i < n; i++) {
            st += lterm[i];
            sw += lweight[i];
        }
        const size_t g = (size_t)y * get_num_groups(0) + get_group_id(0);
        term_partials[g] = st;
        weight_partials[g] = sw;
    }
}
