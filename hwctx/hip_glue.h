/*
 * HIP (AMD ROCm) driver glue: the HIP runtime loaded at run time, device
 * selection, the kernel module (the CUDA kernels' source built by hipcc for
 * several gfx targets and embedded), pinned staging for host frames, and
 * zero-copy import of VAAPI frames exported as DRM PRIME dma-bufs.
 *
 * Status: compiled (CI, Debian's hipcc/libamdhip64-dev), never run on AMD
 * hardware. It is not registered as a backend yet: the frame plan that
 * launches the shared CUDA/HIP kernels lives in hwctx/cuda.c. The plan is
 * written against a CUDA-driver-API table (hwctx/cuda_loader.h), and
 * hwctx/hip_cuda_api.c fills that table from HIP (HIP's module API matches
 * the driver API call for call); what remains is for hwctx/cuda.c to take
 * the table, module image and backend identity as parameters, so that a
 * gpussim_backend_hip = that plan + this table + the dma-buf import below.
 */
#ifndef GPUSSIM_HIP_GLUE_H
#define GPUSSIM_HIP_GLUE_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>

#include "internal.h"

/* The runtime's entry points, typed from HIP's own declarations. */
#define HIP_FUNCS(X)                                                                               \
    X(hipInit) X(hipGetDeviceCount) X(hipGetDeviceProperties) X(hipSetDevice)                      \
    X(hipGetErrorName) X(hipModuleLoadData) X(hipModuleUnload) X(hipModuleGetFunction)             \
    X(hipModuleLaunchKernel) X(hipMalloc) X(hipFree) X(hipHostMalloc) X(hipHostFree)               \
    X(hipMemcpyHtoDAsync) X(hipMemcpyDtoHAsync) X(hipStreamCreateWithFlags) X(hipStreamDestroy)    \
    X(hipStreamSynchronize) X(hipEventCreateWithFlags) X(hipEventRecord) X(hipEventQuery)          \
    X(hipEventSynchronize) X(hipEventElapsedTime) X(hipEventDestroy) X(hipImportExternalMemory)    \
    X(hipExternalMemoryGetMappedBuffer) X(hipDestroyExternalMemory)                               \
    /* for the CUDA-driver-API view (hip_cuda_api.c) */                                            \
    X(hipDeviceGet) X(hipDeviceGetName) X(hipDeviceGetAttribute) X(hipGetDevice)                  \
    X(hipMemGetInfo) X(hipMemcpyHtoD) X(hipMemsetD8Async)

struct gpussim_hip_api {
    void *lib;
#define HIP_FN_FIELD(name) __typeof__(&name) name;
    HIP_FUNCS(HIP_FN_FIELD)
#undef HIP_FN_FIELD
};

struct gpussim_hip_device {
    struct gpussim_hip_api api;
    int index;
    char name[256];
    char arch[256]; /* gcnArchName, e.g. "gfx90a:sramecc+:xnack-" */
    hipStream_t stream;
    hipModule_t module;
};

/* Loads libamdhip64 (ROCm 6 or 5). -ENODEV when absent. */
int gpussim_hip_load(struct gpussim_hip_api *api);
void gpussim_hip_unload(struct gpussim_hip_api *api);

/* Logs a failed call; maps it to an errno value. */
int gpussim_hip_check(const struct gpussim_config *cfg, const struct gpussim_hip_api *api,
                      hipError_t r, const char *what);

/* Quiet availability check for AUTO: 0 or -ENODEV. */
int gpussim_hip_probe(const struct gpussim_config *cfg);

/* Opens device params.device: loads the runtime, selects the device, creates
 * a non-blocking stream and loads the embedded module (a device whose
 * architecture is not in the build gets an error naming both). */
int gpussim_hip_open(struct gpussim_hip_device *d, const struct gpussim_config *cfg,
                     const void *image, const char *image_archs);
void gpussim_hip_close(struct gpussim_hip_device *d);

/* One imported dma-buf. */
struct gpussim_hip_import {
    hipExternalMemory_t ext;
    void *ptr;
};

/* Imports the dma-buf planes of a picture for the kernels: checks the
 * modifier (linear only; the error names the modifier) and the plane
 * bounds, imports each distinct fd once, and returns per picture plane the
 * device pointer of the plane's first byte and its pitch. */
int gpussim_hip_import_picture(struct gpussim_hip_device *d, const struct gpussim_config *cfg,
                               const struct gpussim_picture *pic,
                               struct gpussim_hip_import imports[3], int *nb_imports,
                               void *plane_ptr[3], int64_t plane_pitch[3]);
/* Releases imports after the frame's work has completed. */
void gpussim_hip_release_imports(struct gpussim_hip_device *d, struct gpussim_hip_import *imports,
                                 int *nb_imports);

/* Host frames: copies the picture planes compactly into pinned staging and
 * enqueues their upload; returns the device pointer and pitch per plane.
 * staging/dev are sized by gpussim_hip_staging_size(). */
size_t gpussim_hip_staging_size(const struct gpussim_config *cfg);
int gpussim_hip_upload_picture(struct gpussim_hip_device *d, const struct gpussim_config *cfg,
                               const struct gpussim_picture *pic, uint8_t *staging, void *dev,
                               void *plane_ptr[3], int64_t plane_pitch[3]);

#endif /* GPUSSIM_HIP_GLUE_H */
