#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// The SSIM window computation of float_ssim and every MS-SSIM scale
// (spec §1.3-1.6), as in kernels/c/ssim_window_c.c, in two passes:
//   PASS_H  valid-mode horizontal 11-tap filter of the five moment planes
//           (x, y, x*x, y*y, x*y), one output sample per invocation
//   PASS_V  vertical 11-tap filter of the five moments, the per-window
//           l, c, s and term with the reference's typing, then one partial
//           sum per workgroup of term, l, c, s (fixed-order tree in double;
//           the host adds the partials in workgroup order).
//
// NONNEG (specialization constant 2): the input samples are +0 or >= 2^-8 /
// scale^2 (a picture's samples, MS-SSIM level 0, or float_ssim's box
// decimation of one); then every horizontal term is +0 or >= 2^-26 / scale^4
// and every vertical one +0 or >= 2^-36 / scale^4 (>= 2^-70 for any scale up
// to 300), so nonneg_f2d() widens exactly (common.glsl; the proof is at
// kernels/cuda/gpussim_kernels.cu's ssim_windows). Three of the five moments
// are widened so, on the integer pipes, two on the conversion unit: both
// passes are bound by the widening, and this spreads it over both. MS-SSIM's
// levels 1-4 have negative samples (the pyramid filter has negative taps):
// NONNEG is 0 there.
#include "common.glsl"

layout(constant_id = 2) const int NONNEG = 0;
#define WIDEN(f) (NONNEG != 0 ? nonneg_f2d(f) : double(f))
#define UNRESIDUE(a) (NONNEG != 0 ? flush_residue(a) : (a))

layout(push_constant) uniform Params {
    int w, h;      // input plane (PASS_H) / moment rows (PASS_V: h rows of ow)
    int ow, oh;    // valid-mode output: w - 10, h - 10
} pc;

#ifdef PASS_H
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 1) readonly buffer Dis { float dis[]; };
// the five moment planes (x, y, x*x, y*y, x*y), ow x h each
layout(std430, binding = 2) writeonly buffer M0 { float mom0[]; };
layout(std430, binding = 3) writeonly buffer M1 { float mom1[]; };
layout(std430, binding = 4) writeonly buffer M2 { float mom2[]; };
layout(std430, binding = 5) writeonly buffer M3 { float mom3[]; };
layout(std430, binding = 6) writeonly buffer M4 { float mom4[]; };

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= pc.ow || y >= pc.h)
        return;
    precise double a0 = 0.0lf, a1 = 0.0lf, a2 = 0.0lf, a3 = 0.0lf, a4 = 0.0lf;
    const int base = y * pc.w + x;
    [[unroll]] for (int u = 0; u < GAUSS_LEN; u++) {
        const float k = GAUSS[u];
        const float rv = ref[base + u], dv = dis[base + u];
        // the moment products are float products made before filtering
        precise float rr = rv * rv, dd = dv * dv, rd = rv * dv;
        precise float p0 = rv * k, p1 = dv * k, p2 = rr * k, p3 = dd * k, p4 = rd * k;
        a0 += double(p0);
        a1 += double(p1);
        a2 += WIDEN(p2);
        a3 += WIDEN(p3);
        a4 += WIDEN(p4);
    }
    const int o = y * pc.ow + x;
    mom0[o] = float(a0);
    mom1[o] = float(a1);
    mom2[o] = float(UNRESIDUE(a2));
    mom3[o] = float(UNRESIDUE(a3));
    mom4[o] = float(UNRESIDUE(a4));
}
#endif

#ifdef PASS_V
layout(std430, binding = 2) readonly buffer M0 { float mom0[]; };
layout(std430, binding = 3) readonly buffer M1 { float mom1[]; };
layout(std430, binding = 4) readonly buffer M2 { float mom2[]; };
layout(std430, binding = 5) readonly buffer M3 { float mom3[]; };
layout(std430, binding = 6) readonly buffer M4 { float mom4[]; };
layout(std430, binding = 7) writeonly buffer Partials { double partial[]; };

// vertical 11-tap pass of one moment plane, top to bottom; WIDE: widened
// with nonneg_f2d() where NONNEG holds
#define VFILTER(MOM, OUT, WIDE)                                             \
    {                                                                       \
        precise double a = 0.0lf;                                           \
        [[unroll]] for (int v = 0; v < GAUSS_LEN; v++) {                    \
            precise float p = MOM[(y + v) * pc.ow + x] * GAUSS[v];          \
            a += WIDE ? WIDEN(p) : double(p);                               \
        }                                                                   \
        OUT = float(WIDE ? UNRESIDUE(a) : a);                               \
    }

shared double red[4][WG_X * WG_Y];

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    const uint lid = gl_LocalInvocationIndex;
    double t_term = 0.0lf, t_l = 0.0lf, t_c = 0.0lf, t_s = 0.0lf;

    if (x < pc.ow && y < pc.oh) {
        float m[5];
        VFILTER(mom0, m[0], false)
        VFILTER(mom1, m[1], false)
        VFILTER(mom2, m[2], true)
        VFILTER(mom3, m[3], true)
        VFILTER(mom4, m[4], true)
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
