/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* A naive second transcription of the spec, for cross-checking the CPU backend. */
#ifndef GPUSSIM_NAIVE_REF_H
#define GPUSSIM_NAIVE_REF_H

#include <stdint.h>

struct naive_opts {
    int float_ssim, ms_ssim, ansnr, issim;
    int scale, lcs, db, clip_db;
};

/* Scores one plane pair of true sample values in the library's result
 * order for one plane; returns the number written. */
int naive_scores(const uint16_t *ref, const uint16_t *dis, int w, int h, int bit_depth,
                 const struct naive_opts *o, double *out);

#endif
