/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The frame plan: the per-frame recipe of every backend, written once.
 *
 * gpussim_config_init() builds it from the configuration (cfg->plan): the
 * ordered list of stages one frame runs on every scored plane (unpack,
 * convert, decimate, SSIM window sums per scale, ANSNR, integer SSIM) and,
 * at the end, one reduction per result slot (where its sums land in
 * struct gpussim_frame_sums). Each stage carries its plane, scale,
 * dimensions, the picture plane it reads and the constants its kernel
 * needs, so no backend re-derives them. A backend walks the list and runs
 * its primitive for each stage (libplacebo's algorithms-over-pl_gpu_fns
 * shape); it may fuse consecutive stages into one kernel (CUDA reads the
 * picture in its window kernels: UNPACK and CONVERT run inside them) as
 * long as every result slot holds what the stage list says.
 *
 * Stages work on (reference, distorted) pairs: one stage is one operation
 * applied to both pictures (or to the pair, for the window sums).
 */
#ifndef GPUSSIM_PLAN_H
#define GPUSSIM_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "metric_tables.h"

#define GPUSSIM_MAX_SCORE_PLANES 3

/* Per plane: unpack, 2 converts, box, float_ssim windows, 5 MS-SSIM
 * windows, 4 low-passes, ANSNR, integer SSIM = 16; plus one reduction per
 * result slot (at most 8 per plane). */
#define GPUSSIM_PLAN_MAX_STAGES (GPUSSIM_MAX_SCORE_PLANES * 24)

enum gpussim_stage_kind {
    GPUSSIM_STAGE_UNPACK,       /* picture plane -> true samples (uint16), spec §0 */
    GPUSSIM_STAGE_CONVERT,      /* samples -> float: v / scaler + offset, spec §0 */
    GPUSSIM_STAGE_DECIMATE_BOX, /* float_ssim decimation, spec §1.2 */
    GPUSSIM_STAGE_DECIMATE_LPF, /* MS-SSIM level scale -> scale + 1, spec §2.3 */
    GPUSSIM_STAGE_SSIM_WINDOWS, /* 11x11 window statistics and sums, spec §1.3-1.6 */
    GPUSSIM_STAGE_ANSNR,        /* filters and row sums, spec §3.2-3.4 */
    GPUSSIM_STAGE_ISSIM,        /* integer SSIM terms and weights, spec §4 */
    GPUSSIM_STAGE_REDUCE,       /* a producer's partial sums -> its result slot */
};

/* The logical planes stages read and write, per scored plane and picture.
 * A backend maps them to its storage (and may alias them: FLOAT_ANSNR is
 * written after the last reader of FLOAT). */
enum gpussim_plan_buf {
    GPUSSIM_BUF_NONE,
    GPUSSIM_BUF_PICTURE,     /* the picture plane, through the plane's source */
    GPUSSIM_BUF_RAW,         /* w x h true samples */
    GPUSSIM_BUF_FLOAT,       /* w x h floats, offset 0: MS-SSIM level 0 */
    GPUSSIM_BUF_FLOAT_ANSNR, /* w x h floats, offset -128 */
    GPUSSIM_BUF_BOX,         /* float_ssim's decimated plane */
    GPUSSIM_BUF_LEVEL,       /* MS-SSIM level `level` (1..4) */
};

/* Where a stage's reduced sums land in struct gpussim_plane_sums. */
enum gpussim_result_slot {
    GPUSSIM_RESULT_NONE,
    GPUSSIM_RESULT_SSIM,   /* ssim_term, ssim_l, ssim_c, ssim_s */
    GPUSSIM_RESULT_MSSSIM, /* ms_l, ms_c, ms_s [scale] */
    GPUSSIM_RESULT_ANSNR,  /* ansnr_sig, ansnr_noise (floats) */
    GPUSSIM_RESULT_ISSIM,  /* issim_term, issim_weight */
};

/* SSIM_WINDOWS: the window quantities a stage's results use (its `sums`).
 * A backend may leave the others out of its sums: MS-SSIM's levels 0-3
 * need only c and s (their l enters the score as pow(l, 0) = 1, and the
 * term is never used), float_ssim only the term, unless enable_lcs reports
 * l, c and s. */
enum {
    GPUSSIM_SUM_TERM = 1 << 0,
    GPUSSIM_SUM_L = 1 << 1,
    GPUSSIM_SUM_C = 1 << 2,
    GPUSSIM_SUM_S = 1 << 3,
};

/* Where one scored plane's samples are in the picture: picture plane
 * src_plane, every step-th sample from first (interleaved chroma), each
 * sample (v >> shift) & mask. */
struct gpussim_plane_source {
    int src_plane, first, step;
    int bytes_per_sample;
    int shift;
    unsigned mask;
};

struct gpussim_plan_stage {
    enum gpussim_stage_kind kind;
    unsigned metrics; /* the GPUSSIM_METRIC_* families that need it */
    int plane;        /* scored plane */
    int scale;        /* MS-SSIM level of the input (windows, low-pass); 0 otherwise */
    int in_w, in_h;   /* input plane */
    int out_w, out_h; /* output plane (decimations); windows: the window grid */
    enum gpussim_plan_buf in, out;
    int in_level, out_level; /* for GPUSSIM_BUF_LEVEL */

    /* UNPACK */
    struct gpussim_plane_source src;
    /* CONVERT; also what fused readers of the samples use */
    float scaler, inv_scaler, offset; /* scaler = 2^(bd-8); inv_scaler exact */
    /* DECIMATE_BOX */
    int factor;
    float box_tap; /* the reference's float tap 1.0f / (factor * factor) */
    /* ISSIM */
    int bit_depth;
    double c1base, c2base;

    /* SSIM_WINDOWS: GPUSSIM_SUM_* bits, the sums its results need */
    unsigned sums;
    /* Stages with partial sums (windows, ANSNR, ISSIM): their slot. */
    enum gpussim_result_slot slot;
    /* REDUCE: the producing stage, and the number of windows (pixels) its
     * sums run over (the divisor of the means). */
    int producer;
    double windows;
    /* >= 0: this stage computes exactly what stage same_as computes (same
     * inputs, same kernel); a backend may skip it and reuse that result. */
    int same_as;
};

struct gpussim_plan {
    int nb_stages;
    struct gpussim_plan_stage stage[GPUSSIM_PLAN_MAX_STAGES];
    /* The picture planes the scored planes read: nb_pic_planes of them
     * (1, 2 for semi-planar chroma, 3), pic_row_samples[i] samples per row
     * (an interleaved UV row counts both) and pic_rows[i] rows. */
    int nb_pic_planes;
    int pic_row_samples[3], pic_rows[3];
    int nb_results; /* REDUCE stages */
};

struct gpussim_config;
struct gpussim_frame_sums;

/* Builds cfg->plan from the rest of cfg (called by gpussim_config_init). */
void gpussim_plan_init(struct gpussim_plan *plan, const struct gpussim_config *cfg);

/* The REDUCE stage of producer stage `producer`; -1 when it has none. */
int gpussim_plan_reduce_of(const struct gpussim_plan *plan, int producer);

/* Stage names for logs and tests ("windows", "decimate_lpf", ...). */
const char *gpussim_stage_name(enum gpussim_stage_kind kind);

/* ---- shared host helpers: partial sums -> struct gpussim_frame_sums --------- */

/* Stores a REDUCE stage's reduced sums in their slot: v = term, l, c, s
 * (windows; MS-SSIM ignores the term), sig, noise (ANSNR, exact floats),
 * term, weight (integer SSIM). */
void gpussim_plan_store(const struct gpussim_plan_stage *reduce, struct gpussim_frame_sums *sums,
                        const double v[4]);
/* Reads back what gpussim_plan_store stored (tests). */
void gpussim_plan_load(const struct gpussim_plan_stage *reduce,
                       const struct gpussim_frame_sums *sums, double v[4]);

/* Adds `count` work-group partials of `fields` doubles each (fields <= 4)
 * field by field in work-group order (the order a device's work-groups
 * tile the plane: rows, then segments left to right). */
void gpussim_sum_partials(const double *part, size_t count, int fields, double out[4]);
/* The reference's float ANSNR totals: row sums added top to bottom in
 * float; rows[y * stride] is row y's sum. */
float gpussim_sum_float_rows(const float *rows, int nb_rows, int stride);
/* Integer SSIM's weight sum over a w x h plane: independent of the samples,
 * sum of vw(y) * hw(x), an integer (exact in double). */
double gpussim_issim_weight_sum(int w, int h);

#endif /* GPUSSIM_PLAN_H */
