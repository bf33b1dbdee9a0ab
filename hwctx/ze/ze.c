/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The Level Zero backend (Intel GPUs): the thin driver glue around the frame
 * plan of hwctx/ze/ze_plan.c and the OpenCL C kernels of kernels/ze, embedded
 * as SPIR-V at build time.
 *
 * - libze_loader is opened at run time (dlopen), so the library has no
 *   link-time dependency on it; without a loader or a GPU driver the probe
 *   returns -ENODEV quietly and AUTO moves on.
 * - The module and its kernels are created once, at init.
 * - One command list and fence per slot, all executed on one command queue.
 *   Level Zero runs the commands of a list concurrently unless told
 *   otherwise, so every recorded operation is followed by a barrier: the
 *   plan's operations depend on each other in order.
 * - Host frames are copied into per-slot staging and uploaded; DMABUF frames
 *   (VAAPI surfaces exported as DRM PRIME) are imported with
 *   ze_external_memory_import_fd_t and read in place — linear modifiers
 *   only (src/dmabuf.c says why and names the modifier otherwise).
 * - The kernels need fp64; a device without it is refused with a clear
 *   error (kernels/ze/README.md: no emulation).
 *
 * This file compiles wherever level_zero/ze_api.h is installed; it has not
 * run on Intel hardware (none is available to the project). Its plan and
 * kernels are tested through PoCL by tests/parity/test_opencl_kernels.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <level_zero/ze_api.h>

#include "src/dmabuf.h"
#include "src/dynload.h"
#include "src/backend.h"
#include "kernels/ze/kernels_spv.h"
#include "ze_plan.h"

#define ZE_NB_SLOTS 2 /* each slot holds a frame's buffers (~700 MB at 2160p) */

/* The loader's entry points, typed from the header's own declarations. */
#define ZE_FUNCS(X)                                                                                \
    X(zeInit) X(zeDriverGet) X(zeDeviceGet) X(zeDeviceGetProperties)                               \
    X(zeDeviceGetModuleProperties) X(zeDeviceGetExternalMemoryProperties)                          \
    X(zeDeviceGetCommandQueueGroupProperties) X(zeContextCreate) X(zeContextDestroy)               \
    X(zeCommandQueueCreate) X(zeCommandQueueDestroy) X(zeCommandQueueExecuteCommandLists)          \
    X(zeCommandListCreate) X(zeCommandListDestroy) X(zeCommandListReset) X(zeCommandListClose)     \
    X(zeCommandListAppendLaunchKernel) X(zeCommandListAppendBarrier)                               \
    X(zeCommandListAppendMemoryCopy) X(zeModuleCreate) X(zeModuleDestroy)                          \
    X(zeModuleBuildLogGetString) X(zeModuleBuildLogDestroy) X(zeKernelCreate) X(zeKernelDestroy)   \
    X(zeKernelSetGroupSize) X(zeKernelSetArgumentValue) X(zeMemAllocDevice) X(zeMemAllocHost)      \
    X(zeMemFree) X(zeFenceCreate) X(zeFenceDestroy) X(zeFenceHostSynchronize) X(zeFenceReset)

struct ze_fns {
    void *lib;
#define ZE_FN_FIELD(name) __typeof__(&name) name;
    ZE_FUNCS(ZE_FN_FIELD)
#undef ZE_FN_FIELD
};

struct ze_slot_rt {
    ze_command_list_handle_t list;
    ze_fence_handle_t fence;
    int submitted;
    void *imported[2 * 3]; /* dma-bufs imported for the slot's frame */
    int nb_imported;
};

struct ze_backend {
    struct gpussim_config cfg;
    struct ze_fns f;
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    ze_command_queue_handle_t queue;
    ze_module_handle_t module;
    ze_kernel_handle_t kernels[ZE_K_COUNT];
    ZePlan *plan;
    int nb_slots;
    struct ze_slot_rt slots[ZE_NB_SLOTS];
    char device_name[ZE_MAX_DEVICE_NAME];
    int dmabuf_import; /* the device imports dma-bufs as memory */
};

static const char *ze_result_name(ze_result_t r)
{
    switch (r) {
    case ZE_RESULT_SUCCESS: return "ZE_RESULT_SUCCESS";
    case ZE_RESULT_NOT_READY: return "ZE_RESULT_NOT_READY";
    case ZE_RESULT_ERROR_DEVICE_LOST: return "ZE_RESULT_ERROR_DEVICE_LOST";
    case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY: return "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY";
    case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY: return "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY";
    case ZE_RESULT_ERROR_MODULE_BUILD_FAILURE: return "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE";
    case ZE_RESULT_ERROR_UNINITIALIZED: return "ZE_RESULT_ERROR_UNINITIALIZED";
    case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE: return "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE";
    case ZE_RESULT_ERROR_INVALID_ARGUMENT: return "ZE_RESULT_ERROR_INVALID_ARGUMENT";
    case ZE_RESULT_ERROR_INVALID_KERNEL_NAME: return "ZE_RESULT_ERROR_INVALID_KERNEL_NAME";
    default: return "ze_result_t";
    }
}

/* Logs a failed call and maps it to an errno value. */
static int ze_check(const struct gpussim_config *cfg, ze_result_t r, const char *what)
{
    if (r == ZE_RESULT_SUCCESS)
        return 0;
    gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "ze: %s failed: %s (0x%x)", what, ze_result_name(r),
                (unsigned)r);
    switch (r) {
    case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
    case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY: return -ENOMEM;
    case ZE_RESULT_ERROR_INVALID_ARGUMENT: return -EINVAL;
    case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE: return -ENOSYS;
    default: return -EIO;
    }
}
#define CHECK_ZE(be, call) ze_check(&(be)->cfg, (be)->f.call, #call)

/* ---- loading -------------------------------------------------------------- */

static int ze_load(struct ze_fns *f, char *why, size_t why_size)
{
    static const char *const libs[] = { "libze_loader.so.1", NULL };
#define ZE_FN_SYM(name) GPUSSIM_DYNSYM(f->name, #name),
    const struct gpussim_dynsym syms[] = { ZE_FUNCS(ZE_FN_SYM) };
#undef ZE_FN_SYM
    memset(f, 0, sizeof(*f));
    f->lib = gpussim_dynload(libs, syms, (int)(sizeof(syms) / sizeof(*syms)), why, why_size);
    return f->lib ? 0 : -ENODEV;
}

static void ze_unload(struct ze_fns *f)
{
    gpussim_dynunload(&f->lib);
}

/* The params.device-th GPU over all drivers. -ENODEV when absent. */
static int ze_pick_device(struct ze_fns *f, int index, ze_driver_handle_t *drv,
                          ze_device_handle_t *dev)
{
    if (f->zeInit(ZE_INIT_FLAG_GPU_ONLY) != ZE_RESULT_SUCCESS)
        return -ENODEV;
    uint32_t nd = 0;
    if (f->zeDriverGet(&nd, NULL) != ZE_RESULT_SUCCESS || !nd)
        return -ENODEV;
    ze_driver_handle_t drivers[16];
    nd = nd > 16 ? 16 : nd;
    if (f->zeDriverGet(&nd, drivers) != ZE_RESULT_SUCCESS)
        return -ENODEV;
    int seen = 0;
    for (uint32_t i = 0; i < nd; i++) {
        uint32_t nv = 0;
        ze_device_handle_t devs[64];
        if (f->zeDeviceGet(drivers[i], &nv, NULL) != ZE_RESULT_SUCCESS)
            continue;
        nv = nv > 64 ? 64 : nv;
        if (f->zeDeviceGet(drivers[i], &nv, devs) != ZE_RESULT_SUCCESS)
            continue;
        for (uint32_t j = 0; j < nv; j++) {
            ze_device_properties_t props = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };
            if (f->zeDeviceGetProperties(devs[j], &props) != ZE_RESULT_SUCCESS ||
                props.type != ZE_DEVICE_TYPE_GPU)
                continue;
            if (seen++ == index) {
                *drv = drivers[i];
                *dev = devs[j];
                return 0;
            }
        }
    }
    return -ENODEV;
}

static int ze_probe(const struct gpussim_config *cfg)
{
    struct ze_fns f;
    ze_driver_handle_t drv;
    ze_device_handle_t dev;
    char why[256];
    int err = ze_load(&f, why, sizeof(why));
    if (err < 0) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_VERBOSE, "ze: %s", why);
        return err;
    }
    err = ze_pick_device(&f, cfg->params.device, &drv, &dev);
    if (err < 0)
        gpussim_log(&cfg->log, GPUSSIM_LOG_VERBOSE, "ze: no Level Zero GPU %d", cfg->params.device);
    ze_unload(&f);
    return err;
}

/* ---- the plan's driver operations ----------------------------------------- */

static int op_alloc(void *opaque, size_t size, void **buf)
{
    struct ze_backend *be = opaque;
    const ze_device_mem_alloc_desc_t desc = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
    return CHECK_ZE(be, zeMemAllocDevice(be->context, &desc, size, 64, be->device, buf));
}

static void op_free(void *opaque, void *buf)
{
    struct ze_backend *be = opaque;
    be->f.zeMemFree(be->context, buf);
}

static int op_host_alloc(void *opaque, size_t size, void **ptr)
{
    struct ze_backend *be = opaque;
    const ze_host_mem_alloc_desc_t desc = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
    return CHECK_ZE(be, zeMemAllocHost(be->context, &desc, size ? size : 1, 64, ptr));
}

static void op_host_free(void *opaque, void *ptr)
{
    struct ze_backend *be = opaque;
    be->f.zeMemFree(be->context, ptr);
}

/* Every operation is followed by a barrier: the next one reads its result. */
static int append_barrier(struct ze_backend *be, int slot)
{
    return CHECK_ZE(be, zeCommandListAppendBarrier(be->slots[slot].list, NULL, 0, NULL));
}

static int op_copy(void *opaque, int slot, void *dst, const void *src, size_t size)
{
    struct ze_backend *be = opaque;
    const int err = CHECK_ZE(be, zeCommandListAppendMemoryCopy(be->slots[slot].list, dst, src,
                                                               size, NULL, 0, NULL));
    return err < 0 ? err : append_barrier(be, slot);
}

static int op_upload(void *opaque, int slot, void *buf, const void *host, size_t size)
{
    return op_copy(opaque, slot, buf, host, size);
}

static int op_download(void *opaque, int slot, void *host, void *buf, size_t size)
{
    return op_copy(opaque, slot, host, buf, size);
}

static int op_launch(void *opaque, int slot, enum ze_kernel_id k, const size_t global[2],
                     const size_t local[2], int nb_args, const struct ze_arg *args)
{
    struct ze_backend *be = opaque;
    ze_kernel_handle_t kr = be->kernels[k];
    int err;
    /* arguments are captured at append time, so one kernel object serves
     * every launch and slot */
    if ((err = CHECK_ZE(be, zeKernelSetGroupSize(kr, (uint32_t)local[0], (uint32_t)local[1], 1))) < 0)
        return err;
    for (int i = 0; i < nb_args; i++) {
        const struct ze_arg *a = &args[i];
        const void *val;
        size_t size;
        switch (a->kind) {
        case ZE_ARG_BUF: val = &a->v.buf, size = sizeof(void *); break;
        case ZE_ARG_I32: val = &a->v.i32, size = 4; break;
        case ZE_ARG_U32: val = &a->v.u32, size = 4; break;
        case ZE_ARG_I64: val = &a->v.i64, size = 8; break;
        case ZE_ARG_U64: val = &a->v.u64, size = 8; break;
        case ZE_ARG_F32: val = &a->v.f32, size = 4; break;
        case ZE_ARG_F64: val = &a->v.f64, size = 8; break;
        default: return -EINVAL;
        }
        if ((err = CHECK_ZE(be, zeKernelSetArgumentValue(kr, (uint32_t)i, size, val))) < 0)
            return err;
    }
    const ze_group_count_t groups = { (uint32_t)(global[0] / local[0]),
                                      (uint32_t)(global[1] / local[1]), 1 };
    err = CHECK_ZE(be, zeCommandListAppendLaunchKernel(be->slots[slot].list, kr, &groups, NULL, 0,
                                                       NULL));
    return err < 0 ? err : append_barrier(be, slot);
}

/* ---- init / uninit ---------------------------------------------------------- */

static void ze_uninit(void **ppriv)
{
    struct ze_backend *be = ppriv ? *ppriv : NULL;
    if (!be)
        return;
    for (int s = 0; s < ZE_NB_SLOTS; s++) {
        struct ze_slot_rt *sl = &be->slots[s];
        if (sl->submitted && sl->fence)
            be->f.zeFenceHostSynchronize(sl->fence, UINT64_MAX);
        for (int i = 0; i < sl->nb_imported; i++)
            be->f.zeMemFree(be->context, sl->imported[i]);
        if (sl->fence)
            be->f.zeFenceDestroy(sl->fence);
        if (sl->list)
            be->f.zeCommandListDestroy(sl->list);
    }
    ze_plan_destroy(&be->plan);
    for (int k = 0; k < ZE_K_COUNT; k++)
        if (be->kernels[k])
            be->f.zeKernelDestroy(be->kernels[k]);
    if (be->module)
        be->f.zeModuleDestroy(be->module);
    if (be->queue)
        be->f.zeCommandQueueDestroy(be->queue);
    if (be->context)
        be->f.zeContextDestroy(be->context);
    ze_unload(&be->f);
    free(be);
    *ppriv = NULL;
}

/* The first queue group that can run compute kernels. */
static int ze_compute_ordinal(struct ze_backend *be, uint32_t *ordinal)
{
    uint32_t n = 0;
    ze_command_queue_group_properties_t props[16];
    int err = CHECK_ZE(be, zeDeviceGetCommandQueueGroupProperties(be->device, &n, NULL));
    if (err < 0)
        return err;
    n = n > 16 ? 16 : n;
    for (uint32_t i = 0; i < n; i++)
        props[i] = (ze_command_queue_group_properties_t){
            .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES };
    if ((err = CHECK_ZE(be, zeDeviceGetCommandQueueGroupProperties(be->device, &n, props))) < 0)
        return err;
    for (uint32_t i = 0; i < n; i++)
        if (props[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
            *ordinal = i;
            return 0;
        }
    gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR, "ze: device '%s' has no compute queue",
                be->device_name);
    return -ENODEV;
}

static int ze_build_module(struct ze_backend *be)
{
    ze_module_build_log_handle_t blog = NULL;
    const ze_module_desc_t desc = {
        .stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
        .format = ZE_MODULE_FORMAT_IL_SPIRV,
        .inputSize = sizeof(gpussim_ze_spv),
        .pInputModule = gpussim_ze_spv,
        /* the reference's float division is correctly rounded; contraction
         * is already off in the module (ContractionOff execution mode) */
        .pBuildFlags = "-cl-fp32-correctly-rounded-divide-sqrt",
    };
    const ze_result_t r = be->f.zeModuleCreate(be->context, be->device, &desc, &be->module, &blog);
    if (r != ZE_RESULT_SUCCESS) {
        size_t len = 0;
        char *text = NULL;
        if (blog && be->f.zeModuleBuildLogGetString(blog, &len, NULL) == ZE_RESULT_SUCCESS && len &&
            (text = malloc(len)))
            be->f.zeModuleBuildLogGetString(blog, &len, text);
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR, "ze: building the SPIR-V module failed: %s%s%s",
                    ze_result_name(r), text ? ": " : "", text ? text : "");
        free(text);
    }
    if (blog)
        be->f.zeModuleBuildLogDestroy(blog);
    if (r != ZE_RESULT_SUCCESS)
        return -EIO;
    for (int k = 0; k < ZE_K_COUNT; k++) {
        const ze_kernel_desc_t kd = { .stype = ZE_STRUCTURE_TYPE_KERNEL_DESC,
                                      .pKernelName = gpussim_ze_kernel_names[k] };
        const int err = CHECK_ZE(be, zeKernelCreate(be->module, &kd, &be->kernels[k]));
        if (err < 0)
            return err;
    }
    return 0;
}

static int ze_init(const struct gpussim_config *cfg, void **ppriv, int *nb_slots)
{
    struct ze_backend *be = calloc(1, sizeof(*be));
    int err;
    if (!be)
        return -ENOMEM;
    be->cfg = *cfg;

    char why[256];
    if ((err = ze_load(&be->f, why, sizeof(why))) < 0) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR,
                    "ze: cannot load the Level Zero loader: %s (install the Level Zero loader and "
                    "an Intel GPU driver)",
                    why);
        goto fail;
    }
    if ((err = ze_pick_device(&be->f, cfg->params.device, &be->driver, &be->device)) < 0) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "ze: no Level Zero GPU with index %d",
                    cfg->params.device);
        goto fail;
    }
    ze_device_properties_t props = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };
    if ((err = CHECK_ZE(be, zeDeviceGetProperties(be->device, &props))) < 0)
        goto fail;
    memcpy(be->device_name, props.name, sizeof(be->device_name));
    be->device_name[sizeof(be->device_name) - 1] = 0;

    /* fp64 policy (kernels/ze/README.md): the reference's sums and terms are
     * double; without native fp64 we refuse rather than emulate or round */
    ze_device_module_properties_t mprops = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES };
    if ((err = CHECK_ZE(be, zeDeviceGetModuleProperties(be->device, &mprops))) < 0)
        goto fail;
    if (!(mprops.flags & ZE_DEVICE_MODULE_FLAG_FP64)) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR,
                    "ze: device '%s' has no fp64 (double precision) support, which the "
                    "libvmaf-exact kernels need; use backend=vulkan or backend=cpu",
                    be->device_name);
        err = -ENODEV;
        goto fail;
    }

    ze_device_external_memory_properties_t xprops = {
        .stype = ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES };
    be->dmabuf_import = be->f.zeDeviceGetExternalMemoryProperties(be->device, &xprops) ==
                            ZE_RESULT_SUCCESS &&
                        (xprops.memoryAllocationImportTypes & ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF);

    const ze_context_desc_t cdesc = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
    if ((err = CHECK_ZE(be, zeContextCreate(be->driver, &cdesc, &be->context))) < 0)
        goto fail;
    uint32_t ordinal;
    if ((err = ze_compute_ordinal(be, &ordinal)) < 0)
        goto fail;
    const ze_command_queue_desc_t qdesc = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                            .ordinal = ordinal,
                                            .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS };
    if ((err = CHECK_ZE(be, zeCommandQueueCreate(be->context, be->device, &qdesc, &be->queue))) < 0)
        goto fail;
    if ((err = ze_build_module(be)) < 0)
        goto fail;

    be->nb_slots = ZE_NB_SLOTS;
    if (cfg->params.max_in_flight && cfg->params.max_in_flight < be->nb_slots)
        be->nb_slots = cfg->params.max_in_flight;
    for (int s = 0; s < be->nb_slots; s++) {
        const ze_command_list_desc_t ldesc = { .stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
                                               .commandQueueGroupOrdinal = ordinal };
        const ze_fence_desc_t fdesc = { .stype = ZE_STRUCTURE_TYPE_FENCE_DESC };
        if ((err = CHECK_ZE(be, zeCommandListCreate(be->context, be->device, &ldesc,
                                                    &be->slots[s].list))) < 0 ||
            (err = CHECK_ZE(be, zeFenceCreate(be->queue, &fdesc, &be->slots[s].fence))) < 0)
            goto fail;
    }
    const struct ze_plan_ops ops = { .opaque = be, .alloc = op_alloc, .free = op_free,
                                     .host_alloc = op_host_alloc, .host_free = op_host_free,
                                     .upload = op_upload, .download = op_download,
                                     .launch = op_launch };
    if ((err = ze_plan_create(&be->plan, cfg, &ops, be->nb_slots)) < 0)
        goto fail;

    gpussim_log(&cfg->log, GPUSSIM_LOG_VERBOSE, "ze: device '%s', %d frame slot(s), dma-buf import %s",
                be->device_name, be->nb_slots, be->dmabuf_import ? "yes" : "no");
    *ppriv = be;
    *nb_slots = be->nb_slots;
    return 0;

fail:
    ze_uninit((void **)&be);
    return err;
}

/* ---- frames ----------------------------------------------------------------- */

/* Imports the dma-bufs of a picture (each distinct fd once) and describes
 * its planes for the plan. */
static int import_picture(struct ze_backend *be, struct ze_slot_rt *sl,
                          const struct gpussim_picture *pic, struct ze_plane_src src[3])
{
    struct gpussim_dmabuf_plane planes[3];
    int nb, err;
    if (!be->dmabuf_import) {
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                    "ze: device '%s' does not import dma-buf memory; submit host frames or use "
                    "backend=vulkan", be->device_name);
        return -ENOSYS;
    }
    if ((err = gpussim_dmabuf_check_linear(&be->cfg.log, "ze", pic->modifier)) < 0)
        return err;
    if ((err = gpussim_dmabuf_planes(&be->cfg, "ze", pic, planes, &nb)) < 0)
        return err;
    for (int i = 0; i < nb; i++) {
        void *ptr = NULL;
        for (int j = 0; j < i; j++)
            if (planes[j].fd == planes[i].fd)
                ptr = src[j].buf;
        if (!ptr) {
            const int64_t size = gpussim_dmabuf_size(planes[i].fd);
            ze_external_memory_import_fd_t imp = {
                .stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD,
                .flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF,
                .fd = planes[i].fd,
            };
            const ze_device_mem_alloc_desc_t desc = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
                                                      .pNext = &imp };
            if ((err = CHECK_ZE(be, zeMemAllocDevice(be->context, &desc, (size_t)size, 0, be->device,
                                                     &ptr))) < 0) {
                gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                            "ze: cannot import dma-buf fd %d (%lld bytes) of plane %d",
                            planes[i].fd, (long long)size, i);
                return err;
            }
            sl->imported[sl->nb_imported++] = ptr;
        }
        src[i] = (struct ze_plane_src){ ptr, planes[i].offset, planes[i].pitch };
    }
    return 0;
}

static void release_imports(struct ze_backend *be, struct ze_slot_rt *sl)
{
    for (int i = 0; i < sl->nb_imported; i++)
        be->f.zeMemFree(be->context, sl->imported[i]);
    sl->nb_imported = 0;
}

static int ze_submit(void *priv, int slot, const struct gpussim_picture *ref,
                     const struct gpussim_picture *dis)
{
    struct ze_backend *be = priv;
    struct ze_slot_rt *sl = &be->slots[slot];
    int err;
    if ((err = CHECK_ZE(be, zeCommandListReset(sl->list))) < 0)
        return err;
    if (ref->memory == GPUSSIM_MEMORY_HOST && dis->memory == GPUSSIM_MEMORY_HOST) {
        err = ze_plan_record_host(be->plan, slot, ref, dis);
    } else if (ref->memory == GPUSSIM_MEMORY_DMABUF && dis->memory == GPUSSIM_MEMORY_DMABUF) {
        struct ze_plane_src rs[3] = { { 0 } }, ds[3] = { { 0 } };
        if ((err = import_picture(be, sl, ref, rs)) < 0 || (err = import_picture(be, sl, dis, ds)) < 0)
            goto fail;
        err = ze_plan_record_device(be->plan, slot, rs, ds);
    } else {
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                    "ze: reference and distorted pictures must both be host or both be dma-buf "
                    "memory (got %d and %d)", (int)ref->memory, (int)dis->memory);
        err = -EINVAL;
    }
    if (err < 0)
        goto fail;
    if ((err = CHECK_ZE(be, zeCommandListClose(sl->list))) < 0 ||
        (err = CHECK_ZE(be, zeCommandQueueExecuteCommandLists(be->queue, 1, &sl->list, sl->fence))) < 0)
        goto fail;
    sl->submitted = 1;
    return 0;

fail:
    release_imports(be, sl);
    return err;
}

static int ze_wait(void *priv, int slot, int block, struct gpussim_frame_sums *sums)
{
    struct ze_backend *be = priv;
    struct ze_slot_rt *sl = &be->slots[slot];
    const ze_result_t r = be->f.zeFenceHostSynchronize(sl->fence, block ? UINT64_MAX : 0);
    if (r == ZE_RESULT_NOT_READY && !block)
        return 0;
    sl->submitted = 0;
    release_imports(be, sl);
    int err = ze_check(&be->cfg, r, "zeFenceHostSynchronize");
    const int err2 = CHECK_ZE(be, zeFenceReset(sl->fence));
    if (err < 0 || (err = err2) < 0)
        return err;
    ze_plan_collect(be->plan, slot, sums);
    return 1;
}

const struct gpussim_backend gpussim_backend_ze = {
    .probe = ze_probe,
    .init = ze_init,
    .uninit = ze_uninit,
    .submit = ze_submit,
    .wait = ze_wait,
};
