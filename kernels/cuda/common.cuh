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

GPU_DEVICE void wsums_zero(gpussim_cuda_wsums *s)
{
    for (int k = 0; k < GPUSSIM_WSUM_N; k++) {
        fx_zero(&s->sum[k]);
        s->abs_sum[k] = 0.0;
    }
}

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
 * The window kernels' sums of a thread's terms t[0 .. GPUSSIM_WSUM_N - 1]
 * (those of QS) from NT windows: split (exact_sums.h) where a thread scores
 * several windows, straight into the fixed point where it scores one.
 */
template <int NT> struct wterms {
    gpussim_cuda_wsums acc;
    wsplit sp[GPUSSIM_WSUM_N];
};

template <int NT> GPU_DEVICE void wterms_zero(wterms<NT> *w)
{
    static_assert(NT <= WSPLIT_TERMS, "a thread's windows exceed the split sums' range");
    wsums_zero(&w->acc);
    for (int q = 0; q < GPUSSIM_WSUM_N; q++)
        wsplit_zero(&w->sp[q]);
}

template <unsigned QS, int NT> GPU_DEVICE void wterms_add(wterms<NT> *w, const double *t)
{
    for (int q = 0; q < GPUSSIM_WSUM_N; q++) {
        if (!wq_has<QS>(q))
            continue;
        if (NT > 1) {
            wsplit_term<0>(&w->sp[q], &w->acc.abs_sum[q], t[q]);
        } else {
            const double a = fabs(t[q]);
            fx_add_double(&w->acc.sum[q], t[q]);
            w->acc.abs_sum[q] += a;
        }
    }
}

template <unsigned QS, int NT> GPU_DEVICE void wterms_finish(wterms<NT> *w)
{
    if (NT > 1)
        for (int q = 0; q < GPUSSIM_WSUM_N; q++)
            if (wq_has<QS>(q))
                wsplit_to_fx<0>(&w->acc.sum[q], &w->sp[q]);
}

/*
 * A gpussim_cuda_wsums is 16 64-bit fields: sum[q].limb[l] at q * 3 + l,
 * abs_sum[q] (bit pattern) at 12 + q. Per-block partials are laid out
 * field-major ("structure of arrays"): field f of entry i at [f][i].
 * Consecutive threads then touch consecutive words — with one 128-byte
 * struct per thread, every access of a warp would fall into the same
 * shared-memory bank (32-way conflicts) and every global load would be
 * uncoalesced. The block reduction's scratch holds only QS's quantities,
 * field-major too: with r the quantity's rank in QS and NQ their number,
 * its limbs at r * 3 + l, its abs_sum at NQ * 3 + r (all 16 for WQ_ALL:
 * the struct's own order); WS_RED_WORDS words for n entries.
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

template <unsigned QS>
GPU_DEVICE void wsums_put(uint64_t *soa, size_t n, size_t i, const gpussim_cuda_wsums *a)
{
    constexpr int NQ = WQ_COUNT(QS);
    for (int q = 0; q < GPUSSIM_WSUM_N; q++) {
        if (!wq_has<QS>(q))
            continue;
        const int r = wq_rank<QS>(q);
        for (int l = 0; l < GPUSSIM_FX_LIMBS; l++)
            soa[(size_t)(r * GPUSSIM_FX_LIMBS + l) * n + i] = a->sum[q].limb[l];
        soa[(size_t)(NQ * GPUSSIM_FX_LIMBS + r) * n + i] = (uint64_t)gpu_double_bits(a->abs_sum[q]);
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

/* The end of every window kernel: the block's entries reduced, the total
 * written as entry `block` of the field-major partials array of `nblocks`
 * (all 16 fields; those of quantities outside QS as 0). */
template <unsigned QS>
GPU_DEVICE void wsums_block_store(uint64_t *red, int tid, int nthreads,
                                  const gpussim_cuda_wsums *acc, uint64_t *partials,
                                  size_t nblocks, size_t block)
{
    constexpr int NQ = WQ_COUNT(QS);
    GPU_SYNC(); /* red may alias the kernel's tile memory */
    wsums_put<QS>(red, (size_t)nthreads, (size_t)tid, acc);
    wsums_block_reduce<QS>(red, tid, nthreads, nthreads);
    if (tid < WS_FIELDS) {
        const int q = tid < WS_ABS0 ? tid / GPUSSIM_FX_LIMBS : tid - WS_ABS0;
        const int r = wq_rank<QS>(q);
        const int f = tid < WS_ABS0 ? r * GPUSSIM_FX_LIMBS + tid % GPUSSIM_FX_LIMBS
                                    : NQ * GPUSSIM_FX_LIMBS + r;
        partials[(size_t)tid * nblocks + block] = wq_has<QS>(q) ? red[(size_t)f * nthreads] : 0;
    }
}

#endif /* GPUSSIM_CUDA_COMMON_CUH */
