/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Portability layer of the CUDA kernels, so that the HIP backend can build
 * the same source: kernel/device qualifiers, thread indices, barriers and
 * bit casts. Nothing here assumes a warp (or wavefront) size: reductions go
 * through shared memory with block-wide barriers.
 *
 * Exactness: the kernels spell the reference's float/double operations one
 * by one; they must be compiled without contraction (nvcc --fmad=false,
 * hipcc -ffp-contract=off) and with IEEE division and square root (nvcc's
 * defaults -prec-div=true -prec-sqrt=true -ftz=false; never
 * --use_fast_math).
 */
#ifndef GPUSSIM_GPU_COMPAT_H
#define GPUSSIM_GPU_COMPAT_H

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#endif

#include <stdint.h>

#if !defined(__CUDACC__) && !defined(__HIPCC__)
/* Host mode: the host's C++ compiler builds header-only device arithmetic
 * (exact_sums.h) for the unit tests. Only what that arithmetic uses. */
#include <math.h>
#include <string.h>
#define GPU_DEVICE static inline

static inline uint64_t gpu_double_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof(b));
    return b;
}

static inline double gpu_bits_double(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof(v));
    return v;
}

static inline float gpu_sqrt_rn(float v)
{
    return sqrtf(v);
}
#else
#define GPU_KERNEL extern "C" __global__
#define GPU_DEVICE static __device__ __forceinline__
#define GPU_CONSTANT __constant__
#define GPU_SYNC() __syncthreads()

#define GPU_TID_X ((int)threadIdx.x)
#define GPU_TID_Y ((int)threadIdx.y)
#define GPU_BID_X ((int)blockIdx.x)
#define GPU_BID_Y ((int)blockIdx.y)
#define GPU_BID_Z ((int)blockIdx.z)
#define GPU_BDIM_X ((int)blockDim.x)
#define GPU_BDIM_Y ((int)blockDim.y)
#define GPU_GDIM_X ((int)gridDim.x)
/* v of the lane d above, within aligned groups of 32 lanes (a 64-wide AMD
 * wavefront is two groups); every lane of the group takes part */
#if defined(__HIPCC__)
#define GPU_SHFL_DOWN32(v, d) __shfl_down((v), (d), 32)
#else
#define GPU_SHFL_DOWN32(v, d) __shfl_down_sync(0xffffffffu, (v), (d), 32)
#endif

GPU_DEVICE uint64_t gpu_double_bits(double v)
{
    return (uint64_t)__double_as_longlong(v);
}

GPU_DEVICE double gpu_bits_double(uint64_t b)
{
    return __longlong_as_double((long long)b);
}

GPU_DEVICE uint32_t gpu_float_bits(float v)
{
    return __float_as_uint(v);
}

GPU_DEVICE float gpu_bits_float(uint32_t b)
{
    return __uint_as_float(b);
}

GPU_DEVICE double gpu_double_from_words(uint32_t hi, uint32_t lo)
{
    return __hiloint2double((int)hi, (int)lo);
}

/* The float square root, correctly rounded. Equal to the reference's
 * (float)sqrt((double)v) for every float v: rounding the square root to
 * double (53 bits) and then to float (24) is innocuous, 53 >= 2 * 24 + 2
 * (tests/unit/test_exact_sums checks it on the host: every subnormal, every
 * float of [1/4, 4), every 61st other one). HIP keeps the reference's two
 * steps: its float square root's rounding depends on compiler options. */
GPU_DEVICE float gpu_sqrt_rn(float v)
{
#if defined(__HIPCC__)
    return (float)sqrt((double)v);
#else
    return __fsqrt_rn(v);
#endif
}
#endif /* device */

#endif /* GPUSSIM_GPU_COMPAT_H */
