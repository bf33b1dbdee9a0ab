/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Integer SSIM, instantiated from issim_tmpl.c per moment width. */
#include <stddef.h>
#include <stdint.h>

#include "src/metric_tables.h"
#include "scratch.h"

static const int issim_taps[GPUSSIM_ISSIM_LEN] = { GPUSSIM_ISSIM_TAPS };

#define HMOM_T int32_t
#define FN(name) name##_i32
#include "issim_tmpl.c"
#undef HMOM_T
#undef FN

#define HMOM_T uint32_t
#define FN(name) name##_u32
#include "issim_tmpl.c"
#undef HMOM_T
#undef FN

#define HMOM_T int64_t
#define FN(name) name##_i64
#include "issim_tmpl.c"
#undef HMOM_T
#undef FN

void issim_sums_c(const uint16_t *ref, const uint16_t *dis, int w, int h, int bit_depth,
                  double *sum_term, double *sum_weight, CpuScratch *s)
{
    if (bit_depth <= 10)
        issim_sums_i32(ref, dis, w, h, bit_depth, sum_term, sum_weight, s);
    else if (bit_depth <= 12)
        issim_sums_u32(ref, dis, w, h, bit_depth, sum_term, sum_weight, s);
    else
        issim_sums_i64(ref, dis, w, h, bit_depth, sum_term, sum_weight, s);
}
