/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The plot model over a log read by the library (gpussim_log_read()): the
 * values stay in the parsed log, which the model points into.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gpussim/gpussim_log.h>

#include "cli_msg.h"
#include "plot.h"

int plot_log_load(struct plot_log *log, const char *path)
{
    struct gpussim_log *gl = NULL;
    memset(log, 0, sizeof(*log));
    /* the reader's messages name the file and the place of a problem */
    if (gpussim_log_read(&gl, path, cli_log_callback, NULL) < 0)
        return -1;
    log->metrics = calloc((size_t)gl->nb_metrics + 1, sizeof(*log->metrics));
    if (!log->metrics) {
        cli_error("out of memory reading %s", path);
        gpussim_log_free(&gl);
        return -1;
    }
    log->storage = gl;
    log->label = path;
    log->nb_frames = gl->nb_frames;
    log->frame_num = gl->frame_num;
    log->timestamp = gl->timestamps;
    log->nb_metrics = gl->nb_metrics;
    for (int i = 0; i < gl->nb_metrics; i++) {
        const struct gpussim_log_metric *lm = &gl->metrics[i];
        struct plot_metric *m = &log->metrics[i];
        m->name = lm->name;
        m->values = gl->values + i;
        m->stride = (size_t)gl->nb_metrics;
        m->pooled_min = lm->pooled.min;
        m->pooled_max = lm->pooled.max;
        m->pooled_mean = lm->pooled.mean;
        m->pooled_harmonic_mean = lm->pooled.harmonic_mean;
        /* no pooled_metrics (a stopped run): all NaN; then the plot pools
         * the frames itself */
        m->has_pooled = !isnan(lm->pooled.mean) || !isnan(lm->pooled.min) || !isnan(lm->pooled.max);
    }
    return 0;
}

void plot_log_free(struct plot_log *log)
{
    struct gpussim_log *gl = log->storage;
    gpussim_log_free(&gl);
    free(log->metrics);
    memset(log, 0, sizeof(*log));
}
