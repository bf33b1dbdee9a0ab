/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The Vulkan entry points the backend uses, as an X-macro list, loaded at run
 * time (libvulkan.so.1 through dlopen, or an adopted device's
 * vkGetInstanceProcAddr): the library has no link-time Vulkan dependency.
 * The lowest layer of the Vulkan backend (see hwctx/vulkan/vulkan_internal.h).
 */
#ifndef GPUSSIM_HWCTX_VULKAN_FNS_H
#define GPUSSIM_HWCTX_VULKAN_FNS_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES /* no link-time libvulkan: everything is loaded */
#endif
#include <vulkan/vulkan.h>

/* Loaded with vkGetInstanceProcAddr(NULL, ...) */
#define VK_GLOBAL_FNS(X)                 \
    X(vkCreateInstance)                  \
    X(vkEnumerateInstanceVersion)        \
    X(vkEnumerateInstanceLayerProperties)

/* Loaded with vkGetInstanceProcAddr(instance, ...) */
#define VK_INSTANCE_FNS(X)                       \
    X(vkDestroyInstance)                         \
    X(vkEnumeratePhysicalDevices)                \
    X(vkGetPhysicalDeviceProperties)             \
    X(vkGetPhysicalDeviceFeatures2)              \
    X(vkGetPhysicalDeviceQueueFamilyProperties)  \
    X(vkGetPhysicalDeviceMemoryProperties)       \
    X(vkCreateDevice)                            \
    X(vkGetDeviceProcAddr)

/* Loaded with vkGetDeviceProcAddr(device, ...) */
#define VK_DEVICE_FNS(X)                \
    X(vkDestroyDevice)                  \
    X(vkGetDeviceQueue)                 \
    X(vkCreateBuffer)                   \
    X(vkDestroyBuffer)                  \
    X(vkGetBufferMemoryRequirements)    \
    X(vkAllocateMemory)                 \
    X(vkFreeMemory)                     \
    X(vkBindBufferMemory)               \
    X(vkMapMemory)                      \
    X(vkUnmapMemory)                    \
    X(vkCreateShaderModule)             \
    X(vkDestroyShaderModule)            \
    X(vkCreatePipelineCache)            \
    X(vkDestroyPipelineCache)           \
    X(vkCreateComputePipelines)         \
    X(vkDestroyPipeline)                \
    X(vkCreatePipelineLayout)           \
    X(vkDestroyPipelineLayout)          \
    X(vkCreateDescriptorSetLayout)      \
    X(vkDestroyDescriptorSetLayout)     \
    X(vkCreateDescriptorPool)           \
    X(vkDestroyDescriptorPool)          \
    X(vkAllocateDescriptorSets)         \
    X(vkUpdateDescriptorSets)           \
    X(vkCreateCommandPool)              \
    X(vkDestroyCommandPool)             \
    X(vkAllocateCommandBuffers)         \
    X(vkBeginCommandBuffer)             \
    X(vkEndCommandBuffer)               \
    X(vkCmdBindPipeline)                \
    X(vkCmdBindDescriptorSets)          \
    X(vkCmdPushConstants)               \
    X(vkCmdDispatch)                    \
    X(vkCmdPipelineBarrier2)            \
    X(vkCmdCopyBuffer)                  \
    X(vkCmdWriteTimestamp2)             \
    X(vkCmdResetQueryPool)              \
    X(vkCreateQueryPool)                \
    X(vkDestroyQueryPool)               \
    X(vkGetQueryPoolResults)            \
    X(vkQueueSubmit2)                   \
    X(vkQueueWaitIdle)                  \
    X(vkCreateSemaphore)                \
    X(vkDestroySemaphore)               \
    X(vkGetSemaphoreCounterValue)       \
    X(vkWaitSemaphores)                 \
    X(vkCreateImageView)                \
    X(vkDestroyImageView)

struct vk_fns {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
#define VK_FN_MEMBER(name) PFN_##name name;
    VK_GLOBAL_FNS(VK_FN_MEMBER)
    VK_INSTANCE_FNS(VK_FN_MEMBER)
    VK_DEVICE_FNS(VK_FN_MEMBER)
#undef VK_FN_MEMBER
};

#endif /* GPUSSIM_HWCTX_VULKAN_FNS_H */
