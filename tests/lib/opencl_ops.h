/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The Level Zero backend's frame plan (hwctx/ze/ze_plan.h) driven through
 * OpenCL: its primitive operations (alloc, upload, download, launch) on
 * an in-order queue, and the kernels of kernels/ze/kernels.cl built from
 * source. Shared by tests/parity/test_opencl_kernels.c and tests/unit/test_stages.c
 * (PoCL on CI).
 */
#ifndef GPUSSIM_TESTS_OPENCL_OPS_H
#define GPUSSIM_TESTS_OPENCL_OPS_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "hwctx/ze/ze_plan.h"

struct cl_env {
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernels[ZE_K_COUNT];
    char device_name[256];
};

/* 0 ready, TEST_SKIP (no platform / device / fp64; printed), -1 error. */
int cl_setup(struct cl_env *e);
void cl_teardown(struct cl_env *e);
struct ze_plan_ops cl_ops(struct cl_env *e);

#endif /* GPUSSIM_TESTS_OPENCL_OPS_H */
