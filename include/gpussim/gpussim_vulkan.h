/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * gpussim — Vulkan interop types: plain Vulkan handles, no FFmpeg types.
 *
 * To run in an existing device (FFmpeg's AVVulkanDeviceContext), pass a
 * struct gpussim_vk_device as gpussim_params.hw_device. To score images that
 * live on that device, submit pictures with memory = GPUSSIM_MEMORY_VULKAN and
 * hw pointing at a struct gpussim_vk_frame.
 *
 * Synchronisation contract (the AVVkFrame contract, made explicit): for each
 * image i the backend waits on sem[i] at *sem_value[i], transitions from
 * *layout[i] / *access[i], submits its reads, signals sem[i] at
 * *sem_value[i] + 1 and stores that value, and writes back the new layout,
 * access and queue family — all between lock() and unlock() when those are
 * set. The caller must keep the images alive until the frame is collected.
 */
#ifndef GPUSSIM_GPUSSIM_VULKAN_H
#define GPUSSIM_GPUSSIM_VULKAN_H

#include <stdint.h>
#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gpussim_vk_device {
    PFN_vkGetInstanceProcAddr get_proc_addr;
    VkInstance instance;
    VkPhysicalDevice phys_dev;
    VkDevice device;
    uint32_t queue_family; /**< a family with VK_QUEUE_COMPUTE_BIT */
    uint32_t queue_count;  /**< queues usable in that family (>= 1) */
    /** Device extensions the device was created with. Not read: the backend
     *  needs no extension beyond Vulkan 1.3 core; it checks the features it
     *  needs through `features` below. */
    const char *const *extensions;
    int nb_extensions;
    /** Optional external queue lock (FFmpeg's lock_queue/unlock_queue); NULL = none. */
    void (*lock_queue)(void *opaque, uint32_t family, uint32_t index);
    void (*unlock_queue)(void *opaque, uint32_t family, uint32_t index);
    void *lock_opaque;
    /** Optional: the features the device was created with (FFmpeg's
     *  AVVulkanDeviceContext.device_features, with its pNext chain). When
     *  set, init fails with a clear message if shaderFloat64, shaderInt64,
     *  timelineSemaphore or synchronization2 is off; NULL = assumed on. */
    const VkPhysicalDeviceFeatures2 *features;
};

#define GPUSSIM_VK_MAX_IMAGES 4

struct gpussim_vk_frame {
    /** 1 for one multi-plane image (planes read through per-plane views),
     *  else one image per plane (FFmpeg's default for yuv420p etc.). */
    int nb_images;
    VkImage img[GPUSSIM_VK_MAX_IMAGES];
    /** The image's own format (multi-plane, or per-plane: R8, R16, R8G8, R16G16...). */
    VkFormat format[GPUSSIM_VK_MAX_IMAGES];
    /** Current state, read and written back by the backend. */
    VkImageLayout *layout[GPUSSIM_VK_MAX_IMAGES];
    /** Current access mask; VkAccessFlags2 bits (a superset of VkAccessFlags). */
    uint64_t *access[GPUSSIM_VK_MAX_IMAGES];
    uint32_t *queue_family[GPUSSIM_VK_MAX_IMAGES];
    /** Timeline semaphores and their current values. */
    VkSemaphore sem[GPUSSIM_VK_MAX_IMAGES];
    uint64_t *sem_value[GPUSSIM_VK_MAX_IMAGES];
    /** Optional frame lock (FFmpeg's lock_frame/unlock_frame); NULL = none. */
    void (*lock)(void *opaque);
    void (*unlock)(void *opaque);
    void *lock_opaque;
};

#ifdef __cplusplus
}
#endif

#endif /* GPUSSIM_GPUSSIM_VULKAN_H */
