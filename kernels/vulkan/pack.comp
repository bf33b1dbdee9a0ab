#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// Packs one plane of a Vulkan frame into the staged words, exactly as a
// host picture's plane is staged (its rows' stored values, RAW_BPS bytes
// each, both components of interleaved chroma, rows padded to 32 bits with
// zeros): every shader reads level 0 from those words (raw.glsl), host
// pictures and Vulkan frames alike. The source is a per-plane storage image
// view with an explicit format (IMG_FMT: r8, r16, rg8, rg16, of IMG_COMPS
// components): UNORM texels, each stored value recovered exactly by
// rounding f * IMG_MAX (2^bits - 1).
#include "common.glsl"

layout(push_constant) uniform Params {
    int samples, rows; // the plane's samples a row (an interleaved row counts both), rows
    int off, stride;   // its first staged word, words a row
} pc;

layout(binding = 8, IMG_FMT) uniform readonly image2D img;
layout(std430, binding = 1) writeonly buffer Staged { uint staged[]; };

// One staged word per invocation: its 4 / RAW_BPS samples, sample i of the
// row from texel i / IMG_COMPS, component i % IMG_COMPS.
void main()
{
    const int wi = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (wi >= pc.stride || y >= pc.rows)
        return;
    const int spw = RAW_BPS == 2 ? 2 : 4;
    uint word = 0u;
    [[unroll]] for (int j = 0; j < 4; j++) {
        const int i = wi * spw + j;
        if (j < spw && i < pc.samples) {
            const vec4 t = imageLoad(img, ivec2(i / IMG_COMPS, y));
            const uint v = uint(round((i % IMG_COMPS == 0 ? t.r : t.g) * IMG_MAX));
            word |= v << (8 * RAW_BPS * j);
        }
    }
    staged[pc.off + y * pc.stride + wi] = word;
}
