/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Layout of the CPU kernels' scratch memory (private to kernels/c). */
#ifndef GPUSSIM_SCRATCH_C_H
#define GPUSSIM_SCRATCH_C_H

#include <stdint.h>

#include "kernels.h"

struct CpuScratch {
    int max_width;
    float *ring;    /* 11 rows x 5 moments of the horizontal Gaussian pass */
    float *vrow;    /* 5 moments of one vertically filtered row */
    double *terms;  /* per-window term, l, c, s of one row */
    double *dacc;   /* double accumulators across one row (5 x width) */
    float *pad;     /* padded / deinterleaved copies of whole planes (2 planes) */
    float *frow;    /* filtered rows (ANSNR) */
    int64_t *imom;  /* 9 rows x 5 integer moments (integer SSIM) */
    int64_t *iwsum; /* per-column horizontal weight sums (integer SSIM) */
    int *idx;       /* gather indices for decimation */
};

/* Half-sample-symmetric mirror of spec §1.2 (edge sample repeated). */
static inline int mirror_hss(int i, int n)
{
    if (i < 0)
        return -1 - i;
    if (i >= n)
        return 2 * n - 1 - i;
    return i;
}

#endif /* GPUSSIM_SCRATCH_C_H */
