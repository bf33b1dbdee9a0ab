/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Device policy, written once for every front-end: which backends can read
 * the frames' memory, in which order AUTO tries them, and when it falls back
 * (gpussim_backend_order() documents the rules). Every fact about a backend
 * (the memories it reads or maps, its vendor, its rank) comes from the
 * backend table (src/backends.c); the rules here name no backend. The
 * context supplies what is built and what starts (src/context.c);
 * tests/unit/test_backend_policy.c supplies fakes, so the rules are checked
 * without any GPU.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "src/backends.h"

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
    for (int i = 0; i < GPUSSIM_NB_BACKENDS; i++)
        for (int k = 0; k < 2 && gpussim_backend_table[i].vendor[k]; k++)
            if (contains_nocase(vendor, gpussim_backend_table[i].vendor[k]))
                return gpussim_backend_table[i].type;
    return GPUSSIM_BACKEND_AUTO;
}

/* Whether backend b reads frames in memory m, directly or after the caller
 * maps them to its device (Vulkan reading dma-buf frames). */
static int reads_memory(const struct gpussim_backend_info *b, enum gpussim_memory m)
{
    return !!((b->reads | b->maps) & GPUSSIM_MEMORY_BIT(m));
}

/* "a, b or c": the backends that read memory m, in AUTO's order. */
static void readers_list(enum gpussim_memory m, char *buf, size_t size)
{
    const struct gpussim_backend_info *r[GPUSSIM_NB_BACKENDS];
    int n = 0;
    for (int i = 0; i < GPUSSIM_NB_BACKENDS; i++)
        if (reads_memory(&gpussim_backend_table[i], m))
            r[n++] = &gpussim_backend_table[i];
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        const size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", !i ? "" : i == n - 1 ? " or " : ", ", r[i]->name);
    }
}

int gpussim_backend_order(const struct gpussim_params *p,
                          enum gpussim_backend_type order[GPUSSIM_MAX_BACKENDS])
{
    const struct gpussim_logger log = { p ? p->log_cb : NULL, p ? p->log_opaque : NULL,
                                        p && p->log_level ? p->log_level : GPUSSIM_LOG_INFO };
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
        const struct gpussim_backend_info *b = gpussim_backend_info(p->backend);
        if (!reads_memory(b, p->memory)) {
            /* the backends AUTO would take name the way out */
            char readers[64];
            readers_list(p->memory, readers, sizeof(readers));
            gpussim_log(&log, GPUSSIM_LOG_ERROR,
                        "backend=%s cannot read %s frames: use backend=%s (or auto), or copy "
                        "the frames to host memory to score them on the %s",
                        b->name, gpussim_memory_name(p->memory), readers, b->name);
            return -EINVAL;
        }
        order[n++] = p->backend;
        return n;
    }
    if (p->memory == GPUSSIM_MEMORY_HOST) {
        /* every backend, in the table's order: GPUs first, the CPU last */
        for (int i = 0; i < GPUSSIM_NB_BACKENDS; i++)
            order[n++] = gpussim_backend_table[i].type;
        return n;
    }
    /* Frames on a device: the backends that read them where they are (a
     * vendor's own backend only when the hint names that vendor: it reads
     * them without a second device), then those that read them once mapped
     * to their device, on any vendor. */
    const enum gpussim_backend_type native = gpussim_vendor_backend(p->device_vendor);
    const unsigned bit = GPUSSIM_MEMORY_BIT(p->memory);
    for (int i = 0; i < GPUSSIM_NB_BACKENDS; i++) {
        const struct gpussim_backend_info *b = &gpussim_backend_table[i];
        if ((b->reads & bit) && (!b->vendor[0] || b->type == native))
            order[n++] = b->type;
    }
    for (int i = 0; i < GPUSSIM_NB_BACKENDS; i++)
        if (gpussim_backend_table[i].maps & bit)
            order[n++] = gpussim_backend_table[i].type;
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
        const struct gpussim_backend_info *b = gpussim_backend_info(t);
        const char *name = b->name;
        const int last = i == n - 1;
        const void *hw_device = p->hw_device;

        if (!env->built(env->opaque, t)) {
            if (scan)
                continue;
            if (!last) {
                gpussim_log(log, GPUSSIM_LOG_VERBOSE,
                            "backend %s unavailable for the %s frames "
                            "(%s): scoring them through %s",
                            name, gpussim_memory_name(p->memory), gpussim_strerror(-ENOSYS),
                            gpussim_backend_type_name(order[i + 1]));
                continue;
            }
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "the %s backend is not built into this libgpussim (configure --enable-%s "
                        "with its toolchain present)",
                        name, b->configure);
            return -ENOSYS;
        }
        if (scan && env->probe(env->opaque, t) < 0)
            continue;
        if ((b->maps & GPUSSIM_MEMORY_BIT(p->memory)) && !hw_device) {
            /* the caller maps the frames to this backend's memory, on a
             * device it derives from the frames' one */
            if (!p->get_device) {
                gpussim_log(log, GPUSSIM_LOG_ERROR,
                            "the %s backend reads %s frames only once they are mapped to %s "
                            "images: give params.hw_device or params.get_device",
                            name, gpussim_memory_name(p->memory), gpussim_memory_name(b->map_to));
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
        gpussim_log(log, GPUSSIM_LOG_VERBOSE,
                    "backend %s unavailable for the %s frames (%s): "
                    "scoring them through %s",
                    name, gpussim_memory_name(p->memory), gpussim_strerror(err),
                    gpussim_backend_type_name(order[i + 1]));
    }
    gpussim_log(log, GPUSSIM_LOG_ERROR, "no backend could be started");
    return -ENODEV;
}
