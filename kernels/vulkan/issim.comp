#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// Integer SSIM (spec §4), as in kernels/c/issim_tmpl.c:
//   PASS_H  horizontal 9-tap moments per pixel, taps outside the row skipped
//           (truncation), int64 (exact at every depth)
//   PASS_V  vertical moments with truncation, the per-pixel double term with
//           the reference's grouping, one partial sum per workgroup (fixed
//           tree). The weight sum does not depend on the pixels: the host
//           computes it once, exactly.
// Raw samples are recovered exactly from the unpacked float plane: v = f * scaler.
// NARROW (depths up to 12 bits): the horizontal moments are exact in uint32
// (256 * 4095^2 < 2^32), as in the C reference, which halves their traffic.
#include "common.glsl"

#ifdef NARROW
#define HMOM uint
#else
#define HMOM int64_t
#endif

layout(push_constant) uniform Params {
    double c1base, c2base; // samplemax^2 * (0.01*0.01), * (0.03*0.03), computed in C
    int w, h;
    float scaler;
#ifdef LADDER
    // PASS_V of a ladder frame: distorted picture z of the dispatch
    // (gl_WorkGroupID.z) has its moments (bindings 3, 5, 6) at z * s_mom, its
    // partials at z * s_part; the reference's (2, 4) are shared
    int s_in, s_mom, s_part;
#endif
} pc;

#ifdef LADDER
#define Z_MOM (int(gl_WorkGroupID.z) * pc.s_mom)
#define Z_PART (gl_WorkGroupID.z * uint(pc.s_part))
#else
#define Z_MOM 0
#define Z_PART 0u
#endif

#ifdef PASS_H
layout(std430, binding = 0) readonly buffer Ref { float ref[]; };
layout(std430, binding = 1) readonly buffer Dis { float dis[]; };
// the five horizontal moment planes (x, y, x*x, x*y, y*y), w x h each
layout(std430, binding = 2) writeonly buffer M0 { HMOM mom0[]; };
layout(std430, binding = 3) writeonly buffer M1 { HMOM mom1[]; };
layout(std430, binding = 4) writeonly buffer M2 { HMOM mom2[]; };
layout(std430, binding = 5) writeonly buffer M3 { HMOM mom3[]; };
layout(std430, binding = 6) writeonly buffer M4 { HMOM mom4[]; };

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    if (x >= pc.w || y >= pc.h)
        return;
    const int R = ISSIM_LEN / 2;
    HMOM a0 = HMOM(0), a1 = HMOM(0), a2 = HMOM(0), a3 = HMOM(0), a4 = HMOM(0);
    [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
        const int xx = x + k - R;
        if (xx < 0 || xx >= pc.w)
            continue;
        const HMOM wk = HMOM(ISSIM_TAPS[k]);
        const HMOM s = HMOM(ref[y * pc.w + xx] * pc.scaler);
        const HMOM t = HMOM(dis[y * pc.w + xx] * pc.scaler);
        a0 += wk * s;
        a1 += wk * t;
        a2 += wk * s * s;
        a3 += wk * s * t;
        a4 += wk * t * t;
    }
    const int o = y * pc.w + x;
    mom0[o] = a0;
    mom1[o] = a1;
    mom2[o] = a2;
    mom3[o] = a3;
    mom4[o] = a4;
}
#endif

#ifdef PASS_V
layout(std430, binding = 2) readonly buffer M0 { HMOM mom0[]; };
layout(std430, binding = 3) readonly buffer M1 { HMOM mom1[]; };
layout(std430, binding = 4) readonly buffer M2 { HMOM mom2[]; };
layout(std430, binding = 5) readonly buffer M3 { HMOM mom3[]; };
layout(std430, binding = 6) readonly buffer M4 { HMOM mom4[]; };
layout(std430, binding = 7) writeonly buffer Partials { double partial[]; };

shared double red[WG_X * WG_Y];

void main()
{
    const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
    const uint lid = gl_LocalInvocationIndex;
    const int R = ISSIM_LEN / 2;
    double my_term = 0.0lf;

    if (x < pc.w && y < pc.h) {
        int64_t mux = 0, muy = 0, mx2 = 0, mxy = 0, my2 = 0, vw = 0, hw = 0;
        [[unroll]] for (int k = 0; k < ISSIM_LEN; k++) {
            const int yy = y + k - R;
            const int xx = x + k - R;
            const int64_t wk = int64_t(ISSIM_TAPS[k]);
            if (xx >= 0 && xx < pc.w)
                hw += wk;
            if (yy < 0 || yy >= pc.h)
                continue;
            const int o = yy * pc.w + x;
            mux += wk * int64_t(mom0[o]);
            muy += wk * int64_t(mom1[Z_MOM + o]);
            mx2 += wk * int64_t(mom2[o]);
            mxy += wk * int64_t(mom3[Z_MOM + o]);
            my2 += wk * int64_t(mom4[Z_MOM + o]);
            vw += wk;
        }
        const int64_t mw = vw * hw;
        precise double W = double(mw);
        precise double c1 = pc.c1base * W * W;
        precise double c2 = pc.c2base * W * W;
        precise double mx2d = double(mux) * double(mux);
        precise double mxyd = double(mux) * double(muy);
        precise double my2d = double(muy) * double(muy);
        precise double A = 2.0lf * mxyd + c1;
        precise double B = c2 + 2.0lf * (double(mxy) * W - mxyd);
        precise double D = (mx2d + my2d + c1) * (double(mx2) * W - mx2d + double(my2) * W - my2d + c2);
        precise double term = double(mw) * A * B / D;
        my_term = term;
    }
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
        partial[Z_PART + gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = red[0];
}
#endif
