/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Plane sizes of the decimations (spec §1.2, §2.3), for the library and
 * the kernels (kernels/c) alike; needs nothing else of the library.
 */
#ifndef GPUSSIM_GEOMETRY_H
#define GPUSSIM_GEOMETRY_H

/* float_ssim's automatic scale: max(1, round((float)min(w, h) / 256.0f))
 * (src/config.c). */
int gpussim_ssim_auto_scale(int w, int h);
/* Output size of one decimation: w / factor + (w & 1) (spec §1.2: not ceil). */
static inline int gpussim_decimated_size(int n, int factor)
{
    return n / factor + (n & 1);
}

#endif /* GPUSSIM_GEOMETRY_H */
