/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The library core's own interfaces (src/): validating a configuration,
 * naming and finishing scores, what the log writer reads of a context and a
 * pool. Backends do not include this (src/backend.h is theirs); nothing
 * here is part of the ABI.
 */
#ifndef GPUSSIM_CORE_H
#define GPUSSIM_CORE_H

#include <stddef.h>

#include "src/backend.h"

/* Checks a format's size, depth, chroma and packing (the context's and the
 * sync search's one rule); logs and returns -EINVAL naming the problem. */
int gpussim_format_check(const struct gpussim_logger *log, const struct gpussim_format *f);

/* Fills the geometry of every scored plane and checks the size limits of the
 * requested metrics; logs and returns -EINVAL naming the limit. */
int gpussim_config_init(struct gpussim_config *cfg, const struct gpussim_params *params);

/* The options of the feature of metric (a GPUSSIM_METRIC_* bit) in p,
 * wherever p keeps them (float_ms_ssim: its own bits or the shared fields). */
void gpussim_feature_values(const struct gpussim_params *p, unsigned metric,
                            struct gpussim_feature_values *v);
/* Checks p's options against their table (ranges, known bits); logs and
 * returns -EINVAL naming the problem. */
int gpussim_feature_values_check(const struct gpussim_logger *log, const struct gpussim_params *p);

/* Score names in result order for a configuration. */
int gpussim_scores_count(const struct gpussim_config *cfg);
/* Writes the names (static strings joined with suffixes) into names[]; the
 * strings are allocated in *storage (free with free()). */
int gpussim_scores_names(const struct gpussim_config *cfg, const char ***names, char **storage);
/* Turns a frame's sums into its scores, in the order of gpussim_scores_names(). */
void gpussim_scores_finish(const struct gpussim_config *cfg, const struct gpussim_frame_sums *sums,
                           double *values);

/* The validated configuration of a context (the log writer reads it). */
const struct gpussim_config *gpussim_internal_config(const GpussimContext *ctx);
/* The library's version (configure's PACKAGE_VERSION). */
const char *gpussim_library_version(void);

/* A pool's values in the order they were added (merges append), owned by
 * the pool: what a log's frames must reproduce. */
const double *gpussim_pool_values(const GpussimPool *pool, size_t *n);

#endif /* GPUSSIM_CORE_H */
