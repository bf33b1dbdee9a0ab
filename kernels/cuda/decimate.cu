/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Stages DECIMATE_BOX (float_ssim, spec §1.2) and DECIMATE_LPF (the MS-SSIM
 * pyramid, spec §2.3).
 * A part of the one CUDA module: compiled only through kernels/cuda/kernels.cu,
 * after common.cuh and convert.cu.
 */

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
 * out_stride; f32: the levels in, in + in_stride); a ladder's level 0
 * (_two) pictures 2z and 2z + 1 of its nb_pics per blockIdx.z, so that
 * each block's input positions, mirrors and conversions serve two pictures
 * as a pair's do (an odd last picture alone), and its levels 1-3 (_one)
 * one picture per blockIdx.z. The reference (picture 0) is decimated once
 * either way. */
GPU_KERNEL void __launch_bounds__(LPF_BX * LPF_BY)
msssim_decimate_lpf_raw(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w,
                        int h, float inv_scaler, float *out, long long out_stride, int sw, int sh)
{
    const raw_plane ref = raw_plane_of(desc, 0, fmt), dis = raw_plane_of(desc, 1, fmt);
    msssim_decimate_lpf<raw_plane, true, false>(ref, dis, w, h, inv_scaler, out, out + out_stride,
                                                sw, sh);
}

GPU_KERNEL void __launch_bounds__(LPF_BX * LPF_BY)
msssim_decimate_lpf_raw_two(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt,
                            int w, int h, float inv_scaler, float *out, long long out_stride,
                            int sw, int sh, int nb_pics)
{
    const int k = 2 * GPU_BID_Z; /* block-uniform: the branch never diverges */
    const raw_plane a = raw_plane_of(desc, k, fmt);
    float *const out_a = out + k * out_stride;
    if (k + 1 < nb_pics) {
        const raw_plane b = raw_plane_of(desc, k + 1, fmt);
        msssim_decimate_lpf<raw_plane, true, false>(a, b, w, h, inv_scaler, out_a,
                                                    out_a + out_stride, sw, sh);
    } else {
        msssim_decimate_lpf<raw_plane, true, true>(a, a, w, h, inv_scaler, out_a, NULL, sw, sh);
    }
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
