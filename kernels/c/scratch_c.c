/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Per-worker scratch memory of the CPU reference kernels, allocated once per
 * worker for the largest plane so that no frame allocates.
 */
#include <stdlib.h>

#include "scratch_c.h"

CpuScratch *cpu_scratch_alloc(int max_width, int max_height)
{
    CpuScratch *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    const size_t w = (size_t)max_width + 32, h = (size_t)max_height + 32;
    s->max_width = max_width;
    s->max_height = max_height;
    s->ring = malloc(sizeof(float) * 5 * 11 * w);
    s->vrow = malloc(sizeof(float) * 5 * w);
    s->terms = malloc(sizeof(double) * 4 * w);
    s->dacc = malloc(sizeof(double) * 5 * w);
    s->pad = malloc(sizeof(float) * 2 * w * h);
    s->frow = malloc(sizeof(float) * 4 * w);
    s->imom = malloc(sizeof(int64_t) * 5 * 9 * w);
    s->iwsum = malloc(sizeof(int64_t) * w);
    s->idx = malloc(sizeof(int) * 16 * w);
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
    free(s->ring);
    free(s->vrow);
    free(s->terms);
    free(s->dacc);
    free(s->pad);
    free(s->frow);
    free(s->imom);
    free(s->iwsum);
    free(s->idx);
    free(s);
    *ps = NULL;
}
