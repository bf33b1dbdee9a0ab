/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * `gpussim plot`: draws score logs as a self-contained HTML page (inline SVG)
 * or a standalone SVG. The renderer works on the small model below, filled by
 * plot_log_load() from the library's log reader; nothing in the drawing
 * knows about JSON.
 */
#ifndef GPUSSIM_TOOLS_PLOT_H
#define GPUSSIM_TOOLS_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** One score of one log: per-frame values and the log's pooled statistics. */
struct plot_metric {
    const char *name;
    const double *values; /**< frame i's value is values[i * stride]; NaN: null or absent */
    size_t stride;
    int has_pooled; /**< the log carries pooled_metrics for it (a killed run may not) */
    double pooled_min, pooled_max, pooled_mean, pooled_harmonic_mean;
};

/** One log file: a rendition, or a merged chunk set. */
struct plot_log {
    const char *label;         /**< shown in the legend and tables: the path as given */
    uint64_t nb_frames;
    const uint64_t *frame_num; /**< per frame: its number in the whole input (frameNum + the
                                    chunk's first frame) */
    const double *timestamp;   /**< per frame, seconds (NaN: none); NULL when the log has none */
    int nb_metrics;
    struct plot_metric *metrics;
    void *storage; /**< what the loader allocated; freed by plot_log_free() (a ladder's
                        rendition 0 holds it; the others point into it: free them first) */
    char *label_storage; /**< the label when the loader made it (a ladder's "PATH rK" or "PATH: NAME") */
};

/** Reads a JSON score log (gpussim's, its filter's, or libvmaf's) through the
 *  library's reader into logs[0..]: one per rendition of a ladder log (at
 *  most max), else one; label = path (which must outlive the log), "PATH rK"
 *  for rendition K > 0, "PATH: NAME" for a rendition the log names.
 *  @return the number of logs filled, or -1 after the reader reported why */
int plot_log_load(struct plot_log *logs, int max, const char *path);
void plot_log_free(struct plot_log *log);

enum plot_format {
    PLOT_HTML = 0,
    PLOT_SVG,
};

struct plot_options {
    enum plot_format format;
    const char *const *metrics; /**< score names to draw; NULL: the scores, not their terms (gpussim_score_is_term) */
    int nb_metrics;
    int worst;        /**< worst frames marked and listed per log (default 5) */
    int max_points;   /**< per line; beyond it, min/max per bucket (default 4000) */
    const char *title;
};

/** Writes the report. @return 0, or -1 with the problem in err */
int plot_render(FILE *out, const struct plot_log *logs, int nb_logs, const struct plot_options *opt, char *err,
                size_t err_size);

/** `gpussim plot ...` (argv[0] is "plot"). @return the process exit status */
int plot_main(int argc, char **argv);

#endif /* GPUSSIM_TOOLS_PLOT_H */
