/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Shared prelude of the OpenCL C kernels (Level Zero through SPIR-V, and
 * PoCL in the tests: the same source).
 *
 * The kernels reproduce the CPU reference's per-element arithmetic bit for
 * bit, so:
 *   - FP_CONTRACT OFF: a*b+c stays two rounded operations (OpenCL C allows
 *     contraction by default; the reference forbids it);
 *   - the one float division (SSIM's s term) needs correct rounding: every
 *     build passes -cl-fp32-correctly-rounded-divide-sqrt;
 *   - double (cl_khr_fp64) where the reference uses double. A device without
 *     fp64 is refused by the host code with a clear error.
 */
#ifndef GPUSSIM_COMMON_ZE_H
#define GPUSSIM_COMMON_ZE_H

#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "metric_tables.h"

/* Work-group width of the kernels that reduce per-window terms: one
 * work-group covers REDUCE_WG consecutive outputs of one row. The host
 * launches them with local size (REDUCE_WG, 1). */
#define GPUSSIM_ZE_REDUCE_WG 128

/* Half-sample-symmetric mirror of spec §1.2 (edge sample repeated). */
inline int mirror_hss(int i, int n)
{
    if (i < 0)
        return -1 - i;
    if (i >= n)
        return 2 * n - 1 - i;
    return i;
}

#endif /* GPUSSIM_COMMON_ZE_H */
