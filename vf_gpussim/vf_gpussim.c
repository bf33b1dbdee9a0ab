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
 * Inputs: "main" (distorted) and "reference", paired by the filter (see
 * "pairing" below: each input's timeline from its own first frame, an
 * optional frame-offset search, the end of the shorter input). Output: the
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
 * Frames leave in submission order, one per request of the output: what the
 * output took is exactly what the log and the summary hold.
 */

#include "config.h"
#include "config_components.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
#include "libavutil/thread.h"
#include "libavutil/time.h"

#include "avfilter.h"
#include "filters.h"
#include "formats.h"
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
#define LOG_FMT_AUTO -1

#define MAX_INPUTS (GPUSSIM_MAX_DISTORTED + 1)

enum { ALIGN_START, ALIGN_PTS };
enum { EOF_ACTION_ENDALL, EOF_ACTION_REPEAT, EOF_ACTION_PASS };
enum { ENTRY_SUBMITTED, ENTRY_DONE, ENTRY_UNSCORED };

/* One output frame on its way out, in order: submitted (a pair, or a
 * ladder's renditions and their reference) and waiting for its scores, done,
 * or passed through unscored. Pictures are indexed by input. */
typedef struct InFlight {
    int state;         /* ENTRY_* */
    AVFrame *dist;     /* the output frame (input 0) */
    /* inputs 1.. (renditions, then the reference), kept only while the
     * library reads device memory */
    AVFrame *keep[MAX_INPUTS];
    GpussimLibavPicture pic[MAX_INPUTS]; /* what the library reads (mappings) */
    struct gpussim_picture pics[MAX_INPUTS];
    double *values;    /* ENTRY_DONE: the frame's scores */
    int nb_values;
} InFlight;

/* One input's frames not yet done with, and its timeline. */
typedef struct InputQueue {
    AVFifo *fifo;            /* QueuedFrame, in order */
    int64_t base;            /* time (us) the input's timeline starts at */
    int base_set;
    int64_t first_t;         /* time of the first frame read */
    int64_t last_t;          /* time of the last frame read */
    int64_t interval;        /* between the last two frames read; 0: unknown */
    int eof;
    uint64_t nb_read;        /* frames read from the link */
    uint64_t to_skip;        /* frames still to drop (sync offset) */
    uint64_t nb_repeated;    /* frames paired past its end (eof_action=repeat) */
    int told;                /* the end-of-run warning about its length was given */
} InputQueue;

typedef struct GpussimFilterContext {
    const AVClass *class;

    /* options */
    char *feature;
    char *backend_name;
    int device;
    /* the feature options' defaults, one field per row of the library's
     * table (scale, lcs, db, clip_db) */
#define FEATURE_OPTION_FIELD(name, field, short_name, ...) int short_name;
    GPUSSIM_FEATURE_OPTIONS(FEATURE_OPTION_FIELD)
#undef FEATURE_OPTION_FIELD
    int planes;
    char *log_path;
    int log_fmt;             /* LOG_FMT_AUTO: from log_path's extension */
    int pool_flags;
    char *names_opt;         /* names=a|b|c: one per distorted input */
    int nb_inputs;           /* renditions + the reference */
    int align;
    int sync_window;
    int eof_action;
    int shortest, repeatlast; /* framesync's names for eof_action */

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
    char *rendition_names[GPUSSIM_MAX_DISTORTED]; /* from names=, NULL: none */
    int log_error;           /* writing the log failed: AVERROR, reported once */
    int frame_failed;        /* a frame failed on the device: later ones are not recorded
                              * (the log numbers its frames in order; a device that
                              * failed once is not trusted with the frames after it) */
    struct gpussim_format format; /* the frames' (the offset search reads them) */

    /* pairing */
    InputQueue in[MAX_INPUTS];
    InFlight *stalled;       /* built, waiting for room in the library */
    int sync, sync_done;     /* sync_window: the search is on / has run */
    GpussimSync *syncs[GPUSSIM_MAX_DISTORTED]; /* one search per rendition */
    int sync_offset[GPUSSIM_MAX_DISTORTED];
    int ending;              /* 1 + the input whose end ends the pairing */
    int ended;               /* no more frames are paired */
    uint64_t nb_paired;      /* frames submitted for scoring */
    int64_t last_t, last_span; /* input 0's last paired frame (us) */
    int64_t out_end_pts;     /* end of the last frame sent */
    double *sent_values;     /* the scores of the frame sent last, until recorded */
    int sent_nb_values;
    int64_t sent_pts;
    uint64_t nb_before_start, nb_passed, nb_sync_skipped; /* sent unscored */
} GpussimFilterContext;

#define OFFSET(x) offsetof(GpussimFilterContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

/* FFmpeg's hand-aligned option table: clang-format leaves it as it is */
/* clang-format off */
static const AVOption gpussim_options[] = {
    { "feature", "metrics, joined with |: float_ssim, ssim, float_ms_ssim (ms_ssim), "
      "float_ansnr (ansnr), all (default: all that the frame size allows)",
      OFFSET(feature), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "backend", "where the metrics run: auto (the frames' device, else the first GPU, else the "
      "CPU), cpu, cuda, vulkan, hip, ze", OFFSET(backend_name), AV_OPT_TYPE_STRING, { .str = "auto" }, 0, 0, FLAGS },
    { "device", "GPU index when the backend opens its own device (software frames; default 0)",
      OFFSET(device), AV_OPT_TYPE_INT, { .i64 = -1 }, -1, INT_MAX, FLAGS },
#define FEATURE_AVOPTION(name, field, short_name, type, def, min, max, own_bit, help)              \
    { #short_name, help, OFFSET(short_name), AV_OPT_TYPE_##type, { .i64 = def }, min, max, FLAGS },
    GPUSSIM_FEATURE_OPTIONS(FEATURE_AVOPTION)
#undef FEATURE_AVOPTION
    { "planes", "planes to score", OFFSET(planes), AV_OPT_TYPE_INT,
      { .i64 = GPUSSIM_PLANES_LUMA }, GPUSSIM_PLANES_LUMA, GPUSSIM_PLANES_ALL, FLAGS, .unit = "planes" },
        { "luma", "luma only (libvmaf)", 0, AV_OPT_TYPE_CONST, { .i64 = GPUSSIM_PLANES_LUMA }, 0, 0, FLAGS, .unit = "planes" },
        { "all",  "luma, then U and V at their own size (keys suffixed .u, .v)",
          0, AV_OPT_TYPE_CONST, { .i64 = GPUSSIM_PLANES_ALL }, 0, 0, FLAGS, .unit = "planes" },
    { "log_path", "write per-frame scores and pooled statistics to this file",
      OFFSET(log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt", "log file format (default: log_path's extension .json, .csv or .xml, else json)",
      OFFSET(log_fmt), AV_OPT_TYPE_INT, { .i64 = LOG_FMT_AUTO }, LOG_FMT_AUTO, GPUSSIM_LOG_FORMAT_XML, FLAGS,
      .unit = "log_fmt" },
        { "auto", "from log_path's extension", 0, AV_OPT_TYPE_CONST, { .i64 = LOG_FMT_AUTO }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "json", "libvmaf's JSON layout", 0, AV_OPT_TYPE_CONST, { .i64 = GPUSSIM_LOG_FORMAT_JSON }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "csv",  "one row per frame, then pooled rows", 0, AV_OPT_TYPE_CONST, { .i64 = GPUSSIM_LOG_FORMAT_CSV }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "xml",  "libvmaf's XML layout", 0, AV_OPT_TYPE_CONST, { .i64 = GPUSSIM_LOG_FORMAT_XML }, 0, 0, FLAGS, .unit = "log_fmt" },
    { "names", "names of the distorted inputs, in input order (a|b|c), for the summary and the log",
      OFFSET(names_opt), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "pool", "statistics printed in the summary and written to the log", OFFSET(pool_flags), AV_OPT_TYPE_FLAGS,
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
    { "align", "how frames pair", OFFSET(align), AV_OPT_TYPE_INT, { .i64 = ALIGN_START },
      ALIGN_START, ALIGN_PTS, FLAGS, .unit = "align" },
        { "start", "each input's timeline starts at its own first frame; nearest frame (default)",
          0, AV_OPT_TYPE_CONST, { .i64 = ALIGN_START }, 0, 0, FLAGS, .unit = "align" },
        { "pts", "FFmpeg's timestamps as they are: the last reference frame at or before",
          0, AV_OPT_TYPE_CONST, { .i64 = ALIGN_PTS }, 0, 0, FLAGS, .unit = "align" },
    { "sync_window", "find the constant frame offset in [-N, N] between the inputs and score "
      "with it (0: off)", OFFSET(sync_window), AV_OPT_TYPE_INT, { .i64 = 0 }, 0,
      GPUSSIM_SYNC_MAX_WINDOW, FLAGS },
    { "eof_action", "when an input other than input 0 ends first", OFFSET(eof_action),
      AV_OPT_TYPE_INT, { .i64 = EOF_ACTION_ENDALL }, EOF_ACTION_ENDALL, EOF_ACTION_PASS, FLAGS,
      .unit = "eof_action" },
        { "endall", "end the output there, with a warning (default)", 0, AV_OPT_TYPE_CONST,
          { .i64 = EOF_ACTION_ENDALL }, 0, 0, FLAGS, .unit = "eof_action" },
        { "repeat", "score the rest against its last frame (counted in a warning)", 0,
          AV_OPT_TYPE_CONST, { .i64 = EOF_ACTION_REPEAT }, 0, 0, FLAGS, .unit = "eof_action" },
        { "pass", "pass the rest through unscored (counted in a warning)", 0, AV_OPT_TYPE_CONST,
          { .i64 = EOF_ACTION_PASS }, 0, 0, FLAGS, .unit = "eof_action" },
    { "shortest", "1: eof_action=endall (framesync's name)", OFFSET(shortest), AV_OPT_TYPE_BOOL,
      { .i64 = -1 }, -1, 1, FLAGS },
    { "repeatlast", "1: eof_action=repeat (framesync's name)", OFFSET(repeatlast),
      AV_OPT_TYPE_BOOL, { .i64 = -1 }, -1, 1, FLAGS },
    { NULL }
};
/* clang-format on */

AVFILTER_DEFINE_CLASS(gpussim);

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
    if (s->device >= 0 && backend_type == GPUSSIM_BACKEND_CPU) {
        av_log(ctx, AV_LOG_ERROR, "device=%d: the cpu backend has no devices (device picks a GPU "
               "for the cuda, vulkan, hip and ze backends)\n", s->device);
        return AVERROR(EINVAL);
    }
    p.device = FFMAX(s->device, 0);
    /* the frames: format, memory, device (the library picks the backend) */
    ret = gpussim_libav_setup(&s->dev, ctx, il->hw_frames_ctx, inlink->format, &p);
    if (ret < 0)
        return ret;
    p.format.width = s->width = inlink->w;
    p.format.height = s->height = inlink->h;
    s->format = p.format;

    /* the shared fields: every feature's defaults until a feature names its own */
#define FEATURE_OPTION_PARAM(name, field, short_name, ...) p.field = s->short_name;
    GPUSSIM_FEATURE_OPTIONS(FEATURE_OPTION_PARAM)
#undef FEATURE_OPTION_PARAM
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

/* The logs gpussim instances of this process wrote. FFmpeg rebuilds the
 * filter graph when an input's size or format changes mid-stream; the new
 * instance reopening log_path would truncate the frames the first one wrote
 * and the run would still exit 0. */
#define MAX_WRITTEN_LOGS 64
static AVMutex written_logs_lock = AV_MUTEX_INITIALIZER;
static struct { dev_t dev; ino_t ino; } written_logs[MAX_WRITTEN_LOGS];
static int nb_written_logs;

/* 1 when path is a log an earlier instance wrote (or a registration:
 * add != 0 records it). */
static int written_log(const char *path, int add)
{
    struct stat st;
    int found = 0;

    if (stat(path, &st) < 0)
        return 0;
    ff_mutex_lock(&written_logs_lock);
    for (int i = 0; i < nb_written_logs && !found; i++)
        found = written_logs[i].dev == st.st_dev && written_logs[i].ino == st.st_ino;
    if (add && !found && nb_written_logs < MAX_WRITTEN_LOGS) {
        written_logs[nb_written_logs].dev = st.st_dev;
        written_logs[nb_written_logs].ino = st.st_ino;
        nb_written_logs++;
    }
    ff_mutex_unlock(&written_logs_lock);
    return found;
}

static int check_log_path(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;

    if (!s->log_path || !written_log(s->log_path, 0))
        return 0;
    av_log(ctx, AV_LOG_ERROR, "log_path %s was written by an earlier gpussim instance of this run "
           "(FFmpeg rebuilds the filter graph when an input's size or format changes mid-stream, "
           "or two gpussim filters name the same log): refusing to overwrite its frames. Give "
           "every input a fixed size and format (e.g. scale=W:H,format=F before gpussim), or a "
           "log_path per filter\n", s->log_path);
    return AVERROR(EEXIST);
}

/* The library's writer: the log's layout is the gpussim tool's. */
static int open_log(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    struct gpussim_log_writer_params wp = { 0 };
    int ret;

    if (!s->log_path)
        return 0;
    if ((ret = check_log_path(ctx)) < 0)
        return ret;
    wp.path = s->log_path;
    wp.format = GPUSSIM_LOG_FORMAT_JSON;
    if (s->log_fmt != LOG_FMT_AUTO)
        wp.format = s->log_fmt;
    else
        gpussim_log_format_from_path(s->log_path, &wp.format);
    /* JSON frames and CSV rows carry pts * time_base (libvmaf's XML has no place for it) */
    wp.timestamps = wp.format != GPUSSIM_LOG_FORMAT_XML;
    /* the summary's statistics are the log's too (libvmaf's four always) */
    wp.pool_stats = (s->pool_flags & POOL_MEDIAN ? GPUSSIM_LOG_POOL_MEDIAN : 0) |
                    (s->pool_flags & POOL_P5 ? GPUSSIM_LOG_POOL_P5 : 0) |
                    (s->pool_flags & POOL_P1 ? GPUSSIM_LOG_POOL_P1 : 0);
    if (s->names_opt)
        wp.rendition_names = (const char *const *)s->rendition_names;
    wp.first_frame = -1;   /* unknown: -ss/trim happen upstream */
    wp.log_cb = log_from_library;
    wp.log_opaque = ctx;
    if (s->sync)
        wp.sync_offsets = s->sync_offset;
    ret = gpussim_log_open(&s->log, s->gs, &wp);
    if (ret < 0)
        return AVERROR(-ret);
    written_log(s->log_path, 1);
    return 0;
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

/* ---- pairing ----------------------------------------------------------------
 *
 * The filter pairs frames itself (no framesync): FFmpeg's timestamp pairing
 * scores the wrong pairs of ordinary files whose streams start apart (an MKV
 * reference at 7 ms against a WebM at 0: every distorted frame got the
 * previous reference frame). Each input's frames are queued with their time
 * in microseconds; align=start measures each input's time from its own first
 * frame (as setpts=PTS-STARTPTS would) and pairs a distorted frame with the
 * reference frame nearest to it on that timeline (ties: the earlier), which
 * also absorbs timestamps rounded to a coarse time base; align=pts keeps
 * FFmpeg's pairing: the last reference frame at or before the distorted one.
 * sync_window=N first finds the constant frame offset between the inputs
 * (the library's gpussim_sync_*) and drops the frames before the common
 * start. The output carries input 0's frames, unchanged, each one either
 * scored or counted as passed through unscored (warned about at the end). */

/* Time of a queued frame on its input's timeline (before the align base). */
typedef struct QueuedFrame {
    AVFrame *frame;
    int64_t t;                 /* microseconds */
} QueuedFrame;

enum { MATCH_OK, MATCH_NEED_INPUT, MATCH_BEFORE_START, MATCH_ENDED };

/* A frame's duration when nothing says it (no timestamps, one frame read):
 * 25 fps. */
#define GUESSED_INTERVAL_US 40000

static const char *input_name(const GpussimFilterContext *s, int i, char *buf, size_t size)
{
    if (i == s->nb_inputs - 1)
        return "the reference";
    return input_label(s, i, buf, size);
}

static int64_t frame_time(AVFilterContext *ctx, int i, const AVFrame *f)
{
    GpussimFilterContext *s = ctx->priv;
    InputQueue *q = &s->in[i];
    AVFilterLink *l = ctx->inputs[i];

    if (f->pts != AV_NOPTS_VALUE)
        return av_rescale_q(f->pts, l->time_base, AV_TIME_BASE_Q);
    /* no timestamp: one frame interval after the previous frame */
    if (f->duration > 0)
        return q->last_t + av_rescale_q(f->duration, l->time_base, AV_TIME_BASE_Q);
    return q->nb_read ? q->last_t + (q->interval > 0 ? q->interval : GUESSED_INTERVAL_US) : 0;
}


/* Input i's frames keep the size the filter was configured with. */
static int check_frame(AVFilterContext *ctx, const AVFrame *f, int i)
{
    GpussimFilterContext *s = ctx->priv;
    char lb[64];
    const char *what = i == s->nb_inputs - 1 ? "reference"
                     : s->nb_inputs == 2 ? "distorted"
                     : (snprintf(lb, sizeof(lb), "distorted input %d", i), lb);

    if (f->width != s->width || f->height != s->height) {
        av_log(ctx, AV_LOG_ERROR,
               "%s frame %" PRIu64 " is %dx%d, but earlier frames were %dx%d: sizes changed "
               "mid-stream, which gpussim does not follow (scale both inputs to a fixed size)\n",
               what, s->in[i].nb_read, f->width, f->height, s->width, s->height);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* ---- frames ---------------------------------------------------------------- */

/* The name of value i of a result: the score's name, prefixed "r<k>." for
 * rendition k > 0 (rendition 0 keeps the pair's names). */
static const char *value_name(const GpussimFilterContext *s, int i, char *buf, size_t size)
{
    if (i < s->nb_names)
        return s->names[i];
    snprintf(buf, size, "r%d.%s", i / s->nb_names, s->names[i % s->nb_names]);
    return buf;
}

/* Attaches a frame's scores to it as metadata, when it is sent. */
static void set_metadata(GpussimFilterContext *s, const double *values, int nb_values, AVFrame *out)
{
    char key[160], val[32], name[144];

    for (int i = 0; i < nb_values; i++) {
        snprintf(key, sizeof(key), "lavfi.gpussim.%s", value_name(s, i, name, sizeof(name)));
        snprintf(val, sizeof(val), "%.17g", values[i]);
        av_dict_set(&out->metadata, key, val, 0);
    }
}

/* Records one frame's scores in the pools and the log file; pts: the
 * frame's, in input 0's time base. */
static int record_scores(AVFilterContext *ctx, const double *values, int nb_values, int64_t pts)
{
    GpussimFilterContext *s = ctx->priv;
    int ret;

    for (int i = 0; i < nb_values; i++) {
        const double v = values[i];
        char name[144];
        if (isnan(v))
            av_log(ctx, AV_LOG_WARNING, "frame %" PRIu64 ": %s is not a number\n", s->nb_scored,
                   value_name(s, i, name, sizeof(name)));
        else if (!s->log || s->log_error)
            /* while the log is written, its pools are the only ones: they
             * are merged into these when it closes (close_log) */
            gpussim_pool_add(s->pools[i], v);
    }
    s->nb_scored++;
    s->t_end = av_gettime_relative();
    if (s->log && !s->log_error) {
        const double ts = pts != AV_NOPTS_VALUE ? pts * av_q2d(ctx->inputs[0]->time_base) : NAN;
        /* flushed per frame; the library reports a failed write once */
        ret = gpussim_log_write_frame(s->log, values, ts);
        if (ret < 0) {
            s->log_error = AVERROR(-ret);
            return s->log_error;
        }
    }
    return 0;
}

/* The frame sent last is recorded once the output asks for the next one:
 * then downstream has taken it. One it never took (-frames:v N stops after
 * asking for frame N + 1; trim drops the frame past its end, then closes)
 * is not recorded, so the log and the summary hold exactly the frames the
 * output took, the same in every run. */
static int record_sent(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    int ret;

    if (!s->sent_values)
        return 0;
    ret = record_scores(ctx, s->sent_values, s->sent_nb_values, s->sent_pts);
    av_freep(&s->sent_values);
    return ret;
}

/* ---- the output queue ------------------------------------------------------- */

static void inflight_release(InFlight *e)
{
    for (int i = 0; i < MAX_INPUTS; i++) {
        gpussim_libav_picture_unref(&e->pic[i]);
        av_frame_free(&e->keep[i]);
    }
}

static void inflight_free(InFlight **pe)
{
    InFlight *e = *pe;
    if (!e)
        return;
    inflight_release(e);
    av_frame_free(&e->dist);
    av_freep(&e->values);
    av_freep(pe);
}

static int queue_entry(AVFilterContext *ctx, InFlight *e)
{
    GpussimFilterContext *s = ctx->priv;
    const int ret = av_fifo_write(s->queue, &e, 1);
    if (ret < 0)
        inflight_free(&e);
    return ret;
}

/* A distorted frame that leaves without scores (counted for the warning at
 * the end). */
static int queue_unscored(AVFilterContext *ctx, AVFrame *frame, uint64_t *counter)
{
    InFlight *e = av_mallocz(sizeof(*e));
    if (!e) {
        av_frame_free(&frame);
        return AVERROR(ENOMEM);
    }
    e->dist = frame;
    e->state = ENTRY_UNSCORED;
    (*counter)++;
    return queue_entry(ctx, e);
}

/* Stores the results of submitted frames in their entries, in order: all
 * that are done, or (wait) up to and including the oldest one. The device
 * frames an entry kept are released as soon as its scores are in. */
static int collect_results(AVFilterContext *ctx, int wait)
{
    GpussimFilterContext *s = ctx->priv;
    const size_t n = av_fifo_can_read(s->queue);

    for (size_t k = 0; k < n; k++) {
        struct gpussim_result res;
        InFlight *e;
        int ret;

        av_fifo_peek(s->queue, &e, 1, k);
        if (e->state != ENTRY_SUBMITTED)
            continue;
        ret = gpussim_collect(s->gs, &res, wait);
        if (!ret)
            return 0;
        if (ret < 0) {
            s->frame_failed = 1;
            return AVERROR(-ret);
        }
        e->values = av_memdup(res.values, res.nb_values * sizeof(*res.values));
        if (!e->values)
            return AVERROR(ENOMEM);
        e->nb_values = res.nb_values;
        e->state = ENTRY_DONE;
        inflight_release(e);
        if (wait)
            return 1;
    }
    return 0;
}

/* Sends the oldest entry downstream, once it is done: the frames the output
 * carries, the log and the summary hold exactly the same frames (one per
 * request of the output, so an output closed early, -frames:v N, has taken
 * exactly N). 1: sent, 0: not done yet. */
static int send_oldest(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    InFlight *e;
    AVFrame *out;
    int ret;

    if (av_fifo_peek(s->queue, &e, 1, 0) < 0 || e->state == ENTRY_SUBMITTED)
        return 0;
    av_fifo_drain2(s->queue, 1);
    out = e->dist;
    e->dist = NULL;
    if ((ret = record_sent(ctx)) < 0) {
        inflight_free(&e);
        av_frame_free(&out);
        return ret;
    }
    if (e->state == ENTRY_DONE) {
        set_metadata(s, e->values, e->nb_values, out);
        s->sent_values = e->values;
        s->sent_nb_values = e->nb_values;
        s->sent_pts = out->pts;
        e->values = NULL;
    }
    inflight_free(&e);
    if (out->pts != AV_NOPTS_VALUE)
        s->out_end_pts = out->pts + (out->duration > 0 ? out->duration : 0);
    ret = ff_filter_frame(ctx->outputs[0], out);
    return ret < 0 ? ret : 1;
}

/* ---- offset search (sync_window) ------------------------------------------- */

/* Gives one frame of input i to the offset search: a distorted rendition to
 * its own search, the reference to every one. Device frames are downloaded
 * (the search reads a 4x4-averaged luma copy on the host). */
static int sync_add(AVFilterContext *ctx, int i, const AVFrame *f)
{
    GpussimFilterContext *s = ctx->priv;
    const int ri = s->nb_inputs - 1;
    struct gpussim_picture pic = { .memory = GPUSSIM_MEMORY_HOST };
    AVFrame *sw = NULL;
    int ret = 0;

    if (s->in[i].nb_read > (uint64_t)gpussim_sync_frames(s->syncs[0]))
        return 0;
    if (f->hw_frames_ctx) {
        sw = av_frame_alloc();
        if (!sw)
            return AVERROR(ENOMEM);
        ret = av_hwframe_transfer_data(sw, f, 0);
        if (ret < 0) {
            av_log(ctx, AV_LOG_ERROR, "sync_window: cannot download a frame for the offset "
                   "search: %s\n", av_err2str(ret));
            goto fail;
        }
        f = sw;
    }
    for (int p = 0; p < GPUSSIM_MAX_PLANES && f->data[p]; p++) {
        pic.data[p] = f->data[p];
        pic.stride[p] = f->linesize[p];
    }
    for (int k = 0; k < s->nb_renditions; k++)
        if (i == ri || i == k)
            if ((ret = gpussim_sync_add(s->syncs[k], i == ri, &pic)) < 0) {
                ret = AVERROR(-ret);
                goto fail;
            }
    ret = 0;
fail:
    av_frame_free(&sw);
    return ret;
}

/* Reads one frame of input i into its queue: 1 read, 0 none available (a
 * request was made, or the input ended: q->eof), < 0 error. */
static int read_input(AVFilterContext *ctx, int i)
{
    GpussimFilterContext *s = ctx->priv;
    InputQueue *q = &s->in[i];
    AVFilterLink *l = ctx->inputs[i];
    QueuedFrame qf;
    int64_t pts;
    int ret, status;

    if (q->eof)
        return 0;
    ret = ff_inlink_consume_frame(l, &qf.frame);
    if (ret < 0)
        return ret;
    if (!ret) {
        if (ff_inlink_acknowledge_status(l, &status, &pts))
            q->eof = 1;
        else
            ff_inlink_request_frame(l);
        return 0;
    }
    if ((ret = check_frame(ctx, qf.frame, i)) < 0) {
        av_frame_free(&qf.frame);
        return ret;
    }
    qf.t = frame_time(ctx, i, qf.frame);
    if (q->nb_read && qf.t <= q->last_t) {
        char lb[64];
        av_log(ctx, AV_LOG_ERROR, "%s: frame %" PRIu64 " has time %.6f s, not after the previous "
               "frame's %.6f s: the frames must come in order of their timestamps\n",
               input_name(s, i, lb, sizeof(lb)), q->nb_read, qf.t / 1e6, q->last_t / 1e6);
        av_frame_free(&qf.frame);
        return AVERROR(EINVAL);
    }
    if (q->nb_read)
        q->interval = qf.t - q->last_t;
    else
        q->first_t = qf.t;
    q->last_t = qf.t;
    q->nb_read++;
    if (q->to_skip) {
        /* before the inputs' common start (sync offset) */
        q->to_skip--;
        if (!i)
            return (ret = queue_unscored(ctx, qf.frame, &s->nb_sync_skipped)) < 0 ? ret : 1;
        av_frame_free(&qf.frame);
        return 1;
    }
    if (!q->base_set) {
        /* sync_window's search re-bases every input at the common start */
        q->base = s->align == ALIGN_PTS && !s->sync ? 0 : qf.t;
        q->base_set = 1;
    }
    ret = av_fifo_write(q->fifo, &qf, 1);
    if (ret < 0) {
        av_frame_free(&qf.frame);
        return ret;
    }
    if (s->sync && !s->sync_done && (ret = sync_add(ctx, i, qf.frame)) < 0)
        return ret;
    return 1;
}

/* How long frame qf lasts on input i's timeline: the longer of its own
 * duration and the input's frame interval (a select= keeps the source's
 * durations), else input 0's interval. */
static int64_t frame_span(AVFilterContext *ctx, int i, const QueuedFrame *qf)
{
    GpussimFilterContext *s = ctx->priv;
    const int64_t d = qf->frame->duration > 0
                    ? av_rescale_q(qf->frame->duration, ctx->inputs[i]->time_base, AV_TIME_BASE_Q) : 0;
    if (d > 0 || s->in[i].interval > 0)
        return FFMAX(d, s->in[i].interval);
    return s->in[0].interval > 0 ? s->in[0].interval : GUESSED_INTERVAL_US;
}

/* Finds input i's partner of a distorted frame at time t (input 0's
 * timeline, already made relative to its base). The chosen frame stays at
 * the front of the queue: it may serve the next distorted frame too. */
static int match_input(AVFilterContext *ctx, int i, int64_t t)
{
    GpussimFilterContext *s = ctx->priv;
    InputQueue *q = &s->in[i];
    QueuedFrame a, b;

    for (;;) {
        int ret;
        const size_t n = av_fifo_can_read(q->fifo);
        if (n >= 2) {
            int64_t ta, tb;
            av_fifo_peek(q->fifo, &a, 1, 0);
            av_fifo_peek(q->fifo, &b, 1, 1);
            ta = a.t - q->base;
            tb = b.t - q->base;
            /* the next frame is a better partner: the front one is done */
            if (s->align == ALIGN_PTS ? tb <= t : FFABS(tb - t) < FFABS(ta - t)) {
                av_fifo_drain2(q->fifo, 1);
                av_frame_free(&a.frame);
                continue;
            }
            break;
        }
        if (n == 1) {
            av_fifo_peek(q->fifo, &a, 1, 0);
            /* a frame later than t settles it (those after it are later still) */
            if (a.t - q->base >= t || q->eof)
                break;
        } else if (q->eof) {
            return MATCH_ENDED; /* an input that never gave a frame */
        }
        ret = read_input(ctx, i);
        if (ret < 0)
            return ret;
        if (!ret && !q->eof)
            return MATCH_NEED_INPUT;
    }
    av_fifo_peek(q->fifo, &a, 1, 0);
    if (s->align == ALIGN_PTS && a.t - q->base > t)
        return MATCH_BEFORE_START;
    if (q->eof && av_fifo_can_read(q->fifo) == 1) {
        /* past the last frame: nearer to where its successor would be
         * (align=pts: at or after it), as framesync's repeatlast counts */
        const int64_t span = frame_span(ctx, i, &a), d = t - (a.t - q->base);
        if (s->align == ALIGN_PTS ? d >= span : 2 * d > span)
            return MATCH_ENDED;
    }
    return MATCH_OK;
}

/* Runs the offset search once every input has given the frames it needs
 * (or ended), then drops the frames before the inputs' common start:
 * input 0's pass through unscored. 1 done, 0 waiting for input. */
static int sync_search(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    const int ri = s->nb_inputs - 1;
    const uint64_t need = gpussim_sync_frames(s->syncs[0]);
    int offset[GPUSSIM_MAX_DISTORTED], start = 0, waiting = 0, ret;
    char la[64];

    for (int i = 0; i < s->nb_inputs; i++)
        while (s->in[i].nb_read < need && !s->in[i].eof) {
            ret = read_input(ctx, i);
            if (ret < 0)
                return ret;
            if (!ret && !s->in[i].eof) {
                waiting = 1;
                break;
            }
        }
    if (waiting)
        return 0;
    for (int i = 0; i < s->nb_inputs; i++)
        if (!s->in[i].nb_read) {
            av_log(ctx, AV_LOG_ERROR, "%s has no frames\n", input_name(s, i, la, sizeof(la)));
            return AVERROR(EINVAL);
        }
    for (int k = 0; k < s->nb_renditions; k++) {
        double psnr, next;
        ret = gpussim_sync_find(s->syncs[k], &offset[k], &psnr, &next);
        if (ret < 0)
            return AVERROR(-ret);
        av_log(ctx, AV_LOG_INFO, "sync_window=%d: %s %s (offset %+d: its frame i is scored "
               "against reference frame i%+d; luma PSNR %.2f dB, next best offset %.2f dB)\n",
               s->sync_window, input_label(s, k, la, sizeof(la)),
               offset[k] > 0 ? "starts later in the content than the reference"
               : offset[k] < 0 ? "has frames before the reference's first" : "starts with the reference",
               offset[k], offset[k], psnr, next);
        if (psnr - next < 1.0)
            av_log(ctx, AV_LOG_WARNING, "sync_window=%d: the offset of %s is uncertain (the next "
                   "best is within 1 dB): check it, or give the inputs more distinct frames\n",
                   s->sync_window, input_label(s, k, la, sizeof(la)));
        s->sync_offset[k] = offset[k];
        start = FFMAX(start, offset[k]);
    }
    /* the common start: reference frame `start`, rendition k's frame
     * start - offset[k] */
    for (int i = 0; i < s->nb_inputs; i++) {
        InputQueue *q = &s->in[i];
        QueuedFrame f;
        q->to_skip = i == ri ? start : start - offset[i];
        while (q->to_skip && av_fifo_read(q->fifo, &f, 1) >= 0) {
            q->to_skip--;
            if (i)
                av_frame_free(&f.frame);
            else if ((ret = queue_unscored(ctx, f.frame, &s->nb_sync_skipped)) < 0)
                return ret;
        }
        q->base_set = av_fifo_peek(q->fifo, &f, 1, 0) >= 0;
        if (q->base_set)
            q->base = f.t;
    }
    for (int k = 0; k < s->nb_renditions; k++)
        gpussim_sync_destroy(&s->syncs[k]);
    s->sync_done = 1;
    ret = open_log(ctx);
    return ret < 0 ? ret : 1;
}

/* Submits a stalled entry (the library was full): 1 submitted, 0 still full. */
static int submit_entry(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    InFlight *e = s->stalled;
    const struct gpussim_picture *dis[GPUSSIM_MAX_DISTORTED];
    const int nr = s->nb_renditions, ri = s->nb_inputs - 1;
    int64_t idx;

    for (int k = 0; k < nr; k++)
        dis[k] = &e->pics[k];
    if (!s->nb_scored && !av_fifo_can_read(s->queue))
        s->t_start = av_gettime_relative();
    idx = gpussim_submit_multi(s->gs, &e->pics[ri], dis, nr);
    if (idx == -EAGAIN)
        return 0;
    s->stalled = NULL;
    if (idx < 0) {
        av_log(ctx, AV_LOG_ERROR, "cannot submit frame: %s\n", gpussim_strerror((int)idx));
        inflight_free(&e);
        return AVERROR(-(int)idx);
    }
    e->state = ENTRY_SUBMITTED;
    return queue_entry(ctx, e) < 0 ? AVERROR(ENOMEM) : 1;
}

/* Prepares the pictures of one frame (dist: input 0's frame, owned; the
 * others lent by the queues) and submits it. */
static int score_frame(AVFilterContext *ctx, AVFrame *dist, AVFrame **frames)
{
    GpussimFilterContext *s = ctx->priv;
    InFlight *e = av_mallocz(sizeof(*e));
    int ret;

    if (!e) {
        av_frame_free(&dist);
        return AVERROR(ENOMEM);
    }
    e->dist = dist;
    frames[0] = dist;
    /* The library reads device memory after submit returns: keep the
     * frames the queues only lend until the scores are in. */
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
        if ((ret = gpussim_libav_picture(&s->dev, s->memory, &e->pic[i], frames[i],
                                         &e->pics[i])) < 0)
            goto fail;
    s->stalled = e;
    ret = submit_entry(ctx);
    return ret < 0 ? ret : 1;

fail:
    inflight_free(&e);
    return ret;
}

/* Whether input i holds a frame past the distorted input's last frame (at
 * time t, lasting span): the input is longer. AVERROR(EAGAIN): not known
 * yet (its next frame was asked for). */
static int input_has_more(AVFilterContext *ctx, int i, int64_t t, int64_t span)
{
    GpussimFilterContext *s = ctx->priv;
    InputQueue *q = &s->in[i];

    for (;;) {
        const size_t n = av_fifo_can_read(q->fifo);
        int ret;
        for (size_t k = 0; k < n; k++) {
            QueuedFrame f;
            av_fifo_peek(q->fifo, &f, 1, k);
            /* past what input 0's last frame covered */
            if (!s->nb_paired || 2 * (f.t - q->base - t) > span)
                return 1;
        }
        if (q->eof)
            return 0;
        ret = read_input(ctx, i);
        if (ret < 0)
            return ret;
        if (!ret && !q->eof)
            return AVERROR(EAGAIN);
    }
}

/* The pairing ends because input `who` has no frame for the next distorted
 * frame (input 0 ended, or another input did with eof_action=endall). Says
 * so when another input is longer; 1 done, 0 waiting for input. */
static int end_pairing(AVFilterContext *ctx, int who)
{
    GpussimFilterContext *s = ctx->priv;
    char la[64], lb[64];

    if (!s->in[who].nb_read) {
        av_log(ctx, AV_LOG_ERROR, "%s has no frames\n", input_name(s, who, la, sizeof(la)));
        return AVERROR(EINVAL);
    }
    if (!who) {
        for (int i = 1; i < s->nb_inputs; i++) {
            const int more = s->in[i].told ? 0 : input_has_more(ctx, i, s->last_t, s->last_span);
            if (more < 0)
                return more == AVERROR(EAGAIN) ? 0 : more;
            s->in[i].told = 1;
            if (!more)
                continue;
            av_log(ctx, AV_LOG_WARNING, "%s ended after %" PRIu64 " frames, %s has more; scored %"
                   PRIu64 "\n", s->nb_inputs == 2 ? "the distorted input" : "distorted input 0",
                   s->in[0].nb_read, input_name(s, i, lb, sizeof(lb)), s->nb_paired);
        }
    } else {
        for (int i = 1; i < s->nb_inputs; i++)
            if (!s->in[i].nb_read) {
                av_log(ctx, AV_LOG_ERROR, "%s has no frames\n", input_name(s, i, la, sizeof(la)));
                return AVERROR(EINVAL);
            }
        av_log(ctx, AV_LOG_WARNING, "%s ended after %" PRIu64 " frames, %s has more; scored %"
               PRIu64 " (eof_action=repeat scores the rest against its last frame)\n",
               input_name(s, who, la, sizeof(la)), s->in[who].nb_read,
               s->nb_inputs == 2 ? "the distorted input" : "distorted input 0", s->nb_paired);
    }
    s->ended = 1;
    return 1;
}

/* Says once how far apart the inputs start, and what the pairing made of it. */
static void report_start(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    char la[64];

    for (int i = 1; i < s->nb_inputs; i++) {
        const int64_t d = s->in[i].first_t - s->in[0].first_t;
        if (!d)
            continue;
        av_log(ctx, AV_LOG_INFO, "%s starts %.3f ms %s %s; %s\n", input_name(s, i, la, sizeof(la)),
               FFABS(d) / 1000.0, d > 0 ? "after" : "before",
               s->nb_inputs == 2 ? "the distorted input" : "distorted input 0",
               s->sync ? "aligned by the sync offset (sync_window)"
               : s->align == ALIGN_START ? "aligned: each input is paired from its first frame (align=start)"
               : "paired by timestamps as they are (align=pts)");
    }
}

/* Pairs input 0's next frame: 1 it was queued (scored or passed through),
 * 0 waiting for input or for room in the library, AVERROR_EOF when the
 * pairing has ended. */
static int pair_next(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    InputQueue *q0 = &s->in[0];
    AVFrame *frames[MAX_INPUTS] = { NULL };
    int status[MAX_INPUTS] = { 0 }, ended = -1, before = 0;
    QueuedFrame d;
    int64_t t;
    int ret;

    if (s->ended)
        return AVERROR_EOF;
    if (s->stalled) {
        ret = submit_entry(ctx);
        if (ret <= 0)
            return ret;
    }
    if (s->sync && !s->sync_done) {
        ret = sync_search(ctx);
        if (ret <= 0)
            return ret;
    }
    if (s->ending) {
        ret = end_pairing(ctx, s->ending - 1);
        return ret <= 0 ? ret : AVERROR_EOF;
    }
    if (!av_fifo_can_read(q0->fifo)) {
        ret = read_input(ctx, 0);
        if (ret <= 0) {
            if (ret < 0 || !q0->eof)
                return ret;
            s->ending = 1;
            ret = end_pairing(ctx, 0);
            return ret <= 0 ? ret : AVERROR_EOF;
        }
        if (!av_fifo_can_read(q0->fifo))
            return 1; /* the frame was one to skip (sync offset): passed through */
    }
    av_fifo_peek(q0->fifo, &d, 1, 0);
    t = d.t - q0->base;
    for (int i = 1; i < s->nb_inputs; i++) {
        status[i] = match_input(ctx, i, t);
        if (status[i] < 0)
            return status[i];
    }
    for (int i = 1; i < s->nb_inputs; i++)
        if (status[i] == MATCH_NEED_INPUT)
            return 0; /* read_input() asked for its next frame */
    for (int i = s->nb_inputs - 1; i >= 1; i--) {
        if (status[i] == MATCH_ENDED)
            ended = i;
        before |= status[i] == MATCH_BEFORE_START;
    }
    if (ended > 0 && s->eof_action == EOF_ACTION_ENDALL) {
        s->ending = ended + 1;
        ret = end_pairing(ctx, ended);
        return ret <= 0 ? ret : AVERROR_EOF;
    }
    av_fifo_drain2(q0->fifo, 1);
    s->last_t = t;
    s->last_span = frame_span(ctx, 0, &d);
    if (before || (ended > 0 && s->eof_action == EOF_ACTION_PASS)) {
        ret = queue_unscored(ctx, d.frame, before ? &s->nb_before_start : &s->nb_passed);
        return ret < 0 ? ret : 1;
    }
    for (int i = 1; i < s->nb_inputs; i++) {
        QueuedFrame r;
        av_fifo_peek(s->in[i].fifo, &r, 1, 0);
        frames[i] = r.frame;
        s->in[i].nb_repeated += status[i] == MATCH_ENDED;
    }
    if (!s->nb_paired++)
        report_start(ctx);
    return score_frame(ctx, d.frame, frames);
}

/* ---- activation ------------------------------------------------------------ */

/* An error ends the run: the frames already scored before it are recorded
 * (log and summary) in order, as far as the device delivers them; a frame
 * that failed on the device ends the recording (the frames after it are not
 * trusted). Frames the output closed on (uninit) are not recorded: they
 * were never sent. */
static int fail_run(AVFilterContext *ctx, int err)
{
    GpussimFilterContext *s = ctx->priv;
    const size_t n = s->queue ? av_fifo_can_read(s->queue) : 0;

    if (record_sent(ctx) < 0)
        return err;
    for (size_t k = 0; k < n; k++) {
        InFlight *e;
        av_fifo_peek(s->queue, &e, 1, k);
        if (e->state == ENTRY_SUBMITTED && (s->frame_failed || collect_results(ctx, 1) < 0))
            break;
        if (e->state == ENTRY_DONE) {
            if (record_scores(ctx, e->values, e->nb_values, e->dist->pts) < 0)
                break;
            e->state = ENTRY_UNSCORED; /* recorded: not again */
        }
    }
    return err;
}

static int activate(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    AVFilterLink *outlink = ctx->outputs[0];
    int ret;

    /* downstream closed the output (-frames:v N, trim): nothing more is
     * read; frames not sent are not recorded (uninit) */
    if (ff_outlink_get_status(outlink)) {
        for (int i = 0; i < s->nb_inputs; i++)
            ff_inlink_set_status(ctx->inputs[i], AVERROR_EOF);
        return 0;
    }
    if (ff_outlink_frame_wanted(outlink) && (ret = record_sent(ctx)) < 0)
        return fail_run(ctx, ret);
    ret = collect_results(ctx, 0);
    if (ret < 0)
        return fail_run(ctx, ret);
    /* pair and submit as far as the inputs and the library allow */
    while ((ret = pair_next(ctx)) > 0)
        ;
    if (ret < 0 && ret != AVERROR_EOF)
        return fail_run(ctx, ret);
    if (!ff_outlink_frame_wanted(outlink))
        return 0;
    ret = send_oldest(ctx);
    if (ret)
        return ret < 0 ? fail_run(ctx, ret) : 0;
    if (av_fifo_can_read(s->queue)) {
        /* the oldest frame is on the device: wait for it when nothing else
         * can move (the library is full, or the inputs are done); else the
         * input requests made above bring this filter back */
        if (!s->stalled && !s->ended)
            return 0;
        ret = collect_results(ctx, 1);
        if (ret >= 0)
            ret = send_oldest(ctx);
        return ret < 0 ? fail_run(ctx, ret) : 0;
    }
    if (s->ended) {
        for (int i = 0; i < s->nb_inputs; i++)
            ff_inlink_set_status(ctx->inputs[i], AVERROR_EOF);
        ff_outlink_set_status(outlink, AVERROR_EOF, s->out_end_pts);
    }
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

    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
    /* the output is input 0's frames, timestamps untouched */
    outlink->time_base = mainlink->time_base;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ol->frame_rate = il->frame_rate;
    if (il->hw_frames_ctx) {
        ol->hw_frames_ctx = av_buffer_ref(il->hw_frames_ctx);
        if (!ol->hw_frames_ctx)
            return AVERROR(ENOMEM);
    }
    ret = config_library(ctx);
    if (ret < 0)
        return ret;
    s->queue = av_fifo_alloc2(8, sizeof(InFlight *), AV_FIFO_FLAG_AUTO_GROW);
    if (!s->queue)
        return AVERROR(ENOMEM);
    for (int i = 0; i < s->nb_inputs; i++) {
        s->in[i].fifo = av_fifo_alloc2(4, sizeof(QueuedFrame), AV_FIFO_FLAG_AUTO_GROW);
        if (!s->in[i].fifo)
            return AVERROR(ENOMEM);
    }
    if (s->sync_window) {
        struct gpussim_sync_params sp = { 0 };
        sp.format = s->format;
        sp.window = s->sync_window;
        sp.log_cb = log_from_library;
        sp.log_opaque = ctx;
        for (int k = 0; k < s->nb_renditions; k++) {
            ret = gpussim_sync_create(&s->syncs[k], &sp);
            if (ret < 0)
                return AVERROR(-ret);
        }
        s->sync = 1;
        /* the log opens once the offset is known (it records it) */
        return check_log_path(ctx);
    }
    return open_log(ctx);
}

/* names=a|b|c: one name per distorted input (the filter cannot see the
 * input files' names), for the summary and the ladder log's sections. */
static av_cold int parse_names(AVFilterContext *ctx)
{
    GpussimFilterContext *s = ctx->priv;
    const char *p = s->names_opt;
    int n = 1;

    if (!p)
        return 0;
    for (const char *c = p; *c; c++)
        n += *c == '|';
    if (n != s->nb_renditions) {
        av_log(ctx, AV_LOG_ERROR, "names=%s: %d name(s) for %d distorted input(s) (one name per input "
               "but the reference, in input order, separated by '|')\n", s->names_opt, n, s->nb_renditions);
        return AVERROR(EINVAL);
    }
    for (int k = 0; k < n; k++) {
        const size_t len = strcspn(p, "|");
        if (!len) {
            av_log(ctx, AV_LOG_ERROR, "names=%s: name %d is empty\n", s->names_opt, k + 1);
            return AVERROR(EINVAL);
        }
        s->rendition_names[k] = av_strndup(p, len);
        if (!s->rendition_names[k])
            return AVERROR(ENOMEM);
        p += len + (p[len] == '|');
    }
    return 0;
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
    /* framesync's option names, kept for the command lines that use them */
    if (s->shortest == 1)
        s->eof_action = EOF_ACTION_ENDALL;
    else if (s->repeatlast == 1)
        s->eof_action = EOF_ACTION_REPEAT;
    if (s->clip_db && !s->db)
        av_log(ctx, AV_LOG_WARNING, "clip_db has no effect without db=1\n");
    return parse_names(ctx);
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
        char name[144];
        /* the lcs and per-scale terms are many: they go to the verbose level */
        const int detail = gpussim_score_is_term(s->names[i % s->nb_names]);

        if (gpussim_pool_stats(s->pools[i], &st) < 0 || !st.count)
            continue;
#define ADD(...) n += snprintf(line + n, n < (int)sizeof(line) ? sizeof(line) - n : 0, __VA_ARGS__)
        ADD("gpussim %s", value_name(s, i, name, sizeof(name)));
        if (s->rendition_names[k])
            ADD(" (%s)", s->rendition_names[k]);
        ADD(":");
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
    uint64_t dropped = 0;
    char lb[64];

    /* Frames scored but never sent (the output was closed early, or an
     * error ended the graph) are not recorded: the log, the summary and the
     * output hold the same frames. Those on the device are waited for, so
     * no device read outlives its frame. */
    if (s->stalled)
        inflight_free(&s->stalled);
    dropped += !!s->sent_values;
    av_freep(&s->sent_values);
    if (s->queue) {
        InFlight *e;
        while (av_fifo_read(s->queue, &e, 1) >= 0) {
            struct gpussim_result res;
            if (e->state == ENTRY_SUBMITTED && s->gs)
                gpussim_collect(s->gs, &res, 1);
            dropped += e->state != ENTRY_UNSCORED;
            inflight_free(&e);
        }
        av_fifo_freep2(&s->queue);
    }
    for (int i = 0; i < MAX_INPUTS; i++) {
        QueuedFrame f;
        if (s->in[i].fifo)
            while (av_fifo_read(s->in[i].fifo, &f, 1) >= 0)
                av_frame_free(&f.frame);
        av_fifo_freep2(&s->in[i].fifo);
    }
    for (int k = 0; k < GPUSSIM_MAX_DISTORTED; k++)
        gpussim_sync_destroy(&s->syncs[k]);
    if (dropped && !s->frame_failed)
        av_log(ctx, AV_LOG_VERBOSE, "%" PRIu64 " frame(s) scored but not taken by the output are "
               "not recorded (the log holds the %" PRIu64 " frame(s) it took)\n", dropped,
               s->nb_scored);
    for (int i = 1; i < s->nb_inputs; i++)
        if (s->in[i].nb_repeated)
            av_log(ctx, AV_LOG_WARNING, "%" PRIu64 " distorted frame(s) were scored against %s's "
                   "repeated last frame (it is shorter; eof_action=repeat)\n",
                   s->in[i].nb_repeated, input_name(s, i, lb, sizeof(lb)));
    if (s->nb_before_start)
        av_log(ctx, AV_LOG_WARNING, "%" PRIu64 " distorted frame(s) before the first frame of every "
               "other input were passed through unscored (align=pts; align=start pairs each input "
               "from its own first frame)\n", s->nb_before_start);
    if (s->nb_passed)
        av_log(ctx, AV_LOG_WARNING, "%" PRIu64 " distorted frame(s) after the end of a shorter "
               "input were passed through unscored (eof_action=pass)\n", s->nb_passed);
    if (s->nb_sync_skipped)
        av_log(ctx, AV_LOG_WARNING, "%" PRIu64 " distorted frame(s) before the reference's first "
               "frame (sync offset) were passed through unscored\n", s->nb_sync_skipped);
    close_log(ctx); /* first: its pools go into the summary's */
    if (s->gs)
        print_summary(ctx);

    gpussim_destroy(&s->gs);
    if (s->pools)
        for (int i = 0; i < s->nb_names * s->nb_renditions; i++)
            gpussim_pool_destroy(&s->pools[i]);
    av_freep(&s->pools);
    for (int k = 0; k < GPUSSIM_MAX_DISTORTED; k++)
        av_freep(&s->rendition_names[k]);
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
    .init           = init,
    .uninit         = uninit,
    .activate       = activate,
    .priv_size      = sizeof(GpussimFilterContext),
    FILTER_OUTPUTS(gpussim_outputs),
    FILTER_QUERY_FUNC2(query_formats),
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
