/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* The registry of backends, in AUTO's order of preference. */
#include <stddef.h>

#include "internal.h"

const struct gpussim_backend *const gpussim_backends[] = {
#if HAVE_CUDA
    &gpussim_backend_cuda,
#endif
#if HAVE_VULKAN
    &gpussim_backend_vulkan,
#endif
#if HAVE_HIP
    &gpussim_backend_hip,
#endif
#if HAVE_LEVEL_ZERO
    &gpussim_backend_ze,
#endif
    &gpussim_backend_cpu,
    NULL,
};
