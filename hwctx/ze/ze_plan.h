/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The frame plan of the OpenCL C kernels (kernels/ze/): which kernels run on
 * a frame, in which order, on which buffers, and how their partial sums
 * become struct gpussim_frame_sums.
 *
 * It is written against a small table of driver operations so that the same
 * plan runs on Level Zero (hwctx/ze/ze.c, the product) and on any OpenCL
 * platform (tests/parity/test_opencl_kernels.c, run on PoCL in CI). Everything but
 * the driver calls is therefore exercised where no Intel GPU exists.
 *
 * Operations are recorded per slot, in order; the driver must make each
 * operation see the results of the previous ones of that slot (an in-order
 * queue, or a barrier after every operation in a Level Zero command list).
 */
#ifndef GPUSSIM_ZE_PLAN_H
#define GPUSSIM_ZE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "src/backend.h"

/* The kernels of kernels/ze/kernels.cl, by entry-point name. */
enum ze_kernel_id {
    ZE_K_UNPACK_PLANE,
    ZE_K_CONVERT_TO_FLOAT,
    ZE_K_SSIM_DECIMATE_BOX,
    ZE_K_MSSSIM_DECIMATE_LPF,
    ZE_K_SSIM_HFILTER,
    ZE_K_SSIM_VFILTER_TERMS,
    ZE_K_ANSNR_FILTER,
    ZE_K_ANSNR_ROW_SUMS,
    ZE_K_ISSIM_HFILTER,
    ZE_K_ISSIM_VFILTER_TERMS,
    ZE_K_COUNT
};

extern const char *const gpussim_ze_kernel_names[ZE_K_COUNT];

/* Must equal GPUSSIM_ZE_REDUCE_WG of kernels/ze/common.h. */
#define ZE_PLAN_REDUCE_WG 128

/* Build options of the kernels, for every compiler (PoCL at run time, clang
 * offline): the reference's float division and sqrt are correctly rounded. */
#define ZE_PLAN_BUILD_OPTIONS "-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt"

enum ze_arg_kind { ZE_ARG_BUF, ZE_ARG_I32, ZE_ARG_U32, ZE_ARG_I64, ZE_ARG_U64, ZE_ARG_F32, ZE_ARG_F64 };

struct ze_arg {
    enum ze_arg_kind kind;
    union {
        void *buf; /* a handle returned by ops->alloc */
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint64_t u64;
        float f32;
        double f64;
    } v;
};

struct ze_plan_ops {
    void *opaque;
    /* Device buffer of `size` bytes; *buf is an opaque handle. */
    int (*alloc)(void *opaque, size_t size, void **buf);
    void (*free)(void *opaque, void *buf);
    /* Host memory the driver can copy to and from asynchronously. */
    int (*host_alloc)(void *opaque, size_t size, void **ptr);
    void (*host_free)(void *opaque, void *ptr);
    /* Records a copy host -> device (host memory from host_alloc). */
    int (*upload)(void *opaque, int slot, void *buf, const void *host, size_t size);
    /* Records a copy device -> host (host memory from host_alloc). */
    int (*download)(void *opaque, int slot, void *host, void *buf, size_t size);
    /* Records a kernel launch: global[] is a multiple of local[]. */
    int (*launch)(void *opaque, int slot, enum ze_kernel_id k, const size_t global[2],
                  const size_t local[2], int nb_args, const struct ze_arg *args);
};

/* Where one picture plane lives on the device: a buffer (imported dma-buf
 * or the plan's upload staging), the byte offset of the plane in it and its
 * pitch in bytes. */
struct ze_plane_src {
    void *buf;
    uint64_t offset;
    int64_t pitch;
};

typedef struct ZePlan ZePlan;

/* Allocates the buffers of nb_slots frames for cfg. */
int ze_plan_create(ZePlan **plan, const struct gpussim_config *cfg, const struct ze_plan_ops *ops,
                   int nb_slots);
void ze_plan_destroy(ZePlan **plan);

/* Records a frame whose pictures are in host memory: copies them into the
 * slot's staging memory (so the caller may reuse them at once), then
 * records the uploads and the kernels. */
int ze_plan_record_host(ZePlan *plan, int slot, const struct gpussim_picture *ref,
                        const struct gpussim_picture *dis);

/* Records a frame whose picture planes are already on the device:
 * ref[i] / dis[i] describe picture plane i (0 = luma, 1 = U or UV, 2 = V). */
int ze_plan_record_device(ZePlan *plan, int slot, const struct ze_plane_src ref[3],
                          const struct ze_plane_src dis[3]);

/* After the slot's work has completed: reduces the downloaded partials in
 * fixed order into *sums. */
void ze_plan_collect(ZePlan *plan, int slot, struct gpussim_frame_sums *sums);

#endif /* GPUSSIM_ZE_PLAN_H */
