#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// Integer SSIM (spec §4), as in kernels/c/issim_tmpl.c, in two passes (at
// 8 bits both in one, PASS_HV, below, where the device has the shared
// memory):
//   PASS_H  horizontal 9-tap moments per pixel, taps outside the row
//           skipped (truncation), to moment planes
//   PASS_V  vertical moments with truncation, the per-pixel double term
//           with the reference's grouping, one partial sum per workgroup
//           (fixed tree)
// A pair writes and reads five planes (x, y, x*x, x*y, y*y). A ladder
// (LADDER: one reference, nb_dis distorted pictures) computes the
// reference's x and x*x once per invocation, in both passes, and each
// distorted picture's y, x*y and y*y in turn, its planes at k * s_mom; its
// PASS_V scores every pixel in the invocation, workgroup and tree of the
// pair's PASS_V, so a ladder's partials equal a pair's bit for bit.
// The weight sum does not depend on the pixels: the host computes it once,
// exactly. The samples are read from the pictures' staged words (raw.glsl).
// NARROW (depths up to 12 bits): the horizontal moments are exact in uint32
// (256 * 4095^2 < 2^32), as in the C reference, which halves their traffic.
// NARROW8 (8 bits): the vertical sums are too (65536 * 255^2 < 2^32), which
// spares the 64-bit multiply-adds, and a pair's x and y moments (below
// 256 * 255 < 2^16) share one plane, a fifth less traffic.
// RPT: PASS_V scores RPT vertically adjacent pixels per invocation (a
// workgroup covers WG_X x RPT * WG_Y pixels): they share all but one of
// their moment rows (read once) and one tree. The host's grid follows
// (vulkan_plan.c's ISSIM_RPT).
#include "common.glsl"

#define RPT 2

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
#ifdef LADDER
    // distorted picture k < nb_dis: its samples at k * s_in (binding 1),
    // its moment planes at k * s_mom (bindings 3, 5, 6), its partials at
    // k * s_part (binding 7)
    int s_in, s_mom, s_part, nb_dis;
#endif
    RAW_PARAMS; // RAW_BPS: the samples are the staged words (raw.glsl)
} pc;
#if defined(PASS_H) || defined(PASS_HV)
#include "raw.glsl"
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

// The workgroup's partial: a fixed tree over its invocations, in lid order,
// stored at element idx.
void store_partial(double my_term, uint idx)
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
        partial[idx] = red[0];
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

// acc += the terms of the invocation's pixels (x, y0 + j) from their
// vertical sums mux[j] .. my2[j], top to bottom; then the tree. The pair
// (PASS_V and PASS_HV) and the ladder alike, so that their partials match.
#define ADD_TERMS(acc)                                                      \
    [[unroll]] for (int j = 0; j < RPT; j++) {                              \
        if (y0 + j >= pc.h)                                                 \
            continue;                                                       \
        precise double t = acc + issim_term(int64_t(mux[j]), int64_t(muy[j]), \
                                            int64_t(mx2[j]), int64_t(mxy[j]), \
                                            int64_t(my2[j]), issim_weight(x, y0 + j)); \
        acc = t;                                                            \
    }

// The workgroup's index in its dispatch (a pair's partial, or a ladder
// picture's from its base)
uint wg_index()
{
    return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

#if defined(PASS_H) || defined(PASS_HV)
// H_N horizontally adjacent pixels per invocation (the host dispatches
// ceil(w / H_N) columns: vulkan_plan.c's ISSIM_H_N): their H_N + 2R samples
// are loaded once, as whole staged words where the row's samples fill them
// (LOAD_SAMPLES), and their moments leave as vectors (PASS_HV: to shared
// memory).
#define H_N 4
#define H_IN (H_N + 2 * R)
#if (2 * R) % 4 != 0
#error "the word loads take the margins as whole words"
#endif
#ifdef PASS_H
// the five horizontal moment planes (x, y, x*x, x*y, y*y), w x h each (a
// ladder: x and x*x the reference's, the others each distorted picture's)
layout(std430, binding = 2) writeonly buffer M0 { HMOM mom0[]; };
layout(std430, binding = 3) writeonly buffer M1 { HMOM mom1[]; };
layout(std430, binding = 4) writeonly buffer M2 { HMOM mom2[]; };
layout(std430, binding = 5) writeonly buffer M3 { HMOM mom3[]; };
layout(std430, binding = 6) writeonly buffer M4 { HMOM mom4[]; };
#ifdef NARROW
layout(std430, binding = 2) writeonly buffer M0v { uvec4 mom0v[]; };
layout(std430, binding = 3) writeonly buffer M1v { uvec4 mom1v[]; };
layout(std430, binding = 4) writeonly buffer M2v { uvec4 mom2v[]; };
layout(std430, binding = 5) writeonly buffer M3v { uvec4 mom3v[]; };
layout(std430, binding = 6) writeonly buffer M4v { uvec4 mom4v[]; };
#endif
#endif

// The samples x0 - R .. x0 + H_N - 1 + R of row y of the plane at staged
// word OFF of WORDS (raw.glsl) into v; 0 outside the row, whose taps then
// add nothing (the reference skips them: the same integer sums). A word
// (RAW_SPW samples) at a time where the row's samples fill whole words
// (vec: its width is a multiple of 4, and x0 is one too) from a word's
// first.
#define LOAD_SAMPLES(v, WORDS, OFF)                                         \
    if (vec && raw_words_from(0)) {                                         \
        [[unroll]] for (int q = 0; q < H_IN / RAW_SPW; q++) {               \
            const int xx = x0 - R + RAW_SPW * q;                            \
            uint wd = 0u;                                                   \
            if (xx >= 0 && xx < pc.w)                                       \
                wd = WORDS[raw_word(OFF, xx, y)];                           \
            [[unroll]] for (int k = 0; k < RAW_SPW; k++)                    \
                v[RAW_SPW * q + k] = raw_sample(wd, xx + k);                \
        }                                                                   \
    } else {                                                                \
        [[unroll]] for (int k = 0; k < H_IN; k++) {                         \
            const int xx = x0 - R + k;                                      \
            v[k] = xx >= 0 && xx < pc.w ? raw_sample(WORDS[raw_word(OFF, xx, y)], xx) : 0u; \
        }                                                                   \
    }
// H_N moments a[] to plane MOM from element o (a vector where vec holds)
#ifdef NARROW
#define STORE_MOMS(MOM, MOMV, o, a)                                         \
    if (vec) {                                                              \
        MOMV[(o) >> 2] = uvec4(a[0], a[1], a[2], a[3]);                     \
    } else {                                                                \
        [[unroll]] for (int j = 0; j < H_N; j++)                            \
            if (x0 + j < pc.w)                                              \
                MOM[(o) + j] = a[j];                                        \
    }
#else
#define STORE_MOMS(MOM, MOMV, o, a)                                         \
    [[unroll]] for (int j = 0; j < H_N; j++)                                \
        if (x0 + j < pc.w)                                                  \
            MOM[(o) + j] = a[j];
#endif

#ifdef LADDER
// A ladder's horizontal moments of pixels x0 + j, j < H_N, from their
// samples x0 - R .. x0 + H_N - 1 + R: the reference's x and x*x (samples s),
// a distorted picture's y, x*y and y*y (samples t). PASS_H and PASS_HV.
void ref_moments(const uint s[H_IN], out HMOM a0[H_N], out HMOM a2[H_N])
{
    [[unroll]] for (int j = 0; j < H_N; j++) {
        a0[j] = a2[j] = HMOM(0);
        [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
            const HMOM wk = HMOM(ISSIM_TAPS[k]), sv = HMOM(s[j + k]);
            a0[j] += wk * sv;
            a2[j] += wk * sv * sv;
        }
    }
}

void dis_moments(const uint s[H_IN], const uint t[H_IN], out HMOM a1[H_N], out HMOM a3[H_N],
                 out HMOM a4[H_N])
{
    [[unroll]] for (int j = 0; j < H_N; j++) {
        a1[j] = a3[j] = a4[j] = HMOM(0);
        [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
            const HMOM wk = HMOM(ISSIM_TAPS[k]);
            const HMOM sv = HMOM(s[j + k]), tv = HMOM(t[j + k]);
            a1[j] += wk * tv;
            a3[j] += wk * sv * tv;
            a4[j] += wk * tv * tv;
        }
    }
}

#ifdef PASS_H
// The reference's samples, x and x*x once; each distorted picture's
// samples (at k * s_in), y, x*y and y*y (to k * s_mom) in turn.
void main()
{
    const int x0 = H_N * int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x0 >= pc.w || y >= pc.h)
        return;
    const bool vec = (pc.w & 3) == 0; // then x0 and every row start are multiples of 4
    const int row = y * pc.w, o = row + x0;
    uint s[H_IN], t[H_IN];
    LOAD_SAMPLES(s, raw_words, pc.raw_off0)
    HMOM a0[H_N], a1[H_N], a2[H_N], a3[H_N], a4[H_N];
    ref_moments(s, a0, a2);
    STORE_MOMS(mom0, mom0v, o, a0)
    STORE_MOMS(mom2, mom2v, o, a2)
    for (int d = 0; d < pc.nb_dis; d++) {
        LOAD_SAMPLES(t, raw_words1, pc.raw_off1 + d * pc.s_in)
        dis_moments(s, t, a1, a3, a4);
        const int od = d * pc.s_mom + o;
        STORE_MOMS(mom1, mom1v, od, a1)
        STORE_MOMS(mom3, mom3v, od, a3)
        STORE_MOMS(mom4, mom4v, od, a4)
    }
}
#endif
#else
// The horizontal moments of a pair's pixels (x0 + j, y), j < H_N, its
// samples read as LOAD_SAMPLES reads them (vec: the width is a multiple of
// 4, and so is x0). The loads are written out rather than through
// LOAD_SAMPLES: both pictures' words under one test. Through the macros
// (and the stores through STORE_MOMS) PASS_H measured slower on an H200
// (integer SSIM 2160p 8-bit 0.167 -> 0.172 ms, from float planes).
void pair_moments(int y, int x0, bool vec, out HMOM a0[H_N], out HMOM a1[H_N],
                  out HMOM a2[H_N], out HMOM a3[H_N], out HMOM a4[H_N])
{
    // samples x0 - R .. x0 + H_N - 1 + R; 0 outside the row, whose taps
    // then add nothing (the reference skips them: the same integer sums)
    uint s[H_IN], t[H_IN];
    if (vec && raw_words_from(0)) {
        [[unroll]] for (int q = 0; q < H_IN / RAW_SPW; q++) {
            const int xx = x0 - R + RAW_SPW * q;
            uint a = 0u, b = 0u;
            if (xx >= 0 && xx < pc.w) {
                a = raw_words[raw_word(pc.raw_off0, xx, y)];
                b = raw_words1[raw_word(pc.raw_off1, xx, y)];
            }
            [[unroll]] for (int k = 0; k < RAW_SPW; k++) {
                s[RAW_SPW * q + k] = raw_sample(a, xx + k);
                t[RAW_SPW * q + k] = raw_sample(b, xx + k);
            }
        }
    } else {
        [[unroll]] for (int k = 0; k < H_IN; k++) {
            const int xx = x0 - R + k;
            const bool in_row = xx >= 0 && xx < pc.w;
            s[k] = in_row ? raw_u(pc.raw_off0, xx, y) : 0u;
            t[k] = in_row ? raw_u1(pc.raw_off1, xx, y) : 0u;
        }
    }
    [[unroll]] for (int j = 0; j < H_N; j++) {
        a0[j] = a1[j] = a2[j] = a3[j] = a4[j] = HMOM(0);
        [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
            const HMOM wk = HMOM(ISSIM_TAPS[k]);
            const HMOM sv = HMOM(s[j + k]), tv = HMOM(t[j + k]);
            a0[j] += wk * sv;
            a1[j] += wk * tv;
            a2[j] += wk * sv * sv;
            a3[j] += wk * sv * tv;
            a4[j] += wk * tv * tv;
        }
    }
#ifdef NARROW8
    /* x and y both below 256 * 255 < 2^16: one moment (a1 unused) */
    [[unroll]] for (int j = 0; j < H_N; j++)
        a0[j] |= a1[j] << 16;
#endif
}

#ifdef PASS_H
void main()
{
    const int x0 = H_N * int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x0 >= pc.w || y >= pc.h)
        return;
    const bool vec = (pc.w & 3) == 0; // then x0 and every row start are multiples of 4
    const int row = y * pc.w, o = row + x0;
    HMOM a0[H_N], a1[H_N], a2[H_N], a3[H_N], a4[H_N];
    pair_moments(y, x0, vec, a0, a1, a2, a3, a4);
#ifdef NARROW
    if (vec) {
        mom0v[o >> 2] = uvec4(a0[0], a0[1], a0[2], a0[3]);
#ifndef NARROW8
        mom1v[o >> 2] = uvec4(a1[0], a1[1], a1[2], a1[3]);
#endif
        mom2v[o >> 2] = uvec4(a2[0], a2[1], a2[2], a2[3]);
        mom3v[o >> 2] = uvec4(a3[0], a3[1], a3[2], a3[3]);
        mom4v[o >> 2] = uvec4(a4[0], a4[1], a4[2], a4[3]);
        return;
    }
#endif
    [[unroll]] for (int j = 0; j < H_N; j++) {
        if (x0 + j >= pc.w)
            break;
        mom0[o + j] = a0[j];
#ifndef NARROW8
        mom1[o + j] = a1[j];
#endif
        mom2[o + j] = a2[j];
        mom3[o + j] = a3[j];
        mom4[o + j] = a4[j];
    }
}
#endif
#endif
#endif

#ifdef PASS_HV
// Both passes in one, 8 bits: the horizontal moments go to shared memory,
// not through planes in device memory (a pair's x and y packed as in
// PASS_H; the host checks the device's shared memory: vulkan_plan.c's
// ISSIM_HV_SHARED).
// A pair's workgroup scores HV_STRIP tiles one below the other, each a tile
// of PASS_V (T_W x T_H pixels) with PASS_V's invocations, pixels, term
// order, tree and partial index, so the partials are PASS_V's (and a
// ladder's) bit for bit. The moment rows live in a ring of HV_RING rows: a
// tile needs T_H + 2R, the first tile of the strip computes them all, every
// next one its T_H new rows (the 2R it shares with the tile above stay).
// Rows outside the picture hold 0, which adds nothing to the vertical sums
// (PASS_V skips them: the same integers). The host's grid: vulkan_plan.c's
// ISSIM_HV_STRIP.
// Above 8 bits the pair and the ladder keep PASS_H + PASS_V: a 10-bit
// pair in one dispatch was faster (H200, 2160p, all four 1.003 -> 0.947
// ms), but the ladder's one-dispatch form was not (its tiles recompute
// every picture's margin rows), which took a ladder of 4 to 3.10x its pair
// (BENCHMARKS.md).
#ifndef NARROW8
#error "PASS_HV keeps 8-bit moments (NARROW8) in shared memory"
#endif
// specialization constant 2: the tiles of a workgroup (the host's ISSIM_HV_STRIP)
layout(constant_id = 2) const int HV_STRIP = 4;
#define T_W 32                // = WG_X, the host's ROW_WX
#define T_H (RPT * 8)         // = RPT * WG_Y, the host's ISSIM_RPT * ROW_WY
#define HV_RING 32            // >= T_H + 2R, a power of 2
#define HV_PITCH (T_W + 1)    // a warp's stores (8 groups of H_N columns x 4 rows) on 32 banks
#define HV_GROUPS (T_W / H_N) // column groups of a moment row

#ifdef LADDER
// A ladder's workgroup scores one tile of PASS_V for each distorted picture
// (at k * s_in), with PASS_V's invocations, pixels, term order, tree and
// partial index (picture k's at k * s_part): bit for bit a pair's. Its
// T_H + 2R moment rows: the reference's x and x*x once, then each picture's
// y, x*y and y*y over the same rows. (A pair's strips, with the
// reference's strip moments kept and a ring per picture, measured slower:
// BENCHMARKS.md.)
#define HV_ROWS_L (T_H + 2 * R)
shared uint hm[5][HV_ROWS_L][HV_PITCH]; // x, x*x, then the picture's y, x*y, y*y

// OUT[j]: the vertical sum at pixel (x, y0 + j), j < RPT, of shared plane P
// (its rows outside the picture hold 0)
#define HV_VSUMS(OUT, P)                                                    \
    [[unroll]] for (int j = 0; j < RPT; j++)                                \
        OUT[j] = VSUM(0);                                                   \
    [[unroll]] for (int k = 0; k < ISSIM_LEN + RPT - 1; k++) {              \
        const VSUM m = VSUM(hm[P][ty * RPT + k][tx]);                       \
        [[unroll]] for (int j = 0; j < RPT; j++)                            \
            if (k - j >= 0 && k - j < ISSIM_LEN)                            \
                OUT[j] += VSUM(ISSIM_TAPS[k - j]) * m;                      \
    }

void main()
{
    const int lid = int(gl_LocalInvocationIndex);
    const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    const int xt = int(gl_WorkGroupID.x) * T_W, yt = int(gl_WorkGroupID.y) * T_H;
    const bool vec = (pc.w & 3) == 0; // then every row start and group is a multiple of 4
    // the reference's moments of rows yt - R .. yt + T_H - 1 + R
    for (int i = lid; i < HV_ROWS_L * HV_GROUPS; i += WG_X * WG_Y) {
        const int r = i / HV_GROUPS, c = (i % HV_GROUPS) * H_N;
        const int y = yt - R + r, x0 = xt + c;
        HMOM a0[H_N], a2[H_N];
        if (y >= 0 && y < pc.h && x0 < pc.w) {
            uint s[H_IN];
            LOAD_SAMPLES(s, raw_words, pc.raw_off0)
            ref_moments(s, a0, a2);
        } else {
            [[unroll]] for (int j = 0; j < H_N; j++)
                a0[j] = a2[j] = HMOM(0);
        }
        [[unroll]] for (int j = 0; j < H_N; j++) {
            hm[0][r][c + j] = a0[j];
            hm[1][r][c + j] = a2[j];
        }
    }
    const int x = xt + tx, y0 = yt + ty * RPT;
    const bool inside = x < pc.w && y0 < pc.h;
    VSUM mux[RPT], muy[RPT], mx2[RPT], mxy[RPT], my2[RPT];
    for (int d = 0; d < pc.nb_dis; d++) {
        for (int i = lid; i < HV_ROWS_L * HV_GROUPS; i += WG_X * WG_Y) {
            const int r = i / HV_GROUPS, c = (i % HV_GROUPS) * H_N;
            const int y = yt - R + r, x0 = xt + c;
            HMOM a1[H_N], a3[H_N], a4[H_N];
            if (y >= 0 && y < pc.h && x0 < pc.w) {
                uint s[H_IN], t[H_IN];
                LOAD_SAMPLES(s, raw_words, pc.raw_off0)
                LOAD_SAMPLES(t, raw_words1, pc.raw_off1 + d * pc.s_in)
                dis_moments(s, t, a1, a3, a4);
            } else {
                [[unroll]] for (int j = 0; j < H_N; j++)
                    a1[j] = a3[j] = a4[j] = HMOM(0);
            }
            [[unroll]] for (int j = 0; j < H_N; j++) {
                hm[2][r][c + j] = a1[j];
                hm[3][r][c + j] = a3[j];
                hm[4][r][c + j] = a4[j];
            }
        }
        barrier();
        double my_term = 0.0lf;
        if (inside) {
            if (d == 0) {
                HV_VSUMS(mux, 0)
                HV_VSUMS(mx2, 1)
            }
            HV_VSUMS(muy, 2)
            HV_VSUMS(mxy, 3)
            HV_VSUMS(my2, 4)
            ADD_TERMS(my_term)
        }
        // its barriers also keep the next picture's moments from the tile
        // until every invocation has read this one's
        store_partial(my_term, uint(d * pc.s_part) + wg_index());
    }
}
#else
shared uint hm[4][HV_RING][HV_PITCH]; // x | y << 16, x*x, x*y, y*y

void main()
{
    const int lid = int(gl_LocalInvocationIndex);
    const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    const int xt = int(gl_WorkGroupID.x) * T_W;
    const int nty = (pc.h + T_H - 1) / T_H;
    const int tile0 = int(gl_WorkGroupID.y) * HV_STRIP;
    const int ring0 = tile0 * T_H - R; // the moment row in ring slot 0
    const bool vec = (pc.w & 3) == 0;  // then every row start and group is a multiple of 4
    for (int ts = 0; ts < HV_STRIP; ts++) {
        const int tile = tile0 + ts;
        if (tile >= nty) // the same for the whole workgroup
            break;
        const int yt = tile * T_H;
        // the tile's new moment rows, all of them in column groups
        const int first = ts == 0 ? yt - R : yt + R;
        const int nrows = ts == 0 ? T_H + 2 * R : T_H;
        for (int i = lid; i < nrows * HV_GROUPS; i += WG_X * WG_Y) {
            const int y = first + i / HV_GROUPS, c = (i % HV_GROUPS) * H_N;
            const int slot = (y - ring0) & (HV_RING - 1), x0 = xt + c;
            HMOM a0[H_N], a1[H_N], a2[H_N], a3[H_N], a4[H_N];
            if (y >= 0 && y < pc.h && x0 < pc.w) {
                pair_moments(y, x0, vec, a0, a1, a2, a3, a4);
            } else {
                [[unroll]] for (int j = 0; j < H_N; j++)
                    a0[j] = a1[j] = a2[j] = a3[j] = a4[j] = 0u;
            }
            [[unroll]] for (int j = 0; j < H_N; j++) {
                hm[0][slot][c + j] = a0[j];
                hm[1][slot][c + j] = a2[j];
                hm[2][slot][c + j] = a3[j];
                hm[3][slot][c + j] = a4[j];
            }
        }
        barrier();

        // PASS_V's pixels (x, y0 + j), j < RPT, from the ring
        const int x = xt + tx, y0 = yt + ty * RPT;
        double my_term = 0.0lf;
        if (x < pc.w && y0 < pc.h) {
            VSUM mux[RPT], muy[RPT], mx2[RPT], mxy[RPT], my2[RPT];
            [[unroll]] for (int j = 0; j < RPT; j++)
                mux[j] = muy[j] = mx2[j] = mxy[j] = my2[j] = VSUM(0);
            [[unroll]] for (int k = 0; k < ISSIM_LEN + RPT - 1; k++) {
                const int slot = (y0 + k - R - ring0) & (HV_RING - 1);
                const uint m01 = hm[0][slot][tx];
                const VSUM m0 = m01 & 0xffffu, m1 = m01 >> 16;
                const VSUM m2 = hm[1][slot][tx], m3 = hm[2][slot][tx], m4 = hm[3][slot][tx];
                [[unroll]] for (int j = 0; j < RPT; j++) {
                    if (k - j < 0 || k - j >= ISSIM_LEN)
                        continue;
                    const VSUM wk = VSUM(ISSIM_TAPS[k - j]);
                    mux[j] += wk * m0;
                    muy[j] += wk * m1;
                    mx2[j] += wk * m2;
                    mxy[j] += wk * m3;
                    my2[j] += wk * m4;
                }
            }
            ADD_TERMS(my_term)
        }
        // its barriers also keep the next tile's rows from the ring until
        // every invocation has read this tile's
        store_partial(my_term, uint(tile) * gl_NumWorkGroups.x + gl_WorkGroupID.x);
    }
}
#endif
#endif

#ifdef PASS_V
layout(std430, binding = 2) readonly buffer M0 { HMOM mom0[]; };
layout(std430, binding = 3) readonly buffer M1 { HMOM mom1[]; };
layout(std430, binding = 4) readonly buffer M2 { HMOM mom2[]; };
layout(std430, binding = 5) readonly buffer M3 { HMOM mom3[]; };
layout(std430, binding = 6) readonly buffer M4 { HMOM mom4[]; };

#ifdef LADDER
// OUT[j]: the vertical sum at pixel (x, y0 + j), j < RPT, of plane MOM at
// element offset OFF, as the pair's main() sums (rows outside skipped)
#define VSUMS(OUT, MOM, OFF)                                                \
    [[unroll]] for (int j = 0; j < RPT; j++)                                \
        OUT[j] = VSUM(0);                                                   \
    [[unroll]] for (int k = 0; k < ISSIM_LEN + RPT - 1; k++) {              \
        const int yy = y0 + k - R;                                          \
        if (yy < 0 || yy >= pc.h)                                           \
            continue;                                                       \
        const VSUM m = VSUM(MOM[(OFF) + yy * pc.w + x]);                    \
        [[unroll]] for (int j = 0; j < RPT; j++)                            \
            if (k - j >= 0 && k - j < ISSIM_LEN)                            \
                OUT[j] += VSUM(ISSIM_TAPS[k - j]) * m;                      \
    }

// The reference's sums once, then each distorted picture's (its planes at
// k * s_mom), its terms and tree as the pair's (partials at k * s_part).
void main()
{
    const int x = int(gl_GlobalInvocationID.x), y0 = int(gl_GlobalInvocationID.y) * RPT;
    const bool inside = x < pc.w && y0 < pc.h;
    VSUM mux[RPT], muy[RPT], mx2[RPT], mxy[RPT], my2[RPT];
    if (inside) {
        VSUMS(mux, mom0, 0)
        VSUMS(mx2, mom2, 0)
    }
    for (int d = 0; d < pc.nb_dis; d++) {
        double my_term = 0.0lf;
        if (inside) {
            const int off = d * pc.s_mom;
            VSUMS(muy, mom1, off)
            VSUMS(mxy, mom3, off)
            VSUMS(my2, mom4, off)
            ADD_TERMS(my_term)
        }
        store_partial(my_term, uint(d * pc.s_part) + wg_index());
    }
}
#else
void main()
{
    const int x = int(gl_GlobalInvocationID.x), y0 = int(gl_GlobalInvocationID.y) * RPT;
    double my_term = 0.0lf;
    if (x < pc.w && y0 < pc.h) {
        // the vertical sums of pixels (x, y0 + j): each moment row once,
        // rows outside the plane skipped (exact integers: any order)
        VSUM mux[RPT], muy[RPT], mx2[RPT], mxy[RPT], my2[RPT];
        [[unroll]] for (int j = 0; j < RPT; j++)
            mux[j] = muy[j] = mx2[j] = mxy[j] = my2[j] = VSUM(0);
        [[unroll]] for (int k = 0; k < ISSIM_LEN + RPT - 1; k++) {
            const int yy = y0 + k - R;
            if (yy < 0 || yy >= pc.h)
                continue;
            const int o = yy * pc.w + x;
#ifdef NARROW8
            const uint m01 = mom0[o];
            const VSUM m0 = m01 & 0xffffu, m1 = m01 >> 16;
#else
            const VSUM m0 = VSUM(mom0[o]), m1 = VSUM(mom1[o]);
#endif
            const VSUM m2 = VSUM(mom2[o]), m3 = VSUM(mom3[o]), m4 = VSUM(mom4[o]);
            [[unroll]] for (int j = 0; j < RPT; j++) {
                if (k - j < 0 || k - j >= ISSIM_LEN)
                    continue;
                const VSUM wk = VSUM(ISSIM_TAPS[k - j]);
                mux[j] += wk * m0;
                muy[j] += wk * m1;
                mx2[j] += wk * m2;
                mxy[j] += wk * m3;
                my2[j] += wk * m4;
            }
        }
        ADD_TERMS(my_term)
    }
    store_partial(my_term, wg_index());
}
#endif
#endif
