/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Memory layouts shared by the CUDA kernels and the host glue
 * (hwctx/cuda.c): the per-block partial sums, the per-frame result block
 * copied back to the host, and the descriptors of the final reduction.
 * Plain C, fixed-width types only, so both compilers lay them out alike.
 */
#ifndef GPUSSIM_CUDA_SHARED_H
#define GPUSSIM_CUDA_SHARED_H

#include <stdint.h>

/*
 * Exact, order-independent accumulation of doubles (spec §5): a signed
 * 192-bit two's-complement fixed-point number, value = int * 2^-FRAC_BITS,
 * limb 0 least significant. 64 integer bits hold any sum of the terms
 * (|term| < 2^8, fewer than 2^31 terms); bits of a term below 2^-128 are
 * truncated, which the host adds to its error bound (count * 2^-128).
 */
#define GPUSSIM_FX_LIMBS 3
#define GPUSSIM_FX_FRAC_BITS 128

struct gpussim_fx {
    uint64_t limb[GPUSSIM_FX_LIMBS];
};

/* Sums over a set of SSIM windows: exact sums of term, l, c, s and double
 * sums of their magnitudes (for the rounding-error bound). Integer SSIM
 * reuses it: sum[0] = term, sum[1] = weight. */
enum { GPUSSIM_WSUM_TERM = 0, GPUSSIM_WSUM_L, GPUSSIM_WSUM_C, GPUSSIM_WSUM_S, GPUSSIM_WSUM_N };

struct gpussim_cuda_wsums {
    struct gpussim_fx sum[GPUSSIM_WSUM_N];
    double abs_sum[GPUSSIM_WSUM_N];
};

#define GPUSSIM_CUDA_MS_SCALES 5

/* What one frame sends back per scored plane. */
struct gpussim_cuda_plane_out {
    struct gpussim_cuda_wsums ssim;
    struct gpussim_cuda_wsums ms[GPUSSIM_CUDA_MS_SCALES];
    struct gpussim_cuda_wsums issim;
    float ansnr_sig, ansnr_noise;
    float pad[2];
};

struct gpussim_cuda_frame_out {
    struct gpussim_cuda_plane_out plane[3];
};

/* One block of the final reduction kernel: fold `count` partials at
 * src_offset (bytes into the partials buffer) into dst_offset (bytes into
 * the frame's gpussim_cuda_frame_out). */
enum { GPUSSIM_REDUCE_WSUMS = 0, GPUSSIM_REDUCE_ANSNR_ROWS = 1 };

struct gpussim_cuda_reduce_job {
    uint32_t kind;
    uint32_t count;
    uint64_t src_offset;  /* WSUMS: gpussim_cuda_wsums[count]; ANSNR: float sig[count] */
    uint64_t src2_offset; /* ANSNR: float noise[count] */
    uint64_t dst_offset;
};

#define GPUSSIM_CUDA_MAX_JOBS 32

/* Where one frame's pictures are: written by the host per frame (pinned ->
 * device copy) so that the per-slot CUDA graph, captured once, reads
 * whichever pictures the frame brings. [ref, dis][picture plane]. */
struct gpussim_cuda_frame_desc {
    uint64_t src[2][4];
    int64_t pitch[2][4];
};

/* How a scored plane's samples sit in its picture plane (kernel argument
 * by value): every `step`-th sample from `first`, 1 or 2 bytes each, MSB
 * alignment removed by `shift`, masked to the bit depth. */
struct gpussim_cuda_plane_fmt {
    int32_t src_plane, bytes_per_sample, first, step, shift;
    uint32_t mask;
};

#endif /* GPUSSIM_CUDA_SHARED_H */
