/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The HIP build of the CUDA kernels: one kernel source, two compilers.
 * kernels/cuda/gpu_compat.h maps the CUDA spellings onto HIP's; nothing in
 * the kernels assumes a 32-wide warp (AMD wavefronts are 64 wide): every
 * reduction goes through shared memory with block-wide barriers.
 *
 * Compiled by hipcc with -ffp-contract=off (HIP's default is "fast"),
 * -fhip-fp32-correctly-rounded-divide-sqrt and
 * -fno-gpu-flush-denormals-to-zero: the reference's float arithmetic, no
 * FMA contraction, IEEE division, denormals kept (see hwctx/hip/hip.am).
 */
#include "kernels.cu"
