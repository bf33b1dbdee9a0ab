/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Vulkan frames (hwctx/vulkan/vulkan_frame.c): a slot's frame read from the
 * pictures' own images, synchronised with their producers.
 */
#ifndef GPUSSIM_HWCTX_VULKAN_FRAME_H
#define GPUSSIM_HWCTX_VULKAN_FRAME_H

#include "vulkan_plan.h"

/* fr[0] the reference, fr[1 .. nb - 1] the distorted pictures (1 for a pair) */
int vk_submit_frames(struct vk_backend *be, struct vk_slot *s,
                     const struct gpussim_vk_frame *const *fr, int nb);
void vk_frame_release_views(struct vk_backend *be, struct vk_slot *s);

#endif /* GPUSSIM_HWCTX_VULKAN_FRAME_H */
