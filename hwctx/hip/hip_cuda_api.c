/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The HIP runtime presented as the CUDA driver API table of
 * hwctx/cuda/cuda_loader.h, so that the GPU frame plan (hwctx/gpu/gpu_plan.c)
 * can drive AMD GPUs unchanged: HIP's module API (hipModuleLoadData,
 * hipModuleGetFunction, hipModuleLaunchKernel, ...) matches the driver API
 * call for call, and the kernels are the same source (kernels/cuda through
 * gpu_compat.h, built by hipcc into an offload bundle).
 *
 * Each entry is a thin wrapper: pointer types (CUdeviceptr is an integer,
 * hipDeviceptr_t a pointer), the attribute enumeration, and the two calls
 * whose signatures differ (hipHostMalloc's flags, hipGetErrorName's return).
 * Status codes need no mapping: hipSuccess is 0 and hipErrorNotReady is 600,
 * CUDA's values. CUDA graphs are left NULL (the plan then launches kernel by
 * kernel), as are the entries only CUDA's adopted devices, kernel attributes,
 * or the benchmarks and tests use (cuStreamWaitEvent, cuFuncSetAttribute,
 * cuMemGetInfo, cuMemsetD8Async).
 *
 * The table is what the HIP backend (hwctx/hip/hip.c) hands to the plan;
 * compiled and linked, not run on AMD hardware.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "hwctx/cuda/cuda_loader.h"
#include "hip_glue.h"

static struct gpussim_hip_api hip_rt;
static struct gpussim_cuda_api hip_as_cuda;
static int hip_ok;
static pthread_once_t hip_once = PTHREAD_ONCE_INIT;

#define DPTR(p) ((void *)(uintptr_t)(p))

static CUresult w_init(unsigned flags) { return hip_rt.hipInit(flags); }
static CUresult w_count(int *n) { return hip_rt.hipGetDeviceCount(n); }
static CUresult w_device_get(CUdevice *d, int i) { return hip_rt.hipDeviceGet(d, i); }
static CUresult w_device_name(char *name, int len, CUdevice d)
{
    return hip_rt.hipDeviceGetName(name, len, d);
}

static CUresult w_device_attribute(int *v, int attrib, CUdevice d)
{
    hipDeviceAttribute_t a;
    switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: a = hipDeviceAttributeMultiprocessorCount; break;
    default: return hipErrorInvalidValue;
    }
    return hip_rt.hipDeviceGetAttribute(v, a, d);
}

/*
 * Contexts: HIP's context calls are deprecated; a HIP thread works on its
 * current device. The "primary context" of device d is the handle d + 1,
 * pushing it makes d current (remembering the previous device), popping
 * restores that device. CUDA's push/pop always pair in the plan.
 */
#define HIP_CTX_DEPTH 8
static _Thread_local int ctx_prev[HIP_CTX_DEPTH];
static _Thread_local int ctx_depth;

static CUresult w_ctx_retain(CUcontext *c, CUdevice d)
{
    *c = (CUcontext)(uintptr_t)(d + 1);
    return hipSuccess;
}
static CUresult w_ctx_release(CUdevice d)
{
    (void)d;
    return hipSuccess;
}
static CUresult w_ctx_push(CUcontext c)
{
    int cur = 0;
    if (ctx_depth == HIP_CTX_DEPTH)
        return hipErrorInvalidValue;
    const hipError_t r = hip_rt.hipGetDevice(&cur);
    if (r != hipSuccess)
        return r;
    ctx_prev[ctx_depth++] = cur;
    return hip_rt.hipSetDevice((int)(uintptr_t)c - 1);
}
static CUresult w_ctx_pop(CUcontext *c)
{
    int cur = 0;
    if (!ctx_depth)
        return hipErrorInvalidContext;
    hip_rt.hipGetDevice(&cur);
    if (c)
        *c = (CUcontext)(uintptr_t)(cur + 1);
    return hip_rt.hipSetDevice(ctx_prev[--ctx_depth]);
}
static CUresult w_ctx_device(CUdevice *d) { return hip_rt.hipGetDevice(d); }

static CUresult w_alloc(CUdeviceptr *p, size_t bytes)
{
    void *ptr = NULL;
    const hipError_t r = hip_rt.hipMalloc(&ptr, bytes);
    *p = (CUdeviceptr)(uintptr_t)ptr;
    return r;
}

static CUresult w_free(CUdeviceptr p) { return hip_rt.hipFree(DPTR(p)); }
static CUresult w_alloc_host(void **p, size_t bytes)
{
    return hip_rt.hipHostMalloc(p, bytes, hipHostMallocDefault);
}
static CUresult w_free_host(void *p) { return hip_rt.hipHostFree(p); }

static CUresult w_htod(CUdeviceptr dst, const void *src, size_t bytes)
{
    return hip_rt.hipMemcpyHtoD(DPTR(dst), (void *)(uintptr_t)src, bytes);
}

static CUresult w_htod_async(CUdeviceptr dst, const void *src, size_t bytes, CUstream s)
{
    return hip_rt.hipMemcpyHtoDAsync(DPTR(dst), (void *)(uintptr_t)src, bytes, (hipStream_t)s);
}

static CUresult w_dtoh_async(void *dst, CUdeviceptr src, size_t bytes, CUstream s)
{
    return hip_rt.hipMemcpyDtoHAsync(dst, DPTR(src), bytes, (hipStream_t)s);
}

/* CU_STREAM_NON_BLOCKING == hipStreamNonBlocking, CU_EVENT_BLOCKING_SYNC ==
 * hipEventBlockingSync (both 1) */
static CUresult w_stream_create(CUstream *s, unsigned flags)
{
    return hip_rt.hipStreamCreateWithFlags((hipStream_t *)s, flags);
}
static CUresult w_stream_destroy(CUstream s) { return hip_rt.hipStreamDestroy((hipStream_t)s); }
static CUresult w_stream_sync(CUstream s) { return hip_rt.hipStreamSynchronize((hipStream_t)s); }
static CUresult w_event_create(CUevent *e, unsigned flags)
{
    return hip_rt.hipEventCreateWithFlags((hipEvent_t *)e, flags);
}
static CUresult w_event_destroy(CUevent e) { return hip_rt.hipEventDestroy((hipEvent_t)e); }
static CUresult w_event_record(CUevent e, CUstream s)
{
    return hip_rt.hipEventRecord((hipEvent_t)e, (hipStream_t)s);
}
static CUresult w_event_query(CUevent e) { return hip_rt.hipEventQuery((hipEvent_t)e); }
static CUresult w_event_sync(CUevent e) { return hip_rt.hipEventSynchronize((hipEvent_t)e); }
static CUresult w_event_elapsed(float *ms, CUevent a, CUevent b)
{
    return hip_rt.hipEventElapsedTime(ms, (hipEvent_t)a, (hipEvent_t)b);
}
static CUresult w_module_load(CUmodule *m, const void *image)
{
    return hip_rt.hipModuleLoadData((hipModule_t *)m, image);
}
static CUresult w_module_unload(CUmodule m) { return hip_rt.hipModuleUnload((hipModule_t)m); }
static CUresult w_module_function(CUfunction *f, CUmodule m, const char *name)
{
    return hip_rt.hipModuleGetFunction((hipFunction_t *)f, (hipModule_t)m, name);
}

static CUresult w_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                         unsigned by, unsigned bz, unsigned shmem, CUstream s, void **params,
                         void **extra)
{
    return hip_rt.hipModuleLaunchKernel((hipFunction_t)f, gx, gy, gz, bx, by, bz, shmem,
                                        (hipStream_t)s, params, extra);
}

static CUresult w_error_name(CUresult err, const char **name)
{
    *name = hip_rt.hipGetErrorName((hipError_t)err);
    return hipSuccess;
}

static void hip_load_once(void)
{
    if (gpussim_hip_load(&hip_rt) < 0)
        return;
    struct gpussim_cuda_api *a = &hip_as_cuda;
    memset(a, 0, sizeof(*a));
    a->lib = hip_rt.lib;
    a->cuInit = w_init;
    a->cuDeviceGetCount = w_count;
    a->cuDeviceGet = w_device_get;
    a->cuDeviceGetName = w_device_name;
    a->cuDeviceGetAttribute = w_device_attribute;
    a->cuDevicePrimaryCtxRetain = w_ctx_retain;
    a->cuDevicePrimaryCtxRelease = w_ctx_release;
    a->cuCtxPushCurrent = w_ctx_push;
    a->cuCtxPopCurrent = w_ctx_pop;
    a->cuCtxGetDevice = w_ctx_device;
    a->cuMemAlloc = w_alloc;
    a->cuMemFree = w_free;
    a->cuMemAllocHost = w_alloc_host;
    a->cuMemFreeHost = w_free_host;
    a->cuMemcpyHtoD = w_htod;
    a->cuMemcpyHtoDAsync = w_htod_async;
    a->cuMemcpyDtoHAsync = w_dtoh_async;
    a->cuStreamCreate = w_stream_create;
    a->cuStreamDestroy = w_stream_destroy;
    a->cuStreamSynchronize = w_stream_sync;
    a->cuEventCreate = w_event_create;
    a->cuEventDestroy = w_event_destroy;
    a->cuEventRecord = w_event_record;
    a->cuEventQuery = w_event_query;
    a->cuEventSynchronize = w_event_sync;
    a->cuEventElapsedTime = w_event_elapsed;
    a->cuModuleLoadData = w_module_load;
    a->cuModuleUnload = w_module_unload;
    a->cuModuleGetFunction = w_module_function;
    a->cuLaunchKernel = w_launch;
    a->cuGetErrorName = w_error_name;
    hip_ok = 1;
}

const struct gpussim_cuda_api *gpussim_hip_as_cuda_api(void)
{
    pthread_once(&hip_once, hip_load_once);
    return hip_ok ? &hip_as_cuda : NULL;
}

const struct gpussim_hip_api *gpussim_hip_runtime(void)
{
    pthread_once(&hip_once, hip_load_once);
    return hip_ok ? &hip_rt : NULL;
}
