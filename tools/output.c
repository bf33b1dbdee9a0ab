/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Writers for the scores. The JSON follows libvmaf's output layout so
 * scripts that parse `vmaf --json` read it unchanged; numbers carry 17
 * significant digits so every double round-trips exactly. Frames are written
 * and flushed as they complete: an interrupted or killed run keeps them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

double *cli_scores_row(struct cli_scores *s, uint64_t index)
{
    if (index < s->base)
        return NULL;
    const uint64_t i = index - s->base;
    const size_t cols = s->nb_columns > 0 ? (size_t)s->nb_columns : 1;
    if (i >= s->capacity) {
        uint64_t cap = s->capacity ? s->capacity : 16;
        while (cap <= i)
            cap *= 2;
        if (cap > SIZE_MAX / sizeof(double) / cols)
            return NULL;
        double *rows = realloc(s->rows, (size_t)cap * cols * sizeof(double));
        if (!rows)
            return NULL;
        s->rows = rows;
        s->capacity = cap;
    }
    if (i >= s->nb_rows)
        s->nb_rows = i + 1;
    return s->rows + i * cols;
}

void cli_scores_pop(struct cli_scores *s)
{
    if (!s->nb_rows)
        return;
    const size_t cols = s->nb_columns > 0 ? (size_t)s->nb_columns : 1;
    /* a handful of rows: the frames in flight */
    memmove(s->rows, s->rows + cols, (size_t)(s->nb_rows - 1) * cols * sizeof(double));
    s->nb_rows--;
    s->base++;
}

void cli_scores_free(struct cli_scores *s)
{
    free(s->rows);
    s->rows = NULL;
    s->nb_rows = s->capacity = 0;
}

/* ---- the writer --------------------------------------------------------------- */

static int write_failed(struct cli_writer *w)
{
    if (!w->failed) {
        snprintf(w->err, sizeof(w->err), "writing %s failed: %s", w->path, strerror(errno ? errno : EIO));
        w->failed = 1;
    }
    return -1;
}

/* Flushes and checks: every frame reaches the file when it is written. */
static int flush_checked(struct cli_writer *w)
{
    errno = 0;
    if (fflush(w->f) != 0 || ferror(w->f))
        return write_failed(w);
    return 0;
}

int cli_writer_open(struct cli_writer *w, const char *path, enum cli_output_format format)
{
    memset(w, 0, sizeof(*w));
    w->format = format;
    if (!path || !strcmp(path, "-")) {
        w->f = stdout;
        w->path = "stdout";
        return 0;
    }
    w->path = path;
    w->f = fopen(path, "w");
    if (!w->f) {
        snprintf(w->err, sizeof(w->err), "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
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

static void json_string(FILE *out, const char *s)
{
    putc('"', out);
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(out, "\\u%04x", ch);
        else
            putc(ch, out);
    }
    putc('"', out);
}

int cli_writer_begin(struct cli_writer *w, const char *const *names, int nb_columns, const char *version)
{
    w->names = names;
    w->nb_columns = nb_columns;
    const size_t n = nb_columns > 0 ? (size_t)nb_columns : 1;
    w->pools = calloc(n, sizeof(*w->pools));
    w->nan_count = calloc(n, sizeof(*w->nan_count));
    w->nan_frames = calloc(n, sizeof(*w->nan_frames));
    if (!w->pools || !w->nan_count || !w->nan_frames)
        goto nomem;
    for (int c = 0; c < nb_columns; c++)
        if (gpussim_pool_create(&w->pools[c]) < 0)
            goto nomem;

    if (w->format == CLI_OUTPUT_CSV) {
        fputs("Frame", w->f);
        for (int c = 0; c < nb_columns; c++)
            fprintf(w->f, ",%s", names[c]);
        putc('\n', w->f);
    } else {
        fputs("{\n  \"version\": ", w->f);
        json_string(w->f, version);
        fputs(",\n  \"frames\": [", w->f);
    }
    return flush_checked(w);

nomem:
    snprintf(w->err, sizeof(w->err), "out of memory for %d score columns", nb_columns);
    w->failed = 1;
    return -1;
}

int cli_writer_frame(struct cli_writer *w, const double *row)
{
    const uint64_t index = w->frames;
    for (int c = 0; c < w->nb_columns; c++) {
        /* a NaN score has no place in a mean: the frame shows it (null in
         * JSON), the pool leaves it out and the count says so */
        if (isnan(row[c])) {
            if (w->nan_count[c] < CLI_NAN_FRAMES_LISTED)
                w->nan_frames[c][w->nan_count[c]] = index;
            w->nan_count[c]++;
            continue;
        }
        const int ret = gpussim_pool_add(w->pools[c], row[c]);
        if (ret < 0) {
            snprintf(w->err, sizeof(w->err), "pooling %s failed: %s", w->names[c], gpussim_strerror(ret));
            w->failed = 1;
            return -1;
        }
    }
    if (w->format == CLI_OUTPUT_CSV) {
        fprintf(w->f, "%llu", (unsigned long long)index);
        /* printf spells non-finite values nan/inf/-inf, which float() parsers accept */
        for (int c = 0; c < w->nb_columns; c++)
            fprintf(w->f, ",%.17g", row[c]);
        putc('\n', w->f);
    } else {
        fprintf(w->f, "%s\n    {\n      \"frameNum\": %llu,\n      \"metrics\": {", index ? "," : "",
                (unsigned long long)index);
        for (int c = 0; c < w->nb_columns; c++) {
            fputs(c ? ",\n        " : "\n        ", w->f);
            json_string(w->f, w->names[c]);
            fputs(": ", w->f);
            json_number(w->f, row[c]);
        }
        fputs("\n      }\n    }", w->f);
    }
    w->frames++;
    return flush_checked(w);
}

int cli_writer_finish(struct cli_writer *w, double fps)
{
    FILE *out = w->f;
    if (w->format == CLI_OUTPUT_CSV)
        return flush_checked(w);

    fputs(w->frames ? "\n  ],\n" : "],\n", out);
    fputs("  \"pooled_metrics\": {", out);
    for (int c = 0; c < w->nb_columns; c++) {
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
    fputs(w->nb_columns ? "\n  },\n" : "},\n", out);
    fputs("  \"pooled_metrics_frames_left_out\": {", out);
    for (int c = 0; c < w->nb_columns; c++) {
        fputs(c ? ",\n    " : "\n    ", out);
        json_string(out, w->names[c]);
        fprintf(out, ": %llu", (unsigned long long)w->nan_count[c]);
    }
    fputs(w->nb_columns ? "\n  },\n" : "},\n", out);
    fputs("  \"aggregate_metrics\": {},\n  \"fps\": ", out);
    json_number(out, fps);
    fputs("\n}\n", out);
    return flush_checked(w);
}

int cli_writer_close(struct cli_writer *w)
{
    int ret = 0;
    if (w->f && w->f != stdout && fclose(w->f) != 0) {
        if (!w->failed)
            snprintf(w->err, sizeof(w->err), "closing %s failed: %s", w->path, strerror(errno));
        w->failed = 1;
        ret = -1;
    }
    w->f = NULL;
    if (w->pools)
        for (int c = 0; c < w->nb_columns; c++)
            gpussim_pool_destroy(&w->pools[c]);
    free(w->pools);
    free(w->nan_count);
    free(w->nan_frames);
    w->pools = NULL;
    w->nan_count = NULL;
    w->nan_frames = NULL;
    return ret;
}
