/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Score table of a run and its writers: libvmaf-layout JSON and CSV.
 */
#ifndef GPUSSIM_TOOLS_OUTPUT_H
#define GPUSSIM_TOOLS_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Per-frame scores, one row of nb_columns doubles per frame. Rows grow by
 *  doubling, so a long run reallocates O(log frames) times, not per frame. */
struct cli_scores {
    int nb_columns;
    const char *const *names; /**< column names; owned by the caller */
    double *rows;
    uint64_t nb_rows, capacity;
};

/** Makes room for row index (0-based) and returns it, or NULL (out of memory). */
double *cli_scores_row(struct cli_scores *s, uint64_t index);
void cli_scores_free(struct cli_scores *s);

enum cli_output_format {
    CLI_OUTPUT_JSON = 0,
    CLI_OUTPUT_CSV,
};

/**
 * Writes the first nb_frames rows. JSON: libvmaf's layout ({"version", "fps",
 * "frames": [{"frameNum", "metrics"}], "pooled_metrics": {name: {min, max,
 * mean, harmonic_mean}}, "aggregate_metrics": {}}), pooled with GpussimPool.
 * Values with %.17g (exact doubles); non-finite values are null in JSON and
 * nan/inf/-inf in CSV.
 * @return 0, or -1 with a message in err (a pool error).
 */
int cli_write_scores(FILE *out, enum cli_output_format format, const struct cli_scores *s,
                     uint64_t nb_frames, const char *version, double fps, char *err, size_t err_size);

#endif /* GPUSSIM_TOOLS_OUTPUT_H */
