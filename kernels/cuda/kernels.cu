/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * gpussim CUDA kernels (driver-API loaded, no runtime API).
 *
 * Every per-element operation is the CPU reference's (the kernels/c files) in the
 * same float/double typing and order; the file is compiled with
 * --fmad=false (see hwctx/cuda/cuda.am) so no a*b+c becomes an FMA. Frame sums are
 * accumulated exactly (192-bit fixed point, struct gpussim_fx), which makes
 * them independent of the reduction order; the host then rounds them as the
 * reference's raster-order sums round (hwctx/gpu/gpu_plan.c, spec §5).
 *
 * Every kernel that reads a picture reads it in place through the frame
 * descriptor (8/16-bit, planar or interleaved, MSB-aligned: raw_sample()).
 * Kernels, in the order a frame runs them:
 *   ssim_decimate_box      float_ssim decimation (spec §1.2)
 *   msssim_decimate_lpf_*  MS-SSIM 9x9 pyramid step (spec §2.3)
 *   ssim_windows_*         11x11 Gaussian windows -> per-block exact sums (spec §1.3-1.6)
 *   ansnr_rows             filtered planes -> per-row float sums (spec §3)
 *   issim_windows          integer SSIM -> per-block exact sums (spec §4)
 *   reduce_partials        per-block partials -> the frame's result block
 * A ladder frame (one reference, several distorted pictures) runs the same
 * arithmetic through its own entry points: the decimations one picture per
 * blockIdx.z (_one), the window kernels a tile's reference moments once
 * and then a group of distorted pictures (_ladder), ANSNR's reference once
 * (_ref) and the distorted pictures against it (_dis).
 */
#include "gpu_compat.h"
#include "metric_tables.h"
#include "cuda_shared.h"

#define SSIM_K GPUSSIM_GAUSSIAN11_LEN
#define LPF_K GPUSSIM_MSSSIM_LPF_LEN
#define ISSIM_K GPUSSIM_ISSIM_LEN

GPU_CONSTANT float gauss11[SSIM_K] = { GPUSSIM_GAUSSIAN11_TAPS };
GPU_CONSTANT float msssim_lpf[LPF_K * LPF_K] = { GPUSSIM_MSSSIM_LPF_TAPS };
GPU_CONSTANT int issim_taps[ISSIM_K] = { GPUSSIM_ISSIM_TAPS };

/* ---- helpers -------------------------------------------------------------- */

/* spec §0: (float)v / scaler + offset. scaler is a power of two, so the
 * quotient equals the product with its exact reciprocal (inv_scaler, made
 * on the host), bit for bit, without a division per sample. */
/* (float)v for v < 2^23 without the conversion unit: 2^23 + v is a float,
 * exactly, and so is the difference */
GPU_DEVICE float sample_to_float_u23(uint32_t v)
{
    return gpu_bits_float(0x4B000000u | v) - 8388608.0f;
}

GPU_DEVICE float sample_to_float(uint16_t v, float inv_scaler, float offset)
{
    return sample_to_float_u23(v) * inv_scaler + offset;
}

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
 * The kernels read the pictures in place (CUDA frames, or the host
 * pictures' device copies) through the frame descriptor: a raw_plane is one
 * component of one picture plane, unpacked per sample as the CPU backend's
 * unpack_component() does (MSB shift, interleave step, mask).
 */
struct raw_plane {
    const uint8_t *base;
    long long pitch;
    int bytes_per_sample, first, step, shift;
    unsigned mask;
};

GPU_DEVICE raw_plane raw_plane_of(const gpussim_cuda_frame_desc *desc, int k,
                                  const gpussim_cuda_plane_fmt &f)
{
    raw_plane p;
    p.base = (const uint8_t *)desc->src[k][f.src_plane];
    p.pitch = desc->pitch[k][f.src_plane];
    p.bytes_per_sample = f.bytes_per_sample;
    p.first = f.first;
    p.step = f.step;
    p.shift = f.shift;
    p.mask = f.mask;
    return p;
}

GPU_DEVICE uint16_t raw_sample(const raw_plane &p, int x, int y)
{
    const uint8_t *row = p.base + (long long)y * p.pitch;
    if (p.bytes_per_sample == 1)
        return row[p.first + x * p.step];
    return (uint16_t)((((const uint16_t *)row)[p.first + x * p.step] >> p.shift) & p.mask);
}

GPU_DEVICE float load_plane(const raw_plane &p, int w, int x, int y, float inv_scaler)
{
    (void)w;
    return sample_to_float(raw_sample(p, x, y), inv_scaler, 0.0f);
}

GPU_DEVICE float load_plane(const float *p, int w, int x, int y, float inv_scaler)
{
    (void)inv_scaler;
    return p[(size_t)y * w + x];
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

/* ANSNR's asymmetric reflection (spec §3.3). */
GPU_DEVICE int ansnr_reflect(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - i - 1;
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

GPU_DEVICE void wsums_zero(gpussim_cuda_wsums *s)
{
    for (int k = 0; k < GPUSSIM_WSUM_N; k++) {
        fx_zero(&s->sum[k]);
        s->abs_sum[k] = 0.0;
    }
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

/* ---- decimation ----------------------------------------------------------- */

/* float_ssim box decimation (spec §1.2). A pair's kernel (ONE false)
 * decimates pictures 0 and 1 together into out and out + out_stride; a
 * ladder's (ONE true) decimates picture blockIdx.z alone into
 * out + z * out_stride, so that the reference is decimated once. For a
 * power-of-two factor the tap 1/factor^2 and 1/scaler are powers of two,
 * so every term sample * k is exact, their double sum (at most 64 terms of
 * 16 bits: < 2^22 units of 2^-(bits)) is exact and so is its rounding to
 * float: the result is the integer sum of the samples times scaler * k. */
template <bool ONE>
__device__ void ssim_decimate_box(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt,
                                  int w, int h, float inv_scaler, int factor, float *out,
                                  long long out_stride, int sw, int sh)
{
    const int x = GPU_BID_X * GPU_BDIM_X + GPU_TID_X;
    const int y = GPU_BID_Y * GPU_BDIM_Y + GPU_TID_Y;
    if (x >= sw || y >= sh)
        return;
    const int pic = ONE ? GPU_BID_Z : 0;
    const raw_plane ref = raw_plane_of(desc, pic, fmt), dis = raw_plane_of(desc, ONE ? pic : 1, fmt);
    float *const out_ref = out + (long long)pic * out_stride, *const out_dis = out + out_stride;
    const int lo = -(factor / 2), hi = (factor & 1) ? factor / 2 : factor / 2 - 1;
    const float k = 1.0f / (factor * factor);
    if ((factor & (factor - 1)) == 0) {
        uint32_t sr = 0, sd = 0;
        for (int v = lo; v <= hi; v++) {
            const int iy = mirror_hss(y * factor + v, h);
            for (int u = lo; u <= hi; u++) {
                const int ix = mirror_hss(x * factor + u, w);
                sr += raw_sample(ref, ix, iy);
                if (!ONE)
                    sd += raw_sample(dis, ix, iy);
            }
        }
        const float unit = inv_scaler * k;
        out_ref[(size_t)y * sw + x] = sample_to_float_u23(sr) * unit;
        if (!ONE)
            out_dis[(size_t)y * sw + x] = sample_to_float_u23(sd) * unit;
        return;
    }
    double ar = 0.0, ad = 0.0;
    for (int v = lo; v <= hi; v++) {
        const int iy = mirror_hss(y * factor + v, h);
        for (int u = lo; u <= hi; u++) {
            const int ix = mirror_hss(x * factor + u, w);
            ar += (double)(load_plane(ref, w, ix, iy, inv_scaler) * k);
            if (!ONE)
                ad += (double)(load_plane(dis, w, ix, iy, inv_scaler) * k);
        }
    }
    out_ref[(size_t)y * sw + x] = (float)ar;
    if (!ONE)
        out_dis[(size_t)y * sw + x] = (float)ad;
}

#define SSIM_DECIMATE_BOX_KERNEL(name, ONE)                                                     \
    GPU_KERNEL void name(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w, \
                         int h, float inv_scaler, int factor, float *out, long long out_stride,  \
                         int sw, int sh)                                                        \
    {                                                                                           \
        ssim_decimate_box<ONE>(desc, fmt, w, h, inv_scaler, factor, out, out_stride, sw, sh);   \
    }
SSIM_DECIMATE_BOX_KERNEL(ssim_decimate_box, false)
SSIM_DECIMATE_BOX_KERNEL(ssim_decimate_box_one, true)

/*
 * MS-SSIM 2:1 decimation with the 9x9 table (spec §2.3), taps row-major,
 * one output per thread. The block's (mirrored) input window is converted
 * once into shared memory, split into even and odd columns so that the
 * stride-2 taps of neighbouring outputs are contiguous (no bank conflicts).
 */
#define LPF_R (LPF_K / 2)
#define LPF_IN_H (2 * (LPF_BY - 1) + LPF_K)   /* input rows of one block */
#define LPF_IN_HALF (LPF_BX + LPF_R)          /* columns of one parity */

/* ONE: ref alone (a ladder's layer: one picture per blockIdx.z), dis unused */
template <typename T, bool EXACT, bool ONE>
__device__ void msssim_decimate_lpf(const T &ref, const T &dis, int w, int h, float inv_scaler,
                                    float *out_ref, float *out_dis, int sw, int sh)
{
    __shared__ float in[ONE ? 1 : 2][2][LPF_IN_H][LPF_IN_HALF + 1]; /* [plane][parity][row][j] */
    const int tx = GPU_TID_X, ty = GPU_TID_Y, tid = ty * LPF_BX + tx;
    const int x0 = GPU_BID_X * LPF_BX, y0 = GPU_BID_Y * LPF_BY;

    /* input column 2*x0 - R + c, row 2*y0 - R + r; positions no output
     * needs (past 2*sw + 2 / 2*sh + 2) are not read, so the mirror never
     * leaves the plane */
    for (int i = tid; i < LPF_IN_H * 2 * LPF_IN_HALF; i += LPF_BX * LPF_BY) {
        const int r = i / (2 * LPF_IN_HALF), c = i % (2 * LPF_IN_HALF);
        const int iy = 2 * y0 - LPF_R + r, ix = 2 * x0 - LPF_R + c;
        float rv = 0.0f, dv = 0.0f;
        if (iy <= 2 * sh + 2 && ix <= 2 * sw + 2) {
            const int my = mirror_hss(iy, h), mx = mirror_hss(ix, w);
            rv = load_plane(ref, w, mx, my, inv_scaler);
            if (!ONE)
                dv = load_plane(dis, w, mx, my, inv_scaler);
        }
        in[0][c & 1][r][c >> 1] = rv;
        if (!ONE)
            in[ONE ? 0 : 1][c & 1][r][c >> 1] = dv;
    }
    GPU_SYNC();

    const int x = x0 + tx, y = y0 + ty;
    if (x >= sw || y >= sh)
        return;
    double ar = 0.0, ad = 0.0;
    if (EXACT) {
        /* Level 0: every sample is +0 or >= 2^-8, every tap >= 2^-11.8 in
         * magnitude and sum |tap| < 2, so every term is a multiple of
         * 2^-43 and every partial sum is below 2^9: the reference's double
         * sum is exact, in any order. The terms of positive and of negative
         * taps are then summed apart (fl(p * -t) = -fl(p * t), terms +0 or
         * >= 2^-20: nonneg_f2d applies) and subtracted once, exactly. */
        constexpr float taps[LPF_K * LPF_K] = { GPUSSIM_MSSSIM_LPF_TAPS }; /* signs known */
        double nr = 0.0, nd = 0.0;
#pragma unroll
        for (int v = 0; v < LPF_K; v++) {
            const int r = 2 * ty + v;
#pragma unroll
            for (int u = 0; u < LPF_K; u++) {
                const float tap = taps[v * LPF_K + u];
                const float mag = fabsf(tap);
                const float pr = in[0][u & 1][r][tx + (u >> 1)] * mag;
                const float pd = ONE ? 0.0f : in[ONE ? 0 : 1][u & 1][r][tx + (u >> 1)] * mag;
                /* negative taps' terms widened on the conversion unit
                 * (exact, one instruction), positive ones with integer
                 * operations: the kernel is issue-bound, this balances
                 * the pipes */
                const double tr = tap < 0.0f ? (double)pr : nonneg_f2d(pr);
                const double td = tap < 0.0f ? (double)pd : nonneg_f2d(pd);
                if (tap > 0.0f) {
                    ar += tr;
                    ad += td;
                } else {
                    nr += tr;
                    nd += td;
                }
            }
        }
        ar = flush_residue(ar - nr);
        ad = flush_residue(ad - nd);
    } else {
        for (int v = 0; v < LPF_K; v++) {
            const int r = 2 * ty + v;
            for (int u = 0; u < LPF_K; u++) {
                const float tap = msssim_lpf[v * LPF_K + u];
                ar += (double)(in[0][u & 1][r][tx + (u >> 1)] * tap);
                if (!ONE)
                    ad += (double)(in[ONE ? 0 : 1][u & 1][r][tx + (u >> 1)] * tap);
            }
        }
    }
    out_ref[(size_t)y * sw + x] = (float)ar;
    if (!ONE)
        out_dis[(size_t)y * sw + x] = (float)ad;
}

/* A pair's kernels decimate pictures 0 and 1 together (out, out +
 * out_stride; f32: the levels in, in + in_stride); a ladder's (_one) one
 * picture per blockIdx.z, the reference (z = 0) once. */
GPU_KERNEL void __launch_bounds__(LPF_BX * LPF_BY)
msssim_decimate_lpf_raw(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w,
                        int h, float inv_scaler, float *out, long long out_stride, int sw, int sh)
{
    const raw_plane ref = raw_plane_of(desc, 0, fmt), dis = raw_plane_of(desc, 1, fmt);
    msssim_decimate_lpf<raw_plane, true, false>(ref, dis, w, h, inv_scaler, out, out + out_stride,
                                                sw, sh);
}

GPU_KERNEL void __launch_bounds__(LPF_BX * LPF_BY)
msssim_decimate_lpf_raw_one(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt,
                            int w, int h, float inv_scaler, float *out, long long out_stride,
                            int sw, int sh)
{
    const raw_plane pic = raw_plane_of(desc, GPU_BID_Z, fmt);
    msssim_decimate_lpf<raw_plane, true, true>(pic, pic, w, h, inv_scaler,
                                               out + GPU_BID_Z * out_stride, NULL, sw, sh);
}

GPU_KERNEL void __launch_bounds__(LPF_BX * LPF_BY)
msssim_decimate_lpf_f32(const float *in, long long in_stride, int w, int h, float inv_scaler,
                        float *out, long long out_stride, int sw, int sh)
{
    const float *r = in, *d = in + in_stride;
    msssim_decimate_lpf<const float *, false, false>(r, d, w, h, inv_scaler, out, out + out_stride,
                                                     sw, sh);
}

GPU_KERNEL void __launch_bounds__(LPF_BX * LPF_BY)
msssim_decimate_lpf_f32_one(const float *in, long long in_stride, int w, int h, float inv_scaler,
                            float *out, long long out_stride, int sw, int sh)
{
    const float *p = in + GPU_BID_Z * in_stride;
    msssim_decimate_lpf<const float *, false, true>(p, p, w, h, inv_scaler,
                                                    out + GPU_BID_Z * out_stride, NULL, sw, sh);
}

/* ---- SSIM windows ---------------------------------------------------------- */

/* Each block computes a WIN_TW x TH tile of valid-mode windows with
 * WIN_BX x WIN_BY threads, each thread TH / WIN_BY windows of one column.
 * The horizontal pass covers the tile's TH + 10 input rows, so the 5 moment
 * planes never leave shared memory. TH = 32 keeps the horizontal overlap
 * small on large planes; TH = 8 spreads small planes over more blocks. */
#define WIN_IN_W (WIN_TW + SSIM_K - 1)
#define WIN_IN_PITCH (WIN_IN_W + 1)

template <int TH> struct ssim_tile_smem {
    float in[2][TH + SSIM_K - 1][WIN_IN_PITCH];
    float mom[5][TH + SSIM_K - 1][WIN_TW];
};

template <int TH> union ssim_smem {
    ssim_tile_smem<TH> tile;
    uint64_t red[WS_FIELDS * WIN_BX * WIN_BY];
};

/* Per-window l, c, s, term with the reference's typing (spec §1.5), as
 * ssim_window_terms() in kernels/c/ssim_window.c. */
GPU_DEVICE void ssim_window_terms(float mx, float my, float exx, float eyy, float exy, double *t,
                                  double *lo, double *co, double *so)
{
    const float C1 = (GPUSSIM_SSIM_K1 * GPUSSIM_SSIM_L) * (GPUSSIM_SSIM_K1 * GPUSSIM_SSIM_L);
    const float C2 = (GPUSSIM_SSIM_K2 * GPUSSIM_SSIM_L) * (GPUSSIM_SSIM_K2 * GPUSSIM_SSIM_L);
    const float C3 = C2 / 2.0f;
    float sx2 = exx - mx * mx;
    float sy2 = eyy - my * my;
    sx2 = 0.0f > sx2 ? 0.0f : sx2;
    sy2 = 0.0f > sy2 ? 0.0f : sy2;
    const float sxy = exy - mx * my;
    const float sxsy = (float)sqrt((double)(sx2 * sy2));
    const double l = (2.0 * mx * my + C1) / (mx * mx + my * my + C1);
    const double c = (2.0 * sxsy + C2) / (sx2 + sy2 + C2);
    const float sxy_c = (sxy < 0.0f && sxsy <= 0.0f) ? 0.0f : sxy;
    const double s = (sxy_c + C3) / (sxsy + C3);
    *t = l * c * s;
    *lo = l;
    *co = c;
    *so = s;
}

/*
 * NN: the window's input samples are +0 or >= 2^-8 / scale^2: a picture's
 * samples (>= 2^-8), or float_ssim's box decimation of one (a sum of
 * terms sample * 1/scale^2). Then every horizontal term is +0 or
 * >= 2^-26 / scale^4 (taps > 2^-10), so is every horizontal moment, and
 * every vertical term is +0 or >= 2^-36 / scale^4, i.e. >= 2^-70 for any
 * scale up to 300: nonneg_f2d applies (see there). MS-SSIM's levels 1-4
 * have negative samples (the pyramid filter has negative taps): !NN there.
 */
template <bool NN> GPU_DEVICE double widen(float f)
{
    return NN ? nonneg_f2d(f) : (double)f;
}

template <bool NN> GPU_DEVICE double unresidue(double a)
{
    return NN ? flush_residue(a) : a;
}

template <typename T, int TH, bool NN>
__device__ void ssim_windows(const T &ref, const T &dis, int w, int h, float inv_scaler,
                             uint64_t *partials)
{
    const int WIN_IN_H = TH + SSIM_K - 1;
    /* The passes are issue-bound: the horizontal one widens on the
     * conversion unit (one instruction), the vertical one with integer
     * operations where NN holds (three, on otherwise idle pipes), which
     * balances the two (H100: MS-SSIM level 0 -3 %, bit-identical). */
    constexpr bool HN = false, VN = NN;
    __shared__ __align__(16) ssim_smem<TH> sm;
    const int tx = GPU_TID_X, ty = GPU_TID_Y, tid = ty * WIN_BX + tx;
    const int x0 = GPU_BID_X * WIN_TW, y0 = GPU_BID_Y * TH;
    const int ow = w - (SSIM_K - 1), oh = h - (SSIM_K - 1);

    for (int i = tid; i < WIN_IN_W * WIN_IN_H; i += WIN_BX * WIN_BY) {
        const int r = i / WIN_IN_W, c = i % WIN_IN_W;
        const int gx = x0 + c, gy = y0 + r;
        float rv = 0.0f, dv = 0.0f;
        if (gx < w && gy < h) {
            rv = load_plane(ref, w, gx, gy, inv_scaler);
            dv = load_plane(dis, w, gx, gy, inv_scaler);
        }
        sm.tile.in[0][r][c] = rv;
        sm.tile.in[1][r][c] = dv;
    }
    GPU_SYNC();

    /* horizontal pass (spec §1.4): double sum of float products, left to right */
    for (int i = tid; i < WIN_TW * WIN_IN_H; i += WIN_BX * WIN_BY) {
        const int r = i / WIN_TW, c = i % WIN_TW;
        double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0;
        for (int u = 0; u < SSIM_K; u++) {
            const float k = gauss11[u];
            const float rv = sm.tile.in[0][r][c + u], dv = sm.tile.in[1][r][c + u];
            a0 += widen<HN>(rv * k);
            a1 += widen<HN>(dv * k);
            a2 += widen<HN>((rv * rv) * k);
            a3 += widen<HN>((dv * dv) * k);
            a4 += widen<HN>((rv * dv) * k);
        }
        sm.tile.mom[0][r][c] = (float)unresidue<HN>(a0);
        sm.tile.mom[1][r][c] = (float)unresidue<HN>(a1);
        sm.tile.mom[2][r][c] = (float)unresidue<HN>(a2);
        sm.tile.mom[3][r][c] = (float)unresidue<HN>(a3);
        sm.tile.mom[4][r][c] = (float)unresidue<HN>(a4);
    }
    GPU_SYNC();

    gpussim_cuda_wsums acc;
    wsums_zero(&acc);
    const int gx = x0 + tx;
    for (int k = 0; k < TH / WIN_BY; k++) {
        const int oy = ty + k * WIN_BY, gy = y0 + oy;
        if (gx >= ow || gy >= oh)
            continue;
        float m[5];
        for (int q = 0; q < 5; q++) {
            double a = 0.0;
            for (int v = 0; v < SSIM_K; v++)
                a += widen<VN>(sm.tile.mom[q][oy + v][tx] * gauss11[v]);
            m[q] = (float)unresidue<VN>(a);
        }
        double t[GPUSSIM_WSUM_N];
        ssim_window_terms(m[0], m[1], m[2], m[3], m[4], &t[GPUSSIM_WSUM_TERM],
                          &t[GPUSSIM_WSUM_L], &t[GPUSSIM_WSUM_C], &t[GPUSSIM_WSUM_S]);
        for (int q = 0; q < GPUSSIM_WSUM_N; q++) {
            fx_add_double(&acc.sum[q], t[q]);
            acc.abs_sum[q] += fabs(t[q]);
        }
    }
    /* the tile is dead; its memory becomes the reduction scratch */
    wsums_block_store(sm.red, tid, WIN_BX * WIN_BY, &acc, partials,
                      (size_t)GPU_GDIM_X * gridDim.y, (size_t)GPU_BID_Y * GPU_GDIM_X + GPU_BID_X);
}

/*
 * A ladder's windows: picture 0 (the reference) against distorted pictures
 * r0 .. r1 - 1 (pictures 1 + r), one block per tile for all of them. The
 * reference's tile, horizontal moments and vertical moments (mu_x, E[x^2])
 * are computed once per block; each distorted picture then loads its tile
 * and computes its own moments (mu_y, E[y^2]) and the cross moment E[xy].
 * Every moment is its own accumulation, in the pair kernel's order, so
 * every window's terms and every block's partials (picture r's at
 * partials + r * part_stride) are the pair kernel's, bit for bit.
 */
template <int TH> struct ssim_ladder_smem {
    float in_ref[TH + SSIM_K - 1][WIN_IN_PITCH];
    float mom_ref[2][TH][WIN_TW]; /* vertical: mu_x, E[x^2] */
    union {
        struct {
            float in[TH + SSIM_K - 1][WIN_IN_PITCH];
            float mom[3][TH + SSIM_K - 1][WIN_TW];
        } dis; /* also the reference's horizontal moments, before the loop */
        uint64_t red[WS_FIELDS * WIN_BX * WIN_BY];
    } u;
};

/* The pictures a kernel reads: the frame descriptor's (level 0) or float
 * planes `stride` floats apart (pyramid levels, float_ssim's box planes). */
struct raw_pictures {
    const gpussim_cuda_frame_desc *desc;
    gpussim_cuda_plane_fmt fmt;
};

struct f32_pictures {
    const float *planes;
    long long stride;
};

GPU_DEVICE raw_plane picture(const raw_pictures &p, int k)
{
    return raw_plane_of(p.desc, k, p.fmt);
}

GPU_DEVICE const float *picture(const f32_pictures &p, int k)
{
    return p.planes + k * p.stride;
}

template <typename P, int TH, bool NN>
__device__ void ssim_windows_ladder(const P &pics, int r0, int r1, int w, int h, float inv_scaler,
                                    uint64_t *partials, long long part_stride)
{
    const int WIN_IN_H = TH + SSIM_K - 1;
    constexpr bool HN = false, VN = NN; /* as ssim_windows() */
    __shared__ __align__(16) ssim_ladder_smem<TH> sm;
    const int tx = GPU_TID_X, ty = GPU_TID_Y, tid = ty * WIN_BX + tx;
    const int x0 = GPU_BID_X * WIN_TW, y0 = GPU_BID_Y * TH;
    const int ow = w - (SSIM_K - 1), oh = h - (SSIM_K - 1);
    const int gx = x0 + tx;

    const auto ref = picture(pics, 0);
    for (int i = tid; i < WIN_IN_W * WIN_IN_H; i += WIN_BX * WIN_BY) {
        const int r = i / WIN_IN_W, c = i % WIN_IN_W;
        const int ix = x0 + c, iy = y0 + r;
        sm.in_ref[r][c] = ix < w && iy < h ? load_plane(ref, w, ix, iy, inv_scaler) : 0.0f;
    }
    GPU_SYNC();
    /* the reference's horizontal moments 0 and 2 (spec §1.4) */
    for (int i = tid; i < WIN_TW * WIN_IN_H; i += WIN_BX * WIN_BY) {
        const int r = i / WIN_TW, c = i % WIN_TW;
        double a0 = 0.0, a2 = 0.0;
        for (int u = 0; u < SSIM_K; u++) {
            const float k = gauss11[u];
            const float rv = sm.in_ref[r][c + u];
            a0 += widen<HN>(rv * k);
            a2 += widen<HN>((rv * rv) * k);
        }
        sm.u.dis.mom[0][r][c] = (float)unresidue<HN>(a0);
        sm.u.dis.mom[1][r][c] = (float)unresidue<HN>(a2);
    }
    GPU_SYNC();
    for (int k = 0; k < TH / WIN_BY; k++) {
        const int oy = ty + k * WIN_BY;
        for (int q = 0; q < 2; q++) {
            double a = 0.0;
            for (int v = 0; v < SSIM_K; v++)
                a += widen<VN>(sm.u.dis.mom[q][oy + v][tx] * gauss11[v]);
            sm.mom_ref[q][oy][tx] = (float)unresidue<VN>(a);
        }
    }

    for (int pic = r0; pic < r1; pic++) {
        const auto dis = picture(pics, 1 + pic);
        /* the barrier: the reference's moments (first pass) or the previous
         * picture's reduction (later passes) are done with this memory */
        GPU_SYNC();
        for (int i = tid; i < WIN_IN_W * WIN_IN_H; i += WIN_BX * WIN_BY) {
            const int r = i / WIN_IN_W, c = i % WIN_IN_W;
            const int ix = x0 + c, iy = y0 + r;
            sm.u.dis.in[r][c] = ix < w && iy < h ? load_plane(dis, w, ix, iy, inv_scaler) : 0.0f;
        }
        GPU_SYNC();
        /* moments 1, 3, 4 (mu_y, E[y^2], E[xy]) */
        for (int i = tid; i < WIN_TW * WIN_IN_H; i += WIN_BX * WIN_BY) {
            const int r = i / WIN_TW, c = i % WIN_TW;
            double a1 = 0.0, a3 = 0.0, a4 = 0.0;
            for (int u = 0; u < SSIM_K; u++) {
                const float k = gauss11[u];
                const float rv = sm.in_ref[r][c + u], dv = sm.u.dis.in[r][c + u];
                a1 += widen<HN>(dv * k);
                a3 += widen<HN>((dv * dv) * k);
                a4 += widen<HN>((rv * dv) * k);
            }
            sm.u.dis.mom[0][r][c] = (float)unresidue<HN>(a1);
            sm.u.dis.mom[1][r][c] = (float)unresidue<HN>(a3);
            sm.u.dis.mom[2][r][c] = (float)unresidue<HN>(a4);
        }
        GPU_SYNC();

        gpussim_cuda_wsums acc;
        wsums_zero(&acc);
        for (int k = 0; k < TH / WIN_BY; k++) {
            const int oy = ty + k * WIN_BY, gy = y0 + oy;
            if (gx >= ow || gy >= oh)
                continue;
            float m[3];
            for (int q = 0; q < 3; q++) {
                double a = 0.0;
                for (int v = 0; v < SSIM_K; v++)
                    a += widen<VN>(sm.u.dis.mom[q][oy + v][tx] * gauss11[v]);
                m[q] = (float)unresidue<VN>(a);
            }
            double t[GPUSSIM_WSUM_N];
            ssim_window_terms(sm.mom_ref[0][oy][tx], m[0], sm.mom_ref[1][oy][tx], m[1], m[2],
                              &t[GPUSSIM_WSUM_TERM], &t[GPUSSIM_WSUM_L], &t[GPUSSIM_WSUM_C],
                              &t[GPUSSIM_WSUM_S]);
            for (int q = 0; q < GPUSSIM_WSUM_N; q++) {
                fx_add_double(&acc.sum[q], t[q]);
                acc.abs_sum[q] += fabs(t[q]);
            }
        }
        wsums_block_store(sm.u.red, tid, WIN_BX * WIN_BY, &acc, partials + pic * part_stride,
                          (size_t)GPU_GDIM_X * gridDim.y,
                          (size_t)GPU_BID_Y * GPU_GDIM_X + GPU_BID_X);
    }
}

/* A pair's window kernels (pictures 0 and 1; f32: planes, planes + stride)
 * and a ladder's (_ladder: blockIdx.z scores distorted pictures
 * z * group .. z * group + group - 1, at most nb_dis). */
#define SSIM_WINDOWS_RAW_KERNEL(name, TH)                                                   \
    GPU_KERNEL void __launch_bounds__(WIN_BX * WIN_BY, 4)                                   \
    name(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w, int h,     \
         float inv_scaler, uint64_t *partials)                                              \
    {                                                                                       \
        const raw_plane ref = raw_plane_of(desc, 0, fmt), dis = raw_plane_of(desc, 1, fmt); \
        ssim_windows<raw_plane, TH, true>(ref, dis, w, h, inv_scaler, partials);            \
    }                                                                                       \
    GPU_KERNEL void __launch_bounds__(WIN_BX * WIN_BY, 4)                                   \
    name##_ladder(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w,   \
                  int h, float inv_scaler, uint64_t *partials, long long part_stride,       \
                  int group, int nb_dis)                                                    \
    {                                                                                       \
        const raw_pictures pics = { desc, fmt };                                            \
        const int r0 = GPU_BID_Z * group, r1 = r0 + group < nb_dis ? r0 + group : nb_dis;   \
        ssim_windows_ladder<raw_pictures, TH, true>(pics, r0, r1, w, h, inv_scaler,         \
                                                    partials, part_stride);                 \
    }
#define SSIM_WINDOWS_F32_KERNEL(name, TH, NN)                                               \
    GPU_KERNEL void __launch_bounds__(WIN_BX * WIN_BY, 4)                                   \
    name(const float *planes, long long stride, int w, int h, float inv_scaler,             \
         uint64_t *partials)                                                                \
    {                                                                                       \
        const float *ref = planes, *dis = planes + stride;                                  \
        ssim_windows<const float *, TH, NN>(ref, dis, w, h, inv_scaler, partials);          \
    }                                                                                       \
    GPU_KERNEL void __launch_bounds__(WIN_BX * WIN_BY, 4)                                   \
    name##_ladder(const float *planes, long long stride, int w, int h, float inv_scaler,    \
                  uint64_t *partials, long long part_stride, int group, int nb_dis)         \
    {                                                                                       \
        const f32_pictures pics = { planes, stride };                                       \
        const int r0 = GPU_BID_Z * group, r1 = r0 + group < nb_dis ? r0 + group : nb_dis;   \
        ssim_windows_ladder<f32_pictures, TH, NN>(pics, r0, r1, w, h, inv_scaler, partials, \
                                                  part_stride);                             \
    }
SSIM_WINDOWS_RAW_KERNEL(ssim_windows_raw_t32, WIN_TH_TALL)
SSIM_WINDOWS_RAW_KERNEL(ssim_windows_raw_t8, WIN_TH_SHORT)
SSIM_WINDOWS_F32_KERNEL(ssim_windows_f32_t32, WIN_TH_TALL, false)
SSIM_WINDOWS_F32_KERNEL(ssim_windows_f32_t8, WIN_TH_SHORT, false)
/* float_ssim's decimated planes */
SSIM_WINDOWS_F32_KERNEL(ssim_windows_dec_t32, WIN_TH_TALL, true)
SSIM_WINDOWS_F32_KERNEL(ssim_windows_dec_t8, WIN_TH_SHORT, true)

/* ---- ANSNR ----------------------------------------------------------------- */

/*
 * Each block owns ANSNR_ROWS rows and walks them left to right in chunks of
 * ANSNR_CHUNK columns. The row sums must be the reference's: one float
 * chain per row, left to right (spec §3.4), so they are a sequential
 * dependency of w adds per row. The block is split by role so that this
 * chain never waits for the filtering: ANSNR_FILTER_THREADS threads filter
 * chunk k (each one column, ANSNR_ROWS / 2 rows, the taps' inputs reused
 * from registers) and store the products r*r and (r-d)^2, while the last
 * warp adds chunk k-1's products to its rows' sums; the input of chunk k+1
 * is loaded meanwhile (double buffers, one barrier per chunk).
 * reduce_partials adds the rows' floats top to bottom.
 */
#define ANSNR_PAD 2 /* half of the larger (5x5) filter */
#define ANSNR_IN_H (ANSNR_ROWS + 2 * ANSNR_PAD)
#define ANSNR_IN_W (ANSNR_CHUNK + 2 * ANSNR_PAD)
#define ANSNR_LOADS ((ANSNR_IN_H * ANSNR_IN_W + ANSNR_FILTER_THREADS - 1) / ANSNR_FILTER_THREADS)

/* The reference's filter taps: double quotients rounded to float,
 * compile-time constants. */
GPU_DEVICE float ansnr_ref_coef(int i)
{
    const int wt[GPUSSIM_ANSNR_REF_LEN * GPUSSIM_ANSNR_REF_LEN] = { GPUSSIM_ANSNR_REF_WEIGHTS };
    return GPUSSIM_ANSNR_COEF(wt[i], GPUSSIM_ANSNR_REF_DIV);
}

GPU_DEVICE float ansnr_dis_coef(int i)
{
    const int wt[GPUSSIM_ANSNR_DIS_LEN * GPUSSIM_ANSNR_DIS_LEN] = { GPUSSIM_ANSNR_DIS_WEIGHTS };
    return GPUSSIM_ANSNR_COEF(wt[i], GPUSSIM_ANSNR_DIS_DIV);
}

/*
 * MODE: a pair (A_PAIR: picture 1 against picture 0, both row sums); a
 * ladder's reference (A_REF: picture 0's filtered plane into ref_plane
 * (w x h floats) and the signal row sums, once); a ladder's distorted
 * picture 1 + blockIdx.z (A_DIS: its filter against ref_plane, the noise
 * row sums at row_noise + blockIdx.z * rows_stride). Each value is the
 * pair's (the same float operations; the filtered reference goes through
 * memory unchanged).
 */
enum { A_PAIR, A_REF, A_DIS };

template <int MODE>
__device__ void ansnr_rows(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w,
                           int h, float inv_scaler, float *row_sig, float *row_noise,
                           float *ref_plane)
{
    constexpr bool REF = MODE != A_DIS, DIS = MODE != A_REF;
    const raw_plane ref = raw_plane_of(desc, 0, fmt);
    const raw_plane dis = raw_plane_of(desc, MODE == A_DIS ? 1 + GPU_BID_Z : 1, fmt);
    const int RK = GPUSSIM_ANSNR_REF_LEN, DK = GPUSSIM_ANSNR_DIS_LEN;
    const int HR = ANSNR_ROWS / 2; /* rows per filter thread */
    __shared__ float in[2][2][ANSNR_IN_H][ANSNR_IN_W];         /* [buf][ref, dis] */
    __shared__ float prod[2][2][ANSNR_ROWS][ANSNR_CHUNK + 1]; /* [buf][sig, noise] */
    const int tid = GPU_TID_X;
    const int y0 = GPU_BID_X * ANSNR_ROWS;
    const int nchunks = (w + ANSNR_CHUNK - 1) / ANSNR_CHUNK;
    const bool filter = tid < ANSNR_FILTER_THREADS;
    uint16_t raw[2][ANSNR_LOADS];

    /* input row rr of a chunk holds image row reflect(y0 + rr - PAD), column
     * cc image column reflect(c0 + cc - PAD); positions past the last needed
     * one (and past h + 1 / w + 1) are never read */
#define ANSNR_FETCH(c0)                                                                      \
    for (int l = 0; l < ANSNR_LOADS; l++) {                                                  \
        const int i = tid + l * ANSNR_FILTER_THREADS;                                        \
        const int rr = i / ANSNR_IN_W, cc = i % ANSNR_IN_W;                                  \
        const int yy = y0 + rr - ANSNR_PAD, xx = (c0) + cc - ANSNR_PAD;                      \
        raw[0][l] = raw[1][l] = 0;                                                           \
        if (i < ANSNR_IN_H * ANSNR_IN_W && yy < h + ANSNR_PAD && xx < w + ANSNR_PAD) {       \
            const int my = ansnr_reflect(yy, h), mx = ansnr_reflect(xx, w);                  \
            if (REF)                                                                         \
                raw[0][l] = raw_sample(ref, mx, my);                                         \
            if (DIS)                                                                         \
                raw[1][l] = raw_sample(dis, mx, my);                                         \
        }                                                                                    \
    }
#define ANSNR_STORE(b)                                                                       \
    for (int l = 0; l < ANSNR_LOADS; l++) {                                                  \
        const int i = tid + l * ANSNR_FILTER_THREADS;                                        \
        if (i < ANSNR_IN_H * ANSNR_IN_W && REF)                                              \
            in[b][0][i / ANSNR_IN_W][i % ANSNR_IN_W] =                                       \
                sample_to_float(raw[0][l], inv_scaler, -128.0f);                             \
        if (i < ANSNR_IN_H * ANSNR_IN_W && DIS)                                              \
            in[b][1][i / ANSNR_IN_W][i % ANSNR_IN_W] =                                       \
                sample_to_float(raw[1][l], inv_scaler, -128.0f);                             \
    }

    if (filter) {
        ANSNR_FETCH(0)
        ANSNR_STORE(0)
    }
    GPU_SYNC();

    float sig_row = 0.0f, noise_row = 0.0f;
    for (int k = 0; k <= nchunks; k++) {
        const int b = k & 1;
        if (filter && k < nchunks) {
            const int c0 = k * ANSNR_CHUNK;
            const bool more = k + 1 < nchunks;
            if (more) {
                ANSNR_FETCH(c0 + ANSNR_CHUNK)
            }
            const int c = tid % ANSNR_CHUNK, r0 = (tid / ANSNR_CHUNK) * HR;
            if (c0 + c < w) {
                /* all float, filter rows outer, no contraction (spec §3.3) */
#pragma unroll
                for (int j = 0; j < HR; j++) {
                    const int r = r0 + j;
                    /* the reference plane holds rows below h only */
                    const size_t at = (size_t)(y0 + r) * w + (size_t)(c0 + c);
                    float rf = 0.0f;
                    if (REF) {
#pragma unroll
                        for (int fi = 0; fi < RK; fi++) {
                            float inner = 0.0f;
#pragma unroll
                            for (int fj = 0; fj < RK; fj++)
                                inner += ansnr_ref_coef(fi * RK + fj) *
                                         in[b][0][r + ANSNR_PAD - RK / 2 + fi][c + ANSNR_PAD - RK / 2 + fj];
                            rf += inner;
                        }
                        if (MODE == A_REF && y0 + r < h)
                            ref_plane[at] = rf;
                    } else if (y0 + r < h) {
                        rf = ref_plane[at];
                    }
                    float df = 0.0f;
                    if (DIS) {
#pragma unroll
                        for (int fi = 0; fi < DK; fi++) {
                            float inner = 0.0f;
#pragma unroll
                            for (int fj = 0; fj < DK; fj++)
                                inner += ansnr_dis_coef(fi * DK + fj) *
                                         in[b][1][r + ANSNR_PAD - DK / 2 + fi][c + ANSNR_PAD - DK / 2 + fj];
                            df += inner;
                        }
                    }
                    if (REF)
                        prod[b][0][r][c] = rf * rf;
                    if (DIS)
                        prod[b][1][r][c] = (rf - df) * (rf - df);
                }
            }
            if (more) {
                ANSNR_STORE(b ^ 1)
            }
        } else if (!filter && k > 0) {
            const int row = tid - ANSNR_FILTER_THREADS;
            if (row < ANSNR_ROWS && y0 + row < h) {
                const int c0 = (k - 1) * ANSNR_CHUNK;
                const int n = w - c0 < ANSNR_CHUNK ? w - c0 : ANSNR_CHUNK;
                /* unrolled so the loads run ahead of the two float add chains */
#pragma unroll 16
                for (int c = 0; c < n; c++) {
                    if (REF)
                        sig_row += prod[b ^ 1][0][row][c];
                    if (DIS)
                        noise_row += prod[b ^ 1][1][row][c];
                }
            }
        }
        GPU_SYNC();
    }
#undef ANSNR_FETCH
#undef ANSNR_STORE
    if (!filter) {
        const int row = tid - ANSNR_FILTER_THREADS;
        if (row < ANSNR_ROWS && y0 + row < h) {
            if (REF)
                row_sig[y0 + row] = sig_row;
            if (DIS)
                row_noise[y0 + row] = noise_row;
        }
    }
}

/* A pair's ANSNR and a ladder's (_ref: picture 0 once; _dis: distorted
 * picture 1 + blockIdx.z, its noise rows rows_stride floats apart). */
GPU_KERNEL void __launch_bounds__(ANSNR_THREADS, 2)
ansnr_rows(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w, int h,
           float inv_scaler, float *row_sig, float *row_noise)
{
    ansnr_rows<A_PAIR>(desc, fmt, w, h, inv_scaler, row_sig, row_noise, NULL);
}

GPU_KERNEL void __launch_bounds__(ANSNR_THREADS, 2)
ansnr_rows_ref(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w, int h,
               float inv_scaler, float *row_sig, float *ref_plane)
{
    ansnr_rows<A_REF>(desc, fmt, w, h, inv_scaler, row_sig, NULL, ref_plane);
}

GPU_KERNEL void __launch_bounds__(ANSNR_THREADS, 2)
ansnr_rows_dis(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w, int h,
               float inv_scaler, float *row_noise, long long rows_stride, const float *ref_plane)
{
    ansnr_rows<A_DIS>(desc, fmt, w, h, inv_scaler, NULL, row_noise + GPU_BID_Z * rows_stride,
                      (float *)ref_plane);
}

/* ---- integer SSIM ----------------------------------------------------------- */

#define ISSIM_R (ISSIM_K / 2)
#define ISSIM_RPT (ISSIM_TH / ISSIM_BY)
#define ISSIM_IN_W (ISSIM_TW + 2 * ISSIM_R)
#define ISSIM_IN_H (ISSIM_TH + 2 * ISSIM_R)

template <typename HM> struct issim_tile_smem {
    uint32_t in[2][ISSIM_IN_H][ISSIM_IN_W + 1];
    HM mom[5][ISSIM_IN_H][ISSIM_TW];
};

template <typename HM> union issim_smem {
    issim_tile_smem<HM> tile;
    uint64_t red[WS_FIELDS * ISSIM_BX * ISSIM_BY];
};

/*
 * Samples outside the plane are loaded as 0: their products vanish, which
 * is the reference's truncation (skipped taps) for every moment; only the
 * weight sums need the in-plane taps counted explicitly. HM holds the
 * horizontal moments exactly: uint32_t up to 12 bits (256 * 4095^2 < 2^32),
 * uint64_t at 16 bits.
 */
template <typename HM, typename VM, int RPT>
__device__ void issim_windows(const raw_plane &ref, const raw_plane &dis, int w, int h,
                              double c1base, double c2base, uint64_t *partials)
{
    __shared__ __align__(16) issim_smem<HM> sm;
    const int tx = GPU_TID_X, ty = GPU_TID_Y, tid = ty * ISSIM_BX + tx;
    const int x0 = GPU_BID_X * ISSIM_TW, y0 = GPU_BID_Y * ISSIM_TH;

    for (int i = tid; i < ISSIM_IN_W * ISSIM_IN_H; i += ISSIM_BX * ISSIM_BY) {
        const int r = i / ISSIM_IN_W, c = i % ISSIM_IN_W;
        const int gx = x0 + c - ISSIM_R, gy = y0 + r - ISSIM_R;
        uint32_t rv = 0, dv = 0;
        if (gx >= 0 && gx < w && gy >= 0 && gy < h) {
            rv = raw_sample(ref, gx, gy);
            dv = raw_sample(dis, gx, gy);
        }
        sm.tile.in[0][r][c] = rv;
        sm.tile.in[1][r][c] = dv;
    }
    GPU_SYNC();

    for (int i = tid; i < ISSIM_TW * ISSIM_IN_H; i += ISSIM_BX * ISSIM_BY) {
        const int r = i / ISSIM_TW, c = i % ISSIM_TW;
        HM a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0;
        for (int k = 0; k < ISSIM_K; k++) {
            const HM wk = (HM)issim_taps[k];
            const uint32_t s = sm.tile.in[0][r][c + k], t = sm.tile.in[1][r][c + k];
            a0 += wk * s;
            a1 += wk * t;
            a2 += wk * (HM)(s * s); /* s * s < 2^32 even for 16-bit samples */
            a3 += wk * (HM)(s * t);
            a4 += wk * (HM)(t * t);
        }
        sm.tile.mom[0][r][c] = a0;
        sm.tile.mom[1][r][c] = a1;
        sm.tile.mom[2][r][c] = a2;
        sm.tile.mom[3][r][c] = a3;
        sm.tile.mom[4][r][c] = a4;
    }
    GPU_SYNC();

    gpussim_cuda_wsums acc;
    wsums_zero(&acc);
    const int gx = x0 + tx;
    int64_t wsum_h = 0;
    for (int k = 0; k < ISSIM_K; k++)
        if (gx + k - ISSIM_R >= 0 && gx + k - ISSIM_R < w)
            wsum_h += issim_taps[k];
    /* RPT 2: each thread computes 2 vertically adjacent outputs, which
     * share all but one of their moment rows (read once from shared memory;
     * 32-bit accumulators keep that within the registers); RPT 1: one
     * output per pass, rows ty and ty + ISSIM_BY */
    for (int g = 0; g < ISSIM_RPT / RPT; g++) {
        const int oy0 = RPT == 1 ? ty + g * ISSIM_BY : ty * RPT;
        VM M[RPT][5];
    #pragma unroll
        for (int j = 0; j < RPT; j++)
    #pragma unroll
            for (int q = 0; q < 5; q++)
                M[j][q] = 0;
    #pragma unroll
        for (int q = 0; q < 5; q++)
    #pragma unroll
            for (int v = 0; v < ISSIM_K + RPT - 1; v++) {
                const HM m = sm.tile.mom[q][oy0 + v][tx];
    #pragma unroll
                for (int j = 0; j < RPT; j++)
                    if (v - j >= 0 && v - j < ISSIM_K) /* VM u32: one multiply-add; else widening */
                        M[j][q] += (VM)issim_taps[v - j] * (VM)m;
            }
    #pragma unroll
        for (int j = 0; j < RPT; j++) {
            const int oy = oy0 + j, gy = y0 + oy;
            if (gx >= w || gy >= h)
                continue;
            int64_t vw = 0;
            for (int k = 0; k < ISSIM_K; k++)
                if (gy + k - ISSIM_R >= 0 && gy + k - ISSIM_R < h)
                    vw += issim_taps[k];
            /* all below 2^49: exact as signed integers and as doubles */
            const int64_t mux = (int64_t)M[j][0], muy = (int64_t)M[j][1], mx2 = (int64_t)M[j][2],
                          mxy2 = (int64_t)M[j][3], my2 = (int64_t)M[j][4];
            /* spec §4.5, grouping as kernels/c/issim_tmpl.c */
            const int64_t mw = vw * wsum_h;
            const double W = (double)mw;
            const double c1 = c1base * W * W;
            const double c2 = c2base * W * W;
            const double mx2d = mux * (double)mux;
            const double mxyd = mux * (double)muy;
            const double my2d = muy * (double)muy;
            const double A = 2 * mxyd + c1;
            const double B = c2 + 2 * (mxy2 * W - mxyd);
            const double D = (mx2d + my2d + c1) * (mx2 * W - mx2d + my2 * W - my2d + c2);
            const double term = mw * A * B / D;
            fx_add_double(&acc.sum[0], term);
            acc.abs_sum[0] += fabs(term);
            /* the weight is an integer: straight into the integer limb */
            acc.sum[1].limb[GPUSSIM_FX_FRAC_BITS / 64] += (uint64_t)mw;
        }
    }
    wsums_block_store(sm.red, tid, ISSIM_BX * ISSIM_BY, &acc, partials,
                      (size_t)GPU_GDIM_X * gridDim.y, (size_t)GPU_BID_Y * GPU_GDIM_X + GPU_BID_X);
}

/*
 * A ladder's integer SSIM, as ssim_windows_ladder(): the reference's tile
 * and its moments mu_x and E[x^2] (horizontal, then vertical, exact
 * integers) once per block, then per distorted picture its tile, its own
 * and the cross moments, and the terms of issim_windows(), bit for bit.
 */
template <typename HM, typename VM> struct issim_ladder_smem {
    uint32_t in_ref[ISSIM_IN_H][ISSIM_IN_W + 1];
    VM mom_ref[2][ISSIM_TH][ISSIM_TW]; /* vertical: mu_x, E[x^2] */
    union {
        struct {
            uint32_t in[ISSIM_IN_H][ISSIM_IN_W + 1];
            HM mom[3][ISSIM_IN_H][ISSIM_TW];
        } dis; /* also the reference's horizontal moments, before the loop */
        uint64_t red[WS_FIELDS * ISSIM_BX * ISSIM_BY];
    } u;
};

template <typename HM, typename VM, int RPT>
__device__ void issim_windows_ladder(const raw_pictures &pics, int r0, int r1, int w, int h,
                                     double c1base, double c2base, uint64_t *partials,
                                     long long part_stride)
{
    __shared__ __align__(16) issim_ladder_smem<HM, VM> sm;
    const int tx = GPU_TID_X, ty = GPU_TID_Y, tid = ty * ISSIM_BX + tx;
    const int x0 = GPU_BID_X * ISSIM_TW, y0 = GPU_BID_Y * ISSIM_TH;
    const int gx = x0 + tx;

    const raw_plane ref = picture(pics, 0);
    for (int i = tid; i < ISSIM_IN_W * ISSIM_IN_H; i += ISSIM_BX * ISSIM_BY) {
        const int r = i / ISSIM_IN_W, c = i % ISSIM_IN_W;
        const int ix = x0 + c - ISSIM_R, iy = y0 + r - ISSIM_R;
        sm.in_ref[r][c] = ix >= 0 && ix < w && iy >= 0 && iy < h ? raw_sample(ref, ix, iy) : 0;
    }
    GPU_SYNC();
    for (int i = tid; i < ISSIM_TW * ISSIM_IN_H; i += ISSIM_BX * ISSIM_BY) {
        const int r = i / ISSIM_TW, c = i % ISSIM_TW;
        HM a0 = 0, a2 = 0;
        for (int k = 0; k < ISSIM_K; k++) {
            const HM wk = (HM)issim_taps[k];
            const uint32_t s = sm.in_ref[r][c + k];
            a0 += wk * s;
            a2 += wk * (HM)(s * s);
        }
        sm.u.dis.mom[0][r][c] = a0;
        sm.u.dis.mom[1][r][c] = a2;
    }
    GPU_SYNC();
    /* the vertical pass of issim_windows(), moments 0 and 2, every row */
    for (int g = 0; g < ISSIM_RPT / RPT; g++) {
        const int oy0 = RPT == 1 ? ty + g * ISSIM_BY : ty * RPT;
        VM M[RPT][2];
    #pragma unroll
        for (int j = 0; j < RPT; j++)
            M[j][0] = M[j][1] = 0;
    #pragma unroll
        for (int q = 0; q < 2; q++)
    #pragma unroll
            for (int v = 0; v < ISSIM_K + RPT - 1; v++) {
                const HM m = sm.u.dis.mom[q][oy0 + v][tx];
    #pragma unroll
                for (int j = 0; j < RPT; j++)
                    if (v - j >= 0 && v - j < ISSIM_K)
                        M[j][q] += (VM)issim_taps[v - j] * (VM)m;
            }
    #pragma unroll
        for (int j = 0; j < RPT; j++) {
            sm.mom_ref[0][oy0 + j][tx] = M[j][0];
            sm.mom_ref[1][oy0 + j][tx] = M[j][1];
        }
    }
    int64_t wsum_h = 0;
    for (int k = 0; k < ISSIM_K; k++)
        if (gx + k - ISSIM_R >= 0 && gx + k - ISSIM_R < w)
            wsum_h += issim_taps[k];

    for (int pic = r0; pic < r1; pic++) {
        const raw_plane dis = picture(pics, 1 + pic);
        /* the barrier: the reference's moments (first pass) or the previous
         * picture's reduction (later passes) are done with this memory */
        GPU_SYNC();
        for (int i = tid; i < ISSIM_IN_W * ISSIM_IN_H; i += ISSIM_BX * ISSIM_BY) {
            const int r = i / ISSIM_IN_W, c = i % ISSIM_IN_W;
            const int ix = x0 + c - ISSIM_R, iy = y0 + r - ISSIM_R;
            sm.u.dis.in[r][c] = ix >= 0 && ix < w && iy >= 0 && iy < h ? raw_sample(dis, ix, iy) : 0;
        }
        GPU_SYNC();
        for (int i = tid; i < ISSIM_TW * ISSIM_IN_H; i += ISSIM_BX * ISSIM_BY) {
            const int r = i / ISSIM_TW, c = i % ISSIM_TW;
            HM a1 = 0, a3 = 0, a4 = 0;
            for (int k = 0; k < ISSIM_K; k++) {
                const HM wk = (HM)issim_taps[k];
                const uint32_t s = sm.in_ref[r][c + k], t = sm.u.dis.in[r][c + k];
                a1 += wk * t;
                a3 += wk * (HM)(s * t);
                a4 += wk * (HM)(t * t);
            }
            sm.u.dis.mom[0][r][c] = a1;
            sm.u.dis.mom[1][r][c] = a3;
            sm.u.dis.mom[2][r][c] = a4;
        }
        GPU_SYNC();

        gpussim_cuda_wsums acc;
        wsums_zero(&acc);
        for (int g = 0; g < ISSIM_RPT / RPT; g++) {
            const int oy0 = RPT == 1 ? ty + g * ISSIM_BY : ty * RPT;
            VM M[RPT][3];
        #pragma unroll
            for (int j = 0; j < RPT; j++)
        #pragma unroll
                for (int q = 0; q < 3; q++)
                    M[j][q] = 0;
        #pragma unroll
            for (int q = 0; q < 3; q++)
        #pragma unroll
                for (int v = 0; v < ISSIM_K + RPT - 1; v++) {
                    const HM m = sm.u.dis.mom[q][oy0 + v][tx];
        #pragma unroll
                    for (int j = 0; j < RPT; j++)
                        if (v - j >= 0 && v - j < ISSIM_K)
                            M[j][q] += (VM)issim_taps[v - j] * (VM)m;
                }
        #pragma unroll
            for (int j = 0; j < RPT; j++) {
                const int oy = oy0 + j, gy = y0 + oy;
                if (gx >= w || gy >= h)
                    continue;
                int64_t vw = 0;
                for (int k = 0; k < ISSIM_K; k++)
                    if (gy + k - ISSIM_R >= 0 && gy + k - ISSIM_R < h)
                        vw += issim_taps[k];
                /* as issim_windows(): spec §4.5, grouping as kernels/c/issim_tmpl.c */
                const int64_t mux = (int64_t)sm.mom_ref[0][oy][tx], muy = (int64_t)M[j][0],
                              mx2 = (int64_t)sm.mom_ref[1][oy][tx], mxy2 = (int64_t)M[j][1],
                              my2 = (int64_t)M[j][2];
                const int64_t mw = vw * wsum_h;
                const double W = (double)mw;
                const double c1 = c1base * W * W;
                const double c2 = c2base * W * W;
                const double mx2d = mux * (double)mux;
                const double mxyd = mux * (double)muy;
                const double my2d = muy * (double)muy;
                const double A = 2 * mxyd + c1;
                const double B = c2 + 2 * (mxy2 * W - mxyd);
                const double D = (mx2d + my2d + c1) * (mx2 * W - mx2d + my2 * W - my2d + c2);
                const double term = mw * A * B / D;
                fx_add_double(&acc.sum[0], term);
                acc.abs_sum[0] += fabs(term);
                acc.sum[1].limb[GPUSSIM_FX_FRAC_BITS / 64] += (uint64_t)mw;
            }
        }
        wsums_block_store(sm.u.red, tid, ISSIM_BX * ISSIM_BY, &acc, partials + pic * part_stride,
                          (size_t)GPU_GDIM_X * gridDim.y,
                          (size_t)GPU_BID_Y * GPU_GDIM_X + GPU_BID_X);
    }
}

/* A pair's integer SSIM kernels (pictures 0 and 1) and a ladder's
 * (_ladder: distorted pictures as the SSIM window kernels'). */
#define ISSIM_WINDOWS_KERNEL(name, HM, VM, RPT)                                                \
    GPU_KERNEL void __launch_bounds__(ISSIM_BX * ISSIM_BY)                                     \
    name(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w, int h,        \
         double c1base, double c2base, uint64_t *partials)                                     \
    {                                                                                          \
        const raw_plane ref = raw_plane_of(desc, 0, fmt), dis = raw_plane_of(desc, 1, fmt);    \
        issim_windows<HM, VM, RPT>(ref, dis, w, h, c1base, c2base, partials);                  \
    }                                                                                          \
    GPU_KERNEL void __launch_bounds__(ISSIM_BX * ISSIM_BY)                                     \
    name##_ladder(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w,      \
                  int h, double c1base, double c2base, uint64_t *partials,                     \
                  long long part_stride, int group, int nb_dis)                                \
    {                                                                                          \
        const raw_pictures pics = { desc, fmt };                                               \
        const int r0 = GPU_BID_Z * group, r1 = r0 + group < nb_dis ? r0 + group : nb_dis;      \
        issim_windows_ladder<HM, VM, RPT>(pics, r0, r1, w, h, c1base, c2base, partials,        \
                                          part_stride);                                        \
    }
ISSIM_WINDOWS_KERNEL(issim_windows_u32, uint32_t, uint64_t, 1)
/* 8-bit: every vertical moment sum is below 65536 * 255^2 < 2^32 */
ISSIM_WINDOWS_KERNEL(issim_windows_u32_8bit, uint32_t, uint32_t, 2)
ISSIM_WINDOWS_KERNEL(issim_windows_u64, uint64_t, uint64_t, 1)

/* ---- final reduction ---------------------------------------------------------- */

/*
 * Grid (REDUCE_BLOCKS, jobs): blockIdx.y is the job (struct
 * gpussim_cuda_reduce_job). A WSUMS job's `count` partials are folded in
 * REDUCE_CHAINS chains, chain t adding partials t, t + REDUCE_CHAINS, ...
 * in that order, then a fixed tree over the chains (wsums_block_reduce),
 * so the result, magnitude sums (plain doubles) included, is one fixed
 * order's, bit for bit, whatever the block and thread scheduling.
 *
 * The chains are spread over REDUCE_BLOCKS blocks of REDUCE_CPB chains, one
 * thread per (field, chain): a fixed-point limb field is summed as a
 * 128-bit integer and the three limb sums of a quantity are then combined
 * modulo 2^192 — the same integer as adding the 192-bit values one by one.
 * Each block writes its chains' totals to the job's scratch; the last block
 * of the job to finish (counter in scratch, reset by that block for the
 * next frame) runs the tree and writes the result block.
 */
#define REDUCE_BATCH 16
#define REDUCE_ROWS_CHUNK 4096
/* scratch: REDUCE_SCRATCH_HEAD bytes of counters (one uint32 per job), then
 * per job the chains' totals, field-major (REDUCE_SCRATCH_JOB bytes:
 * WS_FIELDS * REDUCE_CHAINS words); hwctx/gpu/gpu_plan.c sizes it */

GPU_KERNEL void __launch_bounds__(REDUCE_THREADS)
reduce_partials(const gpussim_cuda_reduce_job *jobs, const uint8_t *partials, uint8_t *out,
                uint8_t *scratch)
{
    __shared__ __align__(16) union {
        uint64_t red[WS_FIELDS * REDUCE_CHAINS];
        float rows[2][REDUCE_ROWS_CHUNK];
        uint64_t limb_sum[2][GPUSSIM_WSUM_N * GPUSSIM_FX_LIMBS * REDUCE_CPB];
    } sm;
    __shared__ int last_block;
    const int jid = GPU_BID_Y;
    const gpussim_cuda_reduce_job job = jobs[jid];
    const int tid = GPU_TID_X;

    if (job.kind == GPUSSIM_REDUCE_ANSNR_ROWS) {
        if (GPU_BID_X != 0)
            return;
        /* rows added top to bottom in float (spec §3.4): the signal sum by
         * thread 0, the noise sum by thread 32 (another warp, so the two
         * dependent chains issue side by side), from shared memory that all
         * threads fill, read four rows per load */
        const float *s = (const float *)(partials + job.src_offset);
        const float *n = (const float *)(partials + job.src2_offset);
        const int which = tid == 0 ? 0 : 1;
        float acc = 0.0f;
        for (uint32_t base = 0; base < job.count; base += REDUCE_ROWS_CHUNK) {
            const uint32_t cnt =
                job.count - base < REDUCE_ROWS_CHUNK ? job.count - base : REDUCE_ROWS_CHUNK;
            GPU_SYNC();
            for (uint32_t i = tid; i < cnt; i += REDUCE_THREADS) {
                sm.rows[0][i] = s[base + i];
                sm.rows[1][i] = n[base + i];
            }
            GPU_SYNC();
            if (tid == 0 || tid == 32) {
                const float4 *r4 = (const float4 *)sm.rows[which];
                uint32_t i = 0;
#pragma unroll 8
                for (; i + 4 <= cnt; i += 4) {
                    const float4 v = r4[i / 4];
                    acc += v.x;
                    acc += v.y;
                    acc += v.z;
                    acc += v.w;
                }
                for (; i < cnt; i++)
                    acc += sm.rows[which][i];
            }
        }
        if (tid == 0 || tid == 32)
            ((float *)(out + job.dst_offset))[which] = acc;
        return;
    }

    /* thread (field f, chain v of the block): consecutive threads read
     * consecutive words of the field-major partials */
    const int f = tid / REDUCE_CPB, v = tid % REDUCE_CPB;
    const uint32_t chain = (uint32_t)GPU_BID_X * REDUCE_CPB + (uint32_t)v;
    const uint64_t *col = (const uint64_t *)(partials + job.src_offset) + (size_t)f * job.count;
    uint64_t lo = 0, hi = 0;
    double mag = 0.0;
    /* REDUCE_BATCH loads in flight before they are added; past the end a
     * partial reads as 0 (adds nothing: +0.0 to a magnitude sum >= +0) */
    for (uint32_t i = chain; i < job.count; i += REDUCE_BATCH * REDUCE_CHAINS) {
        uint64_t b[REDUCE_BATCH];
#pragma unroll
        for (int u = 0; u < REDUCE_BATCH; u++)
            b[u] = i + (uint32_t)u * REDUCE_CHAINS < job.count ? col[i + u * REDUCE_CHAINS] : 0;
        if (f >= WS_ABS0) {
#pragma unroll
            for (int u = 0; u < REDUCE_BATCH; u++)
                mag += u64_as_double(b[u]);
        } else {
#pragma unroll
            for (int u = 0; u < REDUCE_BATCH; u++) {
                lo += b[u];
                hi += lo < b[u];
            }
        }
    }
    uint64_t *tot = (uint64_t *)(scratch + REDUCE_SCRATCH_HEAD) +
                    (size_t)jid * WS_FIELDS * REDUCE_CHAINS;
    if (f < WS_ABS0) {
        sm.limb_sum[0][tid] = lo;
        sm.limb_sum[1][tid] = hi;
    } else {
        tot[(size_t)f * REDUCE_CHAINS + chain] = (uint64_t)gpu_double_bits(mag);
    }
    GPU_SYNC();
    if (tid < GPUSSIM_WSUM_N * REDUCE_CPB) {
        /* sum of limb l = lo_l + hi_l * 2^64; the quantity is
         * sum_l (lo_l + hi_l * 2^64) * 2^(64 l) modulo 2^192 */
        const int q = tid / REDUCE_CPB, c = tid % REDUCE_CPB;
        const uint32_t ch = (uint32_t)GPU_BID_X * REDUCE_CPB + (uint32_t)c;
        const int f0 = q * GPUSSIM_FX_LIMBS * REDUCE_CPB + c;
        const uint64_t lo0 = sm.limb_sum[0][f0], hi0 = sm.limb_sum[1][f0];
        const uint64_t lo1 = sm.limb_sum[0][f0 + REDUCE_CPB], hi1 = sm.limb_sum[1][f0 + REDUCE_CPB];
        const uint64_t lo2 = sm.limb_sum[0][f0 + 2 * REDUCE_CPB];
        const uint64_t l1 = hi0 + lo1;
        const uint64_t l2 = hi1 + lo2 + (l1 < lo1);
        tot[(size_t)(q * GPUSSIM_FX_LIMBS + 0) * REDUCE_CHAINS + ch] = lo0;
        tot[(size_t)(q * GPUSSIM_FX_LIMBS + 1) * REDUCE_CHAINS + ch] = l1;
        tot[(size_t)(q * GPUSSIM_FX_LIMBS + 2) * REDUCE_CHAINS + ch] = l2;
    }
    /* last-block-done: the totals visible device-wide before the count */
    __threadfence();
    GPU_SYNC();
    unsigned *counter = (unsigned *)scratch + jid;
    if (tid == 0)
        last_block = atomicAdd(counter, 1u) == REDUCE_BLOCKS - 1;
    GPU_SYNC();
    if (!last_block)
        return;
    __threadfence();
    /* other blocks' writes: read past this multiprocessor's L1 */
    const volatile uint64_t *vt = tot;
    for (int k = tid; k < WS_FIELDS * REDUCE_CHAINS; k += REDUCE_THREADS)
        sm.red[k] = vt[k];
    if (tid == 0)
        *counter = 0;
    wsums_block_reduce(sm.red, tid, REDUCE_CHAINS, REDUCE_THREADS);
    /* the result block is a plain struct: its 16 fields in field order */
    if (tid < WS_FIELDS)
        ((uint64_t *)(out + job.dst_offset))[tid] = sm.red[(size_t)tid * REDUCE_CHAINS];
}
