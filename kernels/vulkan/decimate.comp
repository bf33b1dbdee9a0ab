#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// The two decimations of the reference, one output sample per invocation:
//   default  float_ssim's box filter of size FACTOR (spec §1.2)
//   MSSSIM_LPF  MS-SSIM's 2:1 9x9 low-pass table (spec §2.3)
// One dispatch decimates both pictures: workgroup z selects ref (0) or dis (1).
// Per output sample: a double sum of float products (tap * pixel), taps
// row-major, half-sample-symmetric mirroring, rounded to float — the C
// reference's order exactly (kernels/c/decimate_c.c).
#include "common.glsl"

layout(push_constant) uniform Params {
    int w, h;     // input
    int sw, sh;   // output
    float k;      // box tap 1.0f / (FACTOR * FACTOR), computed on the host in C
} pc;

layout(constant_id = 2) const int FACTOR = 2;

layout(std430, binding = 0) readonly buffer Src0 { float src0[]; };
layout(std430, binding = 1) writeonly buffer Dst0 { float dst0[]; };
layout(std430, binding = 2) readonly buffer Src1 { float src1[]; };
layout(std430, binding = 3) writeonly buffer Dst1 { float dst1[]; };


// The tap loops, per source buffer: the picture choice stays out of the loops.
#define LPF_SUM(SRC)                                                                    \
    for (int vi = 0; vi < LPF_LEN; vi++) {                                              \
        const int row = mirror_hss(2 * y + vi - LPF_LEN / 2, pc.h) * pc.w;               \
        [[unroll]] for (int ui = 0; ui < LPF_LEN; ui++) {                                \
            precise float p = SRC[row + mirror_hss(2 * x + ui - LPF_LEN / 2, pc.w)] *    \
                              LPF[vi * LPF_LEN + ui];                                    \
            acc += double(p);                                                            \
        }                                                                                \
    }
// even boxes are left/top-biased: scale 4 visits -2..+1
#define BOX_SUM(SRC)                                                                    \
    for (int v = -(FACTOR / 2); v <= ((FACTOR & 1) != 0 ? FACTOR / 2 : FACTOR / 2 - 1); v++) { \
        const int row = mirror_hss(y * FACTOR + v, pc.h) * pc.w;                         \
        for (int u = -(FACTOR / 2); u <= ((FACTOR & 1) != 0 ? FACTOR / 2 : FACTOR / 2 - 1); u++) { \
            precise float p = SRC[row + mirror_hss(x * FACTOR + u, pc.w)] * pc.k;        \
            acc += double(p);                                                            \
        }                                                                                \
    }

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= pc.sw || y >= pc.sh)
        return;
    precise double acc = 0.0lf;
#ifdef MSSSIM_LPF
    if (gl_WorkGroupID.z == 0u) {
        LPF_SUM(src0)
    } else {
        LPF_SUM(src1)
    }
#else
    if (gl_WorkGroupID.z == 0u) {
        BOX_SUM(src0)
    } else {
        BOX_SUM(src1)
    }
#endif
    if (gl_WorkGroupID.z == 0u)
        dst0[y * pc.sw + x] = float(acc);
    else
        dst1[y * pc.sw + x] = float(acc);
}
