#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// The SSIM window computation of float_ssim and every MS-SSIM scale
// (spec §1.3-1.6), as in kernels/c/ssim_window.c, in two passes (or both
// in one, PASS_HV, below):
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
// kernels/cuda/ssim_window.cu's widen()). Some of the moments are widened
// so, on the integer pipes, the others on the conversion unit: both passes
// spend much of their time widening, and this spreads it over both pipes.
// PASS_H and PASS_V: three of five on the integer pipes. PASS_HV: four of
// five (all but mu_x) in both passes; H200, 2160p 8-bit pairs, all four
// metrics: 0.939 ms with three of five, 0.935 with four, 0.938 with all five
// in the vertical pass, 0.947 with only x*y horizontally and all five
// vertically (in an older form, the horizontal pass all on the conversion
// unit and four of five vertical ones on the integer pipes measured 7 %
// slower). A pair's level 0 (MS-SSIM's, or float_ssim's undecimated
// plane) comes straight from the staged picture words (RAW_BPS, raw.glsl):
// the same values as the float planes. MS-SSIM's
// levels 1-4 have negative samples (the pyramid filter has negative taps):
// NONNEG is 0 there.
#include "common.glsl"

// specialization constant 2: bit 0 NONNEG, bits 1-4 SUMS (ssim_terms.glsl)
layout(constant_id = 2) const int WIN_SPEC = 0x1e;
const int NONNEG = WIN_SPEC & 1;
const int SUMS = (WIN_SPEC >> 1) & 15;
#define WIDEN(f) (NONNEG != 0 ? nonneg_f2d(f) : double(f))
#define UNRESIDUE(a) (NONNEG != 0 ? flush_residue(a) : (a))

layout(push_constant) uniform Params {
    int w, h;      // input plane (PASS_H) / moment rows (PASS_V: h rows of ow)
    int ow, oh;    // valid-mode output: w - 10, h - 10
    RAW_PARAMS;    // RAW_BPS: the input is the staged words (a pair's level 0)
} pc;
#if defined(PASS_H) || defined(PASS_HV)
#include "raw.glsl"
#endif

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
        const float rv = RAW_BPS != 0 ? raw_f(pc.raw_off0, x + u, y) : ref[base + u];
        const float dv = RAW_BPS != 0 ? raw_f1(pc.raw_off1, x + u, y) : dis[base + u];
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

#if defined(PASS_V) || defined(PASS_HV)
#include "ssim_terms.glsl"
#endif

#ifdef PASS_V
layout(std430, binding = 2) readonly buffer M0 { float mom0[]; };
layout(std430, binding = 3) readonly buffer M1 { float mom1[]; };
layout(std430, binding = 4) readonly buffer M2 { float mom2[]; };
layout(std430, binding = 5) readonly buffer M3 { float mom3[]; };
layout(std430, binding = 6) readonly buffer M4 { float mom4[]; };

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

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    double t_term = 0.0lf, t_l = 0.0lf, t_c = 0.0lf, t_s = 0.0lf;

    if (x < pc.ow && y < pc.oh) {
        float m[5];
        VFILTER(mom0, m[0], false)
        VFILTER(mom1, m[1], false)
        VFILTER(mom2, m[2], true)
        VFILTER(mom3, m[3], true)
        VFILTER(mom4, m[4], true)
        window_terms(m, t_term, t_l, t_c, t_s);
    }
    store_partials(t_term, t_l, t_c, t_s);
}
#endif

#ifdef PASS_HV
// Both passes in one: a workgroup computes a WG_X x (HV_ROWS * WG_Y) tile of
// windows, each invocation HV_ROWS of one column. The horizontal pass covers
// the tile's rows plus the vertical margin, into shared memory, so the five
// moment planes never reach device memory. Same arithmetic as PASS_H and
// PASS_V; per invocation its windows' terms are added top to bottom before
// the tree. Shared memory: 30 KiB for 16 x 16 workgroups (the host checks
// the device's limit and otherwise uses PASS_H + PASS_V).
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 1) readonly buffer Dis { float dis[]; };

#define HV_ROWS 2
#define HV_TW 16                           // = WG_X (the host's shape)
#define HV_TH (HV_ROWS * 16)               // = HV_ROWS * WG_Y
#define HV_IN_W (HV_TW + GAUSS_LEN - 1)
#define HV_IN_H (HV_TH + GAUSS_LEN - 1)
shared float tin[2][HV_IN_H][HV_IN_W + 1];
shared float tmom[5][HV_IN_H][HV_TW];

void main()
{
    const int lid = int(gl_LocalInvocationIndex);
    const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    const int x0 = int(gl_WorkGroupID.x) * HV_TW, y0 = int(gl_WorkGroupID.y) * HV_TH;

    if (RAW_BPS != 0) {
        RAW_TILE2(tin, HV_IN_W, HV_IN_H, x0, y0, pc.raw_off0, pc.raw_off1)
    } else {
        for (int i = lid; i < HV_IN_W * HV_IN_H; i += WG_X * WG_Y) {
            const int r = i / HV_IN_W, c = i % HV_IN_W;
            const int gx = x0 + c, gy = y0 + r;
            const bool ok = gx < pc.w && gy < pc.h;
            tin[0][r][c] = ok ? ref[gy * pc.w + gx] : 0.0;
            tin[1][r][c] = ok ? dis[gy * pc.w + gx] : 0.0;
        }
    }
    barrier();

    // horizontal pass (spec §1.4): double sum of float products, left to right
    for (int i = lid; i < HV_TW * HV_IN_H; i += WG_X * WG_Y) {
        const int r = i / HV_TW, c = i % HV_TW;
        precise double a0 = 0.0lf, a1 = 0.0lf, a2 = 0.0lf, a3 = 0.0lf, a4 = 0.0lf;
        [[unroll]] for (int u = 0; u < GAUSS_LEN; u++) {
            const float k = GAUSS[u];
            const float rv = tin[0][r][c + u], dv = tin[1][r][c + u];
            precise float rr = rv * rv, dd = dv * dv, rd = rv * dv;
            precise float p0 = rv * k, p1 = dv * k, p2 = rr * k, p3 = dd * k, p4 = rd * k;
            a0 += double(p0);
            a1 += WIDEN(p1);
            a2 += WIDEN(p2);
            a3 += WIDEN(p3);
            a4 += WIDEN(p4);
        }
        tmom[0][r][c] = float(a0);
        tmom[1][r][c] = float(UNRESIDUE(a1));
        tmom[2][r][c] = float(UNRESIDUE(a2));
        tmom[3][r][c] = float(UNRESIDUE(a3));
        tmom[4][r][c] = float(UNRESIDUE(a4));
    }
    barrier();

    double t_term = 0.0lf, t_l = 0.0lf, t_c = 0.0lf, t_s = 0.0lf;
    const int x = x0 + tx;
    [[unroll]] for (int k = 0; k < HV_ROWS; k++) {
        const int oy = ty + k * WG_Y, y = y0 + oy;
        if (x >= pc.ow || y >= pc.oh)
            continue;
        float m[5];
        [[unroll]] for (int q = 0; q < 5; q++) {
            precise double a = 0.0lf;
            [[unroll]] for (int v = 0; v < GAUSS_LEN; v++) {
                precise float p = tmom[q][oy + v][tx] * GAUSS[v];
                a += q >= 1 ? WIDEN(p) : double(p);
            }
            m[q] = float(q >= 1 ? UNRESIDUE(a) : a);
        }
        double w_term, w_l, w_c, w_s;
        window_terms(m, w_term, w_l, w_c, w_s);
        precise double s0 = t_term + w_term, s1 = t_l + w_l, s2 = t_c + w_c, s3 = t_s + w_s;
        t_term = s0, t_l = s1, t_c = s2, t_s = s3;
    }
    store_partials(t_term, t_l, t_c, t_s);
}
#endif
