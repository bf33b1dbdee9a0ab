#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// float_ansnr (spec §3), as in kernels/c/ansnr_c.c, bit-exact by construction:
//   PASS_FILTER  the 3x3 ref and 5x5 dis filters, one output sample per
//                invocation, all float: per filter row a float sum over the
//                columns, added to a float accumulator row by row;
//                asymmetric reflection at the borders.
//   PASS_ROWS    one invocation per row and sum adds r*r (or (r-d)^2) left to
//                right in float (the reference's per-row sums); the host adds
//                the rows' floats in row order (spec §3 hint).
// Inputs are the offset-0 float planes; the -128 offset is applied on read
// (f - 128 equals the reference's (float)v / scaler + (-128) exactly).
#include "common.glsl"

layout(push_constant) uniform Params {
    int w, h;
} pc;

#ifdef PASS_FILTER
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 1) readonly buffer Dis { float dis[]; };
// the filtered planes, column-major
layout(std430, binding = 2) writeonly buffer FiltR { float filt_r[]; };
layout(std430, binding = 3) writeonly buffer FiltD { float filt_d[]; };

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
shared float tile_r[WG_Y][WG_X + 1], tile_d[WG_Y][WG_X + 1];

void main()
{
    const int j = int(gl_GlobalInvocationID.x), i = int(gl_GlobalInvocationID.y);
    const int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
    if (j < pc.w && i < pc.h) {
        precise float accum = 0.0;
        [[unroll]] for (int fi = 0; fi < ANSNR_REF_LEN; fi++) {
            const int row = ansnr_reflect(i - ANSNR_REF_LEN / 2 + fi, pc.h) * pc.w;
            precise float inner = 0.0;
            [[unroll]] for (int fj = 0; fj < ANSNR_REF_LEN; fj++) {
                precise float v = ref[row + ansnr_reflect(j - ANSNR_REF_LEN / 2 + fj, pc.w)] - 128.0;
                inner += ANSNR_REF[fi * ANSNR_REF_LEN + fj] * v;
            }
            accum += inner;
        }
        precise float daccum = 0.0;
        [[unroll]] for (int fi = 0; fi < ANSNR_DIS_LEN; fi++) {
            const int row = ansnr_reflect(i - ANSNR_DIS_LEN / 2 + fi, pc.h) * pc.w;
            precise float inner = 0.0;
            [[unroll]] for (int fj = 0; fj < ANSNR_DIS_LEN; fj++) {
                precise float v = dis[row + ansnr_reflect(j - ANSNR_DIS_LEN / 2 + fj, pc.w)] - 128.0;
                inner += ANSNR_DIS[fi * ANSNR_DIS_LEN + fj] * v;
            }
            daccum += inner;
        }
        tile_r[ly][lx] = accum;
        tile_d[ly][lx] = daccum;
    }
    barrier();
    // this invocation now stores column j0 + ly, row i0 + lx (WG_X == WG_Y)
    const int oj = int(gl_WorkGroupID.x) * WG_X + ly, oi = int(gl_WorkGroupID.y) * WG_Y + lx;
    if (oj < pc.w && oi < pc.h) {
        filt_r[oj * pc.h + oi] = tile_r[lx][ly];
        filt_d[oj * pc.h + oi] = tile_d[lx][ly];
    }
}
#endif

#ifdef PASS_ROWS
#define ROW_BATCH 16
layout(std430, binding = 2) readonly buffer FiltR { float filt_r[]; };
layout(std430, binding = 3) readonly buffer FiltD { float filt_d[]; };
layout(std430, binding = 7) writeonly buffer Rows { float rows[]; };

// Invocation t < h sums row t's signal, invocation h + t its noise: the two
// sums are independent chains, and twice the invocations hide more latency
// (there is only one invocation per row and sum).
void main()
{
    const int t = int(gl_GlobalInvocationID.x);
    if (t >= 2 * pc.h)
        return;
    const bool noise = t >= pc.h;
    const int i = noise ? t - pc.h : t;
    precise float sum = 0.0;
    // column-major planes: at step j neighbouring invocations (rows) read
    // neighbouring words; loads are issued a batch ahead of the in-order adds
    int j = 0;
    if (noise) {
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
    } else {
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
    }
    rows[2 * i + (noise ? 1 : 0)] = sum;
}
#endif
