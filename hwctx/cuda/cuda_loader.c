/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Run-time loader of the CUDA driver API (see cuda_loader.h). The versioned
 * symbol names (_v2) are the ones cuda.h maps the plain names to; the
 * driver keeps exporting them for binary compatibility.
 */
#include <pthread.h>
#include <stddef.h>

#include "cuda_loader.h"
#include "src/dynload.h"

static struct gpussim_cuda_api cuda_api;
static int cuda_api_ok;
/* test hook (tests/parity/test_cuda_faults.c): a table that replaces the driver's */
static const struct gpussim_cuda_api *_Atomic cuda_api_override;
static pthread_once_t cuda_api_once = PTHREAD_ONCE_INIT;

static void cuda_load_once(void)
{
    static const char *const libs[] = { "libcuda.so.1", NULL };
    struct gpussim_cuda_api *a = &cuda_api;
    /* clang-format off */
#define SYM(field, name) { &a->field, name, NULL, 0 }
#define SYM_OR(field, name, fallback) { &a->field, name, fallback, 0 }
#define OPT(field, name) { &a->field, name, NULL, 1 }
    /* clang-format on */
    const struct gpussim_dynsym syms[] = {
        SYM(cuInit, "cuInit"),
        SYM(cuDeviceGetCount, "cuDeviceGetCount"),
        SYM(cuDeviceGet, "cuDeviceGet"),
        SYM(cuDeviceGetName, "cuDeviceGetName"),
        SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute"),
        SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
        SYM_OR(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",
               "cuDevicePrimaryCtxRelease"),
        SYM(cuCtxPushCurrent, "cuCtxPushCurrent_v2"),
        SYM(cuCtxPopCurrent, "cuCtxPopCurrent_v2"),
        SYM(cuCtxGetDevice, "cuCtxGetDevice"),
        SYM(cuMemGetInfo, "cuMemGetInfo_v2"),
        SYM(cuMemAlloc, "cuMemAlloc_v2"),
        SYM(cuMemFree, "cuMemFree_v2"),
        SYM(cuMemAllocHost, "cuMemAllocHost_v2"),
        SYM(cuMemFreeHost, "cuMemFreeHost"),
        SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
        SYM(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"),
        SYM(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
        SYM(cuMemsetD8Async, "cuMemsetD8Async"),
        SYM(cuStreamCreate, "cuStreamCreate"),
        SYM(cuStreamDestroy, "cuStreamDestroy_v2"),
        SYM(cuStreamSynchronize, "cuStreamSynchronize"),
        SYM(cuEventCreate, "cuEventCreate"),
        SYM(cuEventDestroy, "cuEventDestroy_v2"),
        SYM(cuEventRecord, "cuEventRecord"),
        SYM(cuStreamWaitEvent, "cuStreamWaitEvent"),
        SYM(cuEventQuery, "cuEventQuery"),
        SYM(cuEventSynchronize, "cuEventSynchronize"),
        SYM_OR(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
        SYM(cuModuleLoadData, "cuModuleLoadData"),
        SYM(cuModuleUnload, "cuModuleUnload"),
        SYM(cuModuleGetFunction, "cuModuleGetFunction"),
        SYM(cuLaunchKernel, "cuLaunchKernel"),
        SYM(cuGetErrorName, "cuGetErrorName"),
        /* a hint (the preferred shared-memory carveout): its absence is harmless */
        OPT(cuFuncSetAttribute, "cuFuncSetAttribute"),
        /* CUDA graphs: all or none (below) */
        OPT(cuStreamBeginCapture, "cuStreamBeginCapture_v2"),
        OPT(cuStreamEndCapture, "cuStreamEndCapture"),
        OPT(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags"),
        OPT(cuGraphLaunch, "cuGraphLaunch"),
        OPT(cuGraphExecDestroy, "cuGraphExecDestroy"),
        OPT(cuGraphDestroy, "cuGraphDestroy"),
        OPT(cuCtxGetStreamPriorityRange, "cuCtxGetStreamPriorityRange"),
        OPT(cuStreamCreateWithPriority, "cuStreamCreateWithPriority"),
    };
#undef SYM
#undef SYM_OR
#undef OPT
    a->lib = gpussim_dynload(libs, syms, (int)(sizeof(syms) / sizeof(*syms)), NULL, 0);
    if (!a->lib)
        return;
    if (!a->cuStreamBeginCapture || !a->cuStreamEndCapture || !a->cuGraphInstantiateWithFlags ||
        !a->cuGraphExecDestroy || !a->cuGraphDestroy)
        a->cuGraphLaunch = NULL; /* the backend then launches kernels one by one */
    cuda_api_ok = 1;
}

const struct gpussim_cuda_api *gpussim_cuda_load(void)
{
    const struct gpussim_cuda_api *override = cuda_api_override;
    if (override)
        return override;
    pthread_once(&cuda_api_once, cuda_load_once);
    return cuda_api_ok ? &cuda_api : NULL;
}

void gpussim_cuda_set_api_for_tests(const struct gpussim_cuda_api *api)
{
    cuda_api_override = api;
}
