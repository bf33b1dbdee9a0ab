#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// Unpack one component of a picture plane into a float plane of true sample
// values (spec §0 with offset 0): MSB-aligned words shifted down, interleaved
// chroma picked by component, masked to the bit depth, then (float)v / scaler
// (exact: scaler is a power of two). The other metrics derive what they read
// from this plane exactly: ANSNR's offset -128 input is f - 128 (exact), and
// integer SSIM's raw sample is f * scaler (exact).
//
// Two sources, chosen at build time:
//   default       raw bytes in a buffer (host pictures, copied tightly per row)
//   IMG_FMT=...   a per-plane storage image view of a Vulkan frame, with an
//                 explicit format (r8, r16, rg8, rg16): UNORM texels, the
//                 integer recovered exactly by rounding f * (2^bits - 1).
// An image variant with RAW_BPS (specialization constant 3) packs instead:
// it writes a frame's plane into the staged words, exactly as a host
// picture's plane is staged (stored values, RAW_BPS bytes each, both
// components of interleaved chroma), which a pair's shaders read as their
// level 0 (raw.glsl). Then w is the row's samples, h its rows, src_off and
// src_stride the plane's first word and words a row in the staging.
#include "common.glsl"

layout(push_constant) uniform Params {
    int w, h;          // output plane
    int src_off;       // buffer source: first 32-bit word of the plane
    int src_stride;    // buffer source: 32-bit words per row
    int first, step;   // buffer: sample index = first + x * step; image: component = first
    uint shift, mask;  // MSB alignment and bit-depth mask
    float inv_scaler; // 1 / scaler, a power of two: the product is the exact quotient
} pc;

layout(constant_id = 2) const int BYTES_PER_SAMPLE = 1;

// UNPACK_N consecutive samples of a row per invocation (the host dispatches
// ceil(w / UNPACK_N) columns): one 32-bit word holds four 8-bit samples of
// a planar row, two words four 16-bit ones, and the four floats leave as one
// vector where the plane's rows start at multiples of 4 floats.
#define UNPACK_N 4
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(std430, binding = 1) writeonly buffer Dst4 { vec4 dst4[]; };

#ifdef IMG_FMT
layout(binding = 8, IMG_FMT) uniform readonly image2D img;
layout(std430, binding = 1) writeonly buffer RawOut { uint raw_out[]; };

// one staged word per invocation: RAW_BPS-byte samples 4 / RAW_BPS of
// them, sample i of the row from texel i / IMG_COMPS, component i %
// IMG_COMPS; the padding past the row's samples 0
void pack()
{
    const int wi = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (wi >= pc.src_stride || y >= pc.h)
        return;
    const int spw = 4 / RAW_BPS;
    uint word = 0u;
    [[unroll]] for (int j = 0; j < 4; j++) {
        const int i = wi * spw + j;
        if (j < spw && i < pc.w) {
            const vec4 t = imageLoad(img, ivec2(i / IMG_COMPS, y));
            const uint v = uint(round((i % IMG_COMPS == 0 ? t.r : t.g) * IMG_MAX));
            word |= v << (8 * RAW_BPS * j);
        }
    }
    raw_out[pc.src_off + y * pc.src_stride + wi] = word;
}
#else
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
#endif

// the stored value (before the shift and mask) of sample x of row y
uint load_sample(int x, int y)
{
#ifdef IMG_FMT
    const vec4 t = imageLoad(img, ivec2(x, y));
    return uint(round((pc.first == 0 ? t.r : t.g) * IMG_MAX));
#else
    const int i = pc.first + x * pc.step;
    if (BYTES_PER_SAMPLE == 1) {
        const uint word = src[pc.src_off + y * pc.src_stride + (i >> 2)];
        return (word >> (8 * (i & 3))) & 0xffu;
    }
    const uint word = src[pc.src_off + y * pc.src_stride + (i >> 1)];
    return (word >> (16 * (i & 1))) & 0xffffu;
#endif
}

void main()
{
#ifdef IMG_FMT
    if (RAW_BPS != 0) {
        pack();
        return;
    }
#endif
    const int x0 = UNPACK_N * int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x0 >= pc.w || y >= pc.h)
        return;
    uint v[UNPACK_N];
#ifndef IMG_FMT
    const int i0 = pc.first + x0;
    const int row = pc.src_off + y * pc.src_stride;
    if (BYTES_PER_SAMPLE == 1 && pc.step == 1 && (i0 & 3) == 0) {
        // the row's word holding x0 also holds x0 + 1 .. x0 + 3
        const uint word = src[row + (i0 >> 2)];
        [[unroll]] for (int k = 0; k < UNPACK_N; k++)
            v[k] = (word >> (8 * k)) & 0xffu;
    } else if (BYTES_PER_SAMPLE == 2 && pc.step == 1 && (i0 & 1) == 0) {
        const uint lo = src[row + (i0 >> 1)];
        const uint hi = x0 + 2 < pc.w ? src[row + (i0 >> 1) + 1] : 0u;
        v[0] = lo & 0xffffu, v[1] = lo >> 16, v[2] = hi & 0xffffu, v[3] = hi >> 16;
    } else
#endif
    {
        [[unroll]] for (int k = 0; k < UNPACK_N; k++)
            v[k] = x0 + k < pc.w ? load_sample(x0 + k, y) : 0u;
    }
    float f[UNPACK_N];
    [[unroll]] for (int k = 0; k < UNPACK_N; k++) {
        precise float q = float((v[k] >> pc.shift) & pc.mask) * pc.inv_scaler;
        f[k] = q;
    }
    const int o = y * pc.w + x0;
    if ((pc.w & 3) == 0) {
        dst4[o >> 2] = vec4(f[0], f[1], f[2], f[3]); // x0 + 3 < w: w and x0 are multiples of 4
    } else {
        [[unroll]] for (int k = 0; k < UNPACK_N; k++)
            if (x0 + k < pc.w)
                dst[o + k] = f[k];
    }
}
