/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * CPU reference kernels: the metric arithmetic exactly as docs/METRICS.md
 * states it, on planes already unpacked to one sample per element.
 *
 * These files are built with -ffp-contract=off: every a*b+c of the reference
 * is two rounded operations, never an FMA. Loops vectorise across output
 * pixels only; every reduction keeps the reference's sequential order.
 */
#ifndef GPUSSIM_KERNELS_C_H
#define GPUSSIM_KERNELS_C_H

#include <stddef.h>
#include <stdint.h>

/* Hot loops get an AVX2 clone picked at load time (ifunc). AVX2 alone, not
 * FMA: the clone performs the same IEEE operations as the baseline code,
 * only more of them per instruction, so results are bit-identical. */
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones) && !defined(GPUSSIM_NO_CLONES)
#define KERNEL_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef KERNEL_CLONES
#define KERNEL_CLONES
#endif

/* Scratch memory for one worker, sized for the largest plane it will see. */
typedef struct CpuScratch CpuScratch;
CpuScratch *cpu_scratch_alloc(int max_width, int max_height);
void cpu_scratch_free(CpuScratch **s);

/* Raw unsigned samples -> (float)v / scaler + offset (spec §0). */
void convert_to_float_c(const uint16_t *src, int w, int h, ptrdiff_t src_stride, float scaler,
                        float offset, float *dst);

/* float_ssim decimation by `factor` with the box filter of spec §1.2.
 * dst is gpussim_decimated_size(w) x gpussim_decimated_size(h). */
void ssim_decimate_box_c(const float *src, int w, int h, int factor, float *dst, CpuScratch *s);

/* MS-SSIM 2:1 decimation with the 9x9 table of spec §2.3. */
void msssim_decimate_lpf_c(const float *src, int w, int h, float *dst, CpuScratch *s);

/* Valid-mode 11x11 Gaussian statistics of (ref, dis) and their per-window
 * SSIM terms (spec §1.3-1.5), summed in raster order into
 * sums[0..3] = term, l, c, s (spec §1.6). Requires w, h >= 11. */
void ssim_window_sums_c(const float *ref, const float *dis, int w, int h, double sums[4],
                        CpuScratch *s);

/* A ladder's reference computed once (one reference, several distorted
 * pictures): its Gaussian mean and mean of squares planes, each
 * (w - 10) x (h - 10), then each distorted picture's sums against them.
 * ssim_window_sums_ref_c(ref, mu, exx, dis) == ssim_window_sums_c(ref, dis)
 * to the bit. */
void ssim_ref_moments_c(const float *ref, int w, int h, float *mu, float *exx, CpuScratch *s);
void ssim_window_sums_ref_c(const float *ref, const float *mu, const float *exx, const float *dis,
                            int w, int h, double sums[4], CpuScratch *s);

/* float_ansnr totals (spec §3.2-3.4) on offset -128 planes. */
void ansnr_sums_c(const float *ref, const float *dis, int w, int h, float *sig, float *noise,
                  CpuScratch *s);

/* The same split for a ladder: the reference's filtered plane (w x h) and
 * signal total once, then each distorted picture's noise total. */
void ansnr_ref_c(const float *ref, int w, int h, float *rfilt, float *sig, CpuScratch *s);
void ansnr_noise_c(const float *rfilt, const float *dis, int w, int h, float *noise, CpuScratch *s);

/* Integer SSIM sums (spec §4): sum of per-pixel terms and of weights. */
void issim_sums_c(const uint16_t *ref, const uint16_t *dis, int w, int h, int bit_depth,
                  double *sum_term, double *sum_weight, CpuScratch *s);

/* ---- the frame plan (src/plan.h) on these kernels ------------------------ */

struct gpussim_plan;
struct gpussim_plan_stage;
struct gpussim_picture;
struct gpussim_frame_sums;

/* Working planes of one worker, per picture (0 ref, 1 dis): f and d hold a
 * whole luma plane of floats each. */
struct gpussim_plan_buffers_c {
    float *f[2], *d[2];
    CpuScratch *scratch;
};

/* An UNPACK stage: the scored plane's true samples of pic into dst (w x h). */
void gpussim_plan_unpack_c(const struct gpussim_plan_stage *unpack,
                           const struct gpussim_picture *pic, uint16_t *dst);

/* Runs every stage of `plane` but UNPACK on its unpacked samples raw[0]
 * (ref), raw[1] (dis), storing each result slot in *sums (the fields of
 * other planes are left as they are). */
void gpussim_plan_run_plane_c(const struct gpussim_plan *plan, int plane,
                              const uint16_t *const raw[2], const struct gpussim_plan_buffers_c *b,
                              struct gpussim_frame_sums *sums);

/* A ladder (one reference, several distorted pictures) on the same plan:
 * gpussim_plan_run_ref_c computes once what each stage of `plane` takes
 * from the reference alone (its float planes, decimations, Gaussian means
 * and means of squares, ANSNR's filtered plane and signal total) into
 * terms (gpussim_plan_ref_size_c(plan, plane) floats) and b->f[0] (level
 * 0), b->d[0] (scratch); then gpussim_plan_run_dis_c scores one distorted
 * picture's samples raw against it, with b->f[1], b->d[1], storing what
 * gpussim_plan_run_plane_c stores for the pair, to the bit. ref, terms and
 * b->f[0] must stay untouched between the two. */
struct gpussim_plan_ref_c {
    const uint16_t *raw; /* the reference's samples (integer SSIM) */
    const float *f;      /* its float plane, MS-SSIM level 0 */
    const float *terms;
    float ansnr_sig;
};
size_t gpussim_plan_ref_size_c(const struct gpussim_plan *plan, int plane);
void gpussim_plan_run_ref_c(const struct gpussim_plan *plan, int plane, const uint16_t *raw,
                            const struct gpussim_plan_buffers_c *b, float *terms,
                            struct gpussim_plan_ref_c *ref);
void gpussim_plan_run_dis_c(const struct gpussim_plan *plan, int plane,
                            const struct gpussim_plan_ref_c *ref, const uint16_t *raw,
                            const struct gpussim_plan_buffers_c *b, struct gpussim_frame_sums *sums);

#endif /* GPUSSIM_KERNELS_C_H */
