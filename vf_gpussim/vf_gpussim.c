/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Copyright (c) 2026 The gpussim authors
 *
 * This file is free software; you can redistribute it and/or modify it under
 * the terms of the GNU Lesser General Public License as published by the Free
 * Software Foundation; either version 2.1 of the License, or (at your option)
 * any later version, like the FFmpeg sources it is compiled with.
 *
 * It is distributed in the hope that it will be useful, but WITHOUT ANY
 * WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
 * FOR A PARTICULAR PURPOSE. See the GNU Lesser General Public License
 * (COPYING.LGPLv2.1) for more details.
 */
/*
 * gpussim filter: libvmaf-identical SSIM, MS-SSIM, ANSNR and integer SSIM
 * computed by libgpussim on the CPU or a GPU.
 *
 * This file is part of gpussim. It is compiled inside an FFmpeg tree
 * (7.1, 8.x or 9.0) patched with patches/<version>/ and configured with
 * --enable-libgpussim.
 *
 * The filter is deliberately thin: options, format negotiation, frame
 * synchronisation, metadata and logs. All metric and device work is behind
 * the library's public API (gpussim.h): the library picks the backend from
 * where the frames are (gpussim_backend_order()); gpussim_libav.h turns
 * AVFrames into the library's pictures, as libplacebo's utils/libav.h does.
 *
 * Inputs: "main" (distorted) and "reference", synchronised by framesync
 * (options shortest, repeatlast, eof_action, ts_sync_mode). Output: the
 * distorted frames, unchanged, with lavfi.gpussim.<score> metadata.
 *
 * A ladder (inputs=N > 2): inputs 0..N-2 are distorted renditions of the
 * last input, the reference, scored in one library submit (the reference's
 * terms computed once). The output carries input 0's frames; rendition 0's
 * scores keep the keys lavfi.gpussim.<score>, rendition k's are
 * lavfi.gpussim.r<k>.<score>. One output, as FFmpeg's own quality filters
 * (ssim, psnr, libvmaf) put their metadata on the main output: a user
 * reads every rendition's scores from one stream, with no extra sinks.
 *
 * Pipelining: a pair is submitted to the library and the distorted frame is
 * held (with a reference to the reference frame when the library reads it
 * asynchronously from device memory) until its scores are collected, so the
 * library can work on frame N while frame N+1 is being decoded/uploaded.
 * Frames leave in submission order.
 */

#include "config.h"
#include "config_components.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gpussim/gpussim.h>
#include <gpussim/gpussim_log.h>

#include "libavutil/avassert.h"
#include "libavutil/avstring.h"
#include "libavutil/fifo.h"
#include "libavutil/file_open.h"
#include "libavutil/hwcontext.h"
#include "libavutil/internal.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/time.h"

#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "gpussim_libav.h"
#include "video.h"

/* FFmpeg 8.0 (libavfilter 11) wraps the public AVFilter in FFFilter. */
#if LIBAVFILTER_VERSION_MAJOR >= 11
#define GPUSSIM_FFFILTER 1
#else
#define GPUSSIM_FFFILTER 0
#endif

enum { POOL_MEAN = 1, POOL_HARMONIC = 2, POOL_MIN = 4, POOL_MAX = 8,
       POOL_MEDIAN = 16, POOL_P5 = 32, POOL_P1 = 64 };

#define MAX_INPUTS (GPUSSIM_MAX_DISTORTED + 1)

/* One submitted frame (a pair, or a ladder's renditions and their
 * reference), waiting for its scores. Pictures are indexed by input. */
typedef struct InFlight {
    AVFrame *dist;     /* the output frame (input 0), pushed once scored */
    /* inputs 1.. (renditions, then the reference), kept only while the
     * library reads device memory */
    AVFrame *keep[MAX_INPUTS];
    GpussimLibavPicture pic[MAX_INPUTS]; /* what the library reads (mappings) */
} InFlight;

typedef struct GpussimFilterContext {
    const AVClass *class;
    FFFrameSync fs;

    /* options */
    char *feature;
    char *backend_name;
    int device;
    int scale;
    int lcs;
    int db;
    int clip_db;
    int planes;
    char *log_path;
    int log_fmt;
    int pool_flags;
    int nb_inputs;           /* renditions + the reference */

    /* state */
    GpussimContext *gs;
    GpussimLibavDevice dev;  /* the frames' device, as the library adopts it */
    enum gpussim_memory memory; /* what the library reads the pictures in */
    int width, height;
    const char *const *names;
    int nb_names;            /* score names of one rendition */
    int nb_renditions;       /* nb_inputs - 1 */
    GpussimPool **pools;     /* nb_renditions x nb_names */
    AVFifo *queue;           /* InFlight *, in submission order */
    uint64_t nb_scored;
    int64_t t_start, t_end;
    GpussimLogWriter *log;   /* the library's log writer (log_path) */
    int log_error;           /* writing the log failed: AVERROR, reported once */
    int frame_failed;        /* a frame failed on the device: later ones are not recorded
                              * (the log numbers its frames in order; a device that
                              * failed once is not trusted with the frames after it) */
    int consumed, produced;  /* during one activate() */
    int64_t last_ref_pts;    /* the reference frame of the last scored pair */
    int64_t last_pts[MAX_INPUTS]; /* ladder: each rendition's frame of the last scored frame */
    uint64_t nb_repeated;    /* pairs scored against the ended reference's last frame */
} GpussimFilterContext;

#define OFFSET(x) offsetof(GpussimFilterContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

static const AVOption gpussim_options[] = {
    { "feature", "metrics, joined with |: float_ssim, ssim, float_ms_ssim (ms_ssim), "
      "float_ansnr (ansnr), all (default: all that the frame size allows)",
      OFFSET(feature), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "backend", "where the metrics run: auto (the frames' device, else the first GPU, else the "
      "CPU), cpu, cuda, vulkan, hip, ze", OFFSET(backend_name), AV_OPT_TYPE_STRING, { .str = "auto" }, 0, 0, FLAGS },
    { "device", "GPU index when the backend opens its own device (software frames)",
      OFFSET(device), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "scale", "float_ssim decimation factor, 0 = libvmaf's automatic rule",
      OFFSET(scale), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 10, FLAGS },
    { "lcs", "also report luminance, contrast and structure terms",
      OFFSET(lcs), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "db", "report SSIM-family scores in dB: -10*log10(1 - score)",
      OFFSET(db), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "clip_db", "with db: clip at the largest finite value for the frame size",
      OFFSET(clip_db), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "planes", "planes to score", OFFSET(planes), AV_OPT_TYPE_INT,
      { .i64 = GPUSSIM_PLANES_LUMA }, GPUSSIM_PLANES_LUMA, GPUSSIM_PLANES_ALL, FLAGS, .unit = "planes" },
        { "luma", "luma only (libvmaf)", 0, AV_OPT_TYPE_CONST, { .i64 = GPUSSIM_PLANES_LUMA }, 0, 0, FLAGS, .unit = "planes" },
        { "all",  "luma, then U and V at their own size (keys suffixed .u, .v)",
          0, AV_OPT_TYPE_CONST, { .i64 = GPUSSIM_PLANES_ALL }, 0, 0, FLAGS, .unit = "planes" },
    { "log_path", "write per-frame scores and pooled statistics to this file",
      OFFSET(log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt", "log file format", OFFSET(log_fmt), AV_OPT_TYPE_INT,
      { .i64 = GPUSSIM_LOG_FORMAT_JSON }, GPUSSIM_LOG_FORMAT_JSON, GPUSSIM_LOG_FORMAT_CSV, FLAGS, .unit = "log_fmt" },
        { "json", "libvmaf's JSON layout", 0, AV_OPT_TYPE_CONST, { .i64 = GPUSSIM_LOG_FORMAT_JSON }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "csv",  "one row per frame",     0, AV_OPT_TYPE_CONST, { .i64 = GPUSSIM_LOG_FORMAT_CSV },  0, 0, FLAGS, .unit = "log_fmt" },
    { "pool", "statistics printed in the summary", OFFSET(pool_flags), AV_OPT_TYPE_FLAGS,
      { .i64 = POOL_MEAN | POOL_HARMONIC | POOL_MIN }, 0, INT_MAX, FLAGS, .unit = "pool" },
        { "mean",          NULL, 0, AV_OPT_TYPE_CONST, { .i64 = POOL_MEAN },     0, 0, FLAGS, .unit = "pool" },
        { "harmonic_mean", NULL, 0, AV_OPT_TYPE_CONST, { .i64 = POOL_HARMONIC }, 0, 0, FLAGS, .unit = "pool" },
        { "min",           NULL, 0, AV_OPT_TYPE_CONST, { .i64 = POOL_MIN },      0, 0, FLAGS, .unit = "pool" },
        { "max",           NULL, 0, AV_OPT_TYPE_CONST, { .i64 = POOL_MAX },      0, 0, FLAGS, .unit = "pool" },
        { "median",        NULL, 0, AV_OPT_TYPE_CONST, { .i64 = POOL_MEDIAN },   0, 0, FLAGS, .unit = "pool" },
        { "p5",            "5th percentile", 0, AV_OPT_TYPE_CONST, { .i64 = POOL_P5 }, 0, 0, FLAGS, .unit = "pool" },
        { "p1",            "1st percentile", 0, AV_OPT_TYPE_CONST, { .i64 = POOL_P1 }, 0, 0, FLAGS, .unit = "pool" },
    { "inputs", "number of inputs: distorted renditions, then the reference last (2: one pair)",
      OFFSET(nb_inputs), AV_OPT_TYPE_INT, { .i64 = 2 }, 2, MAX_INPUTS, FLAGS },
    { NULL }
};

FRAMESYNC_DEFINE_CLASS(gpussim, GpussimFilterContext, fs);

/* ---- formats ------------------------------------------------------------ */

/* Every format the filter reads. */
static int all_formats(AVFilterFormats **list)
{
    const AVPixFmtDescriptor *d = NULL;
    static const enum AVPixelFormat hw_fmts[] = {
        AV_PIX_FMT_CUDA, AV_PIX_FMT_VULKAN, AV_PIX_FMT_VAAPI,
    };
    int ret;

    /* ff_add_format() frees the list it fails on */
    while ((d = av_pix_fmt_desc_next(d))) {
        struct gpussim_format f;
        const enum AVPixelFormat fmt = av_pix_fmt_desc_get_id(d);
        if (gpussim_libav_format(fmt, &f) < 0)
            continue;
        if ((ret = ff_add_format(list, fmt)) < 0)
            return ret;
    }
    for (int i = 0; i < FF_ARRAY_ELEMS(hw_fmts); i++)
        if ((ret = ff_add_format(list, hw_fmts[i])) < 0)
            return ret;
    return 0;
}

static int query_formats(const AVFilterContext *ctx, AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    const GpussimFilterContext *s = ctx->priv;
    int ret;

    /* A separate list for each input: FFmpeg must not convert one input to
     * another's format behind the user's back (a bit-depth change alters
     * the scores); a mismatch is reported in config_input_ref. The output
     * shares the main input's list: it carries the same frames. */
    for (int i = s->nb_inputs - 1; i >= 0; i--) {
        AVFilterFormats *fmts = NULL;
        if ((ret = all_formats(&fmts)) < 0 ||
            (ret = ff_formats_ref(fmts, &cfg_in[i]->formats)) < 0)
            return ret;
        if (!i && (ret = ff_formats_ref(fmts, &cfg_out[0]->formats)) < 0)
            return ret;
    }
    return 0;
}

static const char *backend_label(int b)
{
    const char *n = gpussim_backend_type_name((enum gpussim_backend_type)b);
    return n ? n : "auto";
}

static const char *fmt_name(enum AVPixelFormat fmt)
{
    const char *n = av_get_pix_fmt_name(fmt);
    return n ? n : "none";
}

/* Describes a link's frames as "yuv420p" or "cuda (nv12)". */
static void describe_link(AVFilterLink *link, char *buf, size_t size)
{
    FilterLink *l = ff_filter_link(link);
    if (l->hw_frames_ctx) {
        const AVHWFramesContext *fc = (const AVHWFramesContext *)l->hw_frames_ctx->data;
        snprintf(buf, size, "%s (%s)", fmt_name(link->format), fmt_name(fc->sw_format));
    } else {
        snprintf(buf, size, "%s", fmt_name(link->format));
    }
}

/* How messages name distorted input i: as before for a pair. */
static const char *input_label(const GpussimFilterContext *s, int i, char *buf, size_t size)
{
    if (s->nb_inputs == 2)
        return "the distorted input";
    snprintf(buf, size, "distorted input %d (rendition %d)", i, i);
    return buf;
}

/* Checks one distorted input against the reference (the last input). */
static int check_input(AVFilterContext *ctx, int i)
{
    GpussimFilterContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[i], *reflink = ctx->inputs[s->nb_inputs - 1];
    FilterLink *ml = ff_filter_link(mainlink), *rl = ff_filter_link(reflink);
    const int main_hw = !!ml->hw_frames_ctx, ref_hw = !!rl->hw_frames_ctx;
    const char *all = s->nb_inputs == 2 ? "both inputs" : "all inputs";
    char md[64], rd[64], lb[64];
    const char *what = input_label(s, i, lb, sizeof(lb));

    describe_link(mainlink, md, sizeof(md));
    describe_link(reflink, rd, sizeof(rd));

    if (mainlink->w != reflink->w || mainlink->h != reflink->h) {
        av_log(ctx, AV_LOG_ERROR,
               "%s is %dx%d but the reference is %dx%d: %s must have the same "
               "size. Scale the distorted rendition to the reference size first, e.g. "
               "[dist]scale=%d:%d:flags=bicubic[d];[d][ref]gpussim\n",
               what, mainlink->w, mainlink->h, reflink->w, reflink->h,
               s->nb_inputs == 2 ? "both" : "all", reflink->w, reflink->h);
        return AVERROR(EINVAL);
    }
    if (mainlink->format != reflink->format) {
        const char *hint = main_hw != ref_hw
            ? (main_hw ? "add hwupload to the reference input, or hwdownload,format=<fmt> "
                         "to the distorted input"
                       : "add hwupload to the distorted input, or hwdownload,format=<fmt> "
                         "to the reference input")
            : main_hw ? "map or transfer one input to the other's device (hwmap, or "
                        "hwdownload then hwupload)"
                      : "convert one input with format=<fmt> or scale";
        av_log(ctx, AV_LOG_ERROR,
               "%s is %s but the reference is %s: %s must have the "
               "same pixel format and memory; %s\n", what, md, rd, all, hint);
        return AVERROR(EINVAL);
    }
    if (main_hw) {
        const AVHWFramesContext *mf = (const AVHWFramesContext *)ml->hw_frames_ctx->data;
        const AVHWFramesContext *rf = (const AVHWFramesContext *)rl->hw_frames_ctx->data;
        if (mf->sw_format != rf->sw_format) {
            av_log(ctx, AV_LOG_ERROR,
                   "%s is %s but the reference is %s: %s must have the "
                   "same pixel format (convert one of them, e.g. with hwdownload,format=<fmt>, "
                   "format=<fmt>,hwupload)\n", what, md, rd, all);
            return AVERROR(EINVAL);
        }
        if (mf->device_ref->data != rf->device_ref->data) {
            /* FFmpeg opens a device per "-hwaccel_device N" and per
             * hwupload_cuda instance, even on one GPU */
            const char *t = av_hwdevice_get_type_name(mf->device_ctx->type);
            av_log(ctx, AV_LOG_ERROR,
                   "%s and the reference are on two different %s devices (FFmpeg opens one for "
                   "each -hwaccel_device N and each hwupload_cuda, even on one GPU): open one "
                   "device by name and give it to every input: -init_hw_device %s=gpu[:N], then "
                   "-hwaccel %s -hwaccel_device gpu -hwaccel_output_format %s before each -i when "
                   "decoding, or -filter_hw_device gpu and hwupload on each input when uploading\n",
                   s->nb_inputs == 2 ? "the distorted input" : what, t, t, t, t);
            return AVERROR(EINVAL);
        }
    }
    return 0;
}

static int config_input_ref(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    GpussimFilterContext *s = ctx->priv;
    for (int i = 0; i < s->nb_inputs - 1; i++) {
        const int ret = check_input(ctx, i);
        if (ret < 0)
            return ret;
    }
    return 0;
}

/* ---- library glue -------------------------------------------------------- */

static void log_from_library(void *opaque, enum gpussim_log_level level, const char *msg)
{
    /* the library's levels are FFmpeg's values */
    av_log(opaque, (int)level, "%s\n", msg);
}

/* feature=NAME[\:opt=val...]|NAME...: each goes to the library's
 * gpussim_use_feature(), which owns the names, options and their checks;
 * the filter's scale/lcs/db/clip_db are the defaults of every feature. */
static int parse_features(AVFilterContext *ctx, struct gpussim_params *p)
{
    GpussimFilterContext *s = ctx->priv;
    const char *f = s->feature;
    char token[512];
    int named = 0;

    while (*f) {
        size_t len = strcspn(f, "|+ ");
        if (len) {
            if (len >= sizeof(token)) {
                av_log(ctx, AV_LOG_ERROR, "feature '%.*s...' is too long\n", 32, f);
                return AVERROR(EINVAL);
            }
            memcpy(token, f, len);
            token[len] = '\0';
            /* the library logs the reason (unknown name, bad option) */
            if (gpussim_use_feature(p, token) < 0)
                return AVERROR(EINVAL);
            named = 1;
        }
        f += len;
        f += strspn(f, "|+ ");
    }
    if (!named) {
        av_log(ctx, AV_LOG_ERROR, "feature is empty: name at least one metric\n");
        return AVERROR(EINVAL);
    }
    return 0;
}

static int config_library(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    AVFilterLink *inlink = ctx->inputs[0];
    FilterLink *il = ff_filter_link(inlink);
    const int hw = !!il->hw_frames_ctx;
    struct gpussim_params p;
    enum gpussim_backend_type backend_type, order[GPUSSIM_MAX_BACKENDS];
    int ret, nb_order;

    gpussim_default_params(&p);
    if (gpussim_backend_from_name(s->backend_name, &backend_type) < 0) {
        char names[128] = "";
        for (int i = 0; gpussim_backend_type_name(i); i++)
            av_strlcatf(names, sizeof(names), "%s%s", i ? ", " : "", gpussim_backend_type_name(i));
        av_log(ctx, AV_LOG_ERROR, "unknown backend '%s' (%s)\n", s->backend_name, names);
        return AVERROR(EINVAL);
    }
    p.backend = backend_type;
    p.device = s->device;
    /* the frames: format, memory, device (the library picks the backend) */
    ret = gpussim_libav_setup(&s->dev, ctx, il->hw_frames_ctx, inlink->format, &p);
    if (ret < 0)
        return ret;
    p.format.width = s->width = inlink->w;
    p.format.height = s->height = inlink->h;

    p.ssim_scale = s->scale;
    p.enable_lcs = s->lcs;
    p.enable_db = s->db;
    p.clip_db = s->clip_db;
    p.ms_ssim_options = GPUSSIM_FEATURE_OWN_OPTIONS | (s->lcs ? GPUSSIM_FEATURE_LCS : 0) |
                        (s->db ? GPUSSIM_FEATURE_DB : 0) | (s->clip_db ? GPUSSIM_FEATURE_CLIP_DB : 0);
    p.log_cb = log_from_library;
    p.log_opaque = ctx;
    /* no feature: the library's default, every metric the frame size allows */
    if (s->feature) {
        ret = parse_features(ctx, &p);
        if (ret < 0)
            return ret;
    }
    /* planes=all on gray is refused by the library, as in the gpussim tool:
     * the chroma scores asked for do not exist */
    p.planes = s->planes;
    /* "threads" is FFmpeg's generic per-filter option (it shadows a private
     * one): with -filter_threads it bounds the CPU backend's workers */
    p.threads = ff_filter_get_nb_threads(ctx);
    p.log_level = (enum gpussim_log_level)FFMAX(AV_LOG_ERROR, FFMIN(av_log_get_level(), AV_LOG_DEBUG));
    p.nb_distorted = s->nb_renditions;

    /* an explicit backend that cannot read the frames: the library says
     * which can; the way to the host is FFmpeg's */
    nb_order = gpussim_backend_order(&p, order);
    if (nb_order < 0) {
        av_log(ctx, AV_LOG_ERROR, "(to score %s frames on the %s, add hwdownload,format=%s before "
               "gpussim)\n", s->dev.frames_name, backend_label(p.backend), fmt_name(s->dev.sw_format));
        return AVERROR(EINVAL);
    }
    ret = gpussim_create(&s->gs, &p);
    gpussim_libav_created(&s->dev);
    if (ret < 0) {
        /* the backend that failed last (the library logged the others) */
        const char *last = backend_label(order[nb_order - 1]);
        if (s->dev.device_error)
            return s->dev.device_error; /* deriving the Vulkan device: logged */
        if (ret == -ENOSYS)
            av_log(ctx, AV_LOG_ERROR,
                   "the gpussim library was built without the %s backend%s%s%s; rebuild libgpussim "
                   "with that backend, or score on another one (%sbackend=cpu)\n",
                   last, hw ? ", which is needed to score " : "", hw ? s->dev.frames_name : "",
                   hw ? " frames" : "", hw ? "hwdownload,format=<fmt>,gpussim=" : "");
        else if (ret == -ENODEV)
            av_log(ctx, AV_LOG_ERROR, "the %s backend has no usable device\n", last);
        else
            av_log(ctx, AV_LOG_ERROR, "cannot set up gpussim for %dx%d %s: %s\n",
                   inlink->w, inlink->h, fmt_name(s->dev.sw_format), gpussim_strerror(ret));
        return AVERROR(-ret);
    }
    s->memory = gpussim_picture_memory(s->gs);

    ret = gpussim_score_names(s->gs, &s->names);
    if (ret < 0)
        return AVERROR(-ret);
    s->nb_names = ret;
    s->pools = av_calloc(s->nb_names * s->nb_renditions, sizeof(*s->pools));
    if (!s->pools)
        return AVERROR(ENOMEM);
    for (int i = 0; i < s->nb_names * s->nb_renditions; i++) {
        ret = gpussim_pool_create(&s->pools[i]);
        if (ret < 0)
            return AVERROR(-ret);
    }
    av_log(ctx, AV_LOG_VERBOSE, "%dx%d %s%s%s, backend %s, %d score(s)%s\n", inlink->w, inlink->h,
           hw ? s->dev.frames_name : "", hw ? " " : "", fmt_name(s->dev.sw_format),
           gpussim_backend_name(s->gs), s->nb_names,
           s->nb_renditions > 1 ? " per rendition" : "");
    return 0;
}

/* ---- log file ------------------------------------------------------------ */

/* The library's writer: the log's layout is the gpussim tool's. */
static int open_log(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    struct gpussim_log_writer_params wp = { 0 };
    int ret;

    if (!s->log_path)
        return 0;
    wp.path = s->log_path;
    wp.format = s->log_fmt;
    /* JSON frames carry pts * time_base; the CSV keeps its columns */
    wp.timestamps = s->log_fmt == GPUSSIM_LOG_FORMAT_JSON;
    wp.first_frame = -1;   /* unknown: -ss/trim happen upstream */
    wp.log_cb = log_from_library;
    wp.log_opaque = ctx;
    ret = gpussim_log_open(&s->log, s->gs, &wp);
    return ret < 0 ? AVERROR(-ret) : 0;
}

static double fps_of(const GpussimFilterContext *s)
{
    const double t = (s->t_end - s->t_start) / 1e6;
    return t > 0 ? s->nb_scored / t : 0.0;
}

static void close_log(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    const uint64_t frames = gpussim_log_frames(s->log);

    if (!s->log)
        return;
    /* the summary's statistics: the log's pools hold the frames it wrote */
    for (int i = 0; i < s->nb_names * s->nb_renditions; i++)
        if (!gpussim_log_pool(s->log, i) ||
            gpussim_pool_merge(s->pools[i], gpussim_log_pool(s->log, i)) < 0)
            av_log(ctx, AV_LOG_WARNING, "the summary misses the log's pooled values of %s\n",
                   s->names[i % s->nb_names]);
    /* the library names a write error; after one it only frees */
    if (gpussim_log_close(&s->log, fps_of(s)) >= 0 && !s->log_error)
        av_log(ctx, AV_LOG_VERBOSE, "wrote %" PRIu64 " frame(s) to %s\n", frames, s->log_path);
}

/* ---- frames ---------------------------------------------------------------- */

static void inflight_free(InFlight **pe)
{
    InFlight *e = *pe;
    if (!e)
        return;
    for (int i = 0; i < MAX_INPUTS; i++) {
        gpussim_libav_picture_unref(&e->pic[i]);
        av_frame_free(&e->keep[i]);
    }
    av_frame_free(&e->dist);
    av_freep(pe);
}

/* Records one frame's scores: pools, log file, and (when the frame is still
 * going downstream) its metadata. */
static int record_scores(AVFilterContext *ctx, const struct gpussim_result *res, const AVFrame *dist,
                         AVFrame *out)
{
    GpussimFilterContext *s = ctx->priv;
    char key[128], val[32], rend[16];
    int ret;

    for (int i = 0; i < res->nb_values; i++) {
        const double v = res->values[i];
        const int k = i / s->nb_names;
        const char *name = s->names[i % s->nb_names];
        /* rendition 0 keeps the pair's keys */
        if (k)
            snprintf(rend, sizeof(rend), "r%d.", k);
        else
            rend[0] = '\0';
        if (isnan(v))
            av_log(ctx, AV_LOG_WARNING, "frame %" PRIu64 ": %s%s is not a number\n", res->index,
                   rend, name);
        else if (!s->log || s->log_error)
            /* while the log is written, its pools are the only ones: they
             * are merged into these when it closes (close_log) */
            gpussim_pool_add(s->pools[i], v);
        if (out) {
            snprintf(key, sizeof(key), "lavfi.gpussim.%s%s", rend, name);
            snprintf(val, sizeof(val), "%.17g", v);
            av_dict_set(&out->metadata, key, val, 0);
        }
    }
    s->nb_scored++;
    s->t_end = av_gettime_relative();
    if (s->log && !s->log_error) {
        const double ts = dist && dist->pts != AV_NOPTS_VALUE ? dist->pts * av_q2d(s->fs.time_base) : NAN;
        /* flushed per frame; the library reports a failed write once */
        ret = gpussim_log_write_frame(s->log, res->values, ts);
        if (ret < 0) {
            s->log_error = AVERROR(-ret);
            return s->log_error;
        }
    }
    return 0;
}

/* Collects finished frames in order and sends them on.
 * mode 0: only what is done; 1: exactly one, waiting for it; 2: all, waiting. */
static int collect_frames(AVFilterContext *ctx, int mode)
{
    GpussimFilterContext *s = ctx->priv;
    int ret = 0;

    while (av_fifo_can_read(s->queue)) {
        struct gpussim_result res;
        InFlight *e;
        AVFrame *out;

        ret = gpussim_collect(s->gs, &res, mode != 0);
        if (ret == 0)
            break;
        av_fifo_read(s->queue, &e, 1);
        if (ret < 0) {
            inflight_free(&e);
            s->frame_failed = 1;
            return AVERROR(-ret);
        }
        out = e->dist;
        e->dist = NULL;
        inflight_free(&e);
        ret = record_scores(ctx, &res, out, out);
        if (ret < 0) {
            av_frame_free(&out);
            return ret;
        }
        s->produced = 1;
        ret = ff_filter_frame(ctx->outputs[0], out);
        if (ret < 0 || mode == 1)
            return ret;
    }
    return ret < 0 ? ret : 0;
}

static int check_frame(AVFilterContext *ctx, const AVFrame *f, int input)
{
    GpussimFilterContext *s = ctx->priv;
    char lb[64];
    const char *what = input == s->nb_inputs - 1 ? "reference"
                     : s->nb_inputs == 2 ? "distorted"
                     : (snprintf(lb, sizeof(lb), "distorted input %d", input), lb);
    if (f->width != s->width || f->height != s->height) {
        /* the pair's frame number: the index the library would give it */
        const uint64_t n = s->nb_scored + av_fifo_can_read(s->queue);
        av_log(ctx, AV_LOG_ERROR,
               "%s frame %" PRIu64 " is %dx%d, but earlier frames were %dx%d: sizes changed "
               "mid-stream, which gpussim does not follow (scale both inputs to a fixed size)\n",
               what, n, f->width, f->height, s->width, s->height);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* framesync's repeatlast (the default) scores distorted frames past the
 * reference's end against its last frame: count them for a warning at the
 * end. The reference has ended when framesync took its input out of the
 * sync (sync 0); a frame is repeated when it served the previous pair too
 * and the distorted frame lies past its duration (when known). */
static void count_repeated_ref(AVFilterContext *ctx, const AVFrame *dist, const AVFrame *ref)
{
    GpussimFilterContext *s = ctx->priv;
    const int r = s->nb_inputs - 1;
    const int ended = s->fs.in[r].sync == 0;

    if (ended && ref->pts == s->last_ref_pts && ref->pts != AV_NOPTS_VALUE &&
        (ref->duration <= 0 || dist->pts == AV_NOPTS_VALUE ||
         dist->pts >= ref->pts + av_rescale_q(ref->duration, ctx->inputs[r]->time_base,
                                              s->fs.time_base)))
        s->nb_repeated++;
    s->last_ref_pts = ref->pts;
}

static int do_gpussim(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    GpussimFilterContext *s = ctx->priv;
    struct gpussim_picture pics[MAX_INPUTS];
    const struct gpussim_picture *dis[GPUSSIM_MAX_DISTORTED];
    AVFrame *frames[MAX_INPUTS] = { NULL };
    const int nr = s->nb_renditions, ri = s->nb_inputs - 1;
    InFlight *e = NULL;
    int64_t idx;
    int ret;

    /* ff_framesync_dualinput_get() for N inputs: input 0 is the output frame
     * (owned); the others are lent by framesync */
    ret = ff_framesync_get_frame(fs, 0, &frames[0], 1);
    if (ret < 0)
        return ret;
    av_assert0(frames[0]);
    frames[0]->pts = av_rescale_q(fs->pts, fs->time_base, ctx->outputs[0]->time_base);
    for (int i = 1; i < s->nb_inputs; i++) {
        ret = ff_framesync_get_frame(fs, i, &frames[i], 0);
        if (ret < 0) {
            av_frame_free(&frames[0]);
            return ret;
        }
    }
    if (!frames[ri] || ctx->is_disabled) {
        /* eof_action=pass: the reference ended; frames leave unscored, in order */
        ret = collect_frames(ctx, 2);
        if (ret < 0) {
            av_frame_free(&frames[0]);
            return ret;
        }
        s->produced = 1;
        return ff_filter_frame(ctx->outputs[0], frames[0]);
    }
    for (int i = 1; i < ri; i++) {
        /* a rendition that ended would be scored with its last frame
         * repeated (repeatlast): a wrong number, so an error */
        const int repeated = frames[i] && s->fs.in[i].sync == 0 &&
                             frames[i]->pts == s->last_pts[i] && frames[i]->pts != AV_NOPTS_VALUE;
        const uint64_t n = s->nb_scored + av_fifo_can_read(s->queue);
        if (frames[i] && !repeated) {
            s->last_pts[i] = frames[i]->pts;
            continue;
        }
        av_log(ctx, AV_LOG_ERROR,
               "distorted input %d (rendition %d) has no frame for frame %" PRIu64 " of input 0 "
               "(it %s): the renditions of a ladder must cover the same frames; use shortest=1 "
               "to stop at the shortest one\n", i, i, n, repeated ? "ended" : "ended or starts later");
        av_frame_free(&frames[0]);
        return AVERROR(EINVAL);
    }

    s->consumed = 1;
    e = av_mallocz(sizeof(*e));
    if (!e) {
        av_frame_free(&frames[0]);
        return AVERROR(ENOMEM);
    }
    e->dist = frames[0];
    for (int i = 0; i < s->nb_inputs; i++)
        if ((ret = check_frame(ctx, frames[i], i)) < 0)
            goto fail;
    count_repeated_ref(ctx, frames[0], frames[ri]);
    /* The library reads device memory after submit returns: keep the
     * frames framesync only lends until the scores are in. */
    if (s->memory != GPUSSIM_MEMORY_HOST)
        for (int i = 1; i < s->nb_inputs; i++) {
            e->keep[i] = av_frame_clone(frames[i]);
            if (!e->keep[i]) {
                ret = AVERROR(ENOMEM);
                goto fail;
            }
            frames[i] = e->keep[i];
        }
    for (int i = 0; i < s->nb_inputs; i++)
        if ((ret = gpussim_libav_picture(&s->dev, s->memory, &e->pic[i], i ? frames[i] : e->dist,
                                         &pics[i])) < 0)
            goto fail;
    for (int k = 0; k < nr; k++)
        dis[k] = &pics[k];

    if (!s->nb_scored && !av_fifo_can_read(s->queue))
        s->t_start = av_gettime_relative();
    while ((idx = gpussim_submit_multi(s->gs, &pics[ri], dis, nr)) == -EAGAIN) {
        ret = collect_frames(ctx, 1);
        if (ret < 0)
            goto fail;
        if (!av_fifo_can_read(s->queue) && gpussim_pending(s->gs)) {
            ret = AVERROR_BUG;
            goto fail;
        }
    }
    if (idx < 0) {
        ret = AVERROR(-(int)idx);
        av_log(ctx, AV_LOG_ERROR, "cannot submit frame: %s\n", gpussim_strerror((int)idx));
        goto fail;
    }
    ret = av_fifo_write(s->queue, &e, 1);
    if (ret < 0) {
        /* submitted but untracked: wait for it so no device read outlives e */
        struct gpussim_result res;
        while (gpussim_pending(s->gs) > (int)av_fifo_can_read(s->queue))
            gpussim_collect(s->gs, &res, 1);
        goto fail;
    }
    return collect_frames(ctx, 0);

fail:
    inflight_free(&e);
    return ret;
}

/* framesync signals EOF on the output itself, after which no frame may be
 * sent: the frames in flight are flushed first whenever an input that can
 * end the output has reported its end. */
static int activate(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    int ret;

    if (s->queue && av_fifo_can_read(s->queue)) {
        /* an input whose end ends the output: input 0, or another one
         * whose end stops the sync (shortest) */
        int ending = ff_outlink_get_status(ctx->inputs[0]);
        for (int i = 1; i < s->nb_inputs && !ending; i++)
            ending = ff_outlink_get_status(ctx->inputs[i]) && s->fs.in[i].after == EXT_STOP;
        if (ending) {
            ret = collect_frames(ctx, 2);
            if (ret < 0)
                return ret;
        }
    }
    s->consumed = s->produced = 0;
    ret = ff_framesync_activate(&s->fs);
    if (ret < 0)
        return ret;
    /* A pair went into the pipeline and no frame came out: the output's
     * request is still pending, so nobody else will wake this filter in a
     * pull-driven graph (lavfi device, ffprobe). Run again: framesync then
     * requests the next input frames on the output's behalf. */
    if (s->consumed && !s->produced && ff_outlink_frame_wanted(ctx->outputs[0]))
        ff_filter_set_ready(ctx, 100);
    return 0;
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    GpussimFilterContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    FilterLink *il = ff_filter_link(mainlink);
    FilterLink *ol = ff_filter_link(outlink);
    int ret;

    ret = ff_framesync_init(&s->fs, ctx, s->nb_inputs);
    if (ret < 0)
        return ret;
    /* ff_framesync_init_dualinput()'s settings: input 0 drives the output;
     * the other renditions follow it like the reference */
    for (int i = 0; i < s->nb_inputs; i++) {
        s->fs.in[i].time_base = ctx->inputs[i]->time_base;
        s->fs.in[i].sync      = i ? 1 : 2;
        s->fs.in[i].before    = i ? EXT_NULL : EXT_STOP;
        s->fs.in[i].after     = EXT_INFINITY;
    }
    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
    outlink->time_base = mainlink->time_base;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ol->frame_rate = il->frame_rate;
    if (il->hw_frames_ctx) {
        ol->hw_frames_ctx = av_buffer_ref(il->hw_frames_ctx);
        if (!ol->hw_frames_ctx)
            return AVERROR(ENOMEM);
    }
    ret = ff_framesync_configure(&s->fs);
    if (ret < 0)
        return ret;
    outlink->time_base = s->fs.time_base;

    ret = config_library(ctx);
    if (ret < 0)
        return ret;
    s->queue = av_fifo_alloc2(8, sizeof(InFlight *), AV_FIFO_FLAG_AUTO_GROW);
    if (!s->queue)
        return AVERROR(ENOMEM);
    return open_log(ctx);
}

static av_cold int init(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    int ret;

    /* inputs=2 keeps the pair's pad names */
    s->nb_renditions = s->nb_inputs - 1;
    for (int i = 0; i < s->nb_inputs; i++) {
        AVFilterPad pad = {
            .type = AVMEDIA_TYPE_VIDEO,
            .config_props = i == s->nb_inputs - 1 ? config_input_ref : NULL,
        };
        pad.name = i == s->nb_inputs - 1 ? av_strdup("reference")
                 : !i ? av_strdup("main") : av_asprintf("dist%d", i);
        if (!pad.name)
            return AVERROR(ENOMEM);
        if ((ret = ff_append_inpad_free_name(ctx, &pad)) < 0)
            return ret;
    }
    s->fs.on_event = do_gpussim;
    s->last_ref_pts = AV_NOPTS_VALUE;
    for (int i = 0; i < MAX_INPUTS; i++)
        s->last_pts[i] = AV_NOPTS_VALUE;
    if (s->clip_db && !s->db)
        av_log(ctx, AV_LOG_WARNING, "clip_db has no effect without db=1\n");
    return 0;
}

static void print_summary(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;

    /* one line per score and rendition, named like the metadata keys */
    for (int i = 0; i < s->nb_names * s->nb_renditions; i++) {
        struct gpussim_pool_stats st;
        char line[512];
        int n = 0;
        const int k = i / s->nb_names;
        const char *name = s->names[i % s->nb_names];
        /* the lcs and per-scale terms are many: they go to the verbose level */
        const int detail = gpussim_score_is_term(name);

        if (gpussim_pool_stats(s->pools[i], &st) < 0 || !st.count)
            continue;
#define ADD(...) n += snprintf(line + n, n < (int)sizeof(line) ? sizeof(line) - n : 0, __VA_ARGS__)
        if (k)
            ADD("gpussim r%d.%s:", k, name);
        else
            ADD("gpussim %s:", name);
        if (s->pool_flags & POOL_MEAN)     ADD(" mean %.6f", st.mean);
        if (s->pool_flags & POOL_HARMONIC) ADD(" harmonic_mean %.6f", st.harmonic_mean);
        if (s->pool_flags & POOL_MIN)      ADD(" min %.6f", st.min);
        if (s->pool_flags & POOL_MAX)      ADD(" max %.6f", st.max);
        if (s->pool_flags & (POOL_MEDIAN | POOL_P5 | POOL_P1)) {
            static const struct { int flag; double q; const char *name; } pct[] = {
                { POOL_MEDIAN, 50.0, "median" }, { POOL_P5, 5.0, "p5" }, { POOL_P1, 1.0, "p1" },
            };
            for (int k = 0; k < FF_ARRAY_ELEMS(pct); k++) {
                double v;
                if ((s->pool_flags & pct[k].flag) &&
                    gpussim_pool_percentile(s->pools[i], pct[k].q, &v) >= 0)
                    ADD(" %s %.6f", pct[k].name, v);
            }
        }
        ADD(" frames %" PRIu64 ", backend %s, fps %.2f", st.count, gpussim_backend_name(s->gs),
            fps_of(s));
#undef ADD
        av_log(ctx, detail ? AV_LOG_VERBOSE : AV_LOG_INFO, "%s\n", line);
    }
}

static av_cold void uninit(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;

    ff_framesync_uninit(&s->fs);

    /* Frames still in flight (an error or an early stop ended the graph)
     * were scored or are being scored: wait for them and record their scores
     * in the pools and the log, so the log is complete for what was read. */
    if (s->queue) {
        InFlight *e;
        while (av_fifo_read(s->queue, &e, 1) >= 0) {
            struct gpussim_result res;
            if (s->gs && gpussim_collect(s->gs, &res, 1) > 0 && !s->frame_failed)
                record_scores(ctx, &res, e->dist, NULL);
            inflight_free(&e);
        }
        av_fifo_freep2(&s->queue);
    }
    if (s->nb_repeated)
        av_log(ctx, AV_LOG_WARNING, "%" PRIu64 " distorted frame(s) were scored against the "
               "reference's repeated last frame (the reference is shorter); use shortest=1 or "
               "eof_action=endall to stop instead\n", s->nb_repeated);
    close_log(ctx); /* first: its pools go into the summary's */
    if (s->gs)
        print_summary(ctx);

    gpussim_destroy(&s->gs);
    if (s->pools)
        for (int i = 0; i < s->nb_names * s->nb_renditions; i++)
            gpussim_pool_destroy(&s->pools[i]);
    av_freep(&s->pools);
    gpussim_libav_uninit(&s->dev);
}

static const AVFilterPad gpussim_outputs[] = {
    {
        .name          = "default",
        .type          = AVMEDIA_TYPE_VIDEO,
        .config_props  = config_output,
    },
};

#if GPUSSIM_FFFILTER
const FFFilter ff_vf_gpussim = {
    .p.name         = "gpussim",
    .p.description  = NULL_IF_CONFIG_SMALL("Calculate libvmaf-identical SSIM, MS-SSIM and ANSNR "
                                           "with libgpussim (CPU or GPU)."),
    .p.priv_class   = &gpussim_class,
    .p.flags        = AVFILTER_FLAG_DYNAMIC_INPUTS,
#else
const AVFilter ff_vf_gpussim = {
    .name           = "gpussim",
    .description    = NULL_IF_CONFIG_SMALL("Calculate libvmaf-identical SSIM, MS-SSIM and ANSNR "
                                           "with libgpussim (CPU or GPU)."),
    .priv_class     = &gpussim_class,
    .flags          = AVFILTER_FLAG_DYNAMIC_INPUTS,
#endif
    .preinit        = gpussim_framesync_preinit,
    .init           = init,
    .uninit         = uninit,
    .activate       = activate,
    .priv_size      = sizeof(GpussimFilterContext),
    FILTER_OUTPUTS(gpussim_outputs),
    FILTER_QUERY_FUNC2(query_formats),
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
