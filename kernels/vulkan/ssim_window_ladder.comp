#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// The SSIM window computation of a ladder frame (one reference, several
// distorted pictures), split as kernels/c/ssim_window.c splits it
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
//   PASS_DIS_HV PASS_DIS_H and PASS_DIS_V in one dispatch, the distorted
//               picture's horizontal moments in shared memory: the tiles,
//               the order of the sums and the partials of ssim_window.comp's
//               PASS_HV (the pair's), where the host uses that
//   PASS_LAD_HV PASS_REF and PASS_DIS_HV in one dispatch: a workgroup
//               computes its tile's reference moments (PASS_REF's
//               arithmetic) into registers, then scores every distorted
//               picture of the dispatch in turn (PASS_DIS_HV's tile, terms
//               and partials); no moment planes in device memory, the
//               reference's tile loaded once
// NONNEG (specialization constant 2) as in ssim_window.comp: the squares
// and the cross moment widened with nonneg_f2d() where the samples are +0
// or >= 2^-8 / scale^2 (the widening is exact: the same bits either way).
#include "common.glsl"

// specialization constant 2: bit 0 NONNEG, bits 1-4 SUMS (ssim_terms.glsl)
layout(constant_id = 2) const int WIN_SPEC = 0x1e;
const int NONNEG = WIN_SPEC & 1;
const int SUMS = (WIN_SPEC >> 1) & 15;
#define WIDEN(f) (NONNEG != 0 ? nonneg_f2d(f) : double(f))
#define UNRESIDUE(a) (NONNEG != 0 ? flush_residue(a) : (a))

layout(push_constant) uniform Params {
    int w, h;      // input plane
    int ow, oh;    // valid-mode output: w - 10, h - 10
    // PASS_DIS_HV: distorted picture z of the dispatch (gl_WorkGroupID.z) is
    // at z * s_dis in binding 1, its partials at z * s_part in binding 7;
    // PASS_LAD_HV: so pictures z < nb_dis, all in every workgroup
    int s_dis, s_part, nb_dis;
    RAW_PARAMS; // RAW_BPS: the input is the staged words (level 0, raw.glsl)
} pc;
#if defined(PASS_REF) || defined(PASS_DIS_H) || defined(PASS_DIS_HV) || defined(PASS_LAD_HV)
#include "raw.glsl"
#endif

#ifdef PASS_REF
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 2) writeonly buffer MuX { float mu_x[]; };
layout(std430, binding = 3) writeonly buffer ExX { float ex_x[]; };

// REF_ROWS outputs per invocation, WG_Y rows apart (the host dispatches
// ceil(oh / REF_ROWS) rows: vulkan_plan.c's REF_ROWS): a workgroup's tile
// is REF_ROWS * WG_Y rows of windows, whose horizontal moments (its rows and
// the vertical margin) stay in shared memory; fewer margin rows per window
// than one row per invocation. Every window's arithmetic is the same.
#define REF_ROWS 2
#define REF_IN_H (REF_ROWS * WG_Y + GAUSS_LEN - 1)
shared float hx[REF_IN_H * WG_X], hxx[REF_IN_H * WG_X];

void main()
{
    const int x0 = int(gl_WorkGroupID.x) * WG_X, y0 = int(gl_WorkGroupID.y) * REF_ROWS * WG_Y;
    const int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
    for (int i = int(gl_LocalInvocationIndex); i < REF_IN_H * WG_X; i += WG_X * WG_Y) {
        const int x = x0 + i % WG_X, y = y0 + i / WG_X;
        if (x >= pc.ow || y >= pc.h)
            continue;
        precise double a0 = 0.0lf, a2 = 0.0lf;
        const int base = y * pc.w + x;
        [[unroll]] for (int u = 0; u < GAUSS_LEN; u++) {
            const float k = GAUSS[u];
            const float rv = RAW_BPS != 0 ? raw_f(pc.raw_off0, x + u, y) : ref[base + u];
            precise float rr = rv * rv;
            precise float p0 = rv * k, p2 = rr * k;
            a0 += double(p0);
            a2 += WIDEN(p2);
        }
        hx[i] = float(a0);
        hxx[i] = float(UNRESIDUE(a2));
    }
    barrier();
    const int x = x0 + lx;
    if (x >= pc.ow)
        return;
    [[unroll]] for (int r = 0; r < REF_ROWS; r++) {
        const int oy = ly + r * WG_Y, y = y0 + oy;
        if (y >= pc.oh)
            break;
        precise double a0 = 0.0lf, a2 = 0.0lf;
        [[unroll]] for (int v = 0; v < GAUSS_LEN; v++) {
            precise float p0 = hx[(oy + v) * WG_X + lx] * GAUSS[v];
            precise float p2 = hxx[(oy + v) * WG_X + lx] * GAUSS[v];
            a0 += double(p0);
            a2 += WIDEN(p2);
        }
        mu_x[y * pc.ow + x] = float(a0);
        ex_x[y * pc.ow + x] = float(UNRESIDUE(a2));
    }
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
        const float rv = RAW_BPS != 0 ? raw_f(pc.raw_off0, x + u, y) : ref[base + u];
        const float dv = RAW_BPS != 0 ? raw_f1(pc.raw_off1, x + u, y) : dis[base + u];
        precise float dd = dv * dv, rd = rv * dv;
        precise float p1 = dv * k, p3 = dd * k, p4 = rd * k;
        a1 += double(p1);
        a3 += WIDEN(p3);
        a4 += WIDEN(p4);
    }
    const int o = y * pc.ow + x;
    mom1[o] = float(a1);
    mom3[o] = float(UNRESIDUE(a3));
    mom4[o] = float(UNRESIDUE(a4));
}
#endif

#if defined(PASS_DIS_V) || defined(PASS_DIS_HV) || defined(PASS_LAD_HV)
#ifdef PASS_DIS_HV
#define PARTIAL_BASE (gl_WorkGroupID.z * uint(pc.s_part))
#endif
#ifdef PASS_LAD_HV
int lad_dis; // the distorted picture being scored
#define PARTIAL_BASE (uint(lad_dis) * uint(pc.s_part))
#endif
#include "ssim_terms.glsl"
#endif
#if defined(PASS_DIS_V) || defined(PASS_DIS_HV)
layout(std430, binding = 5) readonly buffer MuX { float mu_x[]; };
layout(std430, binding = 6) readonly buffer ExX { float ex_x[]; };
#endif

#ifdef PASS_DIS_V
layout(std430, binding = 2) readonly buffer M1 { float mom1[]; };
layout(std430, binding = 3) readonly buffer M3 { float mom3[]; };
layout(std430, binding = 4) readonly buffer M4 { float mom4[]; };

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
        m[0] = mu_x[y * pc.ow + x];
        VFILTER(mom1, m[1], false)
        m[2] = ex_x[y * pc.ow + x];
        VFILTER(mom3, m[3], true)
        VFILTER(mom4, m[4], true)
        window_terms(m, t_term, t_l, t_c, t_s);
    }
    store_partials(t_term, t_l, t_c, t_s);
}
#endif

#if defined(PASS_DIS_HV) || defined(PASS_LAD_HV)
// ssim_window.comp's PASS_HV with the reference's moments read from
// PASS_REF's planes (PASS_DIS_HV) or computed by the workgroup
// (PASS_LAD_HV): a workgroup computes a WG_X x (HV_ROWS * WG_Y) tile of
// windows, each invocation HV_ROWS of one column, the horizontal moments
// (y, y*y, x*y) of the tile's rows plus the vertical margin in shared
// memory. Same tiles and order of sums as PASS_HV, so the partials are the
// pair's.
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 1) readonly buffer Dis { float dis[]; };

#define HV_ROWS 2
#define HV_TW 16                           // = WG_X (the host's shape)
#define HV_TH (HV_ROWS * 16)               // = HV_ROWS * WG_Y
#define HV_IN_W (HV_TW + GAUSS_LEN - 1)
#define HV_IN_H (HV_TH + GAUSS_LEN - 1)
shared float tin[2][HV_IN_H][HV_IN_W + 1];
shared float tmom[3][HV_IN_H][HV_TW];

// The tiles of the reference (tin[0], where ref_tile) and of the distorted
// picture at element (or word) zd (tin[1], where dis_tile).
void load_tiles(int x0, int y0, int zd, bool ref_tile, bool dis_tile)
{
    const int lid = int(gl_LocalInvocationIndex);
    if (RAW_BPS != 0) {
        RAW_TILE(tin, HV_IN_W, HV_IN_H, x0, y0, pc.raw_off0, pc.raw_off1 + zd, ref_tile, dis_tile)
    } else {
        for (int i = lid; i < HV_IN_W * HV_IN_H; i += WG_X * WG_Y) {
            const int r = i / HV_IN_W, c = i % HV_IN_W;
            const int gx = x0 + c, gy = y0 + r;
            const bool ok = gx < pc.w && gy < pc.h;
            if (ref_tile)
                tin[0][r][c] = ok ? ref[gy * pc.w + gx] : 0.0;
            if (dis_tile)
                tin[1][r][c] = ok ? dis[zd + gy * pc.w + gx] : 0.0;
        }
    }
}

// the distorted picture's horizontal moments (y, y*y, x*y) of the tile's
// rows into tmom (spec §1.4): double sum of float products, left to right
void dis_moments_h()
{
    const int lid = int(gl_LocalInvocationIndex);
    for (int i = lid; i < HV_TW * HV_IN_H; i += WG_X * WG_Y) {
        const int r = i / HV_TW, c = i % HV_TW;
        precise double a1 = 0.0lf, a3 = 0.0lf, a4 = 0.0lf;
        [[unroll]] for (int u = 0; u < GAUSS_LEN; u++) {
            const float k = GAUSS[u];
            const float rv = tin[0][r][c + u], dv = tin[1][r][c + u];
            precise float dd = dv * dv, rd = rv * dv;
            precise float p1 = dv * k, p3 = dd * k, p4 = rd * k;
            a1 += double(p1);
            a3 += WIDEN(p3);
            a4 += WIDEN(p4);
        }
        tmom[0][r][c] = float(a1);
        tmom[1][r][c] = float(UNRESIDUE(a3));
        tmom[2][r][c] = float(UNRESIDUE(a4));
    }
}

// t_* += the terms of the window in row oy of the tile (column tx), whose
// reference moments are mx and ex, from the vertical filter of tmom
void add_window(int oy, int tx, float mx, float ex, inout double t_term, inout double t_l,
                inout double t_c, inout double t_s)
{
    float m[5];
    m[0] = mx;
    m[2] = ex;
    [[unroll]] for (int q = 0; q < 3; q++) {
        precise double a = 0.0lf;
        [[unroll]] for (int v = 0; v < GAUSS_LEN; v++) {
            precise float p = tmom[q][oy + v][tx] * GAUSS[v];
            a += q >= 1 ? WIDEN(p) : double(p);
        }
        m[q == 0 ? 1 : q + 2] = float(q >= 1 ? UNRESIDUE(a) : a);
    }
    double w_term, w_l, w_c, w_s;
    window_terms(m, w_term, w_l, w_c, w_s);
    precise double s0 = t_term + w_term, s1 = t_l + w_l, s2 = t_c + w_c, s3 = t_s + w_s;
    t_term = s0, t_l = s1, t_c = s2, t_s = s3;
}
#endif

#ifdef PASS_DIS_HV
void main()
{
    const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    const int x0 = int(gl_WorkGroupID.x) * HV_TW, y0 = int(gl_WorkGroupID.y) * HV_TH;
    load_tiles(x0, y0, int(gl_WorkGroupID.z) * pc.s_dis, true, true);
    barrier();
    dis_moments_h();
    barrier();

    double t_term = 0.0lf, t_l = 0.0lf, t_c = 0.0lf, t_s = 0.0lf;
    const int x = x0 + tx;
    [[unroll]] for (int k = 0; k < HV_ROWS; k++) {
        const int oy = ty + k * WG_Y, y = y0 + oy;
        if (x >= pc.ow || y >= pc.oh)
            continue;
        add_window(oy, tx, mu_x[y * pc.ow + x], ex_x[y * pc.ow + x], t_term, t_l, t_c, t_s);
    }
    store_partials(t_term, t_l, t_c, t_s);
}
#endif

#ifdef PASS_LAD_HV
void main()
{
    const int lid = int(gl_LocalInvocationIndex);
    const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    const int x0 = int(gl_WorkGroupID.x) * HV_TW, y0 = int(gl_WorkGroupID.y) * HV_TH;
    const int x = x0 + tx;

    // the reference's tile, once for every picture
    load_tiles(x0, y0, 0, true, false);
    barrier();
    // its horizontal moments x, x*x (PASS_REF's arithmetic)
    for (int i = lid; i < HV_TW * HV_IN_H; i += WG_X * WG_Y) {
        const int r = i / HV_TW, c = i % HV_TW;
        precise double a0 = 0.0lf, a2 = 0.0lf;
        [[unroll]] for (int u = 0; u < GAUSS_LEN; u++) {
            const float k = GAUSS[u];
            const float rv = tin[0][r][c + u];
            precise float rr = rv * rv;
            precise float p0 = rv * k, p2 = rr * k;
            a0 += double(p0);
            a2 += WIDEN(p2);
        }
        tmom[0][r][c] = float(a0);
        tmom[1][r][c] = float(UNRESIDUE(a2));
    }
    barrier();
    // the vertical ones of the invocation's windows, kept for every picture
    float mx[HV_ROWS], ex[HV_ROWS];
    [[unroll]] for (int k = 0; k < HV_ROWS; k++) {
        const int oy = ty + k * WG_Y;
        precise double a0 = 0.0lf, a2 = 0.0lf;
        [[unroll]] for (int v = 0; v < GAUSS_LEN; v++) {
            precise float p0 = tmom[0][oy + v][tx] * GAUSS[v];
            precise float p2 = tmom[1][oy + v][tx] * GAUSS[v];
            a0 += double(p0);
            a2 += WIDEN(p2);
        }
        mx[k] = float(a0);
        ex[k] = float(UNRESIDUE(a2));
    }

    for (lad_dis = 0; lad_dis < pc.nb_dis; lad_dis++) {
        // the first: tmom's reads above end before this barrier; the
        // others: store_partials' barriers end the previous picture's
        load_tiles(x0, y0, lad_dis * pc.s_dis, false, true);
        barrier();
        dis_moments_h();
        barrier();
        double t_term = 0.0lf, t_l = 0.0lf, t_c = 0.0lf, t_s = 0.0lf;
        [[unroll]] for (int k = 0; k < HV_ROWS; k++) {
            const int oy = ty + k * WG_Y, y = y0 + oy;
            if (x >= pc.ow || y >= pc.oh)
                continue;
            add_window(oy, tx, mx[k], ex[k], t_term, t_l, t_c, t_s);
        }
        store_partials(t_term, t_l, t_c, t_s);
    }
}
#endif
