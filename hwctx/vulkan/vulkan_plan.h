/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The Vulkan frame program (hwctx/vulkan/vulkan_plan.c): built once at init
 * from the configuration's plan, recorded and submitted per frame, its
 * partial sums collected on the host.
 */
#ifndef GPUSSIM_HWCTX_VULKAN_PLAN_H
#define GPUSSIM_HWCTX_VULKAN_PLAN_H

#include "vulkan_buffer.h"

int vk_program_init(struct vk_backend *be);
void vk_program_uninit(struct vk_backend *be);
void vk_stage_host_picture(struct vk_backend *be, struct vk_slot *s,
                           const struct gpussim_picture *pic, int k);
int vk_record_and_submit(struct vk_backend *be, struct vk_slot *s, const struct vk_frame_sync *fs);
/* sums[0 .. nb_pics - 2]: the pair's, or each distorted picture's of a ladder */
void vk_program_collect(struct vk_backend *be, struct vk_slot *s, struct gpussim_frame_sums *sums);
void vk_program_log_step_times(struct vk_backend *be, struct vk_slot *s);
int vk_pack_image_pipe(struct vk_backend *be, int two_components, int sixteen_bit);

#endif /* GPUSSIM_HWCTX_VULKAN_PLAN_H */
