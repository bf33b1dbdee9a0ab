/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * What the benchmarks (bench/) call beyond the public API; they link
 * libgpussim statically. Not exported from libgpussim.so.
 */
#ifndef GPUSSIM_BENCH_HOOKS_H
#define GPUSSIM_BENCH_HOOKS_H

#include "gpussim/gpussim.h"

/* Device time of the frame last collected, -ENOSYS when the backend does
 * not measure it (src/context.c). */
int gpussim_internal_last_device_ms(GpussimContext *ctx, double *ms);

#endif /* GPUSSIM_BENCH_HOOKS_H */
