/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Sample normalisation of spec §0: (float)v / scaler + offset. Exact for
 * every supported depth (scaler is a power of two, values < 2^16). */
#include "kernels.h"

KERNEL_CLONES
void convert_to_float_c(const uint16_t *src, int w, int h, ptrdiff_t src_stride, float scaler,
                        float offset, float *dst)
{
    for (int y = 0; y < h; y++) {
        const uint16_t *s = src + (size_t)y * src_stride;
        float *d = dst + (size_t)y * w;
        for (int x = 0; x < w; x++)
            d[x] = (float)s[x] / scaler + offset;
    }
}
