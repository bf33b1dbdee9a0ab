/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * What every stage's kernels share: the filters' taps, the widening of
 * float products to double, the mirrors, and exact accumulation (192-bit
 * fixed point) with the block reductions that end every window kernel.
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

/* ---- exact accumulation --------------------------------------------------- */

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

/* a += v exactly, except for bits of v below 2^-FRAC_BITS (truncated toward
 * zero; the host accounts for them). Written with scalars and selects only:
 * a limb array indexed at run time would live in local memory. */
GPU_DEVICE void fx_add_double(gpussim_fx *a, double v)
{
    const uint64_t bits = gpu_double_bits(v);
    int e = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((1ull << 52) - 1);
    if (e)
        m |= 1ull << 52;
    else
        e = 1;
    /* v = m * 2^(e - 1075); in fixed point m sits at bit sh */
    int sh = e - 1075 + GPUSSIM_FX_FRAC_BITS;
    if (sh < 0) {
        m = sh > -64 ? m >> -sh : 0;
        sh = 0;
    }
    /* sh <= 192 - 53 for any |v| < 2^64; larger cannot occur */
    const int li = sh >> 6, b = sh & 63;
    const uint64_t lo = m << b, hi = b ? m >> (64 - b) : 0;
    uint64_t t0 = li == 0 ? lo : 0;
    uint64_t t1 = li == 1 ? lo : li == 0 ? hi : 0;
    uint64_t t2 = li == 2 ? lo : li == 1 ? hi : 0;
    if (bits >> 63) {
        /* two's complement negation */
        t0 = ~t0 + 1;
        const uint64_t c0 = t0 == 0;
        t1 = ~t1 + c0;
        const uint64_t c1 = c0 && t1 == 0;
        t2 = ~t2 + c1;
    }
    const gpussim_fx t = { { t0, t1, t2 } };
    fx_add(a, &t);
}

/*
 * Exact accumulation of a thread's few terms, without the fixed point's
 * per-term integer work. A term v = t * 2^-E (E: the caller's scale, a
 * power of two, so exact) with |v| < 2^8 splits without error into
 * hi + mid + rest, hi on the grid 2^-40 and mid on the grid 2^-84; rest
 * (|rest| <= 2^-85) is rounded to the grid 2^-128, at most 2^-129 off,
 * which is inside the n * 2^-128 the host allows for fx_add_double()'s
 * truncation. Each piece, and a sum of up to WSPLIT_TERMS of them, is an
 * integer multiple of its grid below 2^50 steps: plain double adds are
 * exact, and wsplit_to_fx() reads each sum out as an integer with one
 * multiply and one add (no conversion instruction).
 * wsplit_checked(|t|) is what the caller adds to the quantity's abs_sum:
 * NaN for a term outside the range (the host then reports the frame; it
 * cannot occur for SSIM's l, c, s and term, all within [-2, 2]).
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
    return abs_v < max ? abs_v : __longlong_as_double(0x7ff8000000000000ll);
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
    return __double_as_longlong(x + 0x1.8p52) - 0x4338000000000000ll;
}

/* a += the split sum s of terms scaled by 2^-E */
template <int E> GPU_DEVICE void wsplit_to_fx(gpussim_fx *a, const wsplit *s)
{
    fx_add_i64<88 + E>(a, exact_int(s->p[0] * 0x1p40));
    fx_add_i64<44 + E>(a, exact_int(s->p[1] * 0x1p84));
    fx_add_i64<E>(a, exact_int(s->p[2] * 0x1p128));
}

/*
 * The window kernels' sums of a thread's terms t[0 .. GPUSSIM_WSUM_N - 1]
 * from NT windows: split (above) where a thread scores several windows,
 * straight into the fixed point where it scores one.
 */
template <int NT> struct wterms {
    gpussim_cuda_wsums acc;
    wsplit sp[GPUSSIM_WSUM_N];
};

template <int NT> GPU_DEVICE void wterms_zero(wterms<NT> *w);
template <int NT> GPU_DEVICE void wterms_add(wterms<NT> *w, const double *t);
template <int NT> GPU_DEVICE void wterms_finish(wterms<NT> *w);

GPU_DEVICE void wsums_zero(gpussim_cuda_wsums *s)
{
    for (int k = 0; k < GPUSSIM_WSUM_N; k++) {
        fx_zero(&s->sum[k]);
        s->abs_sum[k] = 0.0;
    }
}

template <int NT> GPU_DEVICE void wterms_zero(wterms<NT> *w)
{
    static_assert(NT <= WSPLIT_TERMS, "a thread's windows exceed the split sums' range");
    wsums_zero(&w->acc);
    for (int q = 0; q < GPUSSIM_WSUM_N; q++)
        wsplit_zero(&w->sp[q]);
}

template <int NT> GPU_DEVICE void wterms_add(wterms<NT> *w, const double *t)
{
    for (int q = 0; q < GPUSSIM_WSUM_N; q++) {
        const double a = fabs(t[q]);
        if (NT > 1) {
            wsplit_add(&w->sp[q], t[q]);
            w->acc.abs_sum[q] += wsplit_checked(a, WSPLIT_MAX);
        } else {
            fx_add_double(&w->acc.sum[q], t[q]);
            w->acc.abs_sum[q] += a;
        }
    }
}

template <int NT> GPU_DEVICE void wterms_finish(wterms<NT> *w)
{
    if (NT > 1)
        for (int q = 0; q < GPUSSIM_WSUM_N; q++)
            wsplit_to_fx<0>(&w->acc.sum[q], &w->sp[q]);
}

/*
 * A gpussim_cuda_wsums is 16 64-bit fields: sum[q].limb[l] at q * 3 + l,
 * abs_sum[q] (bit pattern) at 12 + q. Per-block partials and the block
 * reduction scratch are laid out field-major ("structure of arrays"):
 * field f of entry i at [f][i]. Consecutive threads then touch consecutive
 * words — with one 128-byte struct per thread, every access of a warp would
 * fall into the same shared-memory bank (32-way conflicts) and every global
 * load would be uncoalesced.
 */
#define WS_ABS0 (GPUSSIM_WSUM_N * GPUSSIM_FX_LIMBS)

GPU_DEVICE double u64_as_double(uint64_t v)
{
    return __longlong_as_double((long long)v);
}

GPU_DEVICE void wsums_put(uint64_t *soa, size_t n, size_t i, const gpussim_cuda_wsums *a)
{
    for (int q = 0; q < GPUSSIM_WSUM_N; q++) {
        for (int l = 0; l < GPUSSIM_FX_LIMBS; l++)
            soa[(size_t)(q * GPUSSIM_FX_LIMBS + l) * n + i] = a->sum[q].limb[l];
        soa[(size_t)(WS_ABS0 + q) * n + i] = (uint64_t)gpu_double_bits(a->abs_sum[q]);
    }
}

/* Block-wide fixed-tree reduction of n entries (a power of two) in
 * field-major shared memory red[WS_FIELDS * n], by nthreads threads (no
 * warp-size assumption): at each level s, entry e < s takes in entry e + s.
 * The total lands in entry 0. Deterministic: the tree is fixed (and the
 * fixed-point sums are exact in any order). The four quantities of a pair
 * are independent tasks, spread over the threads, so that a level's
 * dependent loads and adds are a quarter as long as one thread's whole
 * entry; the tree, and so every bit of the result, is the same. */
GPU_DEVICE void wsums_block_reduce(uint64_t *red, int tid, int n, int nthreads)
{
    int lg = 0;
    while ((2 << lg) <= n)
        lg++;
    for (int s = n >> 1; s > 0; s >>= 1) {
        lg--; /* s == 1 << lg */
        GPU_SYNC();
        for (int task = tid; task < GPUSSIM_WSUM_N * s; task += nthreads) {
            const int q = task >> lg, e = task & (s - 1);
            gpussim_fx a, b;
            for (int l = 0; l < GPUSSIM_FX_LIMBS; l++) {
                a.limb[l] = red[(size_t)(q * GPUSSIM_FX_LIMBS + l) * n + e];
                b.limb[l] = red[(size_t)(q * GPUSSIM_FX_LIMBS + l) * n + e + s];
            }
            const double aa = u64_as_double(red[(size_t)(WS_ABS0 + q) * n + e]);
            const double ab = u64_as_double(red[(size_t)(WS_ABS0 + q) * n + e + s]);
            fx_add(&a, &b);
            for (int l = 0; l < GPUSSIM_FX_LIMBS; l++)
                red[(size_t)(q * GPUSSIM_FX_LIMBS + l) * n + e] = a.limb[l];
            red[(size_t)(WS_ABS0 + q) * n + e] = (uint64_t)gpu_double_bits(aa + ab);
        }
    }
    GPU_SYNC();
}

/* The end of every window kernel: the block's entries reduced, the total
 * written as entry `block` of the field-major partials array of `nblocks`. */
GPU_DEVICE void wsums_block_store(uint64_t *red, int tid, int nthreads,
                                  const gpussim_cuda_wsums *acc, uint64_t *partials,
                                  size_t nblocks, size_t block)
{
    GPU_SYNC(); /* red may alias the kernel's tile memory */
    wsums_put(red, (size_t)nthreads, (size_t)tid, acc);
    wsums_block_reduce(red, tid, nthreads, nthreads);
    if (tid < WS_FIELDS)
        partials[(size_t)tid * nblocks + block] = red[(size_t)tid * nthreads];
}

#endif /* GPUSSIM_CUDA_COMMON_CUH */
