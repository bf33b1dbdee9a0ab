/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The plot model over a log read by the library (gpussim_log_read()): the
 * values stay in the parsed log, which the model points into. A chunk's log
 * (config.first_frame > 0) is drawn at its frames' numbers in the whole
 * input, so the chunks of one input line up on one axis.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gpussim/gpussim_log.h>

#include "cli_msg.h"
#include "plot.h"

struct loaded {
    struct gpussim_log *gl;
    uint64_t *frame_num; /* shifted by first_frame; NULL when not shifted */
};

static void loaded_free(struct loaded *d)
{
    if (!d)
        return;
    gpussim_log_free(&d->gl);
    free(d->frame_num);
    free(d);
}

int plot_log_load(struct plot_log *log, const char *path)
{
    memset(log, 0, sizeof(*log));
    struct loaded *d = calloc(1, sizeof(*d));
    if (!d) {
        cli_error("out of memory reading %s", path);
        return -1;
    }
    /* the reader's messages name the file and the place of a problem */
    if (gpussim_log_read(&d->gl, path, cli_log_callback, NULL) < 0) {
        loaded_free(d);
        return -1;
    }
    const struct gpussim_log *gl = d->gl;
    const int64_t first = gl->has_config && gl->config.first_frame > 0 ? gl->config.first_frame : 0;
    log->metrics = calloc((size_t)gl->nb_metrics + 1, sizeof(*log->metrics));
    if (first)
        d->frame_num = malloc(sizeof(*d->frame_num) * (size_t)(gl->nb_frames ? gl->nb_frames : 1));
    if (!log->metrics || (first && !d->frame_num)) {
        cli_error("out of memory reading %s", path);
        free(log->metrics);
        log->metrics = NULL;
        loaded_free(d);
        return -1;
    }
    for (uint64_t i = 0; first && i < gl->nb_frames; i++)
        d->frame_num[i] = gl->frame_num[i] + (uint64_t)first;
    log->storage = d;
    log->label = path;
    log->nb_frames = gl->nb_frames;
    log->frame_num = first ? d->frame_num : gl->frame_num;
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
    loaded_free(log->storage);
    free(log->metrics);
    memset(log, 0, sizeof(*log));
}
