/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * gpussim CUDA kernels (driver-API loaded, no runtime API): the one translation
 * unit nvcc compiles into the module (hwctx/cuda/cuda.am) and hipcc builds for HIP
 * (kernels/hip/kernels.cpp). One file per stage of the frame plan (src/plan.h),
 * as kernels/c and kernels/ze: included below in the order the module was
 * always compiled in, so the compiled code does not depend on the split.
 *
 * Every per-element operation is the CPU reference's (the kernels/c files) in the
 * same float/double typing and order; the module is compiled with
 * --fmad=false (see hwctx/cuda/cuda.am) so no a*b+c becomes an FMA. Frame sums are
 * accumulated exactly (192-bit fixed point, struct gpussim_fx, fed by
 * error-free split sums per thread), which makes
 * them independent of the reduction order; the host then rounds them as the
 * reference's raster-order sums round (hwctx/gpu/gpu_plan.c, spec §5).
 *
 * Every kernel that reads a picture reads it in place through the frame
 * descriptor (8/16-bit, planar or interleaved, MSB-aligned: raw_sample()).
 * Kernels, in the order a frame runs them, and their files:
 *   ssim_decimate_box      decimate.cu     float_ssim decimation (spec §1.2)
 *   msssim_decimate_lpf_*  decimate.cu     MS-SSIM 9x9 pyramid step (spec §2.3)
 *   ssim_windows_*         ssim_window.cu  11x11 Gaussian windows -> per-block exact sums
 *                                          (spec §1.3-1.6)
 *   ansnr_rows             ansnr.cu        filtered planes -> per-row float sums (spec §3)
 *   issim_windows          issim.cu        integer SSIM -> per-block exact sums (spec §4)
 *   reduce_partials        reduce.cu       per-block partials -> the frame's result block
 * convert.cu reads and normalises the picture samples every one of them
 * loads (the plan's UNPACK and CONVERT, fused); common.cuh holds the taps,
 * the mirrors and the block reductions they share, exact_sums.h the exact
 * accumulation (also compiled on the host by tests/unit/test_exact_sums).
 * A ladder frame (one reference, several distorted pictures) runs the same
 * arithmetic through its own entry points: the decimations one picture per
 * blockIdx.z (_one), the window kernels a tile's reference moments once
 * and then a group of distorted pictures (_ladder), ANSNR's reference once
 * (_ref) and the distorted pictures against it (_dis).
 */
#include "gpu_compat.h"
#include "metric_tables.h"
#include "cuda_shared.h"

#include "common.cuh"
#include "convert.cu"
#include "decimate.cu"
#include "ssim_window.cu"
#include "ansnr.cu"
#include "issim.cu"
#include "reduce.cu"
