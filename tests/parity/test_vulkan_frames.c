/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The Vulkan backend on Vulkan frames, without FFmpeg: the test plays
 * FFmpeg's part. It creates a device, hands it to gpussim as an adopted
 * struct gpussim_vk_device, uploads frames into images the way hwupload does
 * (per-plane R8/R16 images, or one multi-planar NV12/P010 image with mutable
 * format), leaves them in TRANSFER_DST layout with a timeline semaphore at
 * value 1 (no CPU wait), and scores them through struct gpussim_vk_frame.
 *
 * Asserts, per layout and depth:
 *   - every score equals the CPU backend's on the same samples (host
 *     pictures) within spec §5, and the float metrics bit-identical;
 *   - the frame contract: each semaphore value advanced by one, layout
 *     GENERAL and access written back;
 *   - a ladder (one reference, several distorted frames, one of them the
 *     reference's own) bit-identical to the pairs, each frame advanced once;
 *   - 10 create/score/destroy cycles on the adopted device, and the device
 *     destroyed at the end (run under the validation layer, that reports
 *     any object gpussim leaked).
 * Skips (77) without a Vulkan 1.3 device with shaderFloat64.
 */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* all entry points are loaded through vkGetInstanceProcAddr */
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "gpussim/gpussim.h"
#include "gpussim/gpussim_vulkan.h"

#define CHECK(cond, ...)                                          \
    do {                                                          \
        if (!(cond)) {                                            \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);  \
            fprintf(stderr, __VA_ARGS__);                         \
            fputc('\n', stderr);                                  \
            exit(1);                                              \
        }                                                         \
    } while (0)
#define VKCHECK(x) CHECK((x) == VK_SUCCESS, "%s", #x)

static PFN_vkGetInstanceProcAddr gipa;
static VkInstance inst;
static VkPhysicalDevice pdev;
static VkDevice dev;
static VkQueue queue;
static uint32_t family;
static VkCommandPool pool;
static VkPhysicalDeviceMemoryProperties memp;

#define FN(name) static PFN_##name name
FN(vkCreateInstance); FN(vkDestroyInstance); FN(vkEnumeratePhysicalDevices);
FN(vkGetPhysicalDeviceFeatures2); FN(vkGetPhysicalDeviceProperties);
FN(vkGetPhysicalDeviceQueueFamilyProperties); FN(vkCreateDevice); FN(vkDestroyDevice);
FN(vkGetDeviceQueue); FN(vkGetPhysicalDeviceMemoryProperties); FN(vkGetPhysicalDeviceImageFormatProperties);
FN(vkCreateImage); FN(vkDestroyImage); FN(vkGetImageMemoryRequirements); FN(vkAllocateMemory);
FN(vkFreeMemory); FN(vkBindImageMemory); FN(vkCreateBuffer); FN(vkDestroyBuffer);
FN(vkGetBufferMemoryRequirements); FN(vkBindBufferMemory); FN(vkMapMemory); FN(vkCreateSemaphore);
FN(vkDestroySemaphore); FN(vkCreateCommandPool); FN(vkDestroyCommandPool);
FN(vkAllocateCommandBuffers); FN(vkFreeCommandBuffers); FN(vkBeginCommandBuffer); FN(vkEndCommandBuffer);
FN(vkCmdPipelineBarrier2); FN(vkCmdCopyBufferToImage); FN(vkQueueSubmit2); FN(vkDeviceWaitIdle);
#undef FN

static int setup(void)
{
    void *dl = dlopen("libvulkan.so.1", RTLD_NOW);
    if (!dl)
        return -1;
    gipa = (PFN_vkGetInstanceProcAddr)dlsym(dl, "vkGetInstanceProcAddr");
#define LOADI(i, name) name = (PFN_##name)gipa(i, #name)
    LOADI(NULL, vkCreateInstance);
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
    VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
    if (vkCreateInstance(&ici, NULL, &inst) != VK_SUCCESS)
        return -1;
    LOADI(inst, vkDestroyInstance); LOADI(inst, vkEnumeratePhysicalDevices);
    LOADI(inst, vkGetPhysicalDeviceFeatures2); LOADI(inst, vkGetPhysicalDeviceProperties);
    LOADI(inst, vkGetPhysicalDeviceQueueFamilyProperties); LOADI(inst, vkCreateDevice);
    LOADI(inst, vkGetPhysicalDeviceMemoryProperties); LOADI(inst, vkGetPhysicalDeviceImageFormatProperties);
    uint32_t n = 8;
    VkPhysicalDevice pds[8];
    vkEnumeratePhysicalDevices(inst, &n, pds);
    const char *want = getenv("GPUSSIM_TEST_VK_DEVICE"); /* index; default: first usable */
    for (uint32_t i = 0; i < n && !pdev; i++) {
        if (want && (uint32_t)atoi(want) != i)
            continue;
        VkPhysicalDeviceProperties pr;
        vkGetPhysicalDeviceProperties(pds[i], &pr);
        VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
        VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &f13 };
        VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12 };
        vkGetPhysicalDeviceFeatures2(pds[i], &f2);
        if (pr.apiVersion < VK_API_VERSION_1_3 || !f2.features.shaderFloat64 || !f2.features.shaderInt64 ||
            !f12.timelineSemaphore || !f13.synchronization2)
            continue;
        uint32_t nq = 16;
        VkQueueFamilyProperties qf[16];
        vkGetPhysicalDeviceQueueFamilyProperties(pds[i], &nq, qf);
        for (uint32_t q = 0; q < nq; q++)
            if (qf[q].queueFlags & VK_QUEUE_COMPUTE_BIT) {
                pdev = pds[i], family = q;
                printf("device: %s, queue family %u\n", pr.deviceName, q);
                break;
            }
    }
    if (!pdev)
        return -1;
    const float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                    .queueFamilyIndex = family, .queueCount = 1, .pQueuePriorities = &prio };
    static VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                                    .synchronization2 = VK_TRUE };
    static VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                                    .pNext = &f13, .timelineSemaphore = VK_TRUE };
    static VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12,
                                            .features = { .shaderFloat64 = VK_TRUE, .shaderInt64 = VK_TRUE } };
    VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2,
                               .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci };
    if (vkCreateDevice(pdev, &dci, NULL, &dev) != VK_SUCCESS)
        return -1;
    PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)gipa(inst, "vkGetDeviceProcAddr");
#define LOADD(name) name = (PFN_##name)gdpa(dev, #name)
    LOADD(vkDestroyDevice); LOADD(vkGetDeviceQueue); LOADD(vkCreateImage); LOADD(vkDestroyImage);
    LOADD(vkGetImageMemoryRequirements); LOADD(vkAllocateMemory); LOADD(vkFreeMemory);
    LOADD(vkBindImageMemory); LOADD(vkCreateBuffer); LOADD(vkDestroyBuffer);
    LOADD(vkGetBufferMemoryRequirements); LOADD(vkBindBufferMemory); LOADD(vkMapMemory);
    LOADD(vkCreateSemaphore); LOADD(vkDestroySemaphore); LOADD(vkCreateCommandPool);
    LOADD(vkDestroyCommandPool); LOADD(vkAllocateCommandBuffers); LOADD(vkFreeCommandBuffers);
    LOADD(vkBeginCommandBuffer); LOADD(vkEndCommandBuffer); LOADD(vkCmdPipelineBarrier2);
    LOADD(vkCmdCopyBufferToImage); LOADD(vkQueueSubmit2); LOADD(vkDeviceWaitIdle);
    vkGetDeviceQueue(dev, family, 0, &queue);
    vkGetPhysicalDeviceMemoryProperties(pdev, &memp);
    VkCommandPoolCreateInfo cpi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = family };
    VKCHECK(vkCreateCommandPool(dev, &cpi, NULL, &pool));
    return 0;
}

static VkDeviceMemory alloc_mem(VkMemoryRequirements req, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < memp.memoryTypeCount; i++)
        if ((req.memoryTypeBits & (1u << i)) && (memp.memoryTypes[i].propertyFlags & want) == want) {
            VkMemoryAllocateInfo mai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                         .allocationSize = req.size, .memoryTypeIndex = i };
            VkDeviceMemory m;
            VKCHECK(vkAllocateMemory(dev, &mai, NULL, &m));
            return m;
        }
    CHECK(0, "no memory type");
    return VK_NULL_HANDLE;
}

/* One uploaded frame and the state FFmpeg's AVVkFrame would hold. */
struct test_frame {
    int nb_images;
    VkImage img[3];
    VkDeviceMemory mem[3];
    VkImageLayout layout[3];
    uint64_t access[3];
    uint32_t qf[3];
    VkSemaphore sem[3];
    uint64_t value[3];
    VkFormat format[3];
    struct gpussim_vk_frame desc;
};

struct layout_case {
    const char *name;
    int bit_depth, packing, msb, multiplane;
};

/* Host planes: plane s of a frame, samples as stored (words for > 8 bits). */
struct host_frame {
    uint8_t *data[3];
    ptrdiff_t stride[3];
};

static void make_host_frame(struct host_frame *hf, int w, int h, const struct layout_case *lc, int seed,
                            int distorted)
{
    const int bps = lc->bit_depth > 8 ? 2 : 1, cw = (w + 1) / 2, ch = (h + 1) / 2;
    const int np = lc->packing == GPUSSIM_PACKING_PLANAR ? 3 : 2;
    const unsigned maxv = (1u << lc->bit_depth) - 1;
    unsigned r = (unsigned)seed * 2654435761u + 1;
    for (int s = 0; s < 3; s++) {
        hf->data[s] = NULL;
        if (s >= np)
            continue;
        const int pw = s == 0 ? w : lc->packing ? 2 * cw : cw, ph = s == 0 ? h : ch;
        hf->stride[s] = (ptrdiff_t)pw * bps;
        hf->data[s] = malloc((size_t)hf->stride[s] * ph);
        for (int y = 0; y < ph; y++)
            for (int x = 0; x < pw; x++) {
                r = r * 1664525u + 1013904223u;
                unsigned v = ((unsigned)(x * 5 + y * 3 + s * 40) * (maxv / 255 + 1) + (r >> 20)) & maxv;
                if (distorted)
                    v = (v + ((r >> 8) & 15) * (maxv / 255 + 1)) & maxv;
                if (bps == 1)
                    hf->data[s][(size_t)y * hf->stride[s] + x] = (uint8_t)v;
                else
                    ((uint16_t *)(hf->data[s] + (size_t)y * hf->stride[s]))[x] =
                        (uint16_t)(lc->msb ? v << (16 - lc->bit_depth) : v);
            }
    }
}

static VkBuffer pending_b[64];
static VkDeviceMemory pending_m[64];
static VkCommandBuffer pending_c[64];
static int nb_pending;

static void upload(struct test_frame *tf, const struct host_frame *hf, int w, int h, const struct layout_case *lc)
{
    const int bps = lc->bit_depth > 8 ? 2 : 1, cw = (w + 1) / 2, ch = (h + 1) / 2;
    const int np = lc->packing == GPUSSIM_PACKING_PLANAR ? 3 : 2;
    memset(tf, 0, sizeof(*tf));
    tf->nb_images = lc->multiplane ? 1 : np;
    for (int i = 0; i < tf->nb_images; i++) {
        VkFormat f;
        int iw = w, ih = h;
        VkImageCreateFlags flags = 0;
        if (lc->multiplane) {
            f = lc->bit_depth == 8 ? VK_FORMAT_G8_B8R8_2PLANE_420_UNORM : VK_FORMAT_G16_B16R16_2PLANE_420_UNORM;
            flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
        } else {
            const int two = i > 0 && lc->packing != GPUSSIM_PACKING_PLANAR;
            f = bps == 1 ? (two ? VK_FORMAT_R8G8_UNORM : VK_FORMAT_R8_UNORM)
                         : (two ? VK_FORMAT_R16G16_UNORM : VK_FORMAT_R16_UNORM);
            if (i)
                iw = cw, ih = ch;
        }
        tf->format[i] = f;
        VkImageCreateInfo ci = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .flags = flags, .imageType = VK_IMAGE_TYPE_2D,
            .format = f, .extent = { (uint32_t)iw, (uint32_t)ih, 1 }, .mipLevels = 1, .arrayLayers = 1,
            .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
            .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
            .sharingMode = VK_SHARING_MODE_EXCLUSIVE, .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        };
        VKCHECK(vkCreateImage(dev, &ci, NULL, &tf->img[i]));
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(dev, tf->img[i], &req);
        tf->mem[i] = alloc_mem(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        VKCHECK(vkBindImageMemory(dev, tf->img[i], tf->mem[i], 0));
        VkSemaphoreTypeCreateInfo sti = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                          .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE };
        VkSemaphoreCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &sti };
        VKCHECK(vkCreateSemaphore(dev, &sci, NULL, &tf->sem[i]));
    }

    /* staging: the planes back to back */
    size_t total = 0, off[3];
    for (int s = 0; s < np; s++) {
        off[s] = total;
        total += (size_t)hf->stride[s] * (s ? ch : h);
    }
    VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = total,
                               .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT };
    VkBuffer sb;
    VKCHECK(vkCreateBuffer(dev, &bci, NULL, &sb));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, sb, &req);
    VkDeviceMemory sm = alloc_mem(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VKCHECK(vkBindBufferMemory(dev, sb, sm, 0));
    void *map;
    VKCHECK(vkMapMemory(dev, sm, 0, VK_WHOLE_SIZE, 0, &map));
    for (int s = 0; s < np; s++)
        memcpy((uint8_t *)map + off[s], hf->data[s], (size_t)hf->stride[s] * (s ? ch : h));

    VkCommandBufferAllocateInfo cai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                        .commandPool = pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                        .commandBufferCount = 1 };
    VkCommandBuffer cb;
    VKCHECK(vkAllocateCommandBuffers(dev, &cai, &cb));
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    VKCHECK(vkBeginCommandBuffer(cb, &bi));
    VkImageMemoryBarrier2 ib[3];
    for (int i = 0; i < tf->nb_images; i++)
        ib[i] = (VkImageMemoryBarrier2){
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT, .dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = tf->img[i], .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
        };
    VkDependencyInfo di = { .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                            .imageMemoryBarrierCount = (uint32_t)tf->nb_images, .pImageMemoryBarriers = ib };
    vkCmdPipelineBarrier2(cb, &di);
    for (int s = 0; s < np; s++) {
        const int pw = s == 0 ? w : cw, ph = s == 0 ? h : ch;
        VkBufferImageCopy c = {
            .bufferOffset = off[s],
            .imageSubresource = { lc->multiplane ? (VkImageAspectFlags)(VK_IMAGE_ASPECT_PLANE_0_BIT << s)
                                                 : VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
            .imageExtent = { (uint32_t)pw, (uint32_t)ph, 1 },
        };
        vkCmdCopyBufferToImage(cb, sb, tf->img[lc->multiplane ? 0 : s], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &c);
    }
    VKCHECK(vkEndCommandBuffer(cb));
    /* signal value 1 and do not wait: gpussim must wait on the semaphores */
    VkSemaphoreSubmitInfo sig[3];
    for (int i = 0; i < tf->nb_images; i++) {
        sig[i] = (VkSemaphoreSubmitInfo){ .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                          .semaphore = tf->sem[i], .value = 1,
                                          .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
        tf->layout[i] = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        tf->access[i] = VK_ACCESS_2_TRANSFER_WRITE_BIT;
        tf->qf[i] = VK_QUEUE_FAMILY_IGNORED;
        tf->value[i] = 1;
    }
    VkCommandBufferSubmitInfo cbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cb };
    VkSubmitInfo2 si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1,
                         .pCommandBufferInfos = &cbi, .signalSemaphoreInfoCount = (uint32_t)tf->nb_images,
                         .pSignalSemaphoreInfos = sig };
    VKCHECK(vkQueueSubmit2(queue, 1, &si, VK_NULL_HANDLE));
    /* the staging buffer is freed after the device is idle (flush_uploads) */
    struct gpussim_vk_frame *d = &tf->desc;
    d->nb_images = tf->nb_images;
    for (int i = 0; i < tf->nb_images; i++) {
        d->img[i] = tf->img[i];
        d->format[i] = tf->format[i];
        d->layout[i] = &tf->layout[i];
        d->access[i] = &tf->access[i];
        d->queue_family[i] = &tf->qf[i];
        d->sem[i] = tf->sem[i];
        d->sem_value[i] = &tf->value[i];
    }
    CHECK(nb_pending < 64, "too many uploads in flight");
    pending_b[nb_pending] = sb, pending_m[nb_pending] = sm, pending_c[nb_pending] = cb;
    nb_pending++;
}

/* Frees the upload staging buffers once the device is idle. */
static void flush_uploads(void)
{
    vkDeviceWaitIdle(dev);
    for (int i = 0; i < nb_pending; i++) {
        vkDestroyBuffer(dev, pending_b[i], NULL);
        vkFreeMemory(dev, pending_m[i], NULL);
        vkFreeCommandBuffers(dev, pool, 1, &pending_c[i]);
    }
    nb_pending = 0;
}

static void free_frame(struct test_frame *tf)
{
    for (int i = 0; i < tf->nb_images; i++) {
        vkDestroyImage(dev, tf->img[i], NULL);
        vkFreeMemory(dev, tf->mem[i], NULL);
        vkDestroySemaphore(dev, tf->sem[i], NULL);
    }
}

static int format_supported(const struct layout_case *lc)
{
    if (!lc->multiplane)
        return 1;
    VkImageFormatProperties ifp;
    const VkFormat f = lc->bit_depth == 8 ? VK_FORMAT_G8_B8R8_2PLANE_420_UNORM : VK_FORMAT_G16_B16R16_2PLANE_420_UNORM;
    return vkGetPhysicalDeviceImageFormatProperties(pdev, f, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                    VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                                        VK_IMAGE_USAGE_SAMPLED_BIT,
                                                    VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT |
                                                        VK_IMAGE_CREATE_EXTENDED_USAGE_BIT,
                                                    &ifp) == VK_SUCCESS;
}

static void logcb(void *o, enum gpussim_log_level l, const char *m)
{
    (void)o;
    if (l <= GPUSSIM_LOG_WARNING)
        fprintf(stderr, "gpussim: %s\n", m);
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0); /* progress survives a crash */
    if (setup() < 0) {
        printf("SKIP: no Vulkan 1.3 device with shaderFloat64/shaderInt64\n");
        return 77;
    }
    static const struct layout_case cases[] = {
        { "yuv420p (3 R8 images)", 8, GPUSSIM_PACKING_PLANAR, 0, 0 },
        { "yuv420p10 (3 R16 images)", 10, GPUSSIM_PACKING_PLANAR, 0, 0 },
        { "yuv420p16 (3 R16 images)", 16, GPUSSIM_PACKING_PLANAR, 0, 0 },
        { "nv12 (R8 + R8G8 images)", 8, GPUSSIM_PACKING_SEMIPLANAR_UV, 0, 0 },
        { "p010 (R16 + R16G16 images)", 10, GPUSSIM_PACKING_SEMIPLANAR_UV, 1, 0 },
        { "nv12 (one multi-planar image)", 8, GPUSSIM_PACKING_SEMIPLANAR_UV, 0, 1 },
        { "p012 (one multi-planar G16 image)", 12, GPUSSIM_PACKING_SEMIPLANAR_UV, 1, 1 },
    };
    const int w = 386, h = 354, nf = 3; /* chroma >= 176 for MS-SSIM, odd halves */
    int failures = 0, tested = 0;
    struct gpussim_vk_device vkd = {
        .get_proc_addr = gipa, .instance = inst, .phys_dev = pdev, .device = dev,
        .queue_family = family, .queue_count = 1,
    };
    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                             .synchronization2 = VK_TRUE };
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .pNext = &f13, .timelineSemaphore = VK_TRUE };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12,
                                     .features = { .shaderFloat64 = VK_TRUE, .shaderInt64 = VK_TRUE } };
    vkd.features = &f2;

    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const struct layout_case *lc = &cases[c];
        if (!format_supported(lc)) {
            printf("%-36s not supported by this device: skipped\n", lc->name);
            continue;
        }
        struct gpussim_params p;
        gpussim_default_params(&p);
        p.format = (struct gpussim_format){ w, h, lc->bit_depth, GPUSSIM_CHROMA_420, lc->packing, lc->msb };
        p.enable_lcs = 1;
        p.planes = GPUSSIM_PLANES_ALL;
        p.log_cb = logcb;
        p.log_level = GPUSSIM_LOG_WARNING;

        struct host_frame hr[3], hd[3];
        struct test_frame tr[3], td[3];
        for (int f = 0; f < nf; f++) {
            make_host_frame(&hr[f], w, h, lc, 3 * f + (int)c, 0);
            make_host_frame(&hd[f], w, h, lc, 3 * f + (int)c, 1);
        }
        /* CPU reference on host pictures */
        GpussimContext *cpu = NULL;
        p.backend = GPUSSIM_BACKEND_CPU;
        CHECK(gpussim_create(&cpu, &p) == 0, "cpu create");
        const char *const *names; /* owned by a context: taken from the Vulkan one below */
        const int nv = gpussim_score_names(cpu, &names);
        double *ref_vals = calloc((size_t)nv * nf, sizeof(double));
        for (int f = 0; f < nf; f++) {
            struct gpussim_picture a = { 0 }, b = { 0 };
            for (int s = 0; s < 3; s++) {
                a.data[s] = hr[f].data[s], a.stride[s] = hr[f].stride[s];
                b.data[s] = hd[f].data[s], b.stride[s] = hd[f].stride[s];
            }
            CHECK(gpussim_submit(cpu, &a, &b) >= 0, "cpu submit");
            struct gpussim_result res;
            CHECK(gpussim_collect(cpu, &res, 1) == 1, "cpu collect");
            memcpy(ref_vals + (size_t)f * nv, res.values, sizeof(double) * nv);
        }
        gpussim_destroy(&cpu);

        /* Vulkan frames, all frames submitted before any is collected */
        p.backend = GPUSSIM_BACKEND_VULKAN;
        p.hw_device = &vkd;
        GpussimContext *vk = NULL;
        CHECK(gpussim_create(&vk, &p) == 0, "vulkan create on the adopted device");
        CHECK(gpussim_score_names(vk, &names) == nv, "score lists differ");
        for (int f = 0; f < nf; f++) {
            upload(&tr[f], &hr[f], w, h, lc);
            upload(&td[f], &hd[f], w, h, lc);
        }
        for (int f = 0; f < nf; f++) {
            struct gpussim_picture a = { .memory = GPUSSIM_MEMORY_VULKAN, .hw = &tr[f].desc };
            struct gpussim_picture b = { .memory = GPUSSIM_MEMORY_VULKAN, .hw = &td[f].desc };
            CHECK(gpussim_submit(vk, &a, &b) >= 0, "vulkan submit of frame %d (%s)", f, lc->name);
            for (int i = 0; i < tr[f].nb_images; i++) {
                CHECK(tr[f].value[i] == 2 && td[f].value[i] == 2, "semaphore value not advanced to 2");
                CHECK(tr[f].layout[i] == VK_IMAGE_LAYOUT_GENERAL, "layout not written back");
                CHECK(tr[f].access[i] == VK_ACCESS_2_SHADER_READ_BIT, "access not written back");
            }
        }
        int same = 0, bad = 0;
        double maxd = 0;
        for (int f = 0; f < nf; f++) {
            struct gpussim_result res;
            CHECK(gpussim_collect(vk, &res, 1) == 1, "vulkan collect");
            for (int i = 0; i < nv; i++) {
                const double a = ref_vals[(size_t)f * nv + i], b = res.values[i];
                const double d = fabs(a - b);
                const int integer_ssim = !strncmp(names[i], "ssim", 4);
                maxd = d > maxd ? d : maxd;
                if (!memcmp(&a, &b, sizeof(a)))
                    same++;
                else if (!(d <= (integer_ssim ? 1e-9 : 5e-5)) || !integer_ssim) {
                    /* float metrics are bit-identical on this backend: any
                     * difference there is a bug, even inside the tolerance */
                    fprintf(stderr, "  %s frame %d %s: cpu %.17g vulkan %.17g\n", lc->name, f, names[i], a, b);
                    bad++;
                }
            }
        }
        gpussim_destroy(&vk);
        printf("%-36s %3d/%3d scores bit-identical to the CPU backend, max |diff| %.3g, %d failure(s)\n",
               lc->name, same, nv * nf, maxd, bad);
        failures += bad;
        tested++;
        flush_uploads();
        for (int f = 0; f < nf; f++) {
            free_frame(&tr[f]);
            free_frame(&td[f]);
            for (int s = 0; s < 3; s++) {
                free(hr[f].data[s]);
                free(hd[f].data[s]);
            }
        }
        free(ref_vals);
    }

    /* A ladder of Vulkan frames (one reference, LADDER_N renditions; the
     * second rendition is the reference's own frame): every value
     * bit-identical to the Vulkan backend's pairs on the same samples as
     * host pictures, and each frame's semaphores advanced once per ladder
     * frame, also the frame listed twice. */
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        enum {
            LADDER_N = 3,
            LADDER_FRAMES = 2
        };
        const struct layout_case *lc = &cases[c];
        if (lc->packing == GPUSSIM_PACKING_PLANAR ? lc->bit_depth != 8
                                                  : !lc->msb && !lc->multiplane)
            continue; /* yuv420p, p010, one multi-planar nv12 and p012 image */
        if (!format_supported(lc))
            continue;
        struct gpussim_params p;
        gpussim_default_params(&p);
        p.format = (struct gpussim_format){ w,           h,      lc->bit_depth, GPUSSIM_CHROMA_420,
                                            lc->packing, lc->msb };
        p.enable_lcs = 1;
        p.planes = GPUSSIM_PLANES_ALL;
        p.log_cb = logcb;
        p.log_level = GPUSSIM_LOG_WARNING;
        p.backend = GPUSSIM_BACKEND_VULKAN;
        p.hw_device = &vkd;

        struct host_frame hr[LADDER_FRAMES], hd[LADDER_FRAMES][LADDER_N];
        for (int f = 0; f < LADDER_FRAMES; f++) {
            make_host_frame(&hr[f], w, h, lc, 50 + f, 0);
            for (int k = 0; k < LADDER_N; k++)
                if (k == 1)
                    hd[f][k] = hr[f];
                else
                    make_host_frame(&hd[f][k], w, h, lc, 60 + 7 * f + k, 1);
        }
        /* the oracle: each rendition as pairs of host pictures */
        double *pair = NULL;
        int nv = 0;
        for (int k = 0; k < LADDER_N; k++) {
            GpussimContext *vk = NULL;
            CHECK(gpussim_create(&vk, &p) == 0, "pair context for the ladder check");
            const char *const *names;
            nv = gpussim_score_names(vk, &names);
            if (!pair)
                pair = calloc((size_t)nv * LADDER_N * LADDER_FRAMES, sizeof(double));
            for (int f = 0; f < LADDER_FRAMES; f++) {
                struct gpussim_picture a = { 0 }, b = { 0 };
                for (int s = 0; s < 3; s++) {
                    a.data[s] = hr[f].data[s], a.stride[s] = hr[f].stride[s];
                    b.data[s] = hd[f][k].data[s], b.stride[s] = hd[f][k].stride[s];
                }
                CHECK(gpussim_submit(vk, &a, &b) >= 0, "pair submit");
                struct gpussim_result res;
                CHECK(gpussim_collect(vk, &res, 1) == 1, "pair collect");
                memcpy(pair + ((size_t)f * LADDER_N + k) * nv, res.values, sizeof(double) * nv);
            }
            gpussim_destroy(&vk);
        }

        /* the ladder on Vulkan frames, both frames submitted before either is collected */
        struct test_frame tr[LADDER_FRAMES], td[LADDER_FRAMES][LADDER_N];
        p.nb_distorted = LADDER_N;
        GpussimContext *vk = NULL;
        CHECK(gpussim_create(&vk, &p) == 0, "vulkan ladder context on the adopted device");
        for (int f = 0; f < LADDER_FRAMES; f++) {
            upload(&tr[f], &hr[f], w, h, lc);
            for (int k = 0; k < LADDER_N; k++)
                if (k != 1)
                    upload(&td[f][k], &hd[f][k], w, h, lc);
        }
        for (int f = 0; f < LADDER_FRAMES; f++) {
            struct gpussim_picture a = { .memory = GPUSSIM_MEMORY_VULKAN, .hw = &tr[f].desc };
            struct gpussim_picture b[LADDER_N];
            const struct gpussim_picture *d[LADDER_N];
            for (int k = 0; k < LADDER_N; k++) {
                b[k] = (struct gpussim_picture){ .memory = GPUSSIM_MEMORY_VULKAN,
                                                 .hw = k == 1 ? &tr[f].desc : &td[f][k].desc };
                d[k] = &b[k];
            }
            CHECK(gpussim_submit_multi(vk, &a, d, LADDER_N) == f, "ladder submit of frame %d (%s)",
                  f, lc->name);
            for (int i = 0; i < tr[f].nb_images; i++) {
                CHECK(tr[f].value[i] == 2,
                      "ladder: reference semaphore %d at %llu, expected 2 (once)", i,
                      (unsigned long long)tr[f].value[i]);
                CHECK(tr[f].layout[i] == VK_IMAGE_LAYOUT_GENERAL,
                      "ladder: layout not written back");
                for (int k = 0; k < LADDER_N; k++)
                    if (k != 1)
                        CHECK(td[f][k].value[i] == 2 &&
                                  td[f][k].layout[i] == VK_IMAGE_LAYOUT_GENERAL,
                              "ladder: rendition %d's state not advanced once", k);
            }
        }
        int same = 0;
        for (int f = 0; f < LADDER_FRAMES; f++) {
            struct gpussim_result res;
            CHECK(gpussim_collect(vk, &res, 1) == 1, "ladder collect");
            CHECK(res.index == (uint64_t)f && res.nb_values == nv * LADDER_N,
                  "ladder result %d: %d values", f, res.nb_values);
            for (int i = 0; i < nv * LADDER_N; i++) {
                const double a = pair[(size_t)f * nv * LADDER_N + i], b = res.values[i];
                if (!memcmp(&a, &b, sizeof(a)))
                    same++;
                else
                    fprintf(stderr,
                            "  ladder %s frame %d rendition %d value %d: pair %.17g ladder %.17g\n",
                            lc->name, f, i / nv, i % nv, a, b);
            }
        }
        gpussim_destroy(&vk);
        printf("ladder of %d, %-29s %3d/%3d values bit-identical to the pairs\n", LADDER_N,
               lc->name, same, nv * LADDER_N * LADDER_FRAMES);
        failures += nv * LADDER_N * LADDER_FRAMES - same;
        tested++;
        flush_uploads();
        for (int f = 0; f < LADDER_FRAMES; f++) {
            free_frame(&tr[f]);
            for (int k = 0; k < LADDER_N; k++)
                if (k != 1)
                    free_frame(&td[f][k]);
            for (int s = 0; s < 3; s++) {
                free(hr[f].data[s]);
                for (int k = 0; k < LADDER_N; k++)
                    if (k != 1)
                        free(hd[f][k].data[s]);
            }
        }
        free(pair);
    }

    /* malformed frame descriptors: a clear -EINVAL, the frame state untouched */
    {
        const struct layout_case lc = { "yuv420p", 8, GPUSSIM_PACKING_PLANAR, 0, 0 };
        struct gpussim_params p;
        gpussim_default_params(&p);
        p.format = (struct gpussim_format){ w, h, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 };
        p.planes = GPUSSIM_PLANES_ALL;
        p.backend = GPUSSIM_BACKEND_VULKAN;
        p.hw_device = &vkd;
        p.log_level = GPUSSIM_LOG_ERROR;
        GpussimContext *vk = NULL;
        CHECK(gpussim_create(&vk, &p) == 0, "create for the error cases");
        struct host_frame hf;
        struct test_frame tf;
        make_host_frame(&hf, w, h, &lc, 1, 0);
        upload(&tf, &hf, w, h, &lc);
        struct gpussim_vk_frame bad[3];
        bad[0] = tf.desc, bad[0].nb_images = 0;                  /* no image */
        bad[1] = tf.desc, bad[1].nb_images = 2;                  /* 3 planes scored */
        bad[2] = tf.desc, bad[2].sem[1] = VK_NULL_HANDLE;        /* no semaphore */
        for (int i = 0; i < 3; i++) {
            struct gpussim_picture a = { .memory = GPUSSIM_MEMORY_VULKAN, .hw = &bad[i] };
            const int64_t r = gpussim_submit(vk, &a, &a);
            CHECK(r == -EINVAL, "malformed frame %d: submit returned %lld, expected -EINVAL", i,
                  (long long)r);
            CHECK(tf.value[0] == 1 && tf.layout[0] == VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                  "malformed frame %d changed the frame state", i);
        }
        /* the same frame as reference and distorted: one wait/signal per image */
        struct gpussim_picture a = { .memory = GPUSSIM_MEMORY_VULKAN, .hw = &tf.desc };
        CHECK(gpussim_submit(vk, &a, &a) >= 0, "frame scored against itself");
        struct gpussim_result res;
        CHECK(gpussim_collect(vk, &res, 1) == 1, "collect of the self comparison");
        CHECK(tf.value[0] == 2, "self comparison: semaphore value %llu, expected 2",
              (unsigned long long)tf.value[0]);
        const char *const *names;
        gpussim_score_names(vk, &names);
        for (int i = 0; i < res.nb_values; i++)
            if (!strcmp(names[i], "float_ssim") || !strcmp(names[i], "ssim") ||
                !strcmp(names[i], "float_ms_ssim"))
                CHECK(res.values[i] == 1.0, "%s of a frame against itself is %.17g", names[i],
                      res.values[i]);
        gpussim_destroy(&vk);
        flush_uploads();
        free_frame(&tf);
        for (int s = 0; s < 3; s++)
            free(hf.data[s]);
        printf("malformed frames rejected with -EINVAL; self comparison scores 1\n");
    }

    /* create/destroy cycles on the adopted device: nothing may outlive a context */
    for (int i = 0; i < 10; i++) {
        struct gpussim_params p;
        gpussim_default_params(&p);
        p.format = (struct gpussim_format){ w, h, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 };
        p.backend = GPUSSIM_BACKEND_VULKAN;
        p.hw_device = &vkd;
        p.log_cb = logcb;
        GpussimContext *vk = NULL;
        CHECK(gpussim_create(&vk, &p) == 0, "cycle %d create", i);
        gpussim_destroy(&vk);
        CHECK(vk == NULL, "destroy did not clear the handle");
    }
    vkDeviceWaitIdle(dev);
    vkDestroyCommandPool(dev, pool, NULL);
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(inst, NULL);
    CHECK(tested > 0, "no layout could be tested");
    printf("%s: %d layout(s), %d failure(s)\n", failures ? "FAIL" : "PASS", tested, failures);
    return failures ? 1 : 0;
}
