/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Vulkan errors (VkResult to a negative errno, logged) and buffers with
 * their memory.
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
#include <string.h>

#include "vulkan_buffer.h"

int vk_err(struct vk_backend *be, VkResult res, const char *what)
{
    if (res == VK_SUCCESS)
        return 0;
    gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR, "vulkan: %s failed (VkResult %d)", what, (int)res);
    switch (res) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
        return -ENOMEM;
    case VK_ERROR_INITIALIZATION_FAILED:
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_LAYER_NOT_PRESENT:
        return -ENODEV;
    default:
        return -EIO;
    }
}

static int find_memory_type(const VkPhysicalDeviceMemoryProperties *mp, uint32_t type_bits,
                            VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid)
{
    for (uint32_t i = 0; i < mp->memoryTypeCount; i++)
        if ((type_bits & (1u << i)) && (mp->memoryTypes[i].propertyFlags & want) == want &&
            !(mp->memoryTypes[i].propertyFlags & avoid))
            return (int)i;
    return -1;
}

int vk_buffer_create(struct vk_backend *be, struct vk_buffer *b, VkDeviceSize size, int host)
{
    const struct vk_fns *f = &be->fns;
    VkResult res;
    VkBufferCreateInfo bci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size ? size : 256,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    memset(b, 0, sizeof(*b));
    res = f->vkCreateBuffer(be->dev, &bci, NULL, &b->buf);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkCreateBuffer");
    b->size = bci.size;

    VkMemoryRequirements req;
    f->vkGetBufferMemoryRequirements(be->dev, b->buf, &req);
    int type;
    if (host) {
        /* the host reads results: cached memory when there is some */
        type = find_memory_type(&be->mem_props, req.memoryTypeBits,
                                VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                    VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 0);
        if (type < 0)
            type = find_memory_type(&be->mem_props, req.memoryTypeBits,
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0);
    } else {
        type = find_memory_type(&be->mem_props, req.memoryTypeBits,
                                VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
        if (type < 0)
            type = find_memory_type(&be->mem_props, req.memoryTypeBits, 0, 0);
    }
    if (type < 0) {
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR, "vulkan: no suitable %s memory type",
                    host ? "host-visible" : "device");
        vk_buffer_destroy(be, b);
        return -ENODEV;
    }
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = (uint32_t)type,
    };
    res = f->vkAllocateMemory(be->dev, &mai, NULL, &b->mem);
    if (res != VK_SUCCESS) {
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                    "vulkan: cannot allocate %.1f MiB of %s memory", req.size / 1048576.0,
                    host ? "host-visible" : "device");
        vk_buffer_destroy(be, b);
        return vk_err(be, res, "vkAllocateMemory");
    }
    res = f->vkBindBufferMemory(be->dev, b->buf, b->mem, 0);
    if (res == VK_SUCCESS && host)
        res = f->vkMapMemory(be->dev, b->mem, 0, VK_WHOLE_SIZE, 0, &b->map);
    if (res != VK_SUCCESS) {
        vk_buffer_destroy(be, b);
        return vk_err(be, res, "binding/mapping buffer memory");
    }
    return 0;
}

void vk_buffer_destroy(struct vk_backend *be, struct vk_buffer *b)
{
    if (b->map)
        be->fns.vkUnmapMemory(be->dev, b->mem);
    if (b->buf)
        be->fns.vkDestroyBuffer(be->dev, b->buf, NULL);
    if (b->mem)
        be->fns.vkFreeMemory(be->dev, b->mem, NULL);
    memset(b, 0, sizeof(*b));
}
