/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* The OpenCL driver of the Level Zero frame plan; see opencl_ops.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl_ops.h"
#include "testutil.h"

#ifndef GPUSSIM_SRCDIR
#define GPUSSIM_SRCDIR "."
#endif

static int cl_alloc(void *opaque, size_t size, void **buf)
{
    struct cl_env *e = opaque;
    cl_int st;
    cl_mem m = clCreateBuffer(e->ctx, CL_MEM_READ_WRITE, size, NULL, &st);
    if (st != CL_SUCCESS)
        return -ENOMEM;
    *buf = m;
    return 0;
}

static void cl_free(void *opaque, void *buf)
{
    (void)opaque;
    clReleaseMemObject((cl_mem)buf);
}

static int cl_host_alloc(void *opaque, size_t size, void **ptr)
{
    (void)opaque;
    *ptr = malloc(size ? size : 1);
    return *ptr ? 0 : -ENOMEM;
}

static void cl_host_free(void *opaque, void *ptr)
{
    (void)opaque;
    free(ptr);
}

static int cl_upload(void *opaque, int slot, void *buf, const void *host, size_t size)
{
    struct cl_env *e = opaque;
    (void)slot;
    return clEnqueueWriteBuffer(e->queue, (cl_mem)buf, CL_FALSE, 0, size, host, 0, NULL, NULL) ==
                   CL_SUCCESS ? 0 : -EIO;
}

static int cl_download(void *opaque, int slot, void *host, void *buf, size_t size)
{
    struct cl_env *e = opaque;
    (void)slot;
    return clEnqueueReadBuffer(e->queue, (cl_mem)buf, CL_FALSE, 0, size, host, 0, NULL, NULL) ==
                   CL_SUCCESS ? 0 : -EIO;
}

static int cl_launch(void *opaque, int slot, enum ze_kernel_id k, const size_t global[2],
                     const size_t local[2], int nb_args, const struct ze_arg *args)
{
    struct cl_env *e = opaque;
    cl_kernel kr = e->kernels[k];
    (void)slot;
    for (int i = 0; i < nb_args; i++) {
        const struct ze_arg *a = &args[i];
        cl_int st;
        switch (a->kind) {
        case ZE_ARG_BUF: { cl_mem m = a->v.buf; st = clSetKernelArg(kr, i, sizeof(m), &m); break; }
        case ZE_ARG_I32: st = clSetKernelArg(kr, i, 4, &a->v.i32); break;
        case ZE_ARG_U32: st = clSetKernelArg(kr, i, 4, &a->v.u32); break;
        case ZE_ARG_I64: st = clSetKernelArg(kr, i, 8, &a->v.i64); break;
        case ZE_ARG_U64: st = clSetKernelArg(kr, i, 8, &a->v.u64); break;
        case ZE_ARG_F32: st = clSetKernelArg(kr, i, 4, &a->v.f32); break;
        case ZE_ARG_F64: st = clSetKernelArg(kr, i, 8, &a->v.f64); break;
        default: st = CL_INVALID_VALUE;
        }
        if (st != CL_SUCCESS) {
            fprintf(stderr, "clSetKernelArg(%s, %d) = %d\n", gpussim_ze_kernel_names[k], i, st);
            return -EINVAL;
        }
    }
    const cl_int st = clEnqueueNDRangeKernel(e->queue, kr, 2, NULL, global, local, 0, NULL, NULL);
    if (st != CL_SUCCESS) {
        fprintf(stderr, "clEnqueueNDRangeKernel(%s) = %d\n", gpussim_ze_kernel_names[k], st);
        return -EIO;
    }
    return 0;
}

struct ze_plan_ops cl_ops(struct cl_env *e)
{
    return (struct ze_plan_ops){ .opaque = e, .alloc = cl_alloc, .free = cl_free,
                                 .host_alloc = cl_host_alloc, .host_free = cl_host_free,
                                 .upload = cl_upload, .download = cl_download, .launch = cl_launch };
}

/* 0 ready, TEST_SKIP (no platform / device / fp64), -1 error. */
int cl_setup(struct cl_env *e)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS || !np) {
        printf("SKIP: no OpenCL platform (install pocl-opencl-icd)\n");
        return TEST_SKIP;
    }
    for (cl_uint i = 0; i < np && !e->device; i++) {
        cl_device_id devs[8];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 8, devs, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint j = 0; j < nd; j++) {
            char ext[8192] = "";
            clGetDeviceInfo(devs[j], CL_DEVICE_EXTENSIONS, sizeof(ext) - 1, ext, NULL);
            clGetDeviceInfo(devs[j], CL_DEVICE_NAME, sizeof(e->device_name) - 1, e->device_name, NULL);
            if (!strstr(ext, "cl_khr_fp64")) {
                printf("note: OpenCL device '%s' has no cl_khr_fp64; not usable\n", e->device_name);
                continue;
            }
            e->platform = plats[i];
            e->device = devs[j];
            break;
        }
    }
    if (!e->device) {
        printf("SKIP: no OpenCL device with cl_khr_fp64\n");
        return TEST_SKIP;
    }

    cl_int st;
    e->ctx = clCreateContext(NULL, 1, &e->device, NULL, NULL, &st);
    if (st != CL_SUCCESS)
        return fprintf(stderr, "clCreateContext = %d\n", st), -1;
    e->queue = clCreateCommandQueue(e->ctx, e->device, 0, &st); /* in order */
    if (st != CL_SUCCESS)
        return fprintf(stderr, "clCreateCommandQueue = %d\n", st), -1;

    const char *srcdir = getenv("GPUSSIM_SRCDIR");
    if (!srcdir || !*srcdir)
        srcdir = GPUSSIM_SRCDIR;
    /* the very file the SPIR-V module is built from */
    const char *source = "#include \"kernels.cl\"\n";
    char opts[4096];
    snprintf(opts, sizeof(opts), "%s -I%s/kernels/ze -I%s/src", ZE_PLAN_BUILD_OPTIONS, srcdir,
             srcdir);
    e->program = clCreateProgramWithSource(e->ctx, 1, &source, NULL, &st);
    if (st != CL_SUCCESS)
        return fprintf(stderr, "clCreateProgramWithSource = %d\n", st), -1;
    st = clBuildProgram(e->program, 1, &e->device, opts, NULL, NULL);
    if (st != CL_SUCCESS) {
        size_t len = 0;
        clGetProgramBuildInfo(e->program, e->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
        char *log = calloc(1, len + 1);
        if (log)
            clGetProgramBuildInfo(e->program, e->device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
        fprintf(stderr, "clBuildProgram(%s) = %d:\n%s\n", opts, st, log ? log : "");
        free(log);
        return -1;
    }
    for (int k = 0; k < ZE_K_COUNT; k++) {
        e->kernels[k] = clCreateKernel(e->program, gpussim_ze_kernel_names[k], &st);
        if (st != CL_SUCCESS)
            return fprintf(stderr, "clCreateKernel(%s) = %d\n", gpussim_ze_kernel_names[k], st), -1;
    }
    return 0;
}

void cl_teardown(struct cl_env *e)
{
    for (int k = 0; k < ZE_K_COUNT; k++)
        if (e->kernels[k])
            clReleaseKernel(e->kernels[k]);
    if (e->program)
        clReleaseProgram(e->program);
    if (e->queue)
        clReleaseCommandQueue(e->queue);
    if (e->ctx)
        clReleaseContext(e->ctx);
}
