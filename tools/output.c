/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Writers for the score table. The JSON follows libvmaf's output layout so
 * scripts that parse `vmaf --json` read it unchanged; numbers carry 17
 * significant digits so every double round-trips exactly.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gpussim/gpussim.h>

#include "output.h"

double *cli_scores_row(struct cli_scores *s, uint64_t index)
{
    if (index >= s->capacity) {
        uint64_t cap = s->capacity ? s->capacity : 256;
        while (cap <= index)
            cap *= 2;
        const size_t cols = s->nb_columns > 0 ? (size_t)s->nb_columns : 1;
        if (cap > SIZE_MAX / sizeof(double) / cols)
            return NULL;
        double *rows = realloc(s->rows, (size_t)cap * cols * sizeof(double));
        if (!rows)
            return NULL;
        s->rows = rows;
        s->capacity = cap;
    }
    if (index >= s->nb_rows)
        s->nb_rows = index + 1;
    return s->rows + index * (uint64_t)s->nb_columns;
}

void cli_scores_free(struct cli_scores *s)
{
    free(s->rows);
    s->rows = NULL;
    s->nb_rows = s->capacity = 0;
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

static int pool_column(const struct cli_scores *s, int col, uint64_t nb_frames,
                       struct gpussim_pool_stats *st, char *err, size_t err_size)
{
    GpussimPool *pool = NULL;
    int ret = gpussim_pool_create(&pool);
    if (ret < 0)
        goto fail;
    for (uint64_t i = 0; i < nb_frames; i++) {
        const double v = s->rows[i * (uint64_t)s->nb_columns + (uint64_t)col];
        /* a NaN score has no place in a mean; the frame shows it as null */
        if (isnan(v))
            continue;
        ret = gpussim_pool_add(pool, v);
        if (ret < 0)
            goto fail;
    }
    ret = gpussim_pool_stats(pool, st);
    if (ret < 0)
        goto fail;
    gpussim_pool_destroy(&pool);
    return 0;

fail:
    snprintf(err, err_size, "pooling %s failed: %s", s->names[col], gpussim_strerror(ret));
    gpussim_pool_destroy(&pool);
    return -1;
}

static int write_json(FILE *out, const struct cli_scores *s, uint64_t nb_frames, const char *version,
                      double fps, char *err, size_t err_size)
{
    fputs("{\n  \"version\": ", out);
    json_string(out, version);
    fputs(",\n  \"fps\": ", out);
    json_number(out, fps);
    fputs(",\n  \"frames\": [", out);
    for (uint64_t i = 0; i < nb_frames; i++) {
        const double *row = s->rows + i * (uint64_t)s->nb_columns;
        fprintf(out, "%s\n    {\n      \"frameNum\": %llu,\n      \"metrics\": {", i ? "," : "",
                (unsigned long long)i);
        for (int c = 0; c < s->nb_columns; c++) {
            fputs(c ? ",\n        " : "\n        ", out);
            json_string(out, s->names[c]);
            fputs(": ", out);
            json_number(out, row[c]);
        }
        fputs("\n      }\n    }", out);
    }
    fputs(nb_frames ? "\n  ],\n" : "],\n", out);

    fputs("  \"pooled_metrics\": {", out);
    for (int c = 0; c < s->nb_columns; c++) {
        struct gpussim_pool_stats st;
        if (pool_column(s, c, nb_frames, &st, err, err_size) < 0)
            return -1;
        fputs(c ? ",\n    " : "\n    ", out);
        json_string(out, s->names[c]);
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
    fputs(s->nb_columns ? "\n  },\n" : "},\n", out);
    fputs("  \"aggregate_metrics\": {}\n}\n", out);
    return 0;
}

/* Names are libgpussim's score names (letters, digits, '_', '.'): no quoting needed. */
static void write_csv(FILE *out, const struct cli_scores *s, uint64_t nb_frames)
{
    fputs("Frame", out);
    for (int c = 0; c < s->nb_columns; c++)
        fprintf(out, ",%s", s->names[c]);
    putc('\n', out);
    for (uint64_t i = 0; i < nb_frames; i++) {
        const double *row = s->rows + i * (uint64_t)s->nb_columns;
        fprintf(out, "%llu", (unsigned long long)i);
        for (int c = 0; c < s->nb_columns; c++) {
            /* printf spells non-finite values nan/inf/-inf, which float() parsers accept */
            fprintf(out, ",%.17g", row[c]);
        }
        putc('\n', out);
    }
}

int cli_write_scores(FILE *out, enum cli_output_format format, const struct cli_scores *s,
                     uint64_t nb_frames, const char *version, double fps, char *err, size_t err_size)
{
    if (format == CLI_OUTPUT_CSV) {
        write_csv(out, s, nb_frames);
        return 0;
    }
    return write_json(out, s, nb_frames, version, fps, err, err_size);
}
