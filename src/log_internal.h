/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* What the log writer shares with the merge (not part of the ABI). */
#ifndef GPUSSIM_LOG_INTERNAL_H
#define GPUSSIM_LOG_INTERNAL_H

#include <stdint.h>

#include "gpussim/gpussim_log.h"

/* A writer for names[] with the config block cfg (strings copied), for a
 * log of nb_renditions sections (1: a pair's log); frames then carry
 * nb_renditions x nb_metrics values (rendition-major) and metric i of
 * rendition k is index k * nb_metrics + i of set_pool. */
int gpussim_log_writer_create(GpussimLogWriter **w, const struct gpussim_log_writer_params *params,
                              const char *const *names, int nb_metrics, const struct gpussim_log_config *cfg,
                              int nb_renditions);
/* Writes a frame numbered frame_num; pool = 0 leaves the pools alone. */
int gpussim_log_writer_frame(GpussimLogWriter *w, uint64_t frame_num, const double *values, double timestamp,
                             int pool);
/* Replaces metric i's pool (the writer takes it) and its NaN count. */
int gpussim_log_writer_set_pool(GpussimLogWriter *w, int i, GpussimPool *pool, uint64_t left_out);

/* The pooled statistics a log can hold, in the order they are written:
 * libvmaf's four (min, max, mean, harmonic_mean), then the percentiles. */
#define GPUSSIM_LOG_NB_POOL_STATS 7
#define GPUSSIM_LOG_POOL_ALL 0x7fu
struct gpussim_log_pool_stat_info {
    unsigned flag;     /* enum gpussim_log_pool_stat */
    const char *name;  /* the key in pooled_metrics */
    double percentile; /* gpussim_pool_percentile()'s q; < 0: not a percentile */
};
extern const struct gpussim_log_pool_stat_info gpussim_log_pool_stat_list[GPUSSIM_LOG_NB_POOL_STATS];
/* Statistic k of the list for pool (NaN on an empty pool). */
double gpussim_log_pool_stat_value(const GpussimPool *pool, int k);

#endif /* GPUSSIM_LOG_INTERNAL_H */
