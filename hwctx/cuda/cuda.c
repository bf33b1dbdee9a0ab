/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The CUDA backend: the GPU frame plan (hwctx/gpu/gpu_plan.c) with
 *  - the CUDA driver, loaded at run time (hwctx/cuda/cuda_loader.c);
 *  - the kernels built by nvcc into a fatbin embedded at build time
 *    (kernels/cuda/kernels_fatbin.c);
 *  - an adopted device (struct gpussim_cuda_device, e.g. FFmpeg's
 *    AVCUDADeviceContext: its CUcontext, and the CUstream its pictures are
 *    written on) and CUDA-memory pictures, read in place.
 */
#include <errno.h>
#include <stdint.h>

#include "gpussim/gpussim_cuda.h"
#include "hwctx/gpu/gpu_plan.h"

/* kernels/cuda/kernels_fatbin.c (generated at build time) */
extern const unsigned char gpussim_cuda_fatbin[];

static int cuda_adopt_device(const struct gpussim_config *cfg, CUcontext *ctx, CUstream *producer)
{
    const struct gpussim_cuda_device *hw = cfg->params.hw_device;
    if (!hw->cu_context) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "cuda: hw_device has no CUcontext");
        return -EINVAL;
    }
    *ctx = hw->cu_context;
    *producer = hw->cu_stream;
    return 0;
}

/* CUDA-memory pictures are read in place; they were written on the
 * producer's stream (the plan orders the frame after that work when the
 * device is adopted). */
static int cuda_read_in_place(const struct gpussim_config *cfg, void **state,
                              const struct gpussim_picture *pic, uint64_t src[GPUSSIM_MAX_PLANES],
                              int64_t pitch[GPUSSIM_MAX_PLANES])
{
    (void)state;
    for (int sp = 0; sp < cfg->plan.nb_pic_planes; sp++) {
        src[sp] = (uint64_t)(uintptr_t)pic->data[sp];
        pitch[sp] = (int64_t)pic->stride[sp];
    }
    return 1;
}

static const struct gpu_plan_target cuda_target = {
    .type = GPUSSIM_BACKEND_CUDA,
    .runtime = "the CUDA driver (libcuda.so.1)",
    .load = gpussim_cuda_load,
    .image = gpussim_cuda_fatbin,
    .adopt_device = cuda_adopt_device,
    .device_memory = GPUSSIM_MEMORY_CUDA,
    .device_memory_name = "CUDA",
    .import_picture = cuda_read_in_place,
};

static int cuda_probe(const struct gpussim_config *cfg)
{
    return gpussim_gpu_plan_probe(&cuda_target, cfg);
}

static int cuda_init(const struct gpussim_config *cfg, void **ppriv, int *nb_slots)
{
    return gpussim_gpu_plan_init(&cuda_target, cfg, ppriv, nb_slots);
}

const struct gpussim_backend gpussim_backend_cuda = {
    .probe = cuda_probe,
    .init = cuda_init,
    .uninit = gpussim_gpu_plan_uninit,
    .submit = gpussim_gpu_plan_submit,
    .wait = gpussim_gpu_plan_wait,
    .submit_multi = gpussim_gpu_plan_submit_multi,
    .wait_multi = gpussim_gpu_plan_wait_multi,
    .device_time_ms = gpussim_gpu_plan_device_time_ms,
};
