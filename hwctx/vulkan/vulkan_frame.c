/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Vulkan frames (struct gpussim_vk_frame, the AVVkFrame contract made
 * explicit): zero-copy reads through per-plane storage-image views with
 * explicit formats, synchronised with the frames' producers:
 *
 *   lock -> wait on sem[i] at *sem_value[i] -> transition from *layout[i] /
 *   *access[i] -> submit (under the queue lock) -> signal sem[i] at
 *   *sem_value[i] + 1 and store it -> write back layout, access and queue
 *   family -> unlock.
 *
 * No CPU wait: the frame's result is collected later like any other.
 * The views live until the slot's frame has been waited for.
 *
 * Layers of the Vulkan backend, each including only those below it:
 *   vulkan_fns.h       the entry points (X-macro lists)
 *   vulkan_internal.h  the backend's state (types only)
 *   vulkan_buffer.[ch] errors and buffers
 *   vulkan_plan.[ch]   pipelines, the frame's dispatches, submit, collect
 *   vulkan_frame.[ch]  Vulkan frames: views and sync with their producers
 *   vulkan.c           instance, device, slots: the backend's entry points
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vulkan_frame.h"

/* Multi-planar formats whose planes can be viewed as R*, RG* images. */
static int is_multiplane(VkFormat f)
{
    switch (f) {
    case VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM:
    case VK_FORMAT_G8_B8R8_2PLANE_420_UNORM:
    case VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM:
    case VK_FORMAT_G8_B8R8_2PLANE_422_UNORM:
    case VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM:
    case VK_FORMAT_G8_B8R8_2PLANE_444_UNORM:
    case VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16:
    case VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16:
    case VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_422_UNORM_3PACK16:
    case VK_FORMAT_G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16:
    case VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16:
    case VK_FORMAT_G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16:
    case VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_420_UNORM_3PACK16:
    case VK_FORMAT_G12X4_B12X4R12X4_2PLANE_420_UNORM_3PACK16:
    case VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_422_UNORM_3PACK16:
    case VK_FORMAT_G12X4_B12X4R12X4_2PLANE_422_UNORM_3PACK16:
    case VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_444_UNORM_3PACK16:
    case VK_FORMAT_G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16:
    case VK_FORMAT_G16_B16_R16_3PLANE_420_UNORM:
    case VK_FORMAT_G16_B16R16_2PLANE_420_UNORM:
    case VK_FORMAT_G16_B16_R16_3PLANE_422_UNORM:
    case VK_FORMAT_G16_B16R16_2PLANE_422_UNORM:
    case VK_FORMAT_G16_B16_R16_3PLANE_444_UNORM:
    case VK_FORMAT_G16_B16R16_2PLANE_444_UNORM:
        return 1;
    default:
        return 0;
    }
}

void vk_frame_release_views(struct vk_backend *be, struct vk_slot *s)
{
    for (int k = 0; k < VK_MAX_PICS; k++)
        for (int p = 0; p < GPUSSIM_MAX_SCORE_PLANES; p++)
            if (s->view[k][p]) {
                be->fns.vkDestroyImageView(be->dev, s->view[k][p], NULL);
                s->view[k][p] = VK_NULL_HANDLE;
            }
}

/* Checks a frame descriptor against the configured layout. */
static int check_frame(struct vk_backend *be, const struct gpussim_vk_frame *fr, const char *what)
{
    const int need = be->nb_src_planes;
    if (fr->nb_images < 1 || fr->nb_images > GPUSSIM_VK_MAX_IMAGES) {
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR, "vulkan: %s frame has %d images (1..%d)", what,
                    fr->nb_images, GPUSSIM_VK_MAX_IMAGES);
        return -EINVAL;
    }
    if (fr->nb_images > 1 && fr->nb_images < need) {
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                    "vulkan: %s frame has %d images; the scored planes need %d", what,
                    fr->nb_images, need);
        return -EINVAL;
    }
    if (fr->nb_images == 1 && need > 1 && !is_multiplane(fr->format[0])) {
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                    "vulkan: %s frame is one image of format %d, not a multi-planar format; "
                    "chroma planes cannot be read", what, (int)fr->format[0]);
        return -EINVAL;
    }
    for (int i = 0; i < fr->nb_images; i++)
        if (!fr->img[i] || !fr->layout[i] || !fr->access[i] || !fr->sem[i] || !fr->sem_value[i]) {
            gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                        "vulkan: %s frame image %d lacks its image, layout, access, semaphore or "
                        "semaphore value", what, i);
            return -EINVAL;
        }
    return 0;
}

/* A view of picture plane src_plane with the explicit format the pack
 * shader declares: R8/R16 for a whole plane, R8G8/R16G16 for interleaved chroma. */
static int make_view(struct vk_backend *be, struct vk_slot *s, const struct gpussim_vk_frame *fr,
                     int k, int p, int src_plane, int interleaved)
{
    const int sixteen = be->cfg.bytes_per_sample == 2;
    VkImage img;
    VkImageAspectFlags aspect;
    if (fr->nb_images == 1) {
        img = fr->img[0];
        aspect = is_multiplane(fr->format[0]) ? (VkImageAspectFlags)(VK_IMAGE_ASPECT_PLANE_0_BIT << src_plane)
                                              : VK_IMAGE_ASPECT_COLOR_BIT;
    } else {
        img = fr->img[src_plane];
        aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    }
    const VkFormat vf = interleaved ? (sixteen ? VK_FORMAT_R16G16_UNORM : VK_FORMAT_R8G8_UNORM)
                                    : (sixteen ? VK_FORMAT_R16_UNORM : VK_FORMAT_R8_UNORM);
    VkImageViewUsageCreateInfo usage = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
        .usage = VK_IMAGE_USAGE_STORAGE_BIT,
    };
    VkImageViewCreateInfo vci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .pNext = &usage,
        .image = img,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = vf,
        .subresourceRange = { aspect, 0, 1, 0, 1 },
    };
    VkResult res = be->fns.vkCreateImageView(be->dev, &vci, NULL, &s->view[k][p]);
    if (res != VK_SUCCESS) {
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                    "vulkan: cannot view plane %d of the %s frame as format %d (the image needs "
                    "storage usage, and mutable format when multi-planar)",
                    src_plane, k ? "distorted" : "reference", (int)vf);
        return vk_err(be, res, "vkCreateImageView");
    }
    int pipe = vk_pack_image_pipe(be, interleaved, sixteen);
    if (pipe < 0)
        return pipe;
    s->img_pipe[k][p] = pipe;
    VkDescriptorImageInfo ii = { VK_NULL_HANDLE, s->view[k][p], VK_IMAGE_LAYOUT_GENERAL };
    VkWriteDescriptorSet wr = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = s->img_set[k][p],
        .dstBinding = VK_IMAGE_BINDING,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
        .pImageInfo = &ii,
    };
    be->fns.vkUpdateDescriptorSets(be->dev, 1, &wr, 0, NULL);
    return 0;
}

/* Barrier and semaphores of every image of one frame (once per distinct image). */
static void add_frame_sync(struct vk_backend *be, const struct gpussim_vk_frame *fr,
                           struct vk_frame_sync *fs)
{
    for (int i = 0; i < fr->nb_images; i++) {
        int seen = 0;
        for (int j = 0; j < fs->nb_barriers; j++)
            seen |= fs->barrier[j].image == fr->img[i];
        if (seen)
            continue;
        const uint32_t qf = fr->queue_family[i] ? *fr->queue_family[i] : VK_QUEUE_FAMILY_IGNORED;
        /* Images imported from outside Vulkan (DRM PRIME, e.g. mapped VAAPI
         * frames) are owned by the external family: acquire them. Otherwise
         * no ownership transfer: FFmpeg shares its images concurrently
         * between its queue families (where a transfer is invalid), and an
         * exclusive image owned by another family would need a release on
         * that family's queue, which only its owner can record. */
        const int transfer = qf == VK_QUEUE_FAMILY_EXTERNAL || qf == VK_QUEUE_FAMILY_FOREIGN_EXT;
        fs->barrier[fs->nb_barriers++] = (VkImageMemoryBarrier2){
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
            .srcAccessMask = (VkAccessFlags2)*fr->access[i],
            .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            .dstAccessMask = VK_ACCESS_2_SHADER_READ_BIT,
            .oldLayout = *fr->layout[i],
            .newLayout = VK_IMAGE_LAYOUT_GENERAL,
            .srcQueueFamilyIndex = transfer ? qf : VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = transfer ? be->family : VK_QUEUE_FAMILY_IGNORED,
            .image = fr->img[i],
            /* COLOR covers every plane of a multi-planar image */
            .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0,
                                  VK_REMAINING_ARRAY_LAYERS },
        };
        fs->wait[fs->nb_sems] = (VkSemaphoreSubmitInfo){
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
            .semaphore = fr->sem[i],
            .value = *fr->sem_value[i],
            .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        };
        fs->signal[fs->nb_sems] = (VkSemaphoreSubmitInfo){
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
            .semaphore = fr->sem[i],
            .value = *fr->sem_value[i] + 1,
            .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        };
        fs->nb_sems++;
    }
}

/* The new state of every image of a frame, after the submission. */
static void write_back(struct vk_backend *be, const struct gpussim_vk_frame *fr)
{
    for (int i = 0; i < fr->nb_images; i++) {
        /* the same image may be listed by both frames: advance it once */
        *fr->layout[i] = VK_IMAGE_LAYOUT_GENERAL;
        /* VK_ACCESS_2_SHADER_READ_BIT == VK_ACCESS_SHADER_READ_BIT: fits the
         * 32-bit access field of older AVVkFrame too */
        *fr->access[i] = VK_ACCESS_2_SHADER_READ_BIT;
        if (fr->queue_family[i] && (*fr->queue_family[i] == VK_QUEUE_FAMILY_EXTERNAL ||
                                    *fr->queue_family[i] == VK_QUEUE_FAMILY_FOREIGN_EXT))
            *fr->queue_family[i] = be->family; /* acquired above */
    }
}

/* Frame k repeats an earlier one (the same descriptor or first image):
 * locked, waited on and advanced once. */
static int repeats_earlier(const struct gpussim_vk_frame *const *fr, int k)
{
    for (int j = 0; j < k; j++)
        if (fr[j] == fr[k] || fr[j]->img[0] == fr[k]->img[0])
            return 1;
    return 0;
}

int vk_submit_frames(struct vk_backend *be, struct vk_slot *s,
                     const struct gpussim_vk_frame *const *fr, int nb)
{
    const enum gpussim_packing pk = be->cfg.params.format.packing;
    struct vk_frame_sync fs;
    char what[32];
    int dup[VK_MAX_PICS];
    int err;

    for (int k = 0; k < nb; k++) {
        if (!k)
            snprintf(what, sizeof(what), "reference");
        else if (nb > 2)
            snprintf(what, sizeof(what), "distorted #%d", k - 1);
        else
            snprintf(what, sizeof(what), "distorted");
        err = check_frame(be, fr[k], what);
        if (err < 0)
            return err;
    }
    memset(&fs, 0, sizeof(fs));
    vk_frame_release_views(be, s);
    for (int u = 0; u < be->nb_packs; u++) {
        const struct vk_pack *up = &be->packs[u];
        err = make_view(be, s, fr[up->pic], up->pic, up->plane, up->src_plane,
                        up->plane > 0 && pk != GPUSSIM_PACKING_PLANAR);
        if (err < 0)
            goto fail;
    }

    for (int k = 0; k < nb; k++) {
        dup[k] = repeats_earlier(fr, k);
        if (!dup[k] && fr[k]->lock)
            fr[k]->lock(fr[k]->lock_opaque);
    }
    for (int k = 0; k < nb; k++)
        if (!dup[k])
            add_frame_sync(be, fr[k], &fs);
    err = vk_record_and_submit(be, s, &fs);
    if (err >= 0) {
        /* store the values signalled, once per semaphore */
        for (int i = 0; i < fs.nb_sems; i++)
            for (int k = 0; k < nb; k++)
                for (int j = 0; j < fr[k]->nb_images; j++)
                    if (fr[k]->sem[j] == fs.signal[i].semaphore)
                        *fr[k]->sem_value[j] = fs.signal[i].value;
        for (int k = 0; k < nb; k++)
            if (!dup[k])
                write_back(be, fr[k]);
    }
    for (int k = nb - 1; k >= 0; k--)
        if (!dup[k] && fr[k]->unlock)
            fr[k]->unlock(fr[k]->lock_opaque);
    if (err < 0)
        goto fail;
    return 0;

fail:
    vk_frame_release_views(be, s);
    return err;
}
