/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The one translation unit of the OpenCL C kernels: compiled offline to the
 * SPIR-V module that the Level Zero backend embeds, and built from source by
 * the PoCL tests. Mirrors kernels/c file for file.
 */
#include "convert.cl"
#include "decimate.cl"
#include "ssim_window.cl"
#include "ansnr.cl"
#include "issim.cl"
