/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The log writer (gpussim_log.h): libvmaf's JSON layout, or CSV, streamed as
 * frames complete. Every frame is flushed when written, so a killed run
 * leaves every frame scored before it; %.17g makes every double round-trip.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpussim/gpussim_log.h"
#include "internal.h"
#include "log_internal.h"
#include "mem.h"

struct GpussimLogWriter {
    FILE *f;
    int own_file;
    char *path; /* for messages */
    enum gpussim_log_format format;
    int timestamps;
    struct gpussim_logger log;
    int nb_metrics;
    char **names;
    GpussimPool **pools;
    uint64_t *left_out;
    uint64_t frames;
    int error; /* the first write error: every later call returns it */
    /* the config block */
    char *library, *api, *backend, *chroma, *planes, *features;
    int width, height, bit_depth;
    int64_t first_frame;
};

static void writer_free(GpussimLogWriter *w)
{
    if (!w)
        return;
    if (w->f && w->own_file)
        fclose(w->f);
    for (int i = 0; i < w->nb_metrics; i++) {
        if (w->names)
            gpussim_free(w->names[i]);
        if (w->pools)
            gpussim_pool_destroy(&w->pools[i]);
    }
    gpussim_free(w->names);
    gpussim_free(w->pools);
    gpussim_free(w->left_out);
    gpussim_free(w->path);
    gpussim_free(w->library);
    gpussim_free(w->api);
    gpussim_free(w->backend);
    gpussim_free(w->chroma);
    gpussim_free(w->planes);
    gpussim_free(w->features);
    gpussim_free(w);
}

/* Records the first write error (errno of the failed call). */
static int write_error(GpussimLogWriter *w, int err)
{
    if (!w->error) {
        w->error = err > 0 ? -err : -EIO;
        gpussim_log(&w->log, GPUSSIM_LOG_ERROR, "cannot write log file '%s': %s", w->path,
                    strerror(-w->error));
    }
    return w->error;
}

/* Flushes and checks: every frame reaches the file when it is written. */
static int flush_checked(GpussimLogWriter *w)
{
    errno = 0;
    if (fflush(w->f) != 0 || ferror(w->f))
        return write_error(w, errno);
    return 0;
}

/* JSON has no NaN or infinity: null keeps the document valid. */
static void json_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.17g", v);
    else
        fputs("null", out);
}

/* The characters of a JSON string, escaped, without the quotes. */
static void json_chars(FILE *out, const char *s)
{
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            putc(ch, out);
    }
}

static void json_string(FILE *out, const char *s)
{
    putc('"', out);
    json_chars(out, s);
    putc('"', out);
}

static void json_string_or_null(FILE *out, const char *s)
{
    if (s)
        json_string(out, s);
    else
        fputs("null", out);
}

int gpussim_log_writer_create(GpussimLogWriter **pw, const struct gpussim_log_writer_params *params,
                              const char *const *names, int nb_metrics, const struct gpussim_log_config *cfg)
{
    *pw = NULL;
    const struct gpussim_logger log = { params->log_cb, params->log_opaque, GPUSSIM_LOG_INFO };
    if ((unsigned)params->format > GPUSSIM_LOG_FORMAT_CSV || (!params->path && !params->file) ||
        nb_metrics < 0 || nb_metrics > GPUSSIM_LOG_MAX_METRICS) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "log writer: bad parameters (format %d, %s, %d metrics)",
                    (int)params->format, params->path || params->file ? "a file" : "no file", nb_metrics);
        return -EINVAL;
    }
    GpussimLogWriter *w = gpussim_calloc(1, sizeof(*w));
    if (!w)
        return -ENOMEM;
    w->log = log;
    w->format = params->format;
    w->timestamps = !!params->timestamps;
    w->first_frame = params->first_frame < 0 ? -1 : params->first_frame;
    w->path = gpussim_strdup(params->path ? params->path : "(stream)");
    const size_t n = nb_metrics ? (size_t)nb_metrics : 1;
    w->names = gpussim_calloc(n, sizeof(*w->names));
    w->pools = gpussim_calloc(n, sizeof(*w->pools));
    w->left_out = gpussim_calloc(n, sizeof(*w->left_out));
    if (!w->path || !w->names || !w->pools || !w->left_out)
        goto nomem;
    w->nb_metrics = nb_metrics;
    for (int i = 0; i < nb_metrics; i++) {
        w->names[i] = gpussim_strdup(names[i]);
        if (!w->names[i] || gpussim_pool_create(&w->pools[i]) < 0)
            goto nomem;
    }
    w->library = gpussim_strdup(cfg->library);
    w->api = gpussim_strdup(cfg->api);
    w->backend = gpussim_strdup(cfg->backend);
    w->chroma = gpussim_strdup(cfg->chroma);
    w->planes = gpussim_strdup(cfg->planes);
    w->features = gpussim_strdup(cfg->features);
    if ((cfg->library && !w->library) || (cfg->api && !w->api) || (cfg->backend && !w->backend) ||
        (cfg->chroma && !w->chroma) || (cfg->planes && !w->planes) || (cfg->features && !w->features))
        goto nomem;
    w->width = cfg->width;
    w->height = cfg->height;
    w->bit_depth = cfg->bit_depth;

    if (params->path) {
        errno = 0;
        w->f = fopen(params->path, "w");
        if (!w->f) {
            const int err = errno ? errno : EIO;
            gpussim_log(&log, GPUSSIM_LOG_ERROR, "cannot write log file '%s': %s", params->path, strerror(err));
            writer_free(w);
            return -err;
        }
        w->own_file = 1;
    } else {
        w->f = params->file;
    }

    if (w->format == GPUSSIM_LOG_FORMAT_CSV) {
        fputs(w->timestamps ? "Frame,timestamp" : "Frame", w->f);
        for (int i = 0; i < nb_metrics; i++)
            fprintf(w->f, ",%s", names[i]);
        putc('\n', w->f);
    } else {
        fputs("{\n  \"version\": ", w->f);
        /* the library string may come from a merged log: escaped like any string */
        fputs("\"gpussim ", w->f);
        json_chars(w->f, w->library ? w->library : "unknown");
        putc('"', w->f);
        fputs(",\n  \"frames\": [", w->f);
    }
    const int err = flush_checked(w);
    if (err < 0) {
        writer_free(w);
        return err;
    }
    *pw = w;
    return 0;

nomem:
    writer_free(w);
    return -ENOMEM;
}

static const char *chroma_name(enum gpussim_chroma c)
{
    switch (c) {
    case GPUSSIM_CHROMA_420: return "420";
    case GPUSSIM_CHROMA_422: return "422";
    case GPUSSIM_CHROMA_444: return "444";
    case GPUSSIM_CHROMA_GRAY: return "400";
    }
    return "unknown";
}

int gpussim_log_open(GpussimLogWriter **w, const GpussimContext *ctx,
                     const struct gpussim_log_writer_params *params)
{
    if (!w)
        return -EINVAL;
    *w = NULL;
    if (!ctx || !params)
        return -EINVAL;
    const struct gpussim_config *cfg = gpussim_internal_config(ctx);
    const char *const *names;
    const int n = gpussim_score_names(ctx, &names);
    if (n < 0)
        return n;
    char features[512], api[32];
    const int fl = gpussim_features_string(&cfg->params, features, sizeof(features));
    if (fl < 0 || (size_t)fl >= sizeof(features))
        return -EINVAL;
    snprintf(api, sizeof(api), "%d.%d", GPUSSIM_API_VERSION_MAJOR, GPUSSIM_API_VERSION_MINOR);
    const struct gpussim_log_config lc = {
        .library = gpussim_library_version(),
        .api = api,
        .backend = gpussim_backend_name(ctx),
        .width = cfg->params.format.width,
        .height = cfg->params.format.height,
        .bit_depth = cfg->params.format.bit_depth,
        .chroma = chroma_name(cfg->params.format.chroma),
        .planes = cfg->nb_planes > 1 ? "all" : "luma",
        .features = features,
        .first_frame = params->first_frame,
    };
    return gpussim_log_writer_create(w, params, names, n, &lc);
}

int gpussim_log_writer_frame(GpussimLogWriter *w, uint64_t frame_num, const double *values, double timestamp,
                             int pool)
{
    if (w->error)
        return w->error;
    for (int c = 0; pool && c < w->nb_metrics; c++) {
        /* a NaN score has no place in a mean: the frame shows it (null in
         * JSON), the pool leaves it out and the count says so */
        if (isnan(values[c])) {
            w->left_out[c]++;
            continue;
        }
        const int ret = gpussim_pool_add(w->pools[c], values[c]);
        if (ret < 0) {
            gpussim_log(&w->log, GPUSSIM_LOG_ERROR, "log: pooling %s of frame %llu failed: %s", w->names[c],
                        (unsigned long long)frame_num, gpussim_strerror(ret));
            w->error = ret;
            return ret;
        }
    }
    FILE *f = w->f;
    if (w->format == GPUSSIM_LOG_FORMAT_CSV) {
        fprintf(f, "%llu", (unsigned long long)frame_num);
        if (w->timestamps)
            fprintf(f, ",%.17g", timestamp);
        /* printf spells non-finite values nan/inf/-inf, which float() parsers accept */
        for (int c = 0; c < w->nb_metrics; c++)
            fprintf(f, ",%.17g", values[c]);
        putc('\n', f);
    } else {
        fprintf(f, "%s\n    {\n      \"frameNum\": %llu,\n      \"metrics\": {", w->frames ? "," : "",
                (unsigned long long)frame_num);
        for (int c = 0; c < w->nb_metrics; c++) {
            fputs(c ? ",\n        " : "\n        ", f);
            json_string(f, w->names[c]);
            fputs(": ", f);
            json_number(f, values[c]);
        }
        fputs("\n      }", f);
        if (w->timestamps) {
            fputs(",\n      \"timestamp\": ", f);
            json_number(f, timestamp);
        }
        fputs("\n    }", f);
    }
    w->frames++;
    return flush_checked(w);
}

int gpussim_log_write_frame(GpussimLogWriter *w, const double *values, double timestamp)
{
    if (!w || (!values && w->nb_metrics))
        return -EINVAL;
    return gpussim_log_writer_frame(w, w->frames, values, timestamp, 1);
}

uint64_t gpussim_log_frames(const GpussimLogWriter *w)
{
    return w ? w->frames : 0;
}

uint64_t gpussim_log_frames_left_out(const GpussimLogWriter *w, int i)
{
    return w && i >= 0 && i < w->nb_metrics ? w->left_out[i] : 0;
}

int gpussim_log_writer_set_pool(GpussimLogWriter *w, int i, GpussimPool *pool, uint64_t left_out)
{
    gpussim_pool_destroy(&w->pools[i]);
    w->pools[i] = pool;
    w->left_out[i] = left_out;
    return 0;
}

static int write_tail(GpussimLogWriter *w, double fps)
{
    FILE *out = w->f;
    fputs(w->frames ? "\n  ],\n" : "],\n", out);
    fputs("  \"pooled_metrics\": {", out);
    for (int c = 0; c < w->nb_metrics; c++) {
        struct gpussim_pool_stats st;
        gpussim_pool_stats(w->pools[c], &st);
        fputs(c ? ",\n    " : "\n    ", out);
        json_string(out, w->names[c]);
        fputs(": {\n      \"min\": ", out);
        json_number(out, st.min);
        fputs(",\n      \"max\": ", out);
        json_number(out, st.max);
        fputs(",\n      \"mean\": ", out);
        json_number(out, st.mean);
        fputs(",\n      \"harmonic_mean\": ", out);
        json_number(out, st.harmonic_mean);
        fputs("\n    }", out);
    }
    fputs(w->nb_metrics ? "\n  },\n" : "},\n", out);
    fputs("  \"pooled_metrics_frames_left_out\": {", out);
    for (int c = 0; c < w->nb_metrics; c++) {
        fputs(c ? ",\n    " : "\n    ", out);
        json_string(out, w->names[c]);
        fprintf(out, ": %llu", (unsigned long long)w->left_out[c]);
    }
    fputs(w->nb_metrics ? "\n  },\n" : "},\n", out);
    fputs("  \"aggregate_metrics\": {},\n  \"fps\": ", out);
    json_number(out, fps);
    fputs(",\n  \"config\": {\n    \"library\": ", out);
    json_string_or_null(out, w->library);
    fputs(",\n    \"api\": ", out);
    json_string_or_null(out, w->api);
    fputs(",\n    \"backend\": ", out);
    json_string_or_null(out, w->backend);
    fprintf(out, ",\n    \"width\": %d,\n    \"height\": %d,\n    \"bit_depth\": %d,\n    \"chroma\": ",
            w->width, w->height, w->bit_depth);
    json_string_or_null(out, w->chroma);
    fputs(",\n    \"planes\": ", out);
    json_string_or_null(out, w->planes);
    fputs(",\n    \"features\": ", out);
    json_string_or_null(out, w->features);
    fputs(",\n    \"first_frame\": ", out);
    if (w->first_frame >= 0)
        fprintf(out, "%lld", (long long)w->first_frame);
    else
        fputs("null", out);
    fputs("\n  },\n  \"pool_state\": {", out);
    for (int c = 0; c < w->nb_metrics; c++) {
        char *blob = NULL;
        size_t len = 0;
        const int err = gpussim_pool_serialize(w->pools[c], &blob, &len);
        if (err < 0) {
            gpussim_log(&w->log, GPUSSIM_LOG_ERROR, "log: serialising the pool of %s failed: %s", w->names[c],
                        gpussim_strerror(err));
            return w->error = err;
        }
        fputs(c ? ",\n    " : "\n    ", out);
        json_string(out, w->names[c]);
        fputs(": ", out);
        json_string(out, blob);
        free(blob);
    }
    fputs(w->nb_metrics ? "\n  }\n}\n" : "}\n}\n", out);
    return flush_checked(w);
}

int gpussim_log_close(GpussimLogWriter **pw, double fps)
{
    if (!pw || !*pw)
        return 0;
    GpussimLogWriter *w = *pw;
    *pw = NULL;
    int ret = w->error;
    if (!ret && w->format == GPUSSIM_LOG_FORMAT_JSON)
        ret = write_tail(w, fps);
    else if (!ret)
        ret = flush_checked(w);
    if (w->own_file) {
        errno = 0;
        const int closed = fclose(w->f);
        w->f = NULL;
        if (closed != 0 && !ret)
            ret = write_error(w, errno);
    }
    writer_free(w);
    return ret;
}
