#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// Integer SSIM of a ladder frame (one reference, several distorted
// pictures): issim.comp's PASS_H split in two. The moments are exact
// integers, so computing the reference's apart changes no bit; issim.comp's
// PASS_V then reads the reference's planes (bindings 2 and 4) beside each
// distorted picture's (3, 5, 6).
//   PASS_REF_H  the reference's horizontal moments (x, x*x)
//   PASS_DIS_H  the distorted picture's (y, x*y, y*y)
// NARROW as in issim.comp (uint32 moments up to 12 bits).
#include "common.glsl"

#ifdef NARROW
#define HMOM uint
#else
#define HMOM int64_t
#endif

layout(push_constant) uniform Params {
    double c1base, c2base;
    int w, h;
    float scaler;
    // PASS_DIS_H: distorted picture z of the dispatch (gl_WorkGroupID.z) at
    // z * s_in, its moments at z * s_mom
    int s_in, s_mom;
} pc;

layout(std430, binding = 0) readonly buffer Ref { float ref[]; };

#ifdef PASS_REF_H
layout(std430, binding = 2) writeonly buffer M0 { HMOM mom0[]; };
layout(std430, binding = 3) writeonly buffer M2 { HMOM mom2[]; };

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= pc.w || y >= pc.h)
        return;
    const int R = ISSIM_LEN / 2;
    HMOM a0 = HMOM(0), a2 = HMOM(0);
    [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
        const int xx = x + k - R;
        if (xx < 0 || xx >= pc.w)
            continue;
        const HMOM wk = HMOM(ISSIM_TAPS[k]);
        const HMOM s = HMOM(ref[y * pc.w + xx] * pc.scaler);
        a0 += wk * s;
        a2 += wk * s * s;
    }
    mom0[y * pc.w + x] = a0;
    mom2[y * pc.w + x] = a2;
}
#endif

#ifdef PASS_DIS_H
layout(std430, binding = 1) readonly buffer Dis { float dis[]; };
layout(std430, binding = 2) writeonly buffer M1 { HMOM mom1[]; };
layout(std430, binding = 3) writeonly buffer M3 { HMOM mom3[]; };
layout(std430, binding = 4) writeonly buffer M4 { HMOM mom4[]; };

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= pc.w || y >= pc.h)
        return;
    const int R = ISSIM_LEN / 2;
    HMOM a1 = HMOM(0), a3 = HMOM(0), a4 = HMOM(0);
    [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
        const int xx = x + k - R;
        if (xx < 0 || xx >= pc.w)
            continue;
        const HMOM wk = HMOM(ISSIM_TAPS[k]);
        const HMOM s = HMOM(ref[y * pc.w + xx] * pc.scaler);
        const HMOM t = HMOM(dis[int(gl_WorkGroupID.z) * pc.s_in + y * pc.w + xx] * pc.scaler);
        a1 += wk * t;
        a3 += wk * s * t;
        a4 += wk * t * t;
    }
    const int o = int(gl_WorkGroupID.z) * pc.s_mom + y * pc.w + x;
    mom1[o] = a1;
    mom3[o] = a3;
    mom4[o] = a4;
}
#endif
