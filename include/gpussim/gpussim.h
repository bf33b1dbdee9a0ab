/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * gpussim — libvmaf-identical SSIM, MS-SSIM and ANSNR on CPUs and GPUs.
 *
 * Public API. Everything here is plain C11 and compiles alone as C or C++.
 *
 * Ownership and lifetime
 *   - A GpussimContext is created by gpussim_create() and released by
 *     gpussim_destroy(), which accepts NULL and sets the handle to NULL.
 *   - Strings and arrays returned by the library (score names, result values)
 *     are owned by the context; each function says how long they stay valid.
 *
 * Thread safety
 *   - One context may be used from one thread at a time. Distinct contexts are
 *     independent (no global state) and may be used concurrently.
 *   - The log callback may be called from the library's worker threads, but
 *     never concurrently for one context.
 *
 * Errors
 *   - Functions return 0 (or a documented non-negative value) on success and a
 *     negative errno value on failure (-EINVAL, -ENOMEM, -ENODEV, -ENOSYS,
 *     -ERANGE, -EAGAIN, -EIO); each failure is explained through the log
 *     callback. The values map 1:1 to FFmpeg's AVERROR(errno).
 *
 * The library never prints: it reports through the log callback only.
 */
#ifndef GPUSSIM_GPUSSIM_H
#define GPUSSIM_GPUSSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks the library's exported functions: the library is built with
 *  -fvisibility=hidden, so only these are visible to programs. */
#ifndef GPUSSIM_API
#if defined(__GNUC__) && __GNUC__ >= 4 && !defined(_WIN32)
#define GPUSSIM_API __attribute__((visibility("default")))
#else
#define GPUSSIM_API
#endif
#endif

#define GPUSSIM_API_VERSION_MAJOR 1
#define GPUSSIM_API_VERSION_MINOR 8

/** Where the metrics run. AUTO follows the frames (gpussim_params.memory,
 *  device_vendor; the rules are gpussim_backend_order()'s): host frames go
 *  to the first GPU backend whose device answers, else the CPU. */
enum gpussim_backend_type {
    GPUSSIM_BACKEND_AUTO = 0,
    GPUSSIM_BACKEND_CPU,
    GPUSSIM_BACKEND_CUDA,
    GPUSSIM_BACKEND_VULKAN,
    GPUSSIM_BACKEND_HIP,
    GPUSSIM_BACKEND_ZE,
};

/** Metric families (bit set). Names follow libvmaf's feature names. */
enum gpussim_metric {
    GPUSSIM_METRIC_FLOAT_SSIM    = 1u << 0, /**< float_ssim (+_l/_c/_s with enable_lcs) */
    GPUSSIM_METRIC_FLOAT_MS_SSIM = 1u << 1, /**< float_ms_ssim (+15 per-scale keys with enable_lcs) */
    GPUSSIM_METRIC_FLOAT_ANSNR   = 1u << 2, /**< float_ansnr and float_anpsnr */
    GPUSSIM_METRIC_SSIM          = 1u << 3, /**< integer ssim */
    GPUSSIM_METRIC_ALL           = 0xfu,
};

/** Which planes are scored. LUMA is what libvmaf does; ALL also scores U and
 *  V at their own size (a gpussim extension, reported with ".u"/".v" suffixes). */
enum gpussim_planes {
    GPUSSIM_PLANES_LUMA = 0,
    GPUSSIM_PLANES_ALL,
};

/** Chroma subsampling of the frames. */
enum gpussim_chroma {
    GPUSSIM_CHROMA_420 = 0,
    GPUSSIM_CHROMA_422,
    GPUSSIM_CHROMA_444,
    GPUSSIM_CHROMA_GRAY, /**< luma only */
};

/** How the samples are laid out in memory. */
enum gpussim_packing {
    /** One plane per component (yuv420p, yuv420p10le, gray...). Samples of
     *  depth > 8 are 16-bit little-endian words holding the value in the low
     *  bits; bits above bit_depth are ignored (masked off), whereas libvmaf
     *  reads the whole word: such input is not valid at that depth. */
    GPUSSIM_PACKING_PLANAR = 0,
    /** Luma plane + one interleaved UV plane (NV12, P010, P012, P016, P210...). */
    GPUSSIM_PACKING_SEMIPLANAR_UV,
    /** Luma plane + one interleaved VU plane (NV21). */
    GPUSSIM_PACKING_SEMIPLANAR_VU,
};

/** The format shared by the reference and the distorted frames. */
struct gpussim_format {
    int width;                    /**< luma width in samples */
    int height;                   /**< luma height in samples */
    int bit_depth;                /**< significant bits: 8, 10, 12 or 16 */
    enum gpussim_chroma chroma;
    enum gpussim_packing packing;
    /** Non-zero when samples sit in the high bits of 16-bit words (P010,
     *  P012, P016): they are shifted down by 16 - bit_depth before scoring. */
    int msb_aligned;
};

/** Memory a picture's planes live in. */
enum gpussim_memory {
    GPUSSIM_MEMORY_HOST = 0, /**< plain host pointers */
    GPUSSIM_MEMORY_CUDA,     /**< CUdeviceptr values in data[] (see gpussim_cuda.h) */
    GPUSSIM_MEMORY_VULKAN,   /**< a struct gpussim_vk_frame in hw (see gpussim_vulkan.h) */
    GPUSSIM_MEMORY_DMABUF,   /**< DRM PRIME fds in fd[] with offsets in offset[] */
};

#define GPUSSIM_MAX_PLANES 4

/**
 * One frame. Zero-initialise, then fill what the memory type needs.
 *
 * Host memory is read (copied or uploaded) before gpussim_submit() returns;
 * the caller may reuse it at once. Device memory (CUDA, Vulkan, dma-buf) is
 * read asynchronously: it must stay valid and unmodified until the result for
 * this frame has been collected.
 */
struct gpussim_picture {
    enum gpussim_memory memory;
    const void *data[GPUSSIM_MAX_PLANES]; /**< host pointers, or device addresses */
    /** Bytes between rows (pitch); may be negative for host memory. For bit
     *  depths above 8 the samples are 16-bit words: strides must be even and
     *  plane addresses (dma-buf: offsets) 2-byte aligned, else submit fails
     *  with -EINVAL. */
    ptrdiff_t stride[GPUSSIM_MAX_PLANES];
    int fd[GPUSSIM_MAX_PLANES];           /**< dma-buf fds (DMABUF only) */
    uint64_t offset[GPUSSIM_MAX_PLANES];  /**< byte offsets inside fd (DMABUF only) */
    uint64_t modifier;                    /**< DRM format modifier (DMABUF only) */
    const void *hw;                       /**< memory-type specific descriptor (VULKAN) */
    void *reserved[8];                    /**< must be zero */
};

/** Log levels, ordered like FFmpeg's. */
enum gpussim_log_level {
    GPUSSIM_LOG_ERROR = 16,
    GPUSSIM_LOG_WARNING = 24,
    GPUSSIM_LOG_INFO = 32,
    GPUSSIM_LOG_VERBOSE = 40,
    GPUSSIM_LOG_DEBUG = 48,
};

/** Receives one complete message (no trailing newline). */
typedef void (*gpussim_log_fn)(void *opaque, enum gpussim_log_level level, const char *msg);

/**
 * Context parameters. A zero-initialised struct (or gpussim_default_params())
 * gives the defaults noted on each field.
 */
struct gpussim_params {
    enum gpussim_backend_type backend; /**< default AUTO */
    int device;                        /**< device index for GPU backends; default 0 */
    /** enum gpussim_metric bits; 0 (default) = every metric the frame size
     *  allows (API 1.1: 0 = GPUSSIM_METRIC_ALL); gpussim_use_feature() sets it */
    unsigned metrics;
    struct gpussim_format format;      /**< required: the frames' format */

    int ssim_scale;   /**< float_ssim decimation: 0 = auto (libvmaf's rule), 1..10 forced */
    /* float_ssim's options, and float_ms_ssim's too unless ms_ssim_options
     * has GPUSSIM_FEATURE_OWN_OPTIONS (gpussim_use_feature() sets it) */
    int enable_lcs;   /**< also report luminance/contrast/structure terms */
    int enable_db;    /**< report the score as -10*log10(1 - score) */
    int clip_db;      /**< with enable_db: clip at the finite maximum for the frame size */
    enum gpussim_planes planes; /**< default LUMA */

    int threads;        /**< CPU backend worker threads; 0 = number of CPUs, at most 16 */
    int max_in_flight;  /**< frames submitted but not collected; 0 = backend default */

    gpussim_log_fn log_cb;    /**< NULL: messages are dropped */
    void *log_opaque;
    enum gpussim_log_level log_level; /**< 0 = GPUSSIM_LOG_INFO */

    /** Adopt an existing device instead of creating one (FFmpeg's hwcontext):
     *  a struct gpussim_cuda_device (CUDA) or struct gpussim_vk_device (Vulkan).
     *  Must outlive the context. NULL: the backend creates its own. */
    const void *hw_device;

    /** float_ms_ssim's own options: GPUSSIM_FEATURE_OWN_OPTIONS plus any of
     *  GPUSSIM_FEATURE_LCS, _DB, _CLIP_DB. Without GPUSSIM_FEATURE_OWN_OPTIONS
     *  (a zeroed struct: API 1.1 behaviour) it follows enable_lcs, enable_db
     *  and clip_db above, which are then float_ssim's and its. Set by
     *  gpussim_use_feature(). @since API 1.2 */
    unsigned ms_ssim_options;
    /** enum gpussim_metric bits that gpussim_use_feature() has named; a
     *  second mention must not change their options. @since API 1.2 */
    unsigned features_named;

    /** Distorted pictures scored against each reference picture (a ladder
     *  of renditions, see gpussim_submit_multi()): 0 or 1 = one, the pair
     *  of gpussim_submit(); at most GPUSSIM_MAX_DISTORTED. @since API 1.3 */
    int nb_distorted;

    /** The memory the frames are in (since API 1.4; 0 = HOST, API 1.3's
     *  behaviour). It decides AUTO's choice and which explicit backends are
     *  accepted (see gpussim_backend_order()). DMABUF means frames that can
     *  be exported as dma-bufs (VAAPI surfaces): scored by the device
     *  vendor's backend as dma-bufs, or by Vulkan after the caller maps them
     *  to Vulkan images (see get_device and gpussim_picture_memory()). */
    enum gpussim_memory memory;
    /** A hint naming the frames' device vendor, e.g. the VAAPI driver's
     *  vendor string (vaQueryVendorString) or "intel", "amd": matched
     *  case-insensitively against "intel" (Level Zero) and "amd" / "radeon"
     *  (HIP). NULL: no hint. Read during gpussim_create() only. @since API 1.4 */
    const char *device_vendor;
    /** Asked by gpussim_create() for the device of a backend it is about to
     *  start when hw_device is NULL and the frames must be mapped to that
     *  backend's device by the caller: today Vulkan for DMABUF frames (a
     *  Vulkan device derived from the frames' one, struct gpussim_vk_device).
     *  Sets *hw_device (which must outlive the context) and returns 0, or
     *  returns a negative errno (the callback logs why). NULL: such a
     *  fallback fails with -ENODEV. @since API 1.4 */
    int (*get_device)(void *opaque, enum gpussim_backend_type type, const void **hw_device);
    void *get_device_opaque; /**< passed to get_device. @since API 1.4 */

    /* memory took the padding after nb_distorted: three of API 1.3's six
     * reserved pointers remain, the size is unchanged */
    void *reserved[3]; /**< must be zero */
};

/** Bits of gpussim_params.ms_ssim_options. @since API 1.2 */
enum gpussim_feature_option {
    GPUSSIM_FEATURE_OWN_OPTIONS = 1u << 0, /**< the bits below apply (not the shared fields) */
    GPUSSIM_FEATURE_LCS         = 1u << 1, /**< enable_lcs */
    GPUSSIM_FEATURE_DB          = 1u << 2, /**< enable_db */
    GPUSSIM_FEATURE_CLIP_DB     = 1u << 3, /**< clip_db */
};

/**
 * The options of the SSIM-family features as one table, for front-ends that
 * declare options at compile time (FFmpeg's AVOption list) and for the
 * library itself. One row per option:
 *   X(name, field, short_name, type, default, min, max, own_bit, help)
 * name: as gpussim_use_feature() spells it (the field's name is accepted
 * too); field: the struct gpussim_params member holding float_ssim's (and
 * the shared) value; short_name: the FFmpeg filter's option; type: BOOL or
 * INT; own_bit: its enum gpussim_feature_option bit in ms_ssim_options (0:
 * float_ms_ssim does not take it). Which features take an option is
 * gpussim_feature_info.options. Every default is 0, so a zeroed struct
 * gpussim_params keeps meaning the defaults. @since API 1.8
 */
#define GPUSSIM_FEATURE_OPTIONS(X)                                                                 \
    X(scale, ssim_scale, scale, INT, 0, 0, 10, 0,                                                  \
      "float_ssim decimation factor, 0 = libvmaf's automatic rule")                                \
    X(enable_lcs, enable_lcs, lcs, BOOL, 0, 0, 1, GPUSSIM_FEATURE_LCS,                             \
      "also report luminance, contrast and structure terms")                                       \
    X(enable_db, enable_db, db, BOOL, 0, 0, 1, GPUSSIM_FEATURE_DB,                                 \
      "report SSIM-family scores in dB: -10*log10(1 - score)")                                     \
    X(clip_db, clip_db, clip_db, BOOL, 0, 0, 1, GPUSSIM_FEATURE_CLIP_DB,                           \
      "with the dB scores: clip at the largest finite value for the frame size")

typedef struct GpussimContext GpussimContext;

/** Fills *p with the defaults: all fields zero (metrics = 0: every metric
 *  the frame size allows, see gpussim_create(); ms_ssim_options = 0:
 *  float_ms_ssim shares enable_lcs/enable_db/clip_db until
 *  gpussim_use_feature() gives it its own). */
GPUSSIM_API void gpussim_default_params(struct gpussim_params *p);

/* ---------------------------------------------------------------------------
 * Features: libvmaf's names and options, one table for every front-end.
 * ------------------------------------------------------------------------- */

/** One feature of the table. @since API 1.2 */
struct gpussim_feature_info {
    const char *name;    /**< libvmaf's name: "float_ssim", "float_ms_ssim", "float_ansnr", "ssim" */
    const char *aliases; /**< other accepted names, comma-separated ("" when none) */
    unsigned metric;     /**< its enum gpussim_metric bit */
    const char *options; /**< its options, comma-separated ("" when none) */
    const char *scores;  /**< the score names it adds, for documentation */
};

/** The i-th feature of the table (i from 0), NULL past the end. The strings
 *  are static. @since API 1.2 */
GPUSSIM_API const struct gpussim_feature_info *gpussim_feature_get(int i);

/**
 * Adds one feature to p, libvmaf's vmaf_use_feature() in a string:
 * "NAME[:opt=val[:opt=val...]]" (also "NAME=opt=val:...", the gpussim tool's
 * form), NAME one of the table's names or aliases ("float_ssim", "ssim",
 * "float_ms_ssim"/"ms_ssim", "float_ansnr"/"ansnr"/"float_anpsnr") or "all"
 * (every feature; no options). Options: float_ssim takes scale (0 = auto,
 * 1..10), enable_lcs, enable_db, clip_db; float_ms_ssim takes enable_lcs,
 * enable_db, clip_db; booleans are true/false/1/0. Options not given keep
 * their current value in p (a front-end's global defaults). A feature named
 * twice must not change its options. Names are case-sensitive.
 * Explicitly named features are strict: gpussim_create() fails when the
 * frame is too small for one (p->metrics = 0, the default, instead picks
 * every metric the frame allows, with a warning for each left out).
 * @return 0, or -EINVAL with the reason logged through p->log_cb.
 * @since API 1.2
 */
GPUSSIM_API int gpussim_use_feature(struct gpussim_params *p, const char *spec);

/**
 * Writes p's features and their options as a canonical spec list, one
 * "NAME[:opt=val...]" per feature joined with '|' (libvmaf's order:
 * float_ssim, float_ms_ssim, float_ansnr, ssim), every option spelled out:
 * equal strings mean equal configurations. p->metrics = 0 writes "default".
 * @return the length (snprintf-like: may exceed size, then truncated), or
 *         -EINVAL. @since API 1.2
 */
GPUSSIM_API int gpussim_features_string(const struct gpussim_params *p, char *buf, size_t size);

/** The backend's name ("auto", "cpu", "cuda", "vulkan", "hip", "ze"), NULL
 *  for a value outside the enum. Iterate from GPUSSIM_BACKEND_AUTO until
 *  NULL to list them. @since API 1.2 */
GPUSSIM_API const char *gpussim_backend_type_name(enum gpussim_backend_type type);

/** Parses a backend name (as gpussim_backend_type_name() spells it; also
 *  "level-zero" for ze). @return 0, or -EINVAL for an unknown name (nothing
 *  logged: the caller names it). @since API 1.2 */
GPUSSIM_API int gpussim_backend_from_name(const char *name, enum gpussim_backend_type *type);

/** The most backends gpussim_backend_order() lists. @since API 1.4 */
#define GPUSSIM_MAX_BACKENDS 8

/**
 * The backends gpussim_create() tries for p, in order, written once for
 * every front-end (the filter, the tool). The first one that is built and
 * whose device starts is used; each one skipped is logged (verbose) with
 * the reason.
 *   - An explicit backend is the only one tried. With device frames it must
 *     read them: CUDA frames need cuda; Vulkan frames vulkan; DMABUF frames
 *     hip or ze (as dma-bufs) or vulkan (mapped by the caller); anything
 *     else is -EINVAL, logged with the backend that would read them.
 *   - AUTO with HOST frames: cuda, vulkan, hip, ze, then cpu (always there).
 *   - AUTO with CUDA frames: cuda. With Vulkan frames: vulkan.
 *   - AUTO with DMABUF frames: the vendor's own backend (device_vendor
 *     "intel": ze, "amd"/"radeon": hip) when the hint names one, then
 *     vulkan (any failure of the first, even a missing build, falls back).
 * @return the number written to order (1..GPUSSIM_MAX_BACKENDS), or -EINVAL
 *         (logged through p->log_cb). @since API 1.4
 */
GPUSSIM_API int gpussim_backend_order(const struct gpussim_params *p,
                                      enum gpussim_backend_type order[GPUSSIM_MAX_BACKENDS]);

/**
 * Validates params and creates a context. Every configuration that cannot
 * work fails here with a logged message that names the limit: unsupported
 * bit depth or layout, frames too small for a requested metric (MS-SSIM needs
 * 176x176; float_ssim needs an 11x11 decimated plane; any metric needs 11x11),
 * planes=ALL on a gray format, an unavailable backend or device. With
 * metrics = 0 (no feature chosen) the context computes every metric the
 * frame size allows (on every scored plane) and logs one warning naming
 * each metric left out and why (since API 1.2; before, 0 meant ALL).
 * @return 0, -EINVAL (bad configuration), -ENODEV (backend or device
 *         unavailable), -ENOSYS (backend not built), -ENOMEM.
 */
GPUSSIM_API int gpussim_create(GpussimContext **ctx, const struct gpussim_params *params);

/** Waits for work in flight, frees everything, sets *ctx to NULL. NULL-safe. */
GPUSSIM_API void gpussim_destroy(GpussimContext **ctx);

/** Name of the backend the context runs on ("cpu", "cuda", "vulkan", ...). */
GPUSSIM_API const char *gpussim_backend_name(const GpussimContext *ctx);

/** The memory the context's pictures must be in: params.memory, except that
 *  DMABUF frames scored by the vulkan backend are submitted as Vulkan
 *  images the caller mapped them to (GPUSSIM_MEMORY_VULKAN). @since API 1.4 */
GPUSSIM_API enum gpussim_memory gpussim_picture_memory(const GpussimContext *ctx);

/**
 * The names of the per-frame scores, in the order of gpussim_result.values:
 * libvmaf's names (float_ssim, float_ssim_l, ..., float_ms_ssim,
 * float_ms_ssim_l_scale0, ..., float_ansnr, float_anpsnr, ssim), luma first,
 * then with planes=ALL the same names suffixed ".u" and ".v".
 * Valid until the context is destroyed.
 */
GPUSSIM_API int gpussim_score_names(const GpussimContext *ctx, const char *const **names);

/** 1 when name is one of a metric's terms rather than a metric's score:
 *  float_ssim_l/_c/_s and float_ms_ssim_{l,c,s}_scaleN, with or without a
 *  plane suffix (".u", ".v"); 0 for the scores (float_ssim, float_ms_ssim,
 *  float_ansnr, float_anpsnr, ssim) and for any other name. Front-ends use
 *  it to keep summaries and plots to the scores. @since API 1.5 */
GPUSSIM_API int gpussim_score_is_term(const char *name);

/** The most distorted pictures one reference picture is scored against
 *  (gpussim_params.nb_distorted). @since API 1.3 */
#define GPUSSIM_MAX_DISTORTED 16

/** The number of distorted pictures per reference picture the context
 *  scores: params.nb_distorted, at least 1. @since API 1.3 */
GPUSSIM_API int gpussim_renditions(const GpussimContext *ctx);

/** The scores of one frame. */
struct gpussim_result {
    uint64_t index;       /**< 0-based submission order */
    /** gpussim_renditions() x gpussim_score_names(): the scores of
     *  distorted picture 0 in score-name order, then those of picture 1,
     *  ... (rendition-major); a pair context has just the score names */
    int nb_values;
    const double *values; /**< owned by the context; valid until the next collect or destroy */
};

/**
 * Queues a (reference, distorted) pair for scoring; frames are numbered in
 * submission order from 0.
 * @return the frame's index (>= 0); -EAGAIN when max_in_flight frames are
 *         pending (collect one first); -EINVAL for a picture that does not
 *         match the configured format or memory; a device error.
 */
GPUSSIM_API int64_t gpussim_submit(GpussimContext *ctx, const struct gpussim_picture *ref,
                       const struct gpussim_picture *dis);

/**
 * Queues one reference picture with its nb_dis distorted pictures (the
 * renditions of an ABR ladder, the candidates of an encoder tuning loop) as
 * one frame; its result holds nb_dis x score names values, rendition-major.
 * nb_dis must equal gpussim_renditions() (params.nb_distorted; 1 is the pair
 * of gpussim_submit()). Every value is bit-identical to scoring each pair on
 * its own. Backends that support it compute the reference's terms (its
 * blurred means and variances, its MS-SSIM pyramid, its filtered ANSNR
 * plane) once per frame (the CPU backend); the others score the pairs one
 * after another inside the library, using nb_dis of their frame slots per
 * frame (max_in_flight counts frames of nb_dis pictures).
 * The pictures' memory rules are gpussim_submit()'s; all must be in the same
 * memory and match the configured format.
 * @return the frame's index (>= 0); -EAGAIN when max_in_flight frames are
 *         pending; -EINVAL for a wrong count or a picture that does not
 *         match (the message names the distorted picture by index); a
 *         device error. @since API 1.3
 */
GPUSSIM_API int64_t gpussim_submit_multi(GpussimContext *ctx, const struct gpussim_picture *ref,
                                         const struct gpussim_picture *const *dis, int nb_dis);

/**
 * Returns the next result in submission order.
 * @param wait non-zero: block until the next pending frame is done.
 * @return 1 with *res filled; 0 when nothing is pending (or, without wait,
 *         the next frame is not finished yet); a negative error when the
 *         next frame failed (it is consumed; later frames can still be collected).
 */
GPUSSIM_API int gpussim_collect(GpussimContext *ctx, struct gpussim_result *res, int wait);
/* A test aid: with GPUSSIM_TEST_FAULT_FRAME=N in the environment when the
 * context is created, collecting frame N returns -EIO as a device fault
 * would (logged as injected, with a warning at create), on any backend. It
 * lets front-ends test that a failing device mid-run ends the run with an
 * error and keeps every frame scored before it. */

/** Number of frames submitted and not yet collected. */
GPUSSIM_API int gpussim_pending(const GpussimContext *ctx);

/** Human-readable text for a gpussim error code. */
GPUSSIM_API const char *gpussim_strerror(int err);

/* ---------------------------------------------------------------------------
 * Pooling: statistics over frames, mergeable across chunks.
 *
 * A pool holds a count, min, max, exact (order-independent) sums of v and of
 * 1/(v+1), and every value (for percentiles). Merging two pools gives exactly
 * the pool of the concatenated sequence: the mean of a chunked run merged
 * afterwards equals the mean of the whole run to the last bit.
 * ------------------------------------------------------------------------- */

typedef struct GpussimPool GpussimPool;

struct gpussim_pool_stats {
    uint64_t count;
    double mean;          /**< correctly rounded sum / count */
    double harmonic_mean; /**< libvmaf's: count / sum(1/(v+1)) - 1 */
    double min, max;
};

GPUSSIM_API int gpussim_pool_create(GpussimPool **pool);
GPUSSIM_API void gpussim_pool_destroy(GpussimPool **pool);
/** Adds one value. NaN is rejected with -EINVAL; +-inf (an enable_db score
 *  of a perfect frame without clip_db) is accepted and makes the mean
 *  infinite. Finite values beyond +-2^900 (~8.5e270; no metric comes near)
 *  are rejected with -ERANGE: the exact sums must not overflow. On any
 *  failure (also -ENOMEM) the pool is unchanged. */
GPUSSIM_API int gpussim_pool_add(GpussimPool *pool, double v);
/** dst becomes the pool of dst's values followed by src's. src may be dst:
 *  the pool then holds each of its values twice. All or nothing: on failure
 *  (-ENOMEM) dst is unchanged. */
GPUSSIM_API int gpussim_pool_merge(GpussimPool *dst, const GpussimPool *src);
/** Fills *st; on an empty pool count is 0 and the other fields are NaN. */
GPUSSIM_API int gpussim_pool_stats(const GpussimPool *pool, struct gpussim_pool_stats *st);
/** Percentile q in [0, 100], linear interpolation between closest ranks
 *  (numpy's default). -EINVAL for an empty pool or q out of range. */
GPUSSIM_API int gpussim_pool_percentile(const GpussimPool *pool, double q, double *out);

/**
 * Serialises a pool into a self-describing text blob, so chunks scored by
 * different processes can be merged later: a versioned header with the value
 * count, every value exactly (its IEEE-754 bits in hexadecimal), and a CRC-32
 * of all that. *buf is malloc()ed (free() it) and NUL-terminated; *len
 * does not count the NUL.
 */
GPUSSIM_API int gpussim_pool_serialize(const GpussimPool *pool, char **buf, size_t *len);
/**
 * Parses gpussim_pool_serialize()'s output (exactly len bytes) into a new
 * pool. A blob that is truncated, extended, corrupted (checksum), of another
 * format version, or holding a NaN is refused with -EINVAL; nothing is
 * allocated beyond what len bytes can describe. *pool is NULL on failure.
 * The reason goes to log_cb (may be NULL) at GPUSSIM_LOG_ERROR.
 * @since API 1.1
 */
GPUSSIM_API int gpussim_pool_deserialize2(GpussimPool **pool, const char *buf, size_t len, gpussim_log_fn log_cb,
                              void *log_opaque);
/** gpussim_pool_deserialize2() without a log callback. */
GPUSSIM_API int gpussim_pool_deserialize(GpussimPool **pool, const char *buf, size_t len);

/* ---------------------------------------------------------------------------
 * Sync: the constant frame offset between two inputs.
 *
 * Finds d such that distorted frame i shows the content of reference frame
 * i + d, by comparing 4x4 box-averaged luma of the first frames of both
 * inputs at every offset -window..window. Exact and deterministic: integer
 * sums, doubles in a fixed order, no threads; the same frames give the same
 * answer on every machine. A GpussimSync is used from one thread at a time;
 * distinct ones are independent. Host memory only; it never touches a GPU.
 * ------------------------------------------------------------------------- */

/** A frame-offset search. @since API 1.6 */
typedef struct GpussimSync GpussimSync;

/** The largest window (offsets -window..window). @since API 1.6 */
#define GPUSSIM_SYNC_MAX_WINDOW 240
/** Frame pairs compared per offset when params.pairs is 0. @since API 1.6 */
#define GPUSSIM_SYNC_DEFAULT_PAIRS 5
/** The most frame pairs compared per offset. @since API 1.6 */
#define GPUSSIM_SYNC_MAX_PAIRS 1000

/** Parameters of gpussim_sync_create(). @since API 1.6 */
struct gpussim_sync_params {
    struct gpussim_format format; /**< the frames' format; only luma is read */
    int window;                   /**< N: offsets -N..N are tried; 1..GPUSSIM_SYNC_MAX_WINDOW */
    /** frame pairs compared per offset; 0 = GPUSSIM_SYNC_DEFAULT_PAIRS, at
     *  most GPUSSIM_SYNC_MAX_PAIRS */
    int pairs;
    /** optional; receives every message (errors, and at VERBOSE one line
     *  per offset tried): filter by level in the callback */
    gpussim_log_fn log_cb;
    void *log_opaque;
    void *reserved[8];            /**< must be zero */
};

/**
 * Creates a search. Nothing is allocated for frames until they are added.
 * @return 0, -EINVAL (a bad field, logged by name), -ENOMEM. *s is NULL on
 *         failure. @since API 1.6
 */
GPUSSIM_API int gpussim_sync_create(GpussimSync **s, const struct gpussim_sync_params *p);
/** Frees everything, sets *s to NULL. NULL-safe. @since API 1.6 */
GPUSSIM_API void gpussim_sync_destroy(GpussimSync **s);
/** The frames each input must give for a complete search: window + pairs
 *  (-EINVAL for NULL). @since API 1.6 */
GPUSSIM_API int gpussim_sync_frames(const GpussimSync *s);
/**
 * Adds the next frame of input 0 (the distorted) or 1 (the reference). pic
 * is in host memory, in params.format's layout (any depth and packing
 * gpussim_create() accepts; negative strides and msb_aligned honoured; luma
 * stride and address rules as gpussim_submit()'s). Its luma plane is reduced
 * at once to a private 4x4 box-summed copy (frames narrower or shorter than
 * 4 samples are kept whole), so the caller may free or reuse the picture at
 * once. Frames beyond gpussim_sync_frames() are ignored.
 * @return the number of frames that input now holds (unchanged once
 *         gpussim_sync_frames() is reached); -EINVAL for a bad argument
 *         (logged); -ENOMEM. @since API 1.6
 */
GPUSSIM_API int gpussim_sync_add(GpussimSync *s, int input, const struct gpussim_picture *pic);
/**
 * Decides the offset d in [-window, window]: distorted frame i pairs with
 * reference frame i + d (d > 0: the distorted input starts later in the
 * content, as if its first d frames were dropped; score it by skipping the
 * first d reference frames; d < 0: skip the first -d distorted frames).
 * For each d, `pairs` consecutive pairs are compared from the first pair that
 * exists (distorted index max(0, -d), reference index max(0, d)); fewer when
 * an input is short (an offset with no pair at all is not a candidate).
 * Score: the mean squared error of the decimated luma over the compared
 * pairs, on samples scaled to 8 bits (so PSNR = 10*log10(255^2/mse) reads
 * the same at every depth). Best: the lowest mse; ties go to the smaller
 * |d|, then to d >= 0. May be called again after more frames are added.
 * @param offset         the best d
 * @param psnr           its PSNR in dB, +INFINITY for identical frames
 * @param runner_up_psnr the best PSNR among the other offsets, -INFINITY
 *                       when no other offset is a candidate (a margin to
 *                       report confidence with)
 * psnr and runner_up_psnr may be NULL.
 * @return 0; -EINVAL for a NULL s or offset or when no offset has a pair (an
 *         input gave no frame), logged. @since API 1.6
 */
GPUSSIM_API int gpussim_sync_find(GpussimSync *s, int *offset, double *psnr, double *runner_up_psnr);

#ifdef __cplusplus
}
#endif

#endif /* GPUSSIM_GPUSSIM_H */
