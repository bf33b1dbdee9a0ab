#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// Integer SSIM (spec §4), as in kernels/c/issim_tmpl.c:
//   PASS_H  a pair: horizontal 9-tap moments per pixel, taps outside the row
//           skipped (truncation), to five planes
//   PASS_V  a pair: vertical moments with truncation, the per-pixel double
//           term with the reference's grouping, one partial sum per
//           workgroup (fixed tree)
//   PASS_HV a ladder (one reference, nb_dis distorted pictures), one
//           dispatch: a workgroup's horizontal moments in shared memory
//           (samples outside the plane are 0, which skips their taps), the
//           reference's (x, x*x) once, then each distorted picture's
//           (y, x*y, y*y) in turn, and PASS_V's vertical pass, terms and
//           tree on them. Every pixel has the same invocation, workgroup and
//           tree as in PASS_V, so a ladder's partials equal a pair's bit for
//           bit.
// The weight sum does not depend on the pixels: the host computes it once,
// exactly. Raw samples are recovered exactly from the unpacked float plane:
// v = f * scaler.
// NARROW (depths up to 12 bits): the horizontal moments are exact in uint32
// (256 * 4095^2 < 2^32), as in the C reference, which halves their traffic.
// NARROW8 (8 bits): the vertical sums are too (65536 * 255^2 < 2^32), which
// spares the 64-bit multiply-adds, and the pair's x and y moments (below
// 256 * 255 < 2^16) share one plane, a fifth less traffic.
#include "common.glsl"

#ifdef NARROW
#define HMOM uint
#else
#define HMOM int64_t
#endif
#ifdef NARROW8
#define VSUM uint
#else
#define VSUM int64_t
#endif

layout(push_constant) uniform Params {
    double c1base, c2base; // samplemax^2 * (0.01*0.01), * (0.03*0.03), computed in C
    int w, h;
    float scaler;
#ifdef LADDER
    // PASS_HV: distorted picture k < nb_dis at k * s_in (binding 1), its
    // partials at k * s_part (binding 7)
    int s_in, s_part, nb_dis;
#endif
} pc;

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

// The workgroup's partial: a fixed tree over its invocations, in lid order,
// stored at base + the workgroup's index.
void store_partial(double my_term, uint base)
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
        partial[base + gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = red[0];
}

// The weight of the taps inside [0, n) around i: their sum, 256 (spec
// §4.2), away from the edges. Integer additions only, so the same either
// way; the shortcut spares the loop almost everywhere.
#define ISSIM_TAPS_SUM 256
int edge_weight(int i, int n)
{
    if (i >= R && i + R < n)
        return ISSIM_TAPS_SUM;
    int wsum = 0;
    [[unroll]] for (int k = 0; k < ISSIM_LEN; k++)
        if (i + k - R >= 0 && i + k - R < n)
            wsum += ISSIM_TAPS[k];
    return wsum;
}

// The pixel's weight M.w: horizontal weight times vertical weight.
int64_t issim_weight(int x, int y)
{
    return int64_t(edge_weight(x, pc.w)) * int64_t(edge_weight(y, pc.h));
}

#ifdef PASS_H
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 1) readonly buffer Dis { float dis[]; };
// the five horizontal moment planes (x, y, x*x, x*y, y*y), w x h each
layout(std430, binding = 2) writeonly buffer M0 { HMOM mom0[]; };
layout(std430, binding = 3) writeonly buffer M1 { HMOM mom1[]; };
layout(std430, binding = 4) writeonly buffer M2 { HMOM mom2[]; };
layout(std430, binding = 5) writeonly buffer M3 { HMOM mom3[]; };
layout(std430, binding = 6) writeonly buffer M4 { HMOM mom4[]; };

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= pc.w || y >= pc.h)
        return;
    HMOM a0 = HMOM(0), a1 = HMOM(0), a2 = HMOM(0), a3 = HMOM(0), a4 = HMOM(0);
    [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
        const int xx = x + k - R;
        if (xx < 0 || xx >= pc.w)
            continue;
        const HMOM wk = HMOM(ISSIM_TAPS[k]);
        const HMOM s = HMOM(ref[y * pc.w + xx] * pc.scaler);
        const HMOM t = HMOM(dis[y * pc.w + xx] * pc.scaler);
        a0 += wk * s;
        a1 += wk * t;
        a2 += wk * s * s;
        a3 += wk * s * t;
        a4 += wk * t * t;
    }
    const int o = y * pc.w + x;
#ifdef NARROW8
    mom0[o] = a0 | (a1 << 16); /* both below 256 * 255 < 2^16: plane 1 unused */
#else
    mom0[o] = a0;
    mom1[o] = a1;
#endif
    mom2[o] = a2;
    mom3[o] = a3;
    mom4[o] = a4;
}
#endif

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
        VSUM mux = VSUM(0), muy = VSUM(0), mx2 = VSUM(0), mxy = VSUM(0), my2 = VSUM(0);
        [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
            const int yy = y + k - R;
            if (yy < 0 || yy >= pc.h)
                continue;
            const VSUM wk = VSUM(ISSIM_TAPS[k]);
            const int o = yy * pc.w + x;
#ifdef NARROW8
            const uint m01 = mom0[o];
            mux += wk * (m01 & 0xffffu);
            muy += wk * (m01 >> 16);
#else
            mux += wk * VSUM(mom0[o]);
            muy += wk * VSUM(mom1[o]);
#endif
            mx2 += wk * VSUM(mom2[o]);
            mxy += wk * VSUM(mom3[o]);
            my2 += wk * VSUM(mom4[o]);
        }
        my_term = issim_term(int64_t(mux), int64_t(muy), int64_t(mx2), int64_t(mxy),
                             int64_t(my2), issim_weight(x, y));
    }
    store_partial(my_term, 0u);
}
#endif

#ifdef PASS_HV
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 1) readonly buffer Dis { float dis[]; };

// the workgroup's samples (its WG_X x WG_Y pixels and R around them, 0
// outside the plane; 0: the reference, 1: the distorted picture) and the
// horizontal moments of its rows (x, y, x*x, x*y, y*y)
#define TIN_W (WG_X + 2 * R)
#define TIN_H (WG_Y + 2 * R)
shared uint tin[2][TIN_H][TIN_W + 1];
shared HMOM hm[5][TIN_H][WG_X];

// tin[side] from the float plane at `base` (the reference: side 0)
void load_tile(int side, int base)
{
    const int x0 = int(gl_WorkGroupID.x) * WG_X, y0 = int(gl_WorkGroupID.y) * WG_Y;
    for (int i = int(gl_LocalInvocationIndex); i < TIN_W * TIN_H; i += WG_X * WG_Y) {
        const int r = i / TIN_W, c = i % TIN_W;
        const int gx = x0 + c - R, gy = y0 + r - R;
        uint v = 0u;
        if (gx >= 0 && gx < pc.w && gy >= 0 && gy < pc.h)
            v = uint((side == 0 ? ref[gy * pc.w + gx] : dis[base + gy * pc.w + gx]) * pc.scaler);
        tin[side][r][c] = v;
    }
}

// Horizontal moments of the tile's rows: the reference's (x, x*x: REF) or
// the distorted picture's with the cross term (y, x*y, y*y: DIS).
#define HM_REF 1
#define HM_DIS 2
void hmoments(int which)
{
    for (int i = int(gl_LocalInvocationIndex); i < WG_X * TIN_H; i += WG_X * WG_Y) {
        const int r = i / WG_X, c = i % WG_X;
        HMOM a0 = HMOM(0), a1 = HMOM(0), a2 = HMOM(0), a3 = HMOM(0), a4 = HMOM(0);
        [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
            const HMOM wk = HMOM(ISSIM_TAPS[k]);
            const HMOM s = HMOM(tin[0][r][c + k]);
            const HMOM t = HMOM(tin[1][r][c + k]);
            if ((which & HM_REF) != 0) {
                a0 += wk * s;
                a2 += wk * s * s;
            }
            if ((which & HM_DIS) != 0) {
                a1 += wk * t;
                a3 += wk * s * t;
                a4 += wk * t * t;
            }
        }
        if ((which & HM_REF) != 0) {
            hm[0][r][c] = a0;
            hm[2][r][c] = a2;
        }
        if ((which & HM_DIS) != 0) {
            hm[1][r][c] = a1;
            hm[3][r][c] = a3;
            hm[4][r][c] = a4;
        }
    }
}

// The vertical sum of moment plane q at this invocation's pixel (rows
// outside the plane skipped).
int64_t vmoment(int q)
{
    const int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
    const int y = int(gl_GlobalInvocationID.y);
    VSUM m = VSUM(0);
    [[unroll]] for (int k = 0; k < ISSIM_LEN; k++)
        if (y + k - R >= 0 && y + k - R < pc.h)
            m += VSUM(ISSIM_TAPS[k]) * VSUM(hm[q][ly + k][lx]);
    return int64_t(m);
}

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    const bool inside = x < pc.w && y < pc.h;
    const int64_t mw = issim_weight(x, y);
    load_tile(0, 0);
    barrier();
    hmoments(HM_REF);
    barrier();
    const int64_t mux = vmoment(0), mx2 = vmoment(2);
    for (int k = 0; k < pc.nb_dis; k++) {
        // the previous picture's tile, moments and tree are done with
        barrier();
        load_tile(1, k * pc.s_in);
        barrier();
        hmoments(HM_DIS);
        barrier();
        double my_term = 0.0lf;
        if (inside)
            my_term = issim_term(mux, vmoment(1), mx2, vmoment(3), vmoment(4), mw);
        store_partial(my_term, uint(k * pc.s_part));
    }
}
#endif
