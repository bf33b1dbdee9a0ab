/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * What the CUDA kernels and the host glue (hwctx/gpu/gpu_plan.c) must agree
 * on: the kernels' tile and block sizes, which the host's grids and
 * launches follow; the per-block partial sums, the per-frame result block
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

/* Jobs of one rendition (one pair); a ladder frame reduces those of all
 * its renditions in one launch, each with its own counter. */
#define GPUSSIM_CUDA_MAX_JOBS 32
/* A ladder frame's pictures: the reference and up to 16 distorted
 * (GPUSSIM_MAX_DISTORTED, checked by the host). */
#define GPUSSIM_CUDA_MAX_PICTURES 17

/* Where one frame's pictures are: written by the host per frame (pinned ->
 * device copy) so that the per-slot CUDA graph, captured once, reads
 * whichever pictures the frame brings. [picture][picture plane]: picture
 * 0 is the reference, 1 + r distorted picture r (a pair: r = 0). */
struct gpussim_cuda_frame_desc {
    uint64_t src[GPUSSIM_CUDA_MAX_PICTURES][4];
    int64_t pitch[GPUSSIM_CUDA_MAX_PICTURES][4];
};

/* How a scored plane's samples sit in its picture plane (kernel argument
 * by value): every `step`-th sample from `first`, 1 or 2 bytes each, MSB
 * alignment removed by `shift`, masked to the bit depth. */
struct gpussim_cuda_plane_fmt {
    int32_t src_plane, bytes_per_sample, first, step, shift;
    uint32_t mask;
};

/* ---- launch geometry (written once, for the kernels and the host) ---- */

/* ssim_decimate_box: one output per thread (the kernel reads blockDim) */
#define DECIMATE_BX 32
#define DECIMATE_BY 8
/* msssim_decimate_lpf_*: LPF_BX x LPF_BY threads, one output each */
#define LPF_BX 32
#define LPF_BY 8
/* ssim_windows_*: WIN_TW x TH tiles of windows with WIN_BX x WIN_BY
 * threads; TH is WIN_TH_TALL (the _t32 kernels) or WIN_TH_SHORT (_t8) */
#define WIN_TW 32
#define WIN_BX 32
#define WIN_BY 8
#define WIN_TH_TALL 32
#define WIN_TH_SHORT 8
/* ansnr_rows: ANSNR_ROWS rows per block, ANSNR_CHUNK columns at a time by
 * ANSNR_FILTER_THREADS threads, plus one warp adding the rows' sums */
#define ANSNR_ROWS 8
#define ANSNR_CHUNK 128
#define ANSNR_FILTER_THREADS (2 * ANSNR_CHUNK)
#define ANSNR_THREADS (ANSNR_FILTER_THREADS + 32)
/* ansnr_rows_dis2/4: ANSNR_LAD_ROWS rows of 2 or 4 distorted pictures per
 * block, ANSNR_FILTER_THREADS threads filtering, then whole warps with a
 * lane per picture row and one per reference row (its signal chain, in the
 * blocks of blockIdx.z 0) (9 rows: 240 blocks at 2160p, one wave at two
 * blocks per multiprocessor of a 132-SM H100/H200, where 8 rows' 270
 * blocks would leave 6 for a second) */
#define ANSNR_LAD_ROWS 9
#define ANSNR_LAD_THREADS(G) (ANSNR_FILTER_THREADS + 32 * ((((G) + 1) * ANSNR_LAD_ROWS + 31) / 32))
/* ansnr_ref_filter: a ladder's reference filtered once, ANSNR_RF_FR adjacent
 * rows of a column per thread, blocks of ANSNR_RF_BX x ANSNR_RF_BY threads
 * (a warp stores one row's 128 bytes) */
#define ANSNR_RF_BX 32
#define ANSNR_RF_BY 8
#define ANSNR_RF_FR 4
/* issim_windows_*: ISSIM_TW x ISSIM_TH tiles with ISSIM_BX x ISSIM_BY threads;
 * issim_windows_u64 (16-bit samples, 64-bit moments): ISSIM_TH_U64 rows */
#define ISSIM_TW 32
#define ISSIM_TH 32
#define ISSIM_TH_U64 16
#define ISSIM_BX 32
#define ISSIM_BY 8
/* reduce_partials: a gpussim_cuda_wsums is WS_FIELDS 64-bit fields, summed
 * as REDUCE_CHAINS chains per job, REDUCE_CPB chains per block of
 * REDUCE_THREADS threads, REDUCE_BLOCKS blocks per job; its scratch is
 * REDUCE_SCRATCH_HEAD bytes of job counters, then REDUCE_SCRATCH_JOB bytes
 * per job */
#define WS_FIELDS 16
#define REDUCE_THREADS 256
#define REDUCE_CHAINS 256
#define REDUCE_CPB (REDUCE_THREADS / WS_FIELDS)
#define REDUCE_BLOCKS (REDUCE_CHAINS / REDUCE_CPB)
#define REDUCE_SCRATCH_HEAD (4 * GPUSSIM_CUDA_MAX_JOBS * (GPUSSIM_CUDA_MAX_PICTURES - 1))
#define REDUCE_SCRATCH_JOB (WS_FIELDS * REDUCE_CHAINS * sizeof(uint64_t))

#endif /* GPUSSIM_CUDA_SHARED_H */
