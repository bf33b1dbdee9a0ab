/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * What every stage's kernels share: the filters' taps, the widening of
 * float products to double, the mirrors, and exact accumulation (192-bit
 * fixed point: exact_sums.h) with the block reductions that end every
 * window kernel.
 * Included by kernels/cuda/kernels.cu.
 */
#ifndef GPUSSIM_CUDA_COMMON_CUH
#define GPUSSIM_CUDA_COMMON_CUH

#define SSIM_K GPUSSIM_GAUSSIAN11_LEN
#define LPF_K GPUSSIM_MSSSIM_LPF_LEN
#define ISSIM_K GPUSSIM_ISSIM_LEN

GPU_CONSTANT float gauss11[SSIM_K] = { GPUSSIM_GAUSSIAN11_TAPS };
GPU_CONSTANT float msssim_lpf[LPF_K * LPF_K] = { GPUSSIM_MSSSIM_LPF_TAPS };
GPU_CONSTANT int issim_taps[ISSIM_K] = { GPUSSIM_ISSIM_TAPS };

/* ---- helpers -------------------------------------------------------------- */

/*
 * The reference widens float products to double before adding them
 * (`double sum += (float)(a * k)`). Its conversion instruction runs on the
 * multiprocessors' slow conversion unit (a quarter of the double adds'
 * rate), which bounds the window and pyramid kernels; for the values below
 * the widening is two integer operations instead.
 *
 * nonneg_f2d(f): exactly (double)f for a positive normal float f; for +0 it
 * gives 2^-127 (a "residue") instead of 0. Used only on sums of n terms
 * that are each +0 or at least 2^-70 for n <= 11, 2^-66 for n <= 81
 * (proved per use): then n residues stay below half an ulp of any nonzero
 * term or partial sum, so they vanish in the first rounding after a
 * nonzero term and every nonzero partial sum is the reference's; a sum of
 * only +0 terms leaves at most n * 2^-127, which flush_residue() returns
 * to 0 (every nonzero sum is far above 2^-100).
 */
GPU_DEVICE double nonneg_f2d(float f)
{
    const uint32_t b = gpu_float_bits(f);
    return gpu_double_from_words((b >> 3) + 0x38000000u, b << 29);
}

GPU_DEVICE double flush_residue(double a)
{
    return fabs(a) < 0x1p-100 ? 0.0 : a;
}

/*
 * A horizontal filter pass over a tile of in_h rows of TW output columns
 * and K taps, by nthreads threads: NQ sums per output, each over the taps
 * from the left. A thread takes HC adjacent columns of a row:
 * sample(r, c, v) gives the NQ values (type V) of tile sample (r, c),
 * computed once for the HC columns that read it (K times with HC 1);
 * add(a, q, t, x) adds value x of sum q at tap t to a (type A, from A());
 * store(q, r, c, a) takes sum q of output (r, c). Consecutive threads take
 * a row's next column group, then the next rows. The window kernels' passes
 * (ssim_window.cu, issim.cu).
 */
template <int TW, int K, int HC, int NQ, typename A, typename V, typename S, typename ADD,
          typename O>
GPU_DEVICE void hpass_groups(int tid, int nthreads, int in_h, S sample, ADD add, O store)
{
    static_assert(TW % HC == 0, "whole column groups per tile row");
    constexpr int G = TW / HC; /* column groups per row */
    for (int i = tid; i < G * in_h; i += nthreads) {
        const int r = i / G, c0 = i % G * HC;
        A a[NQ][HC];
#pragma unroll
        for (int q = 0; q < NQ; q++)
#pragma unroll
            for (int j = 0; j < HC; j++)
                a[q][j] = A();
#pragma unroll
        for (int u = 0; u < K + HC - 1; u++) {
            V v[NQ];
            sample(r, c0 + u, v);
#pragma unroll
            for (int j = 0; j < HC; j++) {
                const int t = u - j; /* column c0 + j's tap */
                if (t < 0 || t >= K)
                    continue;
#pragma unroll
                for (int q = 0; q < NQ; q++)
                    add(a[q][j], q, t, v[q]);
            }
        }
#pragma unroll
        for (int q = 0; q < NQ; q++)
#pragma unroll
            for (int j = 0; j < HC; j++)
                store(q, r, c0 + j, a[q][j]);
    }
}

/* Half-sample-symmetric mirror (spec §1.2), as kernels/c/scratch.h. */
GPU_DEVICE int mirror_hss(int i, int n)
{
    if (i < 0)
        return -1 - i;
    if (i >= n)
        return 2 * n - 1 - i;
    return i;
}

/* ---- exact accumulation: exact_sums.h, then the window kernels' use --------- */

#include "exact_sums.h"

/*
 * The quantities a window kernel sums, bit 1 << GPUSSIM_WSUM_q of QS (the
 * plan's stage `sums`): WQ_ALL; WQ_TERM for float_ssim without its l, c,
 * s; WQ_CS for MS-SSIM's levels 0-3, whose l enters only through
 * pow(l, 0) = 1. Integer SSIM sums only its term (the weights are the
 * host's). A quantity left out is never computed; its partials are 0.
 */
#define WQ_TERM (1u << GPUSSIM_WSUM_TERM)
#define WQ_CS ((1u << GPUSSIM_WSUM_C) | (1u << GPUSSIM_WSUM_S))
#define WQ_ALL ((1u << GPUSSIM_WSUM_N) - 1)

template <unsigned QS> GPU_DEVICE constexpr bool wq_has(int q)
{
    return (QS >> q) & 1u;
}

/*
 * A window kernel's sums of a thread's terms t[0 .. GPUSSIM_WSUM_N - 1]
 * (those of QS; at most WSPLIT_TERMS windows a thread), kept scaled by
 * 2^-E: per quantity its split sum (exact_sums.h) and its magnitude sum.
 */
struct wacc {
    wsplit sp[GPUSSIM_WSUM_N];
    double abs_sum[GPUSSIM_WSUM_N];
};

template <unsigned QS> GPU_DEVICE void wacc_zero(wacc *a)
{
    for (int q = 0; q < GPUSSIM_WSUM_N; q++)
        if (wq_has<QS>(q)) {
            wsplit_zero(&a->sp[q]);
            a->abs_sum[q] = 0.0;
        }
}

template <unsigned QS, int E> GPU_DEVICE void wacc_add(wacc *a, const double *t)
{
    for (int q = 0; q < GPUSSIM_WSUM_N; q++)
        if (wq_has<QS>(q))
            wsplit_term<E>(&a->sp[q], &a->abs_sum[q], t[q]);
}

/*
 * A gpussim_cuda_wsums is 16 64-bit fields: sum[q].limb[l] at q * 3 + l,
 * abs_sum[q] (bit pattern) at 12 + q. Per-block partials are laid out
 * field-major ("structure of arrays"): field f of block i at
 * [f * nblocks + i], so that consecutive blocks' fields are consecutive
 * words for reduce_partials. Its scratch holds QS's quantities field-major
 * too: with r the quantity's rank in QS and NQ their number, its limbs at
 * r * 3 + l, its abs_sum at NQ * 3 + r (all 16 for WQ_ALL: the struct's
 * own order); WS_RED_WORDS words for n entries.
 */
#define WS_ABS0 (GPUSSIM_WSUM_N * GPUSSIM_FX_LIMBS)

#define WQ_COUNT(QS) \
    ((int)(((QS) & 1u) + (((QS) >> 1) & 1u) + (((QS) >> 2) & 1u) + (((QS) >> 3) & 1u)))
#define WS_RED_WORDS(QS, n) ((size_t)WQ_COUNT(QS) * (GPUSSIM_FX_LIMBS + 1) * (n))

/* the rank of quantity q among QS's */
template <unsigned QS> GPU_DEVICE int wq_rank(int q)
{
    return __popc(QS & ((1u << q) - 1u));
}

/*
 * The end of every window kernel: the block's sums of a (one wacc per
 * thread, terms scaled by 2^-E) into entry `block` of the field-major
 * partials of `nblocks` (all 16 fields; those of quantities outside QS 0).
 * A thread's three pieces of a quantity are exact integers on their grids
 * (wsplit_piece()), below 2^50: the block adds them as 64-bit
 * integers (nthreads * 2^50 < 2^63) and turns only the three totals into
 * the 192-bit fixed point, the same integer as adding every thread's value
 * (the sum is exact in any order). The magnitude sums are doubles, added in
 * one fixed order, so the result is the same bit for bit on every run: one
 * group of 32 lanes per field at a time, lane i adding entries i, i + 32,
 * ... in turn, then a fixed shuffle tree over the 32 lanes. red holds
 * WQ_COUNT(QS) * 4 * nthreads words (quantity r of QS, field k: piece k or,
 * k = 3, the magnitude sum, at [(r * 4 + k) * nthreads + thread]) and may
 * alias the kernel's tile memory; nthreads is a multiple of 32.
 */
template <unsigned QS, int E>
GPU_DEVICE void wacc_block_store(uint64_t *red, int tid, int nthreads, const wacc *a,
                                 uint64_t *partials, size_t nblocks, size_t block)
{
    constexpr int NF = WQ_COUNT(QS) * 4;
    __shared__ uint64_t tot[4 * GPUSSIM_WSUM_N];
    const size_t n = (size_t)nthreads;
    GPU_SYNC(); /* the tile's last readers are done */
    for (int q = 0; q < GPUSSIM_WSUM_N; q++) {
        if (!wq_has<QS>(q))
            continue;
        uint64_t *f = red + (size_t)wq_rank<QS>(q) * 4 * n + tid;
        f[0] = (uint64_t)wsplit_piece(&a->sp[q], 0);
        f[n] = (uint64_t)wsplit_piece(&a->sp[q], 1);
        f[2 * n] = (uint64_t)wsplit_piece(&a->sp[q], 2);
        f[3 * n] = (uint64_t)gpu_double_bits(a->abs_sum[q]);
    }
    GPU_SYNC();
    const int lane = tid & 31;
    for (int f = tid >> 5; f < NF; f += nthreads >> 5) {
        const uint64_t *e = red + (size_t)f * n;
        if ((f & 3) == 3) {
            double s = 0.0;
            for (int i = lane; i < nthreads; i += 32)
                s += gpu_bits_double(e[i]);
            for (int d = 16; d > 0; d >>= 1)
                s += GPU_SHFL_DOWN32(s, d);
            if (lane == 0)
                tot[f] = (uint64_t)gpu_double_bits(s);
        } else {
            /* two's complement: the unsigned sum is the signed one */
            unsigned long long s = 0;
            for (int i = lane; i < nthreads; i += 32)
                s += e[i];
            for (int d = 16; d > 0; d >>= 1)
                s += GPU_SHFL_DOWN32(s, d);
            if (lane == 0)
                tot[f] = s;
        }
    }
    GPU_SYNC();
    if (tid < GPUSSIM_WSUM_N) {
        const int q = tid;
        gpussim_fx fx;
        fx_zero(&fx);
        uint64_t abs_bits = 0;
        if (wq_has<QS>(q)) {
            const uint64_t *t = tot + wq_rank<QS>(q) * 4;
            const long long pc[3] = { (long long)t[0], (long long)t[1], (long long)t[2] };
            wsplit_pieces_to_fx<E>(&fx, pc);
            abs_bits = t[3];
        }
        for (int l = 0; l < GPUSSIM_FX_LIMBS; l++)
            partials[(size_t)(q * GPUSSIM_FX_LIMBS + l) * nblocks + block] = fx.limb[l];
        partials[(size_t)(WS_ABS0 + q) * nblocks + block] = abs_bits;
    }
}

/* Block-wide fixed-tree reduction of n entries (a power of two) of QS's
 * quantities in the field-major scratch red[WS_RED_WORDS(QS, n)], by
 * nthreads threads (no warp-size assumption): at each level s, entry e < s
 * takes in entry e + s. The total lands in entry 0. Deterministic: the tree
 * is fixed (and the fixed-point sums are exact in any order). The
 * quantities are independent tasks, spread over the threads, so that a
 * level's dependent loads and adds are a fraction as long as one thread's
 * whole entry; the tree, and so every bit of the result, is the same. */
template <unsigned QS>
GPU_DEVICE void wsums_block_reduce(uint64_t *red, int tid, int n, int nthreads)
{
    constexpr int NQ = WQ_COUNT(QS);
    int lg = 0;
    while ((2 << lg) <= n)
        lg++;
    for (int s = n >> 1; s > 0; s >>= 1) {
        lg--; /* s == 1 << lg */
        GPU_SYNC();
        for (int task = tid; task < NQ * s; task += nthreads) {
            const int r = task >> lg, e = task & (s - 1);
            gpussim_fx a, b;
            for (int l = 0; l < GPUSSIM_FX_LIMBS; l++) {
                a.limb[l] = red[(size_t)(r * GPUSSIM_FX_LIMBS + l) * n + e];
                b.limb[l] = red[(size_t)(r * GPUSSIM_FX_LIMBS + l) * n + e + s];
            }
            const double aa = gpu_bits_double(red[(size_t)(NQ * GPUSSIM_FX_LIMBS + r) * n + e]);
            const double ab = gpu_bits_double(red[(size_t)(NQ * GPUSSIM_FX_LIMBS + r) * n + e + s]);
            fx_add(&a, &b);
            for (int l = 0; l < GPUSSIM_FX_LIMBS; l++)
                red[(size_t)(r * GPUSSIM_FX_LIMBS + l) * n + e] = a.limb[l];
            red[(size_t)(NQ * GPUSSIM_FX_LIMBS + r) * n + e] = (uint64_t)gpu_double_bits(aa + ab);
        }
    }
    GPU_SYNC();
}

#endif /* GPUSSIM_CUDA_COMMON_CUH */
