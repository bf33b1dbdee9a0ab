#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// The two decimations of the reference, one output sample per invocation:
//   default  float_ssim's box filter of size FACTOR (spec §1.2)
//   MSSSIM_LPF  MS-SSIM's 2:1 9x9 low-pass table (spec §2.3)
// Level 0 comes straight from the staged picture words (RAW_BPS,
// raw.glsl): the same values as the float planes.
// One dispatch decimates both pictures: workgroup z selects ref (0) or dis
// (1), except in the level-0 low-pass, whose invocations do both.
// The low-pass reads its workgroup's input window once into shared memory
// (mirrored, even and odd columns apart so that the stride-2 taps of
// neighbouring invocations are contiguous), as CUDA's msssim_decimate_lpf.
// Per output sample: a double sum of float products (tap * pixel), taps
// row-major, half-sample-symmetric mirroring, rounded to float — the C
// reference's order exactly (kernels/c/decimate.c).
#include "common.glsl"

layout(push_constant) uniform Params {
    int w, h;     // input
    int sw, sh;   // output
    float k;      // box tap 1.0f / (FACTOR * FACTOR), computed on the host in C
    RAW_PARAMS;   // RAW_BPS: the input is the staged words (level 0)
} pc;
#define RAW_BINDING1 2 // the second picture's input
#include "raw.glsl"

#ifdef MSSSIM_LPF
// LEVEL0: the input is a picture's samples (+0 or >= 2^-8): every tap is
// >= 2^-11.8 in magnitude and sum |tap| < 2, so every term is a multiple of
// 2^-43 and every partial sum is below 2^9: the reference's double sum is
// exact, in any order. The terms of positive and of negative taps are then
// summed apart (fl(p * -t) = -fl(p * t); terms +0 or >= 2^-20, so
// nonneg_f2d() widens them exactly, common.glsl) and subtracted once,
// exactly (CUDA's EXACT path). Positive taps widen on the integer pipes,
// negative ones on the conversion unit, which spreads the load.
layout(constant_id = 2) const int LEVEL0 = 0;
#else
layout(constant_id = 2) const int FACTOR = 2;
#endif

layout(std430, binding = 0) readonly buffer Src0 { float src0[]; };
layout(std430, binding = 1) writeonly buffer Dst0 { float dst0[]; };
layout(std430, binding = 2) readonly buffer Src1 { float src1[]; };
layout(std430, binding = 3) writeonly buffer Dst1 { float dst1[]; };


#ifdef MSSSIM_LPF
#define LPF_R (LPF_LEN / 2)
#define IN_H (2 * (WG_Y_MAX - 1) + LPF_LEN) // input rows of one workgroup
#define IN_HALF (WG_X_MAX + LPF_R)          // input columns of one parity
// the shared tile is sized for 16 x 16 workgroups (the host's shape)
#define WG_X_MAX 16
#define WG_Y_MAX 16
shared float tile[2][2][IN_H][IN_HALF + 1]; // [picture][parity][row][column / 2]

// LEVEL0: both pictures in one invocation (as CUDA's msssim_decimate_lpf):
// their two independent sums share the addressing and keep more adds in
// flight. The smaller levels keep one picture per invocation (workgroup z),
// which gives their small grids twice the workgroups (H200: level 1 -> 2
// 39 us that way, 46 us with both).
void main()
{
    const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    const int lid = int(gl_LocalInvocationIndex);
    const int x0 = int(gl_WorkGroupID.x) * WG_X, y0 = int(gl_WorkGroupID.y) * WG_Y;
    const bool both = LEVEL0 != 0, first = gl_WorkGroupID.z == 0u;
    // input column 2*x0 - R + c, row 2*y0 - R + r; positions no output needs
    // (past 2*sw + 2 / 2*sh + 2) are not read, so the mirror stays inside
    const int cx0 = 2 * x0 - LPF_R; // the window's first column
    if (raw_words_from(cx0) && cx0 >= 0 && cx0 + 2 * IN_HALF <= pc.w) {
        // inside the plane's columns: a word (RAW_SPW samples) per picture
        // and invocation (the columns past 2 * sw + 2 no output needs, read)
        const int NW = 2 * IN_HALF / RAW_SPW;
        for (int i = lid; i < IN_H * NW; i += WG_X * WG_Y) {
            const int r = i / NW, c0 = RAW_SPW * (i % NW);
            const int iy = 2 * y0 - LPF_R + r;
            uint a = 0u, b = 0u;
            if (iy <= 2 * pc.sh + 2) {
                const int my = mirror_hss(iy, pc.h);
                if (both || first)
                    a = raw_words[raw_word(pc.raw_off0, cx0 + c0, my)];
                else
                    a = raw_words1[raw_word(pc.raw_off1, cx0 + c0, my)];
                if (both)
                    b = raw_words1[raw_word(pc.raw_off1, cx0 + c0, my)];
            }
            [[unroll]] for (int j = 0; j < RAW_SPW; j++) {
                const int c = c0 + j;
                tile[0][c & 1][r][c >> 1] = raw_float(raw_sample(a, cx0 + c));
                if (both)
                    tile[1][c & 1][r][c >> 1] = raw_float(raw_sample(b, cx0 + c));
            }
        }
    } else {
        for (int i = lid; i < IN_H * 2 * IN_HALF; i += WG_X * WG_Y) {
            const int r = i / (2 * IN_HALF), c = i % (2 * IN_HALF);
            const int iy = 2 * y0 - LPF_R + r, ix = 2 * x0 - LPF_R + c;
            float v0 = 0.0, v1 = 0.0;
            if (iy <= 2 * pc.sh + 2 && ix <= 2 * pc.sw + 2) {
                const int my = mirror_hss(iy, pc.h), mx = mirror_hss(ix, pc.w);
                if (RAW_BPS != 0) {
                    v0 = both || first ? raw_f(pc.raw_off0, mx, my) : raw_f1(pc.raw_off1, mx, my);
                    if (both)
                        v1 = raw_f1(pc.raw_off1, mx, my);
                } else {
                    const int o = my * pc.w + mx;
                    v0 = both || first ? src0[o] : src1[o];
                    if (both)
                        v1 = src1[o];
                }
            }
            tile[0][c & 1][r][c >> 1] = v0;
            if (both)
                tile[1][c & 1][r][c >> 1] = v1;
        }
    }
    barrier();

    const int x = x0 + tx, y = y0 + ty;
    if (x >= pc.sw || y >= pc.sh)
        return;
    if (both) {
        precise double pos0 = 0.0lf, neg0 = 0.0lf, pos1 = 0.0lf, neg1 = 0.0lf;
        [[unroll]] for (int v = 0; v < LPF_LEN; v++) {
            [[unroll]] for (int u = 0; u < LPF_LEN; u++) {
                const float tap = LPF[v * LPF_LEN + u];
                precise float p0 = tile[0][u & 1][2 * ty + v][tx + (u >> 1)] * abs(tap);
                precise float p1 = tile[1][u & 1][2 * ty + v][tx + (u >> 1)] * abs(tap);
                if (tap > 0.0) {
                    pos0 += nonneg_f2d(p0);
                    pos1 += nonneg_f2d(p1);
                } else {
                    neg0 += double(p0);
                    neg1 += double(p1);
                }
            }
        }
        dst0[y * pc.sw + x] = float(flush_residue(pos0 - neg0));
        dst1[y * pc.sw + x] = float(flush_residue(pos1 - neg1));
        return;
    }
    // taps row-major: the reference's order
    precise double acc = 0.0lf;
    [[unroll]] for (int v = 0; v < LPF_LEN; v++) {
        [[unroll]] for (int u = 0; u < LPF_LEN; u++) {
            precise float p = tile[0][u & 1][2 * ty + v][tx + (u >> 1)] * LPF[v * LPF_LEN + u];
            acc += double(p);
        }
    }
    if (first)
        dst0[y * pc.sw + x] = float(acc);
    else
        dst1[y * pc.sw + x] = float(acc);
}
#else
// The box reads the pictures' staged words (level 0: RAW_BPS is never 0).
// Even boxes are left/top-biased: scale 4 visits -2..+1.
#define BOX_LO (-(FACTOR / 2))
#define BOX_HI ((FACTOR & 1) != 0 ? FACTOR / 2 : FACTOR / 2 - 1)

// A power-of-two FACTOR (1080p: 4, 2160p: 8): 1 / scaler and the tap k are
// powers of two, so every term v / scaler * k is exact, and so are their
// double sum (at most FACTOR^2 terms below 2^16 units of 2^-(bd-8) * k:
// < 2^22 units for FACTOR <= 16, any sum below 2^53 units for larger) and its
// rounding to float when the unit sum is below 2^24: the result is the
// integer sum of the samples v times raw_inv_scaler * k, as CUDA's
// ssim_decimate_box. A row of the box is read from the staged words WORDS
// (the plane at word OFF, U its raw_u), 8-bit samples four to a word where
// the row lies inside the plane and starts at a word's first sample.
const bool POW2 = (FACTOR & (FACTOR - 1)) == 0 && FACTOR <= 64;
#define BOX_USUM(WORDS, U, OFF)                                                        \
    for (int v = BOX_LO; v <= BOX_HI; v++) {                                           \
        const int row = mirror_hss(y * FACTOR + v, pc.h);                              \
        if (words) {                                                                   \
            const int o = raw_word(OFF, x0, row);                                      \
            [[unroll]] for (int u = 0; u < FACTOR / 4; u++) {                          \
                const uint word = WORDS[o + u];                                        \
                [[unroll]] for (int j = 0; j < 4; j++)                                 \
                    usum += raw_sample(word, x0 + 4 * u + j);                          \
            }                                                                          \
        } else {                                                                       \
            for (int u = BOX_LO; u <= BOX_HI; u++)                                     \
                usum += U(OFF, mirror_hss(x * FACTOR + u, pc.w), row);                 \
        }                                                                              \
    }

// Any other FACTOR: the reference's double sum of the float terms (F: the
// picture's raw_f). They are +0 or >= 2^-8 / FACTOR^2; the FACTOR^2
// residues of nonneg_f2d() stay below half an ulp of any of them (FACTOR <
// 2^16), so it widens exactly (common.glsl).
#define BOX_SUM(F, OFF)                                                                 \
    for (int v = BOX_LO; v <= BOX_HI; v++) {                                            \
        const int row = mirror_hss(y * FACTOR + v, pc.h);                               \
        for (int u = BOX_LO; u <= BOX_HI; u++) {                                        \
            precise float p = F(OFF, mirror_hss(x * FACTOR + u, pc.w), row) * pc.k;     \
            acc += nonneg_f2d(p);                                                       \
        }                                                                               \
    }

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= pc.sw || y >= pc.sh)
        return;
    const bool first = gl_WorkGroupID.z == 0u;
    float res;
    if (POW2) {
        const int x0 = x * FACTOR + BOX_LO;
        const bool words = RAW_BPS == 1 && FACTOR % 4 == 0 && raw_words_from(x0) && x0 >= 0 &&
                           x0 + FACTOR <= pc.w;
        uint usum = 0u;
        if (first) {
            BOX_USUM(raw_words, raw_u, pc.raw_off0)
        } else {
            BOX_USUM(raw_words1, raw_u1, pc.raw_off1)
        }
        // exact: usum < 2^24 and the unit is a power of two
        precise float r = float(usum) * (pc.raw_inv_scaler * pc.k);
        res = r;
    } else {
        precise double acc = 0.0lf;
        if (first) {
            BOX_SUM(raw_f, pc.raw_off0)
        } else {
            BOX_SUM(raw_f1, pc.raw_off1)
        }
        res = float(flush_residue(acc));
    }
    if (first)
        dst0[y * pc.sw + x] = res;
    else
        dst1[y * pc.sw + x] = res;
}
#endif
