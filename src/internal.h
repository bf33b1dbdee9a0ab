/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Library-internal interfaces: the logger, the validated configuration every
 * backend receives, the per-frame sums a backend produces, and the backend
 * vtable. Nothing here is part of the ABI.
 */
#ifndef GPUSSIM_INTERNAL_H
#define GPUSSIM_INTERNAL_H

#ifdef HAVE_CONFIG_H
#include "config.h" /* HAVE_CUDA, HAVE_VULKAN, ... from configure */
#endif

#include <stdarg.h>
#include <stdint.h>

#include "gpussim/gpussim.h"
#include "bench_hooks.h"
#include "geometry.h"
#include "metric_tables.h"
#include "plan.h" /* GPUSSIM_MAX_SCORE_PLANES, the frame plan */

/* ---- logging ------------------------------------------------------------- */

struct gpussim_logger {
    gpussim_log_fn cb;
    void *opaque;
    enum gpussim_log_level level;
};

#if defined(__GNUC__)
#define GPUSSIM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GPUSSIM_PRINTF(a, b)
#endif

void gpussim_log(const struct gpussim_logger *log, enum gpussim_log_level level,
                 const char *fmt, ...) GPUSSIM_PRINTF(3, 4);
void gpussim_vlog(const struct gpussim_logger *log, enum gpussim_log_level level,
                  const char *fmt, va_list ap);

/* ---- geometry and configuration ------------------------------------------ */

/* Sizes of everything computed on one scored plane (spec §1.1-1.2, §2.2-2.3). */
struct gpussim_plane_geometry {
    int width, height;          /* the plane as stored */
    int ssim_scale;             /* float_ssim decimation factor (1 = none) */
    int ssim_width, ssim_height; /* float_ssim plane after decimation */
    int ms_width[GPUSSIM_MSSSIM_SCALES], ms_height[GPUSSIM_MSSSIM_SCALES];
    char suffix[4];             /* "" for luma, ".u", ".v" */
};

/* Everything a backend needs, validated and with defaults applied. */
struct gpussim_config {
    struct gpussim_params params; /* as given, defaults filled in */
    unsigned metrics;             /* non-zero GPUSSIM_METRIC_* bits */
    /* per-family options (float_ssim's; float_ms_ssim's from ms_ssim_options) */
    int ssim_lcs, ssim_db, ssim_clip_db;
    int ms_lcs, ms_db, ms_clip_db;
    int nb_planes;                /* 1 (luma) or 3 */
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

/* Checks a format's size, depth, chroma and packing (the context's and the
 * sync search's one rule); logs and returns -EINVAL naming the problem. */
int gpussim_format_check(const struct gpussim_logger *log, const struct gpussim_format *f);

/* Fills the geometry of every scored plane and checks the size limits of the
 * requested metrics; logs and returns -EINVAL naming the limit. */
int gpussim_config_init(struct gpussim_config *cfg, const struct gpussim_params *params);


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

/* Score names in result order for a configuration. */
int gpussim_scores_count(const struct gpussim_config *cfg);
/* Writes the names (static strings joined with suffixes) into names[]; the
 * strings are allocated in *storage (free with free()). */
int gpussim_scores_names(const struct gpussim_config *cfg, const char ***names, char **storage);
/* Turns a frame's sums into its scores, in the order of gpussim_scores_names(). */
void gpussim_scores_finish(const struct gpussim_config *cfg, const struct gpussim_frame_sums *sums,
                           double *values);

/* ---- backends ------------------------------------------------------------- */

/*
 * A backend computes gpussim_frame_sums for pairs of pictures. Frames are
 * handed to it in "slots": the core guarantees that a slot is reused only
 * after its previous frame has been waited for, and that frames are waited
 * for in submission order.
 */
struct gpussim_backend {
    enum gpussim_backend_type type; /* its name: gpussim_backend_type_name() */
    /* Which picture memories this backend reads (bit 1 << enum gpussim_memory). */
    unsigned memory_mask;
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

/* ---- device policy (src/backend_policy.c) --------------------------------- */

/* What the policy asks of the place it runs in: the context (the registry,
 * the backends' probes, starting one) or a test's fakes. */
struct gpussim_backend_env {
    void *opaque;
    int (*built)(void *opaque, enum gpussim_backend_type type);  /* non-zero: in the registry */
    int (*probe)(void *opaque, enum gpussim_backend_type type);  /* 0: a device answers */
    /* Starts the backend on hw_device (params.hw_device, or get_device's). */
    int (*start)(void *opaque, enum gpussim_backend_type type, const void *hw_device);
};

/* The backend a vendor hint names (ze for Intel, hip for AMD), else AUTO. */
enum gpussim_backend_type gpussim_vendor_backend(const char *vendor);
/* Tries gpussim_backend_order()'s backends for p through env, logging each
 * one skipped and why; the type started, or a negative error (logged). */
int gpussim_backend_pick(const struct gpussim_params *p, const struct gpussim_logger *log,
                         const struct gpussim_backend_env *env);

/* The validated configuration of a context (the log writer reads it). */
const struct gpussim_config *gpussim_internal_config(const GpussimContext *ctx);
/* The library's version (configure's PACKAGE_VERSION). */
const char *gpussim_library_version(void);

/* A pool's values in the order they were added (merges append), owned by
 * the pool: what a log's frames must reproduce. */
const double *gpussim_pool_values(const GpussimPool *pool, size_t *n);

extern const struct gpussim_backend gpussim_backend_cpu;
#if HAVE_CUDA
extern const struct gpussim_backend gpussim_backend_cuda;
#endif
#if HAVE_VULKAN
extern const struct gpussim_backend gpussim_backend_vulkan;
#endif
#if HAVE_HIP
extern const struct gpussim_backend gpussim_backend_hip;
#endif
#if HAVE_LEVEL_ZERO
extern const struct gpussim_backend gpussim_backend_ze;
#endif

/* NULL-terminated, in AUTO's order of preference (GPUs first, CPU last). */
extern const struct gpussim_backend *const gpussim_backends[];


#endif /* GPUSSIM_INTERNAL_H */
