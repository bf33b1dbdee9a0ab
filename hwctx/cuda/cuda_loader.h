/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The CUDA driver API, loaded at run time from libcuda.so.1 so that
 * libgpussim has no link-time dependency on the CUDA toolkit or driver: a
 * build with the CUDA backend still runs (CPU only) on machines without an
 * NVIDIA driver.
 *
 * Only the types and entry points the backend uses are declared; their
 * layouts and values are the driver ABI's (cuda.h, CUDA 12/13).
 */
#ifndef GPUSSIM_CUDA_LOADER_H
#define GPUSSIM_CUDA_LOADER_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;

#define CUDA_SUCCESS 0
#define CUDA_ERROR_NOT_READY 600
#define CU_STREAM_NON_BLOCKING 0x1
#define CU_EVENT_DEFAULT 0x0
#define CU_EVENT_BLOCKING_SYNC 0x1
#define CU_EVENT_DISABLE_TIMING 0x2
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_STREAM_CAPTURE_MODE_THREAD_LOCAL 1
#define CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT 9

struct gpussim_cuda_api {
    void *lib;
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
    CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
    CUresult (*cuDeviceGetAttribute)(int *v, int attrib, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);
    CUresult (*cuCtxPushCurrent)(CUcontext ctx);
    CUresult (*cuCtxPopCurrent)(CUcontext *ctx);
    CUresult (*cuCtxGetDevice)(CUdevice *dev);
    /* bench/bench_gpu.c only (HIP: NULL) */
    CUresult (*cuMemGetInfo)(size_t *free_bytes, size_t *total_bytes);
    CUresult (*cuMemAlloc)(CUdeviceptr *p, size_t bytes);
    CUresult (*cuMemFree)(CUdeviceptr p);
    CUresult (*cuMemAllocHost)(void **p, size_t bytes);
    CUresult (*cuMemFreeHost)(void *p);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
    CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t bytes, CUstream s);
    CUresult (*cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t bytes, CUstream s);
    /* tests/parity/test_cuda_frames.c only (HIP: NULL) */
    CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char v, size_t n, CUstream s);
    CUresult (*cuStreamCreate)(CUstream *s, unsigned flags);
    CUresult (*cuStreamDestroy)(CUstream s);
    CUresult (*cuStreamSynchronize)(CUstream s);
    CUresult (*cuEventCreate)(CUevent *e, unsigned flags);
    CUresult (*cuEventDestroy)(CUevent e);
    CUresult (*cuEventRecord)(CUevent e, CUstream s);
    /* CUDA only (HIP: NULL): orders our stream after an adopted stream's work */
    CUresult (*cuStreamWaitEvent)(CUstream s, CUevent e, unsigned flags);
    CUresult (*cuEventQuery)(CUevent e);
    CUresult (*cuEventSynchronize)(CUevent e);
    CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);
    CUresult (*cuModuleLoadData)(CUmodule *m, const void *image);
    CUresult (*cuModuleUnload)(CUmodule m);
    CUresult (*cuModuleGetFunction)(CUfunction *f, CUmodule m, const char *name);
    /* optional (NULL: not set; HIP: NULL): a hint */
    CUresult (*cuFuncSetAttribute)(CUfunction f, int attrib, int value);
    CUresult (*cuLaunchKernel)(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned shmem, CUstream s, void **params,
                               void **extra);
    CUresult (*cuGetErrorName)(CUresult err, const char **name);
    /* CUDA graphs (optional: NULL on drivers without them) */
    CUresult (*cuStreamBeginCapture)(CUstream s, int mode);
    CUresult (*cuStreamEndCapture)(CUstream s, CUgraph *g);
    CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *e, CUgraph g, unsigned long long flags);
    CUresult (*cuGraphLaunch)(CUgraphExec e, CUstream s);
    CUresult (*cuGraphExecDestroy)(CUgraphExec e);
    CUresult (*cuGraphDestroy)(CUgraph g);
    /* stream priorities (optional; HIP: NULL): a graph's critical branch */
    CUresult (*cuCtxGetStreamPriorityRange)(int *least, int *greatest);
    CUresult (*cuStreamCreateWithPriority)(CUstream *s, unsigned flags, int priority);
};

/* Loads libcuda.so.1 and resolves every entry point; the table is shared by
 * all contexts and never unloaded (loading is idempotent and thread-safe).
 * Returns NULL when the driver is absent or too old. */
const struct gpussim_cuda_api *gpussim_cuda_load(void);

/* Test hook, not part of the public API: contexts created after this call
 * use api instead of the driver's table (NULL restores the driver's). A test
 * wraps the driver's entry points with it to inject failures
 * (tests/parity/test_cuda_faults.c). */
void gpussim_cuda_set_api_for_tests(const struct gpussim_cuda_api *api);

#endif /* GPUSSIM_CUDA_LOADER_H */
