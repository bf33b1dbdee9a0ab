// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
// The per-window l, c, s and term of SSIM (spec §1.5) and the workgroup's
// partial sums: shared by the pair's window passes (ssim_window.comp) and a
// ladder's (ssim_window_ladder.comp), so both compute them the same way.
// Included after common.glsl by a shader that declares nothing at binding 7.
// PARTIAL_BASE: where the workgroups' partials start (a ladder's dispatch
// covers several distorted pictures).
// SUMS (the including shader's specialization constant): the quantities the
// plan's results use, bits 1 << k for term, l, c, s (src/plan.h's
// GPUSSIM_SUM_*); the others are not computed, and their partials are 0.
#ifndef PARTIAL_BASE
#define PARTIAL_BASE 0u
#endif
#define SUM_TERM 1
#define SUM_L 2
layout(std430, binding = 7) writeonly buffer Partials { double partial[]; };

// The per-window l, c, s and term of the five filtered moments (spec §1.5),
// with the reference's typing: those of SUMS (l also for the term).
void window_terms(const float m[5], out double t_term, out double t_l, out double t_c,
                  out double t_s)
{
    const float mx = m[0], my = m[1];
    precise float sx2 = m[2] - mx * mx;
    precise float sy2 = m[3] - my * my;
    // MAX(0.0, v) of the reference: keeps -0.0, zeroes negatives
    sx2 = 0.0 > sx2 ? 0.0 : sx2;
    sy2 = 0.0 > sy2 ? 0.0 : sy2;
    precise float sxy = m[4] - mx * my;
    precise float p = sx2 * sy2;
    const float sxsy = sqrt_rn(p);
    // double numerators (2.0 is a double literal), float denominators
    precise double l = 0.0lf;
    if ((SUMS & (SUM_TERM | SUM_L)) != 0) {
        precise double ln = 2.0lf * double(mx) * double(my) + double(SSIM_C1);
        precise float ld = mx * mx + my * my + SSIM_C1;
        l = ln / double(ld);
    }
    precise double cn = 2.0lf * double(sxsy) + double(SSIM_C2);
    precise float cd = sx2 + sy2 + SSIM_C2;
    precise double c = cn / double(cd);
    const float sxy_c = (sxy < 0.0 && sxsy <= 0.0) ? 0.0 : sxy;
    precise float sn = sxy_c + SSIM_C3;
    precise float sd = sxsy + SSIM_C3;
    const double s = double(div_rn(sn, sd));
    precise double term = 0.0lf;
    if ((SUMS & SUM_TERM) != 0)
        term = l * c * s;
    t_term = term, t_l = l, t_c = c, t_s = s;
}

shared double red[4][WG_X * WG_Y];

// One partial sum per workgroup of term, l, c, s (0 for those outside SUMS):
// a fixed-shape tree in double (the same inputs always give the same
// partials); the host adds the partials in workgroup order.
void store_partials(double t_term, double t_l, double t_c, double t_s)
{
    const uint lid = gl_LocalInvocationIndex;
    const double t[4] = { t_term, t_l, t_c, t_s };
    [[unroll]] for (int k = 0; k < 4; k++)
        if (((SUMS >> k) & 1) != 0)
            red[k][lid] = t[k];
    barrier();
    for (uint stride = uint(WG_X * WG_Y) / 2u; stride > 0u; stride >>= 1) {
        if (lid < stride) {
            [[unroll]] for (int k = 0; k < 4; k++) {
                if (((SUMS >> k) & 1) == 0)
                    continue;
                precise double sum = red[k][lid] + red[k][lid + stride];
                red[k][lid] = sum;
            }
        }
        barrier();
    }
    if (lid == 0u) {
        const uint wg = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
        [[unroll]] for (int k = 0; k < 4; k++)
            partial[PARTIAL_BASE + wg * 4u + uint(k)] = ((SUMS >> k) & 1) != 0 ? red[k][0] : 0.0lf;
    }
}
