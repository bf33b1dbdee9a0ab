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

layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };

#ifdef IMG_FMT
layout(binding = 8, IMG_FMT) uniform readonly image2D img;
#else
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
#endif

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= pc.w || y >= pc.h)
        return;
    uint v;
#ifdef IMG_FMT
    const vec4 t = imageLoad(img, ivec2(x, y));
    v = uint(round((pc.first == 0 ? t.r : t.g) * IMG_MAX));
#else
    const int i = pc.first + x * pc.step;
    if (BYTES_PER_SAMPLE == 1) {
        const uint word = src[pc.src_off + y * pc.src_stride + (i >> 2)];
        v = (word >> (8 * (i & 3))) & 0xffu;
    } else {
        const uint word = src[pc.src_off + y * pc.src_stride + (i >> 1)];
        v = (word >> (16 * (i & 1))) & 0xffffu;
    }
#endif
    v = (v >> pc.shift) & pc.mask;
    precise float f = float(v) * pc.inv_scaler;
    dst[y * pc.w + x] = f;
}
