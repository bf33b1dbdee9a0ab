/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * HIP (AMD ROCm) driver glue: the HIP runtime loaded at run time and
 * zero-copy import of VAAPI frames exported as DRM PRIME dma-bufs. The
 * backend (hwctx/hip/hip.c) is the GPU frame plan shared with CUDA (hwctx/gpu/gpu_plan.c)
 * driven through HIP presented as the CUDA driver API (hwctx/hip/hip_cuda_api.c);
 * device selection, host-frame upload and launches are the plan's.
 *
 * Status: compiled and linked (CI, Debian's hipcc/libamdhip64-dev), never
 * run on AMD hardware.
 */
#ifndef GPUSSIM_HIP_GLUE_H
#define GPUSSIM_HIP_GLUE_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

#include "src/backend.h"

/* The runtime's entry points, typed from HIP's own declarations. */
#define HIP_FUNCS(X)                                                                               \
    X(hipInit) X(hipGetDeviceCount) X(hipSetDevice) X(hipGetErrorName) X(hipModuleLoadData)        \
    X(hipModuleUnload) X(hipModuleGetFunction) X(hipModuleLaunchKernel) X(hipMalloc) X(hipFree)    \
    X(hipHostMalloc) X(hipHostFree) X(hipMemcpyHtoDAsync) X(hipMemcpyDtoHAsync)                    \
    X(hipStreamCreateWithFlags) X(hipStreamDestroy) X(hipStreamSynchronize)                        \
    X(hipEventCreateWithFlags) X(hipEventRecord) X(hipEventQuery) X(hipEventSynchronize)           \
    X(hipEventElapsedTime) X(hipEventDestroy) X(hipImportExternalMemory)                           \
    X(hipExternalMemoryGetMappedBuffer) X(hipDestroyExternalMemory)                                \
    /* for the CUDA-driver-API view (hip_cuda_api.c) */                                            \
    X(hipDeviceGet) X(hipDeviceGetName) X(hipDeviceGetAttribute) X(hipGetDevice) X(hipMemcpyHtoD)

struct gpussim_hip_api {
    void *lib;
#define HIP_FN_FIELD(name) __typeof__(&name) name;
    HIP_FUNCS(HIP_FN_FIELD)
#undef HIP_FN_FIELD
};

/* Loads libamdhip64 (ROCm 6 or 5). -ENODEV when absent. */
int gpussim_hip_load(struct gpussim_hip_api *api);

/* hip_cuda_api.c: HIP's functions in the shape of the CUDA driver-API
 * table of hwctx/cuda/cuda_loader.h, loaded once (quietly), never unloaded; NULL
 * when libamdhip64 is absent. gpussim_hip_runtime() is the HIP table under
 * it. */
struct gpussim_cuda_api;
const struct gpussim_cuda_api *gpussim_hip_as_cuda_api(void);
const struct gpussim_hip_api *gpussim_hip_runtime(void);

/* Logs a failed call; maps it to an errno value. */
int gpussim_hip_check(const struct gpussim_config *cfg, const struct gpussim_hip_api *api,
                      hipError_t r, const char *what);

/* One imported dma-buf. */
struct gpussim_hip_import {
    hipExternalMemory_t ext;
    void *ptr;
};

/* Imports the dma-buf planes of a picture for the kernels: checks the
 * modifier (linear only; the error names the modifier and points to the
 * Vulkan backend) and the plane bounds, imports each distinct fd once
 * (appending to imports[*nb_imports], room for 3 more), and returns per
 * picture plane the device pointer of the plane's first byte and its pitch.
 * On failure nothing is left imported by this call. */
int gpussim_hip_import_picture(const struct gpussim_hip_api *api, const struct gpussim_config *cfg,
                               const struct gpussim_picture *pic,
                               struct gpussim_hip_import *imports, int *nb_imports,
                               void *plane_ptr[3], int64_t plane_pitch[3]);
/* Releases imports after the frame's work has completed. */
void gpussim_hip_release_imports(const struct gpussim_hip_api *api,
                                 struct gpussim_hip_import *imports, int *nb_imports);

#endif /* GPUSSIM_HIP_GLUE_H */
