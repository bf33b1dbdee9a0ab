/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * gpussim — CUDA interop types. Plain handles only: no CUDA header needed.
 *
 * Pass a struct gpussim_cuda_device as gpussim_params.hw_device to make the
 * CUDA backend run in an existing context (FFmpeg's AVCUDADeviceContext),
 * and submit pictures with memory = GPUSSIM_MEMORY_CUDA whose data[] hold
 * CUdeviceptr values (cast through uintptr_t) and stride[] the pitches.
 *
 * Ordering: the backend works on a non-blocking stream of its own. At
 * gpussim_submit() it records an event on cu_stream and waits for it on its
 * stream, so the metric reads a picture after every write queued on
 * cu_stream before the submit, and never delays later work on cu_stream
 * (decoding goes on while frames are scored). A picture must not be written
 * again until its result has been collected. Without hw_device, CUDA-memory
 * pictures must be complete when they are submitted.
 */
#ifndef GPUSSIM_GPUSSIM_CUDA_H
#define GPUSSIM_GPUSSIM_CUDA_H

#ifdef __cplusplus
extern "C" {
#endif

struct gpussim_cuda_device {
    void *cu_context; /**< CUcontext; must outlive the gpussim context */
    void *cu_stream;  /**< CUstream the pictures are written on (e.g. FFmpeg's);
                           NULL = the legacy default stream */
};

#ifdef __cplusplus
}
#endif

#endif /* GPUSSIM_GPUSSIM_CUDA_H */
