/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Run-time loader of the CUDA driver API (see cuda_loader.h). The versioned
 * symbol names (_v2) are the ones cuda.h maps the plain names to; the
 * driver keeps exporting them for binary compatibility.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include "cuda_loader.h"

static struct gpussim_cuda_api cuda_api;
static int cuda_api_ok;
/* test hook (tests/test_cuda_faults.c): a table that replaces the driver's */
static const struct gpussim_cuda_api *_Atomic cuda_api_override;
static pthread_once_t cuda_api_once = PTHREAD_ONCE_INIT;

static int load_symbol(void *lib, void **dst, const char *name, const char *fallback)
{
    *dst = dlsym(lib, name);
    if (!*dst && fallback)
        *dst = dlsym(lib, fallback);
    return *dst ? 0 : -1;
}

static void cuda_load_once(void)
{
    struct gpussim_cuda_api *a = &cuda_api;
    a->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!a->lib)
        return;
    int bad = 0;
#define SYM(field, name, fb) bad |= load_symbol(a->lib, (void **)&a->field, name, fb)
    SYM(cuInit, "cuInit", NULL);
    SYM(cuDeviceGetCount, "cuDeviceGetCount", NULL);
    SYM(cuDeviceGet, "cuDeviceGet", NULL);
    SYM(cuDeviceGetName, "cuDeviceGetName", NULL);
    SYM(cuDeviceGetAttribute, "cuDeviceGetAttribute", NULL);
    SYM(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL);
    SYM(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease");
    SYM(cuCtxPushCurrent, "cuCtxPushCurrent_v2", NULL);
    SYM(cuCtxPopCurrent, "cuCtxPopCurrent_v2", NULL);
    SYM(cuCtxGetDevice, "cuCtxGetDevice", NULL);
    SYM(cuMemGetInfo, "cuMemGetInfo_v2", NULL);
    SYM(cuMemAlloc, "cuMemAlloc_v2", NULL);
    SYM(cuMemFree, "cuMemFree_v2", NULL);
    SYM(cuMemAllocHost, "cuMemAllocHost_v2", NULL);
    SYM(cuMemFreeHost, "cuMemFreeHost", NULL);
    SYM(cuMemcpyHtoD, "cuMemcpyHtoD_v2", NULL);
    SYM(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", NULL);
    SYM(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", NULL);
    SYM(cuMemsetD8Async, "cuMemsetD8Async", NULL);
    SYM(cuStreamCreate, "cuStreamCreate", NULL);
    SYM(cuStreamDestroy, "cuStreamDestroy_v2", NULL);
    SYM(cuStreamSynchronize, "cuStreamSynchronize", NULL);
    SYM(cuEventCreate, "cuEventCreate", NULL);
    SYM(cuEventDestroy, "cuEventDestroy_v2", NULL);
    SYM(cuEventRecord, "cuEventRecord", NULL);
    SYM(cuStreamWaitEvent, "cuStreamWaitEvent", NULL);
    SYM(cuEventQuery, "cuEventQuery", NULL);
    SYM(cuEventSynchronize, "cuEventSynchronize", NULL);
    SYM(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime");
    SYM(cuModuleLoadData, "cuModuleLoadData", NULL);
    SYM(cuModuleUnload, "cuModuleUnload", NULL);
    SYM(cuModuleGetFunction, "cuModuleGetFunction", NULL);
    SYM(cuLaunchKernel, "cuLaunchKernel", NULL);
    SYM(cuGetErrorName, "cuGetErrorName", NULL);
    /* a hint (the preferred shared-memory carveout): its absence is harmless */
    load_symbol(a->lib, (void **)&a->cuFuncSetAttribute, "cuFuncSetAttribute", NULL);
    int no_graphs = 0;
#define OPT(field, name) no_graphs |= load_symbol(a->lib, (void **)&a->field, name, NULL)
    OPT(cuStreamBeginCapture, "cuStreamBeginCapture_v2");
    OPT(cuStreamEndCapture, "cuStreamEndCapture");
    OPT(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags");
    OPT(cuGraphLaunch, "cuGraphLaunch");
    OPT(cuGraphExecDestroy, "cuGraphExecDestroy");
    OPT(cuGraphDestroy, "cuGraphDestroy");
#undef OPT
    if (no_graphs)
        a->cuGraphLaunch = NULL; /* the backend then launches kernels one by one */
#undef SYM
    if (bad) {
        dlclose(a->lib);
        a->lib = NULL;
        return;
    }
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
