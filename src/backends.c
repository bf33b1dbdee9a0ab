/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The backend table: one row per backend, built or not, holding every fact
 * the rest of the library asks about it. The device policy
 * (src/backend_policy.c), the context (src/context.c), the names
 * (gpussim_backend_type_name()) and the tests read it; a backend's vtable
 * (hwctx/<name>/) holds only its functions.
 */
#include <stddef.h>

#include "src/backends.h"

#define MEM(m) GPUSSIM_MEMORY_BIT(GPUSSIM_MEMORY_##m)

#if HAVE_CUDA
#define VTABLE_CUDA &gpussim_backend_cuda
#else
#define VTABLE_CUDA NULL
#endif
#if HAVE_VULKAN
#define VTABLE_VULKAN &gpussim_backend_vulkan
#else
#define VTABLE_VULKAN NULL
#endif
#if HAVE_HIP
#define VTABLE_HIP &gpussim_backend_hip
#else
#define VTABLE_HIP NULL
#endif
#if HAVE_LEVEL_ZERO
#define VTABLE_ZE &gpussim_backend_ze
#else
#define VTABLE_ZE NULL
#endif

/* In AUTO's order of preference: the GPUs, then the CPU, which is always
 * built and answers when no GPU does. */
const struct gpussim_backend_info gpussim_backend_table[GPUSSIM_NB_BACKENDS] = {
    { .type = GPUSSIM_BACKEND_CUDA,
      .name = "cuda",
      .configure = "cuda",
      .reads = MEM(HOST) | MEM(CUDA),
      .vtable = VTABLE_CUDA },
    /* dma-buf frames reach Vulkan as the images the caller maps them to */
    { .type = GPUSSIM_BACKEND_VULKAN,
      .name = "vulkan",
      .configure = "vulkan",
      .reads = MEM(HOST) | MEM(VULKAN),
      .maps = MEM(DMABUF),
      .map_to = GPUSSIM_MEMORY_VULKAN,
      .vtable = VTABLE_VULKAN },
    { .type = GPUSSIM_BACKEND_HIP,
      .name = "hip",
      .configure = "hip",
      .reads = MEM(HOST) | MEM(DMABUF),
      .vendor = { "amd", "radeon" },
      .vtable = VTABLE_HIP },
    { .type = GPUSSIM_BACKEND_ZE,
      .name = "ze",
      .alias = { "level-zero", "level_zero" },
      .configure = "level-zero",
      .reads = MEM(HOST) | MEM(DMABUF),
      .vendor = { "intel" },
      .vtable = VTABLE_ZE },
    { .type = GPUSSIM_BACKEND_CPU,
      .name = "cpu",
      .configure = "cpu",
      .reads = MEM(HOST),
      .vtable = &gpussim_backend_cpu },
};

/* gpussim_backend_order() lists each row at most once */
_Static_assert(GPUSSIM_NB_BACKENDS <= GPUSSIM_MAX_BACKENDS, "the public order array is too short");

const struct gpussim_backend_info *gpussim_backend_info(enum gpussim_backend_type type)
{
    for (int i = 0; i < GPUSSIM_NB_BACKENDS; i++)
        if (gpussim_backend_table[i].type == type)
            return &gpussim_backend_table[i];
    return NULL;
}

const char *gpussim_memory_name(enum gpussim_memory m)
{
    static const char *const names[] = {
        [GPUSSIM_MEMORY_HOST] = "host",
        [GPUSSIM_MEMORY_CUDA] = "CUDA",
        [GPUSSIM_MEMORY_VULKAN] = "Vulkan",
        [GPUSSIM_MEMORY_DMABUF] = "dma-buf",
    };
    return (unsigned)m < sizeof(names) / sizeof(*names) ? names[m] : "unknown";
}
