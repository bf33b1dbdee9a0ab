/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The scores of a run: rows of frames still being assembled, and a writer
 * that streams libvmaf-layout JSON or CSV as frames complete.
 */
#ifndef GPUSSIM_TOOLS_OUTPUT_H
#define GPUSSIM_TOOLS_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <gpussim/gpussim.h>

/** Rows of the frames in flight: frames [base, base + nb_rows). A frame's
 *  row is complete once every library context returned it; it is then
 *  written and dropped, so the table holds only the frames in flight. */
struct cli_scores {
    int nb_columns;
    double *rows;
    uint64_t base, nb_rows, capacity;
};

/** Makes room for row index (>= base) and returns it, or NULL (out of memory). */
double *cli_scores_row(struct cli_scores *s, uint64_t index);
/** Drops the row of frame base. */
void cli_scores_pop(struct cli_scores *s);
void cli_scores_free(struct cli_scores *s);

enum cli_output_format {
    CLI_OUTPUT_JSON = 0,
    CLI_OUTPUT_CSV,
};

/* frames listed per column in the NaN warning */
#define CLI_NAN_FRAMES_LISTED 8

/**
 * Streams the scores. JSON: libvmaf's layout ({"version", "frames":
 * [{"frameNum", "metrics"}], "pooled_metrics": {name: {min, max, mean,
 * harmonic_mean}}, "aggregate_metrics": {}}) plus
 * "pooled_metrics_frames_left_out" (per score, frames whose value is NaN and
 * so left out of its pool) and "fps", which come last because the frames are
 * written as they complete. Every frame is flushed when written, so a killed
 * run leaves every frame scored before it (README: reading such a file).
 * Values with %.17g (exact doubles); non-finite values are null in JSON and
 * nan/inf/-inf in CSV.
 */
struct cli_writer {
    FILE *f;
    const char *path; /**< for messages: the file name or "stdout" */
    enum cli_output_format format;
    int nb_columns;
    const char *const *names; /**< owned by the caller */
    GpussimPool **pools;      /**< per column */
    uint64_t *nan_count;      /**< per column: frames left out of the pool */
    uint64_t (*nan_frames)[CLI_NAN_FRAMES_LISTED]; /**< the first of them */
    uint64_t frames;          /**< frames written */
    int failed;               /**< a write failed: the message is in err */
    char err[256];
};

/** Opens path for writing ("-" or NULL: stdout). @return 0, or -1 with err set. */
int cli_writer_open(struct cli_writer *w, const char *path, enum cli_output_format format);
/** Writes the head (JSON up to "frames": [, the CSV header) and creates the pools. */
int cli_writer_begin(struct cli_writer *w, const char *const *names, int nb_columns, const char *version);
/** Writes the next frame's row and flushes it. @return 0, or -1 with err set. */
int cli_writer_frame(struct cli_writer *w, const double *row);
/** Closes the frames and writes the pooled statistics and fps (JSON), flushes. */
int cli_writer_finish(struct cli_writer *w, double fps);
/** Closes the file (not stdout) and frees everything; reports a close error. */
int cli_writer_close(struct cli_writer *w);

#endif /* GPUSSIM_TOOLS_OUTPUT_H */
