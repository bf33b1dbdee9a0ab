/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Exact accumulation of the window kernels' terms: the 192-bit fixed point
 * (struct gpussim_fx, GPUSSIM_FX_FRAC_BITS fraction bits) and the split
 * sums that feed it. Included by common.cuh; also compiled on the host by
 * tests/unit/test_exact_sums.cpp (gpu_compat.h's host mode), which checks
 * the arithmetic against an exact reference.
 */
#ifndef GPUSSIM_CUDA_EXACT_SUMS_H
#define GPUSSIM_CUDA_EXACT_SUMS_H

#include "gpu_compat.h"
#include "cuda_shared.h"

GPU_DEVICE void fx_zero(gpussim_fx *a)
{
    for (int i = 0; i < GPUSSIM_FX_LIMBS; i++)
        a->limb[i] = 0;
}

GPU_DEVICE void fx_add(gpussim_fx *a, const gpussim_fx *b)
{
    const uint64_t l0 = a->limb[0] + b->limb[0];
    const uint64_t c0 = l0 < a->limb[0];
    const uint64_t m = a->limb[1] + b->limb[1];
    uint64_t c1 = m < a->limb[1];
    const uint64_t l1 = m + c0;
    c1 |= l1 < m;
    a->limb[0] = l0;
    a->limb[1] = l1;
    a->limb[2] = a->limb[2] + b->limb[2] + c1;
}

/*
 * Exact accumulation of a thread's few terms, without the fixed point's
 * per-term integer work. A term v = t * 2^-E (E: the caller's scale, a
 * power of two, so exact) with |v| < 2^8 splits without error into
 * hi + mid + rest, hi on the grid 2^-40 and mid on the grid 2^-84; rest
 * (|rest| <= 2^-85) is rounded to the grid 2^-128, at most 2^-129 off,
 * which is inside the n * 2^-128 the host allows for bits below the fixed
 * point's grid (resolve_sum() in hwctx/gpu/gpu_plan.c). Each piece, and a
 * sum of up to WSPLIT_TERMS of them, is an integer multiple of its grid
 * below 2^50 steps: plain double adds are exact, and wsplit_piece() reads
 * each sum out as an integer with one multiply and one add (no conversion
 * instruction).
 * wsplit_checked(|t|) is what wsplit_term() adds to the quantity's
 * abs_sum: NaN for a term outside the range (the host then reports the
 * frame; it cannot occur for SSIM's l, c, s and term, all within [-2, 2]).
 */
#define WSPLIT_TERMS 4
#define WSPLIT_MAX 0x1p8

struct wsplit {
    double p[3];
};

GPU_DEVICE void wsplit_zero(wsplit *a)
{
    a->p[0] = a->p[1] = a->p[2] = 0.0;
}

GPU_DEVICE void wsplit_add(wsplit *a, double v)
{
    const double hi = (v + 0x1.8p12) - 0x1.8p12;
    const double r1 = v - hi;
    const double mid = (r1 + 0x1.8p-32) - 0x1.8p-32;
    const double r2 = r1 - mid;
    const double lo = (r2 + 0x1.8p-76) - 0x1.8p-76;
    a->p[0] += hi;
    a->p[1] += mid;
    a->p[2] += lo;
}

GPU_DEVICE double wsplit_checked(double abs_v, double max)
{
    return abs_v < max ? abs_v : gpu_bits_double(0x7ff8000000000000ull);
}

/* One term t of a quantity kept scaled by 2^-E: into its split sum s, and
 * |t| (NaN out of range) into its abs_sum */
template <int E> GPU_DEVICE void wsplit_term(wsplit *s, double *abs_sum, double t)
{
    const double scale = (double)(1ll << E); /* a power of two: exact both ways */
    wsplit_add(s, t * (1.0 / scale));
    *abs_sum += wsplit_checked(fabs(t), WSPLIT_MAX * scale);
}

/* a += v * 2^(SH - FRAC_BITS), v signed, 0 <= SH < 128 */
template <int SH> GPU_DEVICE void fx_add_i64(gpussim_fx *a, long long v)
{
    const int b = SH & 63;
    const uint64_t sign = (uint64_t)(v >> 63);
    const uint64_t w0 = (uint64_t)v << b;
    const uint64_t w1 = b ? (uint64_t)(v >> (64 - b)) : sign;
    gpussim_fx t;
    if (SH < 64) {
        t.limb[0] = w0;
        t.limb[1] = w1;
        t.limb[2] = sign;
    } else {
        t.limb[0] = 0;
        t.limb[1] = w0;
        t.limb[2] = w1;
    }
    fx_add(a, &t);
}

/* an exact integer x, |x| < 2^51, out of a double: its low bits after
 * adding 1.5 * 2^52 */
GPU_DEVICE long long exact_int(double x)
{
    return (long long)(gpu_double_bits(x + 0x1.8p52) - 0x4338000000000000ull);
}

/* Piece k (0-2) of the split sum s as an exact integer on its grid (2^-40,
 * 2^-84, 2^-128 of the scaled terms), below 2^50 in magnitude: the pieces
 * of up to 2^13 split sums add exactly as 64-bit integers (the window
 * kernels' block sums). */
GPU_DEVICE long long wsplit_piece(const wsplit *s, int k)
{
    return exact_int(s->p[k] * (k == 0 ? 0x1p40 : k == 1 ? 0x1p84 : 0x1p128));
}

/* a += pieces p (wsplit_piece(), or sums of them) of terms scaled by 2^-E */
template <int E> GPU_DEVICE void wsplit_pieces_to_fx(gpussim_fx *a, const long long p[3])
{
    fx_add_i64<88 + E>(a, p[0]);
    fx_add_i64<44 + E>(a, p[1]);
    fx_add_i64<E>(a, p[2]);
}

#endif /* GPUSSIM_CUDA_EXACT_SUMS_H */
