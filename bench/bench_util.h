/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* What every benchmark in bench/ shares: the wall clock, the comparator for
 * medians, and the metric rows of the tables. */
#ifndef GPUSSIM_BENCH_UTIL_H
#define GPUSSIM_BENCH_UTIL_H

#include <time.h>

#include "gpussim/gpussim.h"

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static const struct bench_metric {
    const char *name;
    unsigned m;
} bench_metrics[] = {
    { "float_ssim", GPUSSIM_METRIC_FLOAT_SSIM },
    { "float_ms_ssim", GPUSSIM_METRIC_FLOAT_MS_SSIM },
    { "float_ansnr", GPUSSIM_METRIC_FLOAT_ANSNR },
    { "ssim", GPUSSIM_METRIC_SSIM },
    { "all", GPUSSIM_METRIC_ALL },
};
#define NB_BENCH_METRICS (sizeof(bench_metrics) / sizeof(bench_metrics[0]))

#endif
