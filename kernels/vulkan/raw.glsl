// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
// A pair's level 0 straight from the staged picture words (RAW_BPS 1 or 2,
// common.glsl), as unpack.comp reads them: the host's pictures as copied,
// or a Vulkan frame's planes packed into the same layout (unpack.comp's
// pack mode). Sample x of row y of a picture's plane starting at word off:
// raw_u(off, x, y); its float, raw_f(off, x, y), is the float plane's
// value exactly (v / scaler, scaler a power of two), so every
// shader computes what it computed from the float plane; integer SSIM reads
// v itself. Included after the shader's push constants (RAW_PARAMS).

// the word holding sample x of row y
int raw_word(int off, int x, int y)
{
    const int i = pc.raw_first + x * pc.raw_step;
    return off + y * pc.raw_stride + (RAW_BPS == 1 ? i >> 2 : i >> 1);
}

// the staged words; a pair's steps bind them at binding 0 (and at their
// other input binding: both pictures are in them)
layout(std430, binding = 0) readonly buffer RawWords { uint raw_words[]; };

// sample x's value from its word
uint raw_sample(uint word, int x)
{
    const int i = pc.raw_first + x * pc.raw_step;
    const uint v = RAW_BPS == 1 ? (word >> (8 * (i & 3))) & 0xffu : (word >> (16 * (i & 1))) & 0xffffu;
    return (v >> pc.raw_shift) & pc.raw_mask;
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

// sample (x, y) of the plane at word off: its value, its float
uint raw_u(int off, int x, int y)
{
    return raw_sample(raw_words[raw_word(off, x, y)], x);
}
float raw_f(int off, int x, int y)
{
    return raw_float(raw_u(off, x, y));
}
