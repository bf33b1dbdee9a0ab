#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// float_ansnr of a ladder frame (one reference, several distorted
// pictures), split as kernels/c/ansnr_c.c splits it (ansnr_ref_c +
// ansnr_noise_c): the reference's filtered plane and its signal row sums
// once, then per distorted picture its filtered plane and noise row sums.
// The arithmetic of each output is ansnr.comp's, so the row floats are the
// pair's exactly.
//   PASS_FILTER  one picture's filter, one output sample per invocation, the
//                plane written column-major (as ansnr.comp's PASS_FILTER):
//                the reference's 3x3 (ANSNR_REF) by default, the distorted
//                picture's 5x5 with DIS
//   PASS_ROWS    one invocation per row adds r*r (default: the signal) or,
//                with DIS, (r-d)^2 (the noise) left to right in float
// Inputs are the offset-0 float planes; the -128 offset is applied on read.
#include "common.glsl"

layout(push_constant) uniform Params {
    int w, h;
} pc;

#ifdef PASS_FILTER
#ifdef DIS
#define FLEN ANSNR_DIS_LEN
#define FCOEF ANSNR_DIS
#else
#define FLEN ANSNR_REF_LEN
#define FCOEF ANSNR_REF
#endif
layout(std430, binding = 0) readonly buffer Src { float src[]; };
// the filtered plane, column-major
layout(std430, binding = 2) writeonly buffer Filt { float filt[]; };

// reflect without repeating the edge below 0, repeating it past the end
int ansnr_reflect(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - i - 1;
    return i;
}

// One WG_X x WG_Y tile per workgroup, transposed through shared memory on
// the way out: reads run along rows, the column-major writes along columns.
shared float tile[WG_Y][WG_X + 1];

void main()
{
    const int j = int(gl_GlobalInvocationID.x), i = int(gl_GlobalInvocationID.y);
    const int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
    if (j < pc.w && i < pc.h) {
        precise float accum = 0.0;
        [[unroll]] for (int fi = 0; fi < FLEN; fi++) {
            const int row = ansnr_reflect(i - FLEN / 2 + fi, pc.h) * pc.w;
            precise float inner = 0.0;
            [[unroll]] for (int fj = 0; fj < FLEN; fj++) {
                precise float v = src[row + ansnr_reflect(j - FLEN / 2 + fj, pc.w)] - 128.0;
                inner += FCOEF[fi * FLEN + fj] * v;
            }
            accum += inner;
        }
        tile[ly][lx] = accum;
    }
    barrier();
    // this invocation now stores column j0 + ly, row i0 + lx (WG_X == WG_Y)
    const int oj = int(gl_WorkGroupID.x) * WG_X + ly, oi = int(gl_WorkGroupID.y) * WG_Y + lx;
    if (oj < pc.w && oi < pc.h)
        filt[oj * pc.h + oi] = tile[lx][ly];
}
#endif

#ifdef PASS_ROWS
#define ROW_BATCH 16
layout(std430, binding = 2) readonly buffer FiltR { float filt_r[]; };
#ifdef DIS
layout(std430, binding = 3) readonly buffer FiltD { float filt_d[]; };
#endif
layout(std430, binding = 7) writeonly buffer Rows { float rows[]; };

void main()
{
    const int i = int(gl_GlobalInvocationID.x);
    if (i >= pc.h)
        return;
    precise float sum = 0.0;
    // column-major planes: at step j neighbouring invocations (rows) read
    // neighbouring words; loads are issued a batch ahead of the in-order adds
    int j = 0;
#ifdef DIS
    for (; j + ROW_BATCH <= pc.w; j += ROW_BATCH) {
        float rv[ROW_BATCH], dv[ROW_BATCH];
        [[unroll]] for (int k = 0; k < ROW_BATCH; k++) {
            rv[k] = filt_r[(j + k) * pc.h + i];
            dv[k] = filt_d[(j + k) * pc.h + i];
        }
        [[unroll]] for (int k = 0; k < ROW_BATCH; k++) {
            precise float diff = rv[k] - dv[k];
            sum += diff * diff;
        }
    }
    for (; j < pc.w; j++) {
        precise float diff = filt_r[j * pc.h + i] - filt_d[j * pc.h + i];
        sum += diff * diff;
    }
#else
    for (; j + ROW_BATCH <= pc.w; j += ROW_BATCH) {
        float rv[ROW_BATCH];
        [[unroll]] for (int k = 0; k < ROW_BATCH; k++)
            rv[k] = filt_r[(j + k) * pc.h + i];
        [[unroll]] for (int k = 0; k < ROW_BATCH; k++)
            sum += rv[k] * rv[k];
    }
    for (; j < pc.w; j++) {
        const float rv = filt_r[j * pc.h + i];
        sum += rv * rv;
    }
#endif
    rows[i] = sum;
}
#endif
