/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Per-worker scratch memory of the CPU reference kernels, allocated once per
 * worker for the largest plane so that no frame allocates.
 */
#include <stdlib.h>

#include "src/mem.h"
#include "scratch.h"

CpuScratch *cpu_scratch_alloc(int max_width, int max_height)
{
    CpuScratch *s = gpussim_calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    const size_t w = (size_t)max_width + 32, h = (size_t)max_height + 32;
    s->max_width = max_width;
    s->ring = gpussim_malloc(sizeof(float) * 5 * 11 * w);
    s->vrow = gpussim_malloc(sizeof(float) * 5 * w);
    s->terms = gpussim_malloc(sizeof(double) * 4 * w);
    s->dacc = gpussim_malloc(sizeof(double) * 5 * w);
    s->pad = gpussim_malloc(sizeof(float) * 2 * w * h);
    s->frow = gpussim_malloc(sizeof(float) * 4 * w);
    s->imom = gpussim_malloc(sizeof(int64_t) * 5 * 9 * w);
    s->iwsum = gpussim_malloc(sizeof(int64_t) * w);
    s->idx = gpussim_malloc(sizeof(int) * 16 * w);
    if (!s->ring || !s->vrow || !s->terms || !s->dacc || !s->pad || !s->frow || !s->imom ||
        !s->iwsum || !s->idx)
        cpu_scratch_free(&s);
    return s;
}

void cpu_scratch_free(CpuScratch **ps)
{
    CpuScratch *s = ps ? *ps : NULL;
    if (!s)
        return;
    gpussim_free(s->ring);
    gpussim_free(s->vrow);
    gpussim_free(s->terms);
    gpussim_free(s->dacc);
    gpussim_free(s->pad);
    gpussim_free(s->frow);
    gpussim_free(s->imom);
    gpussim_free(s->iwsum);
    gpussim_free(s->idx);
    gpussim_free(s);
    *ps = NULL;
}
