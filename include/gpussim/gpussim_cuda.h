/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * gpussim — CUDA interop types. Plain handles only: no CUDA header needed.
 *
 * Pass a struct gpussim_cuda_device as gpussim_params.hw_device to make the
 * CUDA backend run in an existing context (FFmpeg's AVCUDADeviceContext),
 * and submit pictures with memory = GPUSSIM_MEMORY_CUDA whose data[] hold
 * CUdeviceptr values (cast through uintptr_t) and stride[] the pitches.
 */
#ifndef GPUSSIM_GPUSSIM_CUDA_H
#define GPUSSIM_GPUSSIM_CUDA_H

#ifdef __cplusplus
extern "C" {
#endif

struct gpussim_cuda_device {
    void *cu_context; /**< CUcontext; must outlive the gpussim context */
    void *cu_stream;  /**< CUstream to order work after (e.g. FFmpeg's); NULL = default stream */
};

#ifdef __cplusplus
}
#endif

#endif /* GPUSSIM_GPUSSIM_CUDA_H */
