/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The reference's constant tables, written once for every backend. Plain
 * macros of float literals so that C, CUDA/HIP, OpenCL C and GLSL (through
 * the generator in kernels/vulkan) all spell exactly the same numbers.
 * See spec §1.3, §2.3, §2.5, §3.2, §4.2.
 */
#ifndef GPUSSIM_METRIC_TABLES_H
#define GPUSSIM_METRIC_TABLES_H

/* 11-tap Gaussian window, sigma 1.5, as float literals (they do not sum to 1). */
#define GPUSSIM_GAUSSIAN11_TAPS \
    0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f, \
    0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f
#define GPUSSIM_GAUSSIAN11_LEN 11

/* MS-SSIM 2:1 low-pass, the 2-D 9x9 table (row-major). Its rows are not the
 * products of the separable taps that also appear in the reference source. */
#define GPUSSIM_MSSSIM_LPF_ROW0 \
     0.000714f, -0.000450f, -0.002090f,  0.007132f,  0.016114f,  0.007132f, -0.002090f, -0.000450f,  0.000714f
#define GPUSSIM_MSSSIM_LPF_ROW1 \
    -0.000450f,  0.000283f,  0.001316f, -0.004490f, -0.010146f, -0.004490f,  0.001316f,  0.000283f, -0.000450f
#define GPUSSIM_MSSSIM_LPF_ROW2 \
    -0.002090f,  0.001316f,  0.006115f, -0.020867f, -0.047149f, -0.020867f,  0.006115f,  0.001316f, -0.002090f
#define GPUSSIM_MSSSIM_LPF_ROW3 \
     0.007132f, -0.004490f, -0.020867f,  0.071207f,  0.160885f,  0.071207f, -0.020867f, -0.004490f,  0.007132f
#define GPUSSIM_MSSSIM_LPF_ROW4 \
     0.016114f, -0.010146f, -0.047149f,  0.160885f,  0.363505f,  0.160885f, -0.047149f, -0.010146f,  0.016114f
#define GPUSSIM_MSSSIM_LPF_TAPS \
    GPUSSIM_MSSSIM_LPF_ROW0, GPUSSIM_MSSSIM_LPF_ROW1, GPUSSIM_MSSSIM_LPF_ROW2, \
    GPUSSIM_MSSSIM_LPF_ROW3, GPUSSIM_MSSSIM_LPF_ROW4, GPUSSIM_MSSSIM_LPF_ROW3, \
    GPUSSIM_MSSSIM_LPF_ROW2, GPUSSIM_MSSSIM_LPF_ROW1, GPUSSIM_MSSSIM_LPF_ROW0
#define GPUSSIM_MSSSIM_LPF_LEN 9

#define GPUSSIM_MSSSIM_SCALES 5
/* Exponents, float literals widened to double by the combine. */
#define GPUSSIM_MSSSIM_ALPHA 0.0f, 0.0f, 0.0f, 0.0f, 0.1333f
#define GPUSSIM_MSSSIM_BETA  0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f
#define GPUSSIM_MSSSIM_GAMMA 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f

/* SSIM constants in float: C1 = (K1*L)^2, C2 = (K2*L)^2, C3 = C2/2. */
#define GPUSSIM_SSIM_K1 0.01f
#define GPUSSIM_SSIM_K2 0.03f
#define GPUSSIM_SSIM_L  255

/* ANSNR filters: integer weights; the coefficients are (float)(w / 16.0) and
 * (float)(w / 571.0), computed in double and rounded to float. */
#define GPUSSIM_ANSNR_REF_WEIGHTS 1, 2, 1, 2, 4, 2, 1, 2, 1
#define GPUSSIM_ANSNR_REF_DIV 16.0
#define GPUSSIM_ANSNR_REF_LEN 3
#define GPUSSIM_ANSNR_DIS_WEIGHTS \
     2,  7,  12,  7,  2, \
     7, 31,  52, 31,  7, \
    12, 52, 127, 52, 12, \
     7, 31,  52, 31,  7, \
     2,  7,  12,  7,  2
#define GPUSSIM_ANSNR_DIS_DIV 571.0
#define GPUSSIM_ANSNR_DIS_LEN 5
/* One coefficient as the reference stores it: the double quotient w / div
 * rounded to float (spec §3.2). Every backend derives its taps with this. */
#define GPUSSIM_ANSNR_COEF(w, div) ((float)((w) / (div)))

/* Integer SSIM 9-tap kernel, sum 256. */
#define GPUSSIM_ISSIM_TAPS 2, 9, 28, 55, 68, 55, 28, 9, 2
#define GPUSSIM_ISSIM_LEN 9
/* Integer SSIM constants (spec §4.5): K1, K2 in double, and the bases
 * (2^bd - 1)^2 * K^2 the terms scale by the window weight, spelled as the
 * reference spells them (the product of the K's folds to one double). */
#define GPUSSIM_ISSIM_K1 0.01
#define GPUSSIM_ISSIM_K2 0.03
#define GPUSSIM_ISSIM_C1BASE(samplemax) \
    ((double)(samplemax) * (samplemax) * (GPUSSIM_ISSIM_K1 * GPUSSIM_ISSIM_K1))
#define GPUSSIM_ISSIM_C2BASE(samplemax) \
    ((double)(samplemax) * (samplemax) * (GPUSSIM_ISSIM_K2 * GPUSSIM_ISSIM_K2))

#endif /* GPUSSIM_METRIC_TABLES_H */
