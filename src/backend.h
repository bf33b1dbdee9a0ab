/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The backend contract: what a backend (hwctx/<name>/) implements and all
 * of the library it may call. It receives a validated struct gpussim_config
 * (with the frame plan, src/plan.h), produces struct gpussim_frame_sums per
 * frame, and logs through cfg->log. Its facts (name, the memories it reads,
 * vendor, AUTO rank) are not here but in the backend table (src/backends.c),
 * which also points at its vtable. Nothing here is part of the ABI.
 */
#ifndef GPUSSIM_BACKEND_H
#define GPUSSIM_BACKEND_H

#ifdef HAVE_CONFIG_H
#include "config.h" /* HAVE_CUDA, HAVE_VULKAN, ... from configure */
#endif

#include <stdint.h>

#include "gpussim/gpussim.h"
#include "src/geometry.h"
#include "src/logger.h"
#include "src/metric_tables.h"
#include "src/plan.h" /* GPUSSIM_MAX_SCORE_PLANES, the frame plan */

/* ---- geometry and configuration ------------------------------------------ */

/* Sizes of everything computed on one scored plane (spec §1.1-1.2, §2.2-2.3). */
struct gpussim_plane_geometry {
    int width, height;           /* the plane as stored */
    int ssim_scale;              /* float_ssim decimation factor (1 = none) */
    int ssim_width, ssim_height; /* float_ssim plane after decimation */
    int ms_width[GPUSSIM_MSSSIM_SCALES], ms_height[GPUSSIM_MSSSIM_SCALES];
    char suffix[4]; /* "" for luma, ".u", ".v" */
};

/* One SSIM-family feature's options, resolved from the params by
 * gpussim_feature_values() (src/features.c): one field per row of
 * GPUSSIM_FEATURE_OPTIONS, named as the option. */
struct gpussim_feature_values {
#define GPUSSIM_VALUE_FIELD(name, ...) int name;
    GPUSSIM_FEATURE_OPTIONS(GPUSSIM_VALUE_FIELD)
#undef GPUSSIM_VALUE_FIELD
};

/* Everything a backend needs, validated and with defaults applied. */
struct gpussim_config {
    struct gpussim_params params; /* as given, defaults filled in */
    unsigned metrics;             /* non-zero GPUSSIM_METRIC_* bits */
    /* float_ssim's and float_ms_ssim's options */
    struct gpussim_feature_values ssim, ms;
    int nb_planes; /* 1 (luma) or 3 */
    /* Plane p of the picture that score plane i reads, and its subsampling. */
    struct gpussim_plane_geometry plane[GPUSSIM_MAX_SCORE_PLANES];
    int chroma_shift_x, chroma_shift_y;
    int bytes_per_sample; /* 1 or 2 */
    int nb_distorted;     /* distorted pictures per reference picture, >= 1 */
    struct gpussim_logger log;
    /* The frame's stages, built from the above (src/plan.h): what every
     * backend runs, in order, and where the sums land. */
    struct gpussim_plan plan;
};

/* ---- per-frame sums a backend produces ----------------------------------- */

/* The raw accumulations of one plane. The shared recipe turns them into
 * scores (means rounded as the reference rounds them, MS-SSIM combine,
 * dB conversion), so no backend re-implements that arithmetic. */
struct gpussim_plane_sums {
    /* float_ssim: double sums over the windows in raster order (spec §1.6) */
    double ssim_term, ssim_l, ssim_c, ssim_s;
    /* float_ms_ssim: per scale, double sums of l, c, s over the windows */
    double ms_l[GPUSSIM_MSSSIM_SCALES], ms_c[GPUSSIM_MSSSIM_SCALES], ms_s[GPUSSIM_MSSSIM_SCALES];
    /* float_ansnr: the float totals of spec §3.4 */
    float ansnr_sig, ansnr_noise;
    /* integer ssim: sum of the per-pixel terms and of the weights (spec §4.6) */
    double issim_term, issim_weight;
};

struct gpussim_frame_sums {
    struct gpussim_plane_sums plane[GPUSSIM_MAX_SCORE_PLANES];
};

/* ---- backends ------------------------------------------------------------- */

/*
 * A backend computes gpussim_frame_sums for pairs of pictures. Frames are
 * handed to it in "slots": the core guarantees that a slot is reused only
 * after its previous frame has been waited for, and that frames are waited
 * for in submission order.
 */
struct gpussim_backend {
    /* Quick availability check for AUTO: 0 when a device can be used, else a
     * negative error. Must not log above GPUSSIM_LOG_VERBOSE. */
    int (*probe)(const struct gpussim_config *cfg);
    /* Creates the backend's state for cfg; *nb_slots is the number of frames
     * it can keep in flight (the core lowers it to params.max_in_flight). */
    int (*init)(const struct gpussim_config *cfg, void **priv, int *nb_slots);
    /* Waits for all work, frees everything, sets *priv to NULL; NULL-safe. */
    void (*uninit)(void **priv);
    /* Starts scoring a pair into slot; must have read host memory on return. */
    int (*submit)(void *priv, int slot, const struct gpussim_picture *ref,
                  const struct gpussim_picture *dis);
    /* 1 and *sums filled when the slot's frame is done; 0 when not done and
     * !block; negative on a device error for that frame. */
    int (*wait)(void *priv, int slot, int block, struct gpussim_frame_sums *sums);
    /* Optional: a native ladder frame (cfg->nb_distorted > 1). submit_multi
     * queues the reference and cfg->nb_distorted distorted pictures into one
     * slot, computing the reference's terms once; wait_multi fills
     * sums[0..nb_distorted-1] (otherwise as wait). Without them the core
     * scores the pairs in nb_distorted consecutive slots (src/context.c). */
    int (*submit_multi)(void *priv, int slot, const struct gpussim_picture *ref,
                        const struct gpussim_picture *const *dis);
    int (*wait_multi)(void *priv, int slot, int block, struct gpussim_frame_sums *sums);
    /* Optional, for bench/: device time in milliseconds of the frame last
     * waited for in slot (device events around its work). */
    int (*device_time_ms)(void *priv, int slot, double *ms);
};

/* Each backend's vtable, defined in hwctx/<name>/ when it is built; the
 * backend table (src/backends.c) is the only reader. */
extern const struct gpussim_backend gpussim_backend_cpu;
extern const struct gpussim_backend gpussim_backend_cuda;
extern const struct gpussim_backend gpussim_backend_vulkan;
extern const struct gpussim_backend gpussim_backend_hip;
extern const struct gpussim_backend gpussim_backend_ze;

#endif /* GPUSSIM_BACKEND_H */
