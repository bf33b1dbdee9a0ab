// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
// Level 0 straight from the staged picture words (RAW_BPS 1 or 2,
// common.glsl): the host's pictures as copied (rows padded to 32 bits), or
// a Vulkan frame's planes packed into the same layout (pack.comp). Sample
// (x, y) of a picture's plane starting at word off is raw_u(off, x, y): the
// stored value's bits, shifted down (MSB-aligned formats) and masked to the
// depth, chroma picked by first and step. Its float, raw_f(off, x, y), is
// v / scaler exactly (scaler a power of two): the C reference's (float)v /
// scaler, the value the level-0 float planes held before. Integer SSIM
// and the box decimation read v itself. Included after the shader's push
// constants (RAW_PARAMS).

// sample x of a row: its word in the row, the position of its bits there
int raw_word_in_row(int x)
{
    const int i = pc.raw_first + x * pc.raw_step;
    return RAW_BPS == 1 ? i >> 2 : i >> 1;
}
uint raw_bit_pos(int x)
{
    const int i = pc.raw_first + x * pc.raw_step;
    return RAW_BPS == 1 ? uint(8 * (i & 3)) : uint(16 * (i & 1));
}

// the word holding sample x of row y
int raw_word(int off, int x, int y)
{
    return off + y * pc.raw_stride + raw_word_in_row(x);
}

// the staged words of picture 0 (the reference) at binding 0, of picture
// 1 (a distorted one) at RAW_BINDING1 (default 1): a pair binds all of
// them at both, a ladder each picture's (a group of distorted pictures')
// own, the plane then at the same offset in each
#ifndef RAW_BINDING1
#define RAW_BINDING1 1
#endif
layout(std430, binding = 0) readonly buffer RawWords0 { uint raw_words[]; };
layout(std430, binding = RAW_BINDING1) readonly buffer RawWords1 { uint raw_words1[]; };

// the value of the sample at bit pos of word, of sample x
uint raw_sample_at(uint word, uint pos)
{
    const uint v = (word >> pos) & (RAW_BPS == 1 ? 0xffu : 0xffffu);
    return (v >> pc.raw_shift) & pc.raw_mask;
}
uint raw_sample(uint word, int x)
{
    return raw_sample_at(word, raw_bit_pos(x));
}

// v < 2^16: 2^23 + v is exact, so its float minus 2^23 is float(v), with
// a float add instead of the conversion instruction (NVIDIA: a quarter of
// the float rate, and the SSIM windows convert a lot already); then the
// exact product by 1 / scaler
float raw_float(uint v)
{
    precise float u = uintBitsToFloat(0x4B000000u | v) - 8388608.0;
    precise float f = u * pc.raw_inv_scaler;
    return f;
}

// The words of a row segment that starts at sample x0: where the samples
// are consecutive (step 1) and x0 is a word's first sample, a word's
// RAW_SPW samples are x0 + RAW_SPW * q + j, j < RAW_SPW.
const int RAW_SPW = RAW_BPS == 2 ? 2 : 4;
bool raw_words_from(int x0)
{
    return RAW_BPS != 0 && pc.raw_step == 1 && ((pc.raw_first + x0) & (RAW_SPW - 1)) == 0;
}

// sample (x, y) of the plane at word off of picture 0 (raw_u, raw_f) or 1
// (raw_u1, raw_f1): its value, its float
uint raw_u(int off, int x, int y)
{
    return raw_sample(raw_words[raw_word(off, x, y)], x);
}
float raw_f(int off, int x, int y)
{
    return raw_float(raw_u(off, x, y));
}
uint raw_u1(int off, int x, int y)
{
    return raw_sample(raw_words1[raw_word(off, x, y)], x);
}
float raw_f1(int off, int x, int y)
{
    return raw_float(raw_u1(off, x, y));
}

// The tile of ssim_window.comp's PASS_HV (and the ladder's PASS_DIS_HV,
// PASS_LAD_HV): rows Y0 .. Y0 + TH - 1, columns X0 .. X0 + TW - 1 of
// picture 0's plane (at word OFF0) and picture 1's (OFF1) as floats into
// T[0] and T[1] (shared [2][TH][> TW]), 0 outside the plane; a word per
// picture and invocation where the rows start at a word's first sample,
// else a sample. P0, P1: whether to load picture 0's, 1's
// (PASS_LAD_HV loads the reference's once, then each distorted picture's).
#define RAW_TILE(T, TW, TH, X0, Y0, OFF0, OFF1, P0, P1)                           \
    if (raw_words_from(X0)) {                                                     \
        const int NW = ((TW) + RAW_SPW - 1) / RAW_SPW;                            \
        for (int i = lid; i < NW * (TH); i += WG_X * WG_Y) {                      \
            const int r = i / NW, gx = (X0) + RAW_SPW * (i % NW), gy = (Y0) + r; \
            uint a = 0u, b = 0u;                                                  \
            if (gx < pc.w && gy < pc.h) {                                         \
                if (P0)                                                           \
                    a = raw_words[raw_word(OFF0, gx, gy)];                        \
                if (P1)                                                           \
                    b = raw_words1[raw_word(OFF1, gx, gy)];                       \
            }                                                                     \
            [[unroll]] for (int j = 0; j < RAW_SPW; j++) {                        \
                const int c = gx - (X0) + j;                                      \
                const bool ok = gx + j < pc.w && gy < pc.h;                       \
                if (c < (TW)) {                                                   \
                    if (P0)                                                       \
                        T[0][r][c] = ok ? raw_float(raw_sample(a, gx + j)) : 0.0; \
                    if (P1)                                                       \
                        T[1][r][c] = ok ? raw_float(raw_sample(b, gx + j)) : 0.0; \
                }                                                                 \
            }                                                                     \
        }                                                                         \
    } else {                                                                      \
        for (int i = lid; i < (TW) * (TH); i += WG_X * WG_Y) {                    \
            const int r = i / (TW), c = i % (TW);                                 \
            const int gx = (X0) + c, gy = (Y0) + r;                               \
            const bool ok = gx < pc.w && gy < pc.h;                               \
            if (P0)                                                               \
                T[0][r][c] = ok ? raw_f(OFF0, gx, gy) : 0.0;                      \
            if (P1)                                                               \
                T[1][r][c] = ok ? raw_f1(OFF1, gx, gy) : 0.0;                     \
        }                                                                         \
    }
#define RAW_TILE2(T, TW, TH, X0, Y0, OFF0, OFF1) RAW_TILE(T, TW, TH, X0, Y0, OFF0, OFF1, true, true)
