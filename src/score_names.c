/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The names of a configuration's scores, in result order
 * (gpussim_scores_names(), gpussim_scores_count()).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "src/core.h"
#include "mem.h"

static const char *const lcs_names[3] = { "l", "c", "s" };
/* the names of the terms: float_ssim_l, float_ms_ssim_c_scale2, ... */
#define SSIM_TERM_NAME "float_ssim_%s"
#define MS_SSIM_TERM_NAME "float_ms_ssim_%s_scale%d"

/* Calls emit(name, suffix) for every score in result order; returns the count. */
static int for_each_score(const struct gpussim_config *cfg,
                          void (*emit)(void *opaque, const char *base, const char *suffix),
                          void *opaque)
{
    int n = 0;
    char tmp[64];
    for (int p = 0; p < cfg->nb_planes; p++) {
        const char *sfx = cfg->plane[p].suffix;
        if (cfg->metrics & GPUSSIM_METRIC_FLOAT_SSIM) {
            emit(opaque, "float_ssim", sfx), n++;
            if (cfg->ssim.enable_lcs)
                for (int k = 0; k < 3; k++) {
                    snprintf(tmp, sizeof(tmp), SSIM_TERM_NAME, lcs_names[k]);
                    emit(opaque, tmp, sfx), n++;
                }
        }
        if (cfg->metrics & GPUSSIM_METRIC_FLOAT_MS_SSIM) {
            emit(opaque, "float_ms_ssim", sfx), n++;
            if (cfg->ms.enable_lcs)
                for (int k = 0; k < 3; k++)
                    for (int s = 0; s < GPUSSIM_MSSSIM_SCALES; s++) {
                        snprintf(tmp, sizeof(tmp), MS_SSIM_TERM_NAME, lcs_names[k], s);
                        emit(opaque, tmp, sfx), n++;
                    }
        }
        if (cfg->metrics & GPUSSIM_METRIC_FLOAT_ANSNR) {
            emit(opaque, "float_ansnr", sfx), n++;
            emit(opaque, "float_anpsnr", sfx), n++;
        }
        if (cfg->metrics & GPUSSIM_METRIC_SSIM)
            emit(opaque, "ssim", sfx), n++;
    }
    return n;
}

static void emit_nothing(void *opaque, const char *base, const char *suffix)
{
    (void)opaque, (void)base, (void)suffix;
}

int gpussim_scores_count(const struct gpussim_config *cfg)
{
    return for_each_score(cfg, emit_nothing, NULL);
}

struct name_writer {
    char *storage;
    size_t used;
    size_t *offsets;
    int n;
};

static void emit_name(void *opaque, const char *base, const char *suffix)
{
    struct name_writer *nw = opaque;
    nw->offsets[nw->n++] = nw->used;
    nw->used += (size_t)sprintf(nw->storage + nw->used, "%s%s", base, suffix) + 1;
}

int gpussim_scores_names(const struct gpussim_config *cfg, const char ***names, char **storage)
{
    const int n = gpussim_scores_count(cfg);
    struct name_writer nw = { 0 };
    nw.storage = gpussim_malloc((size_t)n * 48);
    nw.offsets = gpussim_malloc(sizeof(*nw.offsets) * (size_t)n);
    const char **out = gpussim_malloc(sizeof(*out) * ((size_t)n + 1));
    if (!nw.storage || !nw.offsets || !out) {
        gpussim_free(nw.storage);
        gpussim_free(nw.offsets);
        gpussim_free(out);
        return -ENOMEM;
    }
    for_each_score(cfg, emit_name, &nw);
    for (int i = 0; i < n; i++)
        out[i] = nw.storage + nw.offsets[i];
    out[n] = NULL;
    gpussim_free(nw.offsets);
    *names = out;
    *storage = nw.storage;
    return n;
}

int gpussim_score_is_term(const char *name)
{
    if (!name)
        return 0;
    /* the name before a plane suffix (".u", ".v") */
    const size_t len = strcspn(name, ".");
    char term[64];
    for (int k = 0; k < 3; k++) {
        snprintf(term, sizeof(term), SSIM_TERM_NAME, lcs_names[k]);
        if (strlen(term) == len && !strncmp(name, term, len))
            return 1;
        for (int s = 0; s < GPUSSIM_MSSSIM_SCALES; s++) {
            snprintf(term, sizeof(term), MS_SSIM_TERM_NAME, lcs_names[k], s);
            if (strlen(term) == len && !strncmp(name, term, len))
                return 1;
        }
    }
    return 0;
}
