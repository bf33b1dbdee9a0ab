/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Vulkan frames (hwctx/vulkan/vulkan_frame.c): a slot's frame read from the
 * pictures' own images, synchronised with their producers.
 */
#ifndef GPUSSIM_HWCTX_VULKAN_FRAME_H
#define GPUSSIM_HWCTX_VULKAN_FRAME_H

#include "vulkan_program.h"

int vk_submit_frames(struct vk_backend *be, struct vk_slot *s, const struct gpussim_vk_frame *ref,
                     const struct gpussim_vk_frame *dis);
void vk_frame_release_views(struct vk_backend *be, struct vk_slot *s);

#endif /* GPUSSIM_HWCTX_VULKAN_FRAME_H */
