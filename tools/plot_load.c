/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The plot model over a log read by the library (gpussim_log_read()): the
 * values stay in the parsed log, which the model points into. A chunk's log
 * (config.first_frame > 0) is drawn at its frames' numbers in the whole
 * input, so the chunks of one input line up on one axis. A ladder log
 * becomes one plot log per rendition.
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

/* Fills log from rendition k of the parsed log (a pair log has only 0). */
static void fill_rendition(struct plot_log *log, const struct gpussim_log *gl, const uint64_t *frame_num)
{
    log->nb_frames = gl->nb_frames;
    log->frame_num = frame_num ? frame_num : gl->frame_num;
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
}

int plot_log_load(struct plot_log *logs, int max, const char *path)
{
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
    const int nr = gl->nb_renditions > 1 ? gl->nb_renditions : 1;
    if (nr > max) {
        cli_error("%s: too many renditions (%d)", path, nr);
        loaded_free(d);
        return -1;
    }
    const int64_t first = gl->has_config && gl->config.first_frame > 0 ? gl->config.first_frame : 0;
    if (first) {
        d->frame_num = malloc(sizeof(*d->frame_num) * (size_t)(gl->nb_frames ? gl->nb_frames : 1));
        if (!d->frame_num) {
            cli_error("out of memory reading %s", path);
            loaded_free(d);
            return -1;
        }
        for (uint64_t i = 0; i < gl->nb_frames; i++)
            d->frame_num[i] = gl->frame_num[i] + (uint64_t)first;
    }
    /* a ladder log draws one line per rendition: "PATH r1", ... (rendition
     * 0 keeps the path, as its keys keep the pair's names); a named
     * rendition (the writer's input file names) is "PATH: NAME" */
    for (int k = 0; k < nr; k++) {
        struct plot_log *log = &logs[k];
        const struct gpussim_log *r = gpussim_log_rendition(gl, k);
        memset(log, 0, sizeof(*log));
        log->metrics = calloc((size_t)r->nb_metrics + 1, sizeof(*log->metrics));
        const int own_label = k || r->name;
        if (own_label) {
            const size_t n = strlen(path) + (r->name ? strlen(r->name) : 0) + 16;
            log->label_storage = malloc(n);
            if (log->label_storage && r->name)
                snprintf(log->label_storage, n, "%s: %s", path, r->name);
            else if (log->label_storage)
                snprintf(log->label_storage, n, "%s r%d", path, k);
        }
        if (!log->metrics || (own_label && !log->label_storage)) {
            cli_error("out of memory reading %s", path);
            for (int j = 0; j <= k; j++) {
                free(logs[j].metrics);
                free(logs[j].label_storage);
                memset(&logs[j], 0, sizeof(logs[j]));
            }
            loaded_free(d);
            return -1;
        }
        log->label = own_label ? log->label_storage : path;
        fill_rendition(log, r, d->frame_num);
    }
    logs[0].storage = d; /* the other renditions point into it */
    return nr;
}

void plot_log_free(struct plot_log *log)
{
    loaded_free(log->storage);
    free(log->metrics);
    free(log->label_storage);
    memset(log, 0, sizeof(*log));
}
