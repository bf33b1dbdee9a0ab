#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// The SSIM window computation of a ladder frame (one reference, several
// distorted pictures), split as kernels/c/ssim_window_c.c splits it
// (ssim_ref_moments_c + ssim_window_sums_ref_c): the reference's moments
// once, then per distorted picture only its own and the cross moments.
// Every moment has its own accumulator in ssim_window.comp, so computing
// the reference's apart gives the same bits; the per-window terms and the
// workgroup tree are ssim_window.comp's PASS_V, so the partials are the
// pair's exactly.
//   PASS_REF    the reference's Gaussian mean and mean of squares (x, x*x),
//               horizontal then vertical in one pass (the horizontal rows of
//               a workgroup's tile in shared memory), ow x oh each
//   PASS_DIS_H  horizontal 11-tap filter of the distorted picture's moments
//               (y, y*y, x*y), ow x h each
//   PASS_DIS_V  their vertical filter, the reference's two moments read as
//               they are, the per-window l, c, s and term, one partial sum
//               per workgroup (as ssim_window.comp's PASS_V)
#include "common.glsl"

layout(push_constant) uniform Params {
    int w, h;      // input plane
    int ow, oh;    // valid-mode output: w - 10, h - 10
} pc;

#ifdef PASS_REF
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 2) writeonly buffer MuX { float mu_x[]; };
layout(std430, binding = 3) writeonly buffer ExX { float ex_x[]; };

// the horizontal moments of the tile's WG_Y + 10 input rows
shared float hx[(WG_Y + GAUSS_LEN - 1) * WG_X], hxx[(WG_Y + GAUSS_LEN - 1) * WG_X];

void main()
{
    const int x0 = int(gl_WorkGroupID.x) * WG_X, y0 = int(gl_WorkGroupID.y) * WG_Y;
    const int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
    const int rows = WG_Y + GAUSS_LEN - 1;
    for (int i = int(gl_LocalInvocationIndex); i < rows * WG_X; i += WG_X * WG_Y) {
        const int x = x0 + i % WG_X, y = y0 + i / WG_X;
        if (x >= pc.ow || y >= pc.h)
            continue;
        precise double a0 = 0.0lf, a2 = 0.0lf;
        const int base = y * pc.w + x;
        [[unroll]] for (int u = 0; u < GAUSS_LEN; u++) {
            const float k = GAUSS[u];
            const float rv = ref[base + u];
            precise float rr = rv * rv;
            precise float p0 = rv * k, p2 = rr * k;
            a0 += double(p0);
            a2 += double(p2);
        }
        hx[i] = float(a0);
        hxx[i] = float(a2);
    }
    barrier();
    const int x = x0 + lx, y = y0 + ly;
    if (x >= pc.ow || y >= pc.oh)
        return;
    precise double a0 = 0.0lf, a2 = 0.0lf;
    [[unroll]] for (int v = 0; v < GAUSS_LEN; v++) {
        precise float p0 = hx[(ly + v) * WG_X + lx] * GAUSS[v];
        precise float p2 = hxx[(ly + v) * WG_X + lx] * GAUSS[v];
        a0 += double(p0);
        a2 += double(p2);
    }
    mu_x[y * pc.ow + x] = float(a0);
    ex_x[y * pc.ow + x] = float(a2);
}
#endif

#ifdef PASS_DIS_H
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 1) readonly buffer Dis { float dis[]; };
// the distorted picture's moment planes (y, y*y, x*y), ow x h each
layout(std430, binding = 2) writeonly buffer M1 { float mom1[]; };
layout(std430, binding = 3) writeonly buffer M3 { float mom3[]; };
layout(std430, binding = 4) writeonly buffer M4 { float mom4[]; };

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= pc.ow || y >= pc.h)
        return;
    precise double a1 = 0.0lf, a3 = 0.0lf, a4 = 0.0lf;
    const int base = y * pc.w + x;
    [[unroll]] for (int u = 0; u < GAUSS_LEN; u++) {
        const float k = GAUSS[u];
        const float rv = ref[base + u], dv = dis[base + u];
        precise float dd = dv * dv, rd = rv * dv;
        precise float p1 = dv * k, p3 = dd * k, p4 = rd * k;
        a1 += double(p1);
        a3 += double(p3);
        a4 += double(p4);
    }
    const int o = y * pc.ow + x;
    mom1[o] = float(a1);
    mom3[o] = float(a3);
    mom4[o] = float(a4);
}
#endif

#ifdef PASS_DIS_V
layout(std430, binding = 2) readonly buffer M1 { float mom1[]; };
layout(std430, binding = 3) readonly buffer M3 { float mom3[]; };
layout(std430, binding = 4) readonly buffer M4 { float mom4[]; };
layout(std430, binding = 5) readonly buffer MuX { float mu_x[]; };
layout(std430, binding = 6) readonly buffer ExX { float ex_x[]; };
layout(std430, binding = 7) writeonly buffer Partials { double partial[]; };

// vertical 11-tap pass of one moment plane, top to bottom
#define VFILTER(MOM, OUT)                                                   \
    {                                                                       \
        precise double a = 0.0lf;                                           \
        [[unroll]] for (int v = 0; v < GAUSS_LEN; v++) {                    \
            precise float p = MOM[(y + v) * pc.ow + x] * GAUSS[v];          \
            a += double(p);                                                 \
        }                                                                   \
        OUT = float(a);                                                     \
    }

shared double red[4][WG_X * WG_Y];

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    const uint lid = gl_LocalInvocationIndex;
    double t_term = 0.0lf, t_l = 0.0lf, t_c = 0.0lf, t_s = 0.0lf;

    if (x < pc.ow && y < pc.oh) {
        float m[5];
        m[0] = mu_x[y * pc.ow + x];
        VFILTER(mom1, m[1])
        m[2] = ex_x[y * pc.ow + x];
        VFILTER(mom3, m[3])
        VFILTER(mom4, m[4])
        // from here on ssim_window.comp's PASS_V, unchanged
        const float mx = m[0], my = m[1];
        precise float sx2 = m[2] - mx * mx;
        precise float sy2 = m[3] - my * my;
        // MAX(0.0, v) of the reference: keeps -0.0, zeroes negatives
        sx2 = 0.0 > sx2 ? 0.0 : sx2;
        sy2 = 0.0 > sy2 ? 0.0 : sy2;
        precise float sxy = m[4] - mx * my;
        precise float p = sx2 * sy2;
        const float sxsy = sqrt_rn(p);
        // double numerators (2.0 is a double literal), float denominators
        precise double ln = 2.0lf * double(mx) * double(my) + double(SSIM_C1);
        precise float ld = mx * mx + my * my + SSIM_C1;
        precise double l = ln / double(ld);
        precise double cn = 2.0lf * double(sxsy) + double(SSIM_C2);
        precise float cd = sx2 + sy2 + SSIM_C2;
        precise double c = cn / double(cd);
        const float sxy_c = (sxy < 0.0 && sxsy <= 0.0) ? 0.0 : sxy;
        precise float sn = sxy_c + SSIM_C3;
        precise float sd = sxsy + SSIM_C3;
        const double s = double(div_rn(sn, sd));
        precise double term = l * c * s;
        t_term = term, t_l = l, t_c = c, t_s = s;
    }
    red[0][lid] = t_term;
    red[1][lid] = t_l;
    red[2][lid] = t_c;
    red[3][lid] = t_s;
    barrier();
    // fixed-shape tree: the same inputs always give the same partials
    for (uint stride = uint(WG_X * WG_Y) / 2u; stride > 0u; stride >>= 1) {
        if (lid < stride) {
            [[unroll]] for (int k = 0; k < 4; k++) {
                precise double sum = red[k][lid] + red[k][lid + stride];
                red[k][lid] = sum;
            }
        }
        barrier();
    }
    if (lid == 0u) {
        const uint wg = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
        [[unroll]] for (int k = 0; k < 4; k++)
            partial[wg * 4u + uint(k)] = red[k][0];
    }
}
#endif
