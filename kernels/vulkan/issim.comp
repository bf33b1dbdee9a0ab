#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// Integer SSIM (spec §4), as in kernels/c/issim_tmpl.c:
//   PASS_HV a pair: one workgroup's WG_X x WG_Y pixels. The horizontal 9-tap
//           moments of its rows (and the 4 rows above and below) in shared
//           memory, taps outside the row skipped (truncation; samples
//           outside the plane are 0, which skips them), exact integers;
//           then PASS_V's vertical moments, terms and partial sum from them.
//   PASS_V  (a ladder frame: LADDER; the horizontal moments come from
//           issim_ladder.comp's planes) vertical moments with truncation,
//           the per-pixel double term with the reference's grouping, one
//           partial sum per workgroup (fixed tree).
// Both passes give each pixel the same invocation of the same workgroup
// and the same tree, so a ladder's partials equal a pair's bit for bit.
// The weight sum does not depend on the pixels: the host computes it once,
// exactly.
// Raw samples are recovered exactly from the unpacked float plane: v = f * scaler.
// NARROW (depths up to 12 bits): the horizontal moments are exact in uint32
// (256 * 4095^2 < 2^32), as in the C reference, which halves their traffic.
#include "common.glsl"

#ifdef NARROW
#define HMOM uint
#else
#define HMOM int64_t
#endif

layout(push_constant) uniform Params {
    double c1base, c2base; // samplemax^2 * (0.01*0.01), * (0.03*0.03), computed in C
    int w, h;
    float scaler;
#ifdef LADDER
    // PASS_V of a ladder frame: distorted picture z of the dispatch
    // (gl_WorkGroupID.z) has its moments (bindings 3, 5, 6) at z * s_mom, its
    // partials at z * s_part; the reference's (2, 4) are shared
    int s_in, s_mom, s_part;
#endif
} pc;

#ifdef LADDER
#define Z_MOM (int(gl_WorkGroupID.z) * pc.s_mom)
#define Z_PART (gl_WorkGroupID.z * uint(pc.s_part))
#else
#define Z_MOM 0
#define Z_PART 0u
#endif

#define R (ISSIM_LEN / 2)
layout(std430, binding = 7) writeonly buffer Partials { double partial[]; };

shared double red[WG_X * WG_Y];

// One pixel's term (spec §4.5) from its vertical moments and weight.
double issim_term(int64_t mux, int64_t muy, int64_t mx2, int64_t mxy, int64_t my2, int64_t mw)
{
    precise double W = double(mw);
    precise double c1 = pc.c1base * W * W;
    precise double c2 = pc.c2base * W * W;
    precise double mx2d = double(mux) * double(mux);
    precise double mxyd = double(mux) * double(muy);
    precise double my2d = double(muy) * double(muy);
    precise double A = 2.0lf * mxyd + c1;
    precise double B = c2 + 2.0lf * (double(mxy) * W - mxyd);
    precise double D =
        (mx2d + my2d + c1) * (double(mx2) * W - mx2d + double(my2) * W - my2d + c2);
    precise double term = double(mw) * A * B / D;
    return term;
}

// The workgroup's partial: a fixed tree over its invocations, in lid order.
void store_partial(double my_term)
{
    const uint lid = gl_LocalInvocationIndex;
    red[lid] = my_term;
    barrier();
    for (uint stride = uint(WG_X * WG_Y) / 2u; stride > 0u; stride >>= 1) {
        if (lid < stride) {
            precise double sum = red[lid] + red[lid + stride];
            red[lid] = sum;
        }
        barrier();
    }
    if (lid == 0u)
        partial[Z_PART + gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = red[0];
}

// The horizontal weight of column x: the taps inside the row.
int64_t issim_hweight(int x)
{
    int64_t hw = 0;
    [[unroll]] for (int k = 0; k < ISSIM_LEN; k++)
        if (x + k - R >= 0 && x + k - R < pc.w)
            hw += int64_t(ISSIM_TAPS[k]);
    return hw;
}

#ifdef PASS_V
layout(std430, binding = 2) readonly buffer M0 { HMOM mom0[]; };
layout(std430, binding = 3) readonly buffer M1 { HMOM mom1[]; };
layout(std430, binding = 4) readonly buffer M2 { HMOM mom2[]; };
layout(std430, binding = 5) readonly buffer M3 { HMOM mom3[]; };
layout(std430, binding = 6) readonly buffer M4 { HMOM mom4[]; };

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    double my_term = 0.0lf;

    if (x < pc.w && y < pc.h) {
        int64_t mux = 0, muy = 0, mx2 = 0, mxy = 0, my2 = 0, vw = 0;
        [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
            const int yy = y + k - R;
            if (yy < 0 || yy >= pc.h)
                continue;
            const int64_t wk = int64_t(ISSIM_TAPS[k]);
            const int o = yy * pc.w + x;
            mux += wk * int64_t(mom0[o]);
            muy += wk * int64_t(mom1[Z_MOM + o]);
            mx2 += wk * int64_t(mom2[o]);
            mxy += wk * int64_t(mom3[Z_MOM + o]);
            my2 += wk * int64_t(mom4[Z_MOM + o]);
            vw += wk;
        }
        my_term = issim_term(mux, muy, mx2, mxy, my2, vw * issim_hweight(x));
    }
    store_partial(my_term);
}
#endif

#ifdef PASS_HV
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 1) readonly buffer Dis { float dis[]; };

// the workgroup's samples (its WG_X x WG_Y pixels and R around them, 0
// outside the plane) and the horizontal moments of its rows
#define TIN_W (WG_X + 2 * R)
#define TIN_H (WG_Y + 2 * R)
shared uint tin[2][TIN_H][TIN_W + 1];
shared HMOM hm[5][TIN_H][WG_X];

void main()
{
    const int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
    const int lid = int(gl_LocalInvocationIndex);
    const int x0 = int(gl_WorkGroupID.x) * WG_X, y0 = int(gl_WorkGroupID.y) * WG_Y;
    for (int i = lid; i < TIN_W * TIN_H; i += WG_X * WG_Y) {
        const int r = i / TIN_W, c = i % TIN_W;
        const int gx = x0 + c - R, gy = y0 + r - R;
        uint s = 0u, t = 0u;
        if (gx >= 0 && gx < pc.w && gy >= 0 && gy < pc.h) {
            s = uint(ref[gy * pc.w + gx] * pc.scaler);
            t = uint(dis[gy * pc.w + gx] * pc.scaler);
        }
        tin[0][r][c] = s;
        tin[1][r][c] = t;
    }
    barrier();
    for (int i = lid; i < WG_X * TIN_H; i += WG_X * WG_Y) {
        const int r = i / WG_X, c = i % WG_X;
        HMOM a0 = HMOM(0), a1 = HMOM(0), a2 = HMOM(0), a3 = HMOM(0), a4 = HMOM(0);
        [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
            const HMOM wk = HMOM(ISSIM_TAPS[k]);
            const HMOM s = HMOM(tin[0][r][c + k]);
            const HMOM t = HMOM(tin[1][r][c + k]);
            a0 += wk * s;
            a1 += wk * t;
            a2 += wk * s * s;
            a3 += wk * s * t;
            a4 += wk * t * t;
        }
        hm[0][r][c] = a0;
        hm[1][r][c] = a1;
        hm[2][r][c] = a2;
        hm[3][r][c] = a3;
        hm[4][r][c] = a4;
    }
    barrier();

    const int x = x0 + lx, y = y0 + ly;
    double my_term = 0.0lf;
    if (x < pc.w && y < pc.h) {
        int64_t mux = 0, muy = 0, mx2 = 0, mxy = 0, my2 = 0, vw = 0;
        [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
            const int yy = y + k - R;
            if (yy < 0 || yy >= pc.h)
                continue;
            const int64_t wk = int64_t(ISSIM_TAPS[k]);
            mux += wk * int64_t(hm[0][ly + k][lx]);
            muy += wk * int64_t(hm[1][ly + k][lx]);
            mx2 += wk * int64_t(hm[2][ly + k][lx]);
            mxy += wk * int64_t(hm[3][ly + k][lx]);
            my2 += wk * int64_t(hm[4][ly + k][lx]);
            vw += wk;
        }
        my_term = issim_term(mux, muy, mx2, mxy, my2, vw * issim_hweight(x));
    }
    store_partial(my_term);
}
#endif
