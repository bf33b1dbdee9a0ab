/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The backend table (src/backends.c): every fact about each backend, built
 * into this library or not, in one row; and the device policy that reads
 * it (src/backend_policy.c). Core-only: a backend reads nothing here.
 */
#ifndef GPUSSIM_BACKENDS_H
#define GPUSSIM_BACKENDS_H

#include "src/backend.h"

#define GPUSSIM_MEMORY_BIT(m) (1u << (m))

struct gpussim_backend_info {
    enum gpussim_backend_type type;
    const char *name;      /* gpussim_backend_type_name() */
    const char *alias[2];  /* other names gpussim_backend_from_name() takes */
    const char *configure; /* configure's --enable-<this> */
    /* Picture memories its submit() reads (GPUSSIM_MEMORY_BIT()s). */
    unsigned reads;
    /* Frame memories it scores once the caller maps the frames to map_to
     * on a device it gives (params.hw_device or params.get_device). */
    unsigned maps;
    enum gpussim_memory map_to;
    /* Words of params.device_vendor (case-insensitive) that name this
     * backend for dma-buf frames: the vendor's own backend reads them
     * without a second device. */
    const char *vendor[2];
    /* Its vtable; NULL when it is not built into this library. */
    const struct gpussim_backend *vtable;
};

/* Every backend in AUTO's order of preference (GPUs first, the CPU last);
 * GPUSSIM_NB_BACKENDS rows. */
#define GPUSSIM_NB_BACKENDS 5
extern const struct gpussim_backend_info gpussim_backend_table[GPUSSIM_NB_BACKENDS];

/* The row of a backend, NULL for AUTO or a value outside the enum. */
const struct gpussim_backend_info *gpussim_backend_info(enum gpussim_backend_type type);
/* "host", "CUDA", "Vulkan", "dma-buf"; "unknown" outside the enum. */
const char *gpussim_memory_name(enum gpussim_memory m);

/* ---- device policy (src/backend_policy.c) --------------------------------- */

/* What the policy asks of the place it runs in: the context (the table's
 * vtables, their probes, starting one) or a test's fakes. */
struct gpussim_backend_env {
    void *opaque;
    int (*built)(void *opaque, enum gpussim_backend_type type); /* non-zero: has a vtable */
    int (*probe)(void *opaque, enum gpussim_backend_type type); /* 0: a device answers */
    /* Starts the backend on hw_device (params.hw_device, or get_device's). */
    int (*start)(void *opaque, enum gpussim_backend_type type, const void *hw_device);
};

/* The backend a vendor hint names (ze for Intel, hip for AMD), else AUTO. */
enum gpussim_backend_type gpussim_vendor_backend(const char *vendor);
/* Tries gpussim_backend_order()'s backends for p through env, logging each
 * one skipped and why; the type started, or a negative error (logged). */
int gpussim_backend_pick(const struct gpussim_params *p, const struct gpussim_logger *log,
                         const struct gpussim_backend_env *env);

#endif /* GPUSSIM_BACKENDS_H */
