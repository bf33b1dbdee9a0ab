/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Device policy, written once for every front-end: which backends can read
 * the frames' memory, in which order AUTO tries them, and when it falls back
 * (gpussim_backend_order() documents the rules). The context supplies what
 * is built and what starts (src/context.c); tests/test_backend_policy.c
 * supplies fakes, so the rules are checked without any GPU.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>

#include "internal.h"

static const char *const memory_names[] = { "host", "CUDA", "Vulkan", "dma-buf" };

/* Case-insensitive substring search (the vendor strings of VAAPI drivers:
 * "Intel iHD driver for Intel(R) Gen Graphics - 24.1.0", "Mesa Gallium
 * driver 24.0.5 for AMD Radeon RX 7900 XTX"). */
static int contains_nocase(const char *s, const char *word)
{
    for (; *s; s++) {
        size_t i = 0;
        while (word[i] && tolower((unsigned char)s[i]) == word[i])
            i++;
        if (!word[i])
            return 1;
    }
    return 0;
}

enum gpussim_backend_type gpussim_vendor_backend(const char *vendor)
{
    if (!vendor)
        return GPUSSIM_BACKEND_AUTO;
    if (contains_nocase(vendor, "intel"))
        return GPUSSIM_BACKEND_ZE;
    if (contains_nocase(vendor, "amd") || contains_nocase(vendor, "radeon"))
        return GPUSSIM_BACKEND_HIP;
    return GPUSSIM_BACKEND_AUTO;
}

/* Whether backend b reads frames in memory m, directly or (Vulkan reading
 * dma-buf frames) after the caller maps them to its device. */
static int reads_memory(enum gpussim_backend_type b, enum gpussim_memory m)
{
    switch (m) {
    case GPUSSIM_MEMORY_HOST:   return 1;
    case GPUSSIM_MEMORY_CUDA:   return b == GPUSSIM_BACKEND_CUDA;
    case GPUSSIM_MEMORY_VULKAN: return b == GPUSSIM_BACKEND_VULKAN;
    case GPUSSIM_MEMORY_DMABUF:
        return b == GPUSSIM_BACKEND_HIP || b == GPUSSIM_BACKEND_ZE || b == GPUSSIM_BACKEND_VULKAN;
    }
    return 0;
}

int gpussim_backend_order(const struct gpussim_params *p,
                          enum gpussim_backend_type order[GPUSSIM_MAX_BACKENDS])
{
    const struct gpussim_logger log = { p ? p->log_cb : NULL, p ? p->log_opaque : NULL,
                                        p && p->log_level ? p->log_level : GPUSSIM_LOG_INFO };
    enum gpussim_backend_type native;
    int n = 0;

    if (!p || !order)
        return -EINVAL;
    if ((unsigned)p->memory > GPUSSIM_MEMORY_DMABUF) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "unknown picture memory %d", (int)p->memory);
        return -EINVAL;
    }
    if (!gpussim_backend_type_name(p->backend)) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "unknown backend %d", (int)p->backend);
        return -EINVAL;
    }
    if (p->backend != GPUSSIM_BACKEND_AUTO) {
        if (!reads_memory(p->backend, p->memory)) {
            /* the backend AUTO would take names the way out */
            const enum gpussim_backend_type want =
                p->memory == GPUSSIM_MEMORY_CUDA ? GPUSSIM_BACKEND_CUDA : GPUSSIM_BACKEND_VULKAN;
            gpussim_log(&log, GPUSSIM_LOG_ERROR,
                        "backend=%s cannot read %s frames: use backend=%s%s (or auto), or copy "
                        "the frames to host memory to score them on the %s",
                        gpussim_backend_type_name(p->backend), memory_names[p->memory],
                        gpussim_backend_type_name(want),
                        p->memory == GPUSSIM_MEMORY_DMABUF ? ", hip or ze" : "",
                        gpussim_backend_type_name(p->backend));
            return -EINVAL;
        }
        order[n++] = p->backend;
        return n;
    }
    switch (p->memory) {
    case GPUSSIM_MEMORY_HOST:
        /* the registry's order (src/backends.c): GPUs first, the CPU last */
        order[n++] = GPUSSIM_BACKEND_CUDA;
        order[n++] = GPUSSIM_BACKEND_VULKAN;
        order[n++] = GPUSSIM_BACKEND_HIP;
        order[n++] = GPUSSIM_BACKEND_ZE;
        order[n++] = GPUSSIM_BACKEND_CPU;
        break;
    case GPUSSIM_MEMORY_CUDA:
        order[n++] = GPUSSIM_BACKEND_CUDA;
        break;
    case GPUSSIM_MEMORY_VULKAN:
        order[n++] = GPUSSIM_BACKEND_VULKAN;
        break;
    case GPUSSIM_MEMORY_DMABUF:
        /* the vendor's own backend reads the dma-bufs without a second
         * device; Vulkan reads them on any vendor once mapped */
        native = gpussim_vendor_backend(p->device_vendor);
        if (native != GPUSSIM_BACKEND_AUTO)
            order[n++] = native;
        order[n++] = GPUSSIM_BACKEND_VULKAN;
        break;
    }
    return n;
}

int gpussim_backend_pick(const struct gpussim_params *p, const struct gpussim_logger *log,
                         const struct gpussim_backend_env *env)
{
    enum gpussim_backend_type order[GPUSSIM_MAX_BACKENDS];
    const int n = gpussim_backend_order(p, order);
    /* host frames with AUTO: probe, skip what is missing, the CPU answers */
    const int scan = p->backend == GPUSSIM_BACKEND_AUTO && p->memory == GPUSSIM_MEMORY_HOST;
    int err = 0;

    if (n < 0)
        return n;
    for (int i = 0; i < n; i++) {
        const enum gpussim_backend_type t = order[i];
        const char *name = gpussim_backend_type_name(t);
        const int last = i == n - 1;
        const void *hw_device = p->hw_device;

        if (!env->built(env->opaque, t)) {
            if (scan)
                continue;
            if (!last) {
                gpussim_log(log, GPUSSIM_LOG_VERBOSE, "backend %s unavailable for the %s frames "
                            "(%s): scoring them through %s", name, memory_names[p->memory],
                            gpussim_strerror(-ENOSYS), gpussim_backend_type_name(order[i + 1]));
                continue;
            }
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "the %s backend is not built into this libgpussim (configure --enable-%s "
                        "with its toolchain present)",
                        name, t == GPUSSIM_BACKEND_ZE ? "level-zero" : name);
            return -ENOSYS;
        }
        if (scan && env->probe(env->opaque, t) < 0)
            continue;
        if (p->memory == GPUSSIM_MEMORY_DMABUF && t == GPUSSIM_BACKEND_VULKAN && !hw_device) {
            /* Vulkan reads dma-buf frames as images the caller maps them
             * to, on a device it derives from the frames' one */
            if (!p->get_device) {
                gpussim_log(log, GPUSSIM_LOG_ERROR,
                            "the vulkan backend reads dma-buf frames only once they are mapped to "
                            "Vulkan images: give params.hw_device or params.get_device");
                return -ENODEV;
            }
            err = p->get_device(p->get_device_opaque, t, &hw_device);
            if (err >= 0 && !hw_device)
                err = -ENODEV;
            if (err < 0)
                return err;
        }
        err = env->start(env->opaque, t, hw_device);
        if (err >= 0)
            return (int)t;
        if (scan) {
            if (err == -EINVAL) /* a configuration this backend cannot take: said why */
                return err;
            gpussim_log(log, GPUSSIM_LOG_VERBOSE, "backend %s unavailable (%s), trying the next",
                        name, gpussim_strerror(err));
            continue;
        }
        if (last)
            return err;
        gpussim_log(log, GPUSSIM_LOG_VERBOSE, "backend %s unavailable for the %s frames (%s): "
                    "scoring them through %s", name, memory_names[p->memory],
                    gpussim_strerror(err), gpussim_backend_type_name(order[i + 1]));
    }
    gpussim_log(log, GPUSSIM_LOG_ERROR, "no backend could be started");
    return -ENODEV;
}
