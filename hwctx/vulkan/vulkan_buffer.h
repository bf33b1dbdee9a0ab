/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Vulkan errors and buffers (hwctx/vulkan/vulkan_buffer.c): the primitives the
 * program, the frame import and the backend share.
 */
#ifndef GPUSSIM_HWCTX_VULKAN_BUFFER_H
#define GPUSSIM_HWCTX_VULKAN_BUFFER_H

#include "vulkan_internal.h"

/* 0 for VK_SUCCESS; else logs what failed and returns a negative errno. */
int vk_err(struct vk_backend *be, VkResult res, const char *what);
/* A storage buffer of size bytes (256 when 0), in device-local memory or,
 * with host, host-visible coherent memory mapped at b->map. */
int vk_buffer_create(struct vk_backend *be, struct vk_buffer *b, VkDeviceSize size, int host);
/* Frees what b holds and zeroes it; safe on a zeroed or failed buffer. */
void vk_buffer_destroy(struct vk_backend *be, struct vk_buffer *b);

#endif /* GPUSSIM_HWCTX_VULKAN_BUFFER_H */
