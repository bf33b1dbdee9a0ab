/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The Vulkan backend: any Vulkan 1.3 device with shaderFloat64 and
 * shaderInt64 (NVIDIA, AMD, Intel, Mesa's lavapipe).
 *
 * Device: an adopted one (struct gpussim_vk_device, e.g. FFmpeg's
 * AVVulkanDeviceContext unpacked by the filter), or our own instance and
 * device. libvulkan is loaded with dlopen: no link-time dependency.
 *
 * A frame is a fixed "program" of compute dispatches built once at init
 * (hwctx/vulkan/vulkan_plan.c): per metric filters reading the staged
 * pictures (Vulkan frames packed into them first) -> per-workgroup
 * partial sums. Intermediate buffers are shared by all slots: every command
 * buffer starts with a full compute barrier, which orders it after
 * everything submitted before it on the queue. A slot owns its command
 * buffer, its host-visible staging/results buffer, its timestamp queries and
 * the image views of the Vulkan frames it reads. Submission signals one
 * timeline semaphore; wait() checks it (no CPU wait in submit), then adds the
 * partials on the host in a fixed order.
 *
 * A ladder context (nb_distorted > 1) builds a ladder program instead: a
 * frame's one command buffer holds the reference and every distorted
 * picture, the reference's terms computed once (vulkan_plan.c,
 * build_ladder_program); submit_multi / wait_multi run it.
 *
 * Layers of the Vulkan backend, each including only those below it:
 *   vulkan_fns.h       the entry points (X-macro lists)
 *   vulkan_internal.h  the backend's state (types only)
 *   vulkan_buffer.[ch] errors and buffers
 *   vulkan_plan.[ch]   pipelines, the frame's dispatches, submit, collect
 *   vulkan_frame.[ch]  Vulkan frames: views and sync with their producers
 *   vulkan.c           instance, device, slots: the backend's entry points
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpussim/gpussim_vulkan.h"
#include "src/backend.h"
#include "vulkan_frame.h"

/* ---- loading and device selection ------------------------------------------ */

static int load_global(struct vk_fns *f, void **dl, const struct gpussim_logger *log, int quiet)
{
    *dl = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!*dl)
        *dl = dlopen("libvulkan.so", RTLD_NOW | RTLD_LOCAL);
    if (!*dl) {
        gpussim_log(log, quiet ? GPUSSIM_LOG_VERBOSE : GPUSSIM_LOG_ERROR,
                    "vulkan: cannot load libvulkan.so.1 (%s)", dlerror());
        return -ENODEV;
    }
    f->vkGetInstanceProcAddr = (PFN_vkGetInstanceProcAddr)dlsym(*dl, "vkGetInstanceProcAddr");
    if (!f->vkGetInstanceProcAddr) {
        gpussim_log(log, quiet ? GPUSSIM_LOG_VERBOSE : GPUSSIM_LOG_ERROR,
                    "vulkan: libvulkan.so.1 has no vkGetInstanceProcAddr");
        return -ENODEV;
    }
#define LOAD(name) f->name = (PFN_##name)f->vkGetInstanceProcAddr(NULL, #name);
    VK_GLOBAL_FNS(LOAD)
#undef LOAD
    if (!f->vkCreateInstance) {
        gpussim_log(log, quiet ? GPUSSIM_LOG_VERBOSE : GPUSSIM_LOG_ERROR,
                    "vulkan: the loader has no vkCreateInstance");
        return -ENODEV;
    }
    return 0;
}

static int load_instance(struct vk_fns *f, VkInstance inst, const struct gpussim_logger *log)
{
#define LOAD(name)                                                                  \
    f->name = (PFN_##name)f->vkGetInstanceProcAddr(inst, #name);                    \
    if (!f->name) {                                                                 \
        gpussim_log(log, GPUSSIM_LOG_ERROR, "vulkan: instance function %s missing", #name); \
        return -ENODEV;                                                             \
    }
    VK_INSTANCE_FNS(LOAD)
#undef LOAD
    return 0;
}

static int load_device(struct vk_fns *f, VkDevice dev, const struct gpussim_logger *log)
{
#define LOAD(name)                                                                  \
    f->name = (PFN_##name)f->vkGetDeviceProcAddr(dev, #name);                       \
    if (!f->name) {                                                                 \
        gpussim_log(log, GPUSSIM_LOG_ERROR,                                         \
                    "vulkan: device function %s missing (Vulkan 1.3 is required)", #name); \
        return -ENODEV;                                                             \
    }
    VK_DEVICE_FNS(LOAD)
#undef LOAD
    return 0;
}

static int create_instance(struct vk_fns *f, VkInstance *inst, const struct gpussim_logger *log,
                           int quiet)
{
    uint32_t version = VK_API_VERSION_1_0;
    if (f->vkEnumerateInstanceVersion)
        f->vkEnumerateInstanceVersion(&version);
    if (version < VK_API_VERSION_1_3) {
        gpussim_log(log, quiet ? GPUSSIM_LOG_VERBOSE : GPUSSIM_LOG_ERROR,
                    "vulkan: the loader supports Vulkan %u.%u; 1.3 is required",
                    VK_API_VERSION_MAJOR(version), VK_API_VERSION_MINOR(version));
        return -ENODEV;
    }
    /* GPUSSIM_VK_VALIDATION=1 turns the Khronos validation layer on (tests) */
    const char *layers[1];
    uint32_t nb_layers = 0;
    const char *val = getenv("GPUSSIM_VK_VALIDATION");
    if (val && *val == '1' && f->vkEnumerateInstanceLayerProperties) {
        uint32_t n = 0;
        f->vkEnumerateInstanceLayerProperties(&n, NULL);
        VkLayerProperties *lp = calloc(n ? n : 1, sizeof(*lp));
        if (lp && f->vkEnumerateInstanceLayerProperties(&n, lp) >= 0)
            for (uint32_t i = 0; i < n; i++)
                if (!strcmp(lp[i].layerName, "VK_LAYER_KHRONOS_validation"))
                    layers[nb_layers++] = "VK_LAYER_KHRONOS_validation";
        free(lp);
        if (!nb_layers)
            gpussim_log(log, GPUSSIM_LOG_WARNING,
                        "vulkan: GPUSSIM_VK_VALIDATION set but VK_LAYER_KHRONOS_validation is "
                        "not installed");
    }
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "gpussim",
        .pEngineName = "gpussim",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
        .enabledLayerCount = nb_layers,
        .ppEnabledLayerNames = layers,
    };
    VkResult res = f->vkCreateInstance(&ici, NULL, inst);
    if (res != VK_SUCCESS) {
        gpussim_log(log, quiet ? GPUSSIM_LOG_VERBOSE : GPUSSIM_LOG_ERROR,
                    "vulkan: vkCreateInstance failed (VkResult %d)", (int)res);
        return -ENODEV;
    }
    return load_instance(f, *inst, log);
}

/*
 * One loader and one instance per process, for the contexts that create
 * their own device (devices stay per context). Why not an instance per
 * context: destroying the last instance makes the loader unload the driver,
 * and NVIDIA's (libnvidia-tls) takes glibc static TLS that an unload never
 * returns; after a few create/destroy cycles loading it fails ("cannot
 * allocate memory in static TLS block") and the device vanishes. So the
 * instance is created on first use and kept for the life of the process.
 */
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int ready;
    void *dl;
    struct vk_fns fns;
    VkInstance inst;
} shared;

static int shared_instance(struct vk_fns *f, VkInstance *inst, const struct gpussim_logger *log,
                           int quiet)
{
    int err = 0;
    pthread_mutex_lock(&shared_lock);
    if (!shared.ready) {
        err = load_global(&shared.fns, &shared.dl, log, quiet);
        if (err >= 0)
            err = create_instance(&shared.fns, &shared.inst, log, quiet);
        if (err < 0) {
            /* nothing half-made is kept: the next context tries again */
            if (shared.inst && shared.fns.vkDestroyInstance)
                shared.fns.vkDestroyInstance(shared.inst, NULL);
            if (shared.dl)
                dlclose(shared.dl);
            memset(&shared, 0, sizeof(shared));
        } else {
            shared.ready = 1;
        }
    }
    if (err >= 0) {
        *f = shared.fns;
        *inst = shared.inst;
    }
    pthread_mutex_unlock(&shared_lock);
    return err;
}

/* What this backend needs from a physical device; NULL when usable, else
 * the reason. *family receives a queue family with compute. */
static const char *device_unusable(const struct vk_fns *f, VkPhysicalDevice pd, uint32_t *family)
{
    VkPhysicalDeviceProperties props;
    f->vkGetPhysicalDeviceProperties(pd, &props);
    if (props.apiVersion < VK_API_VERSION_1_3)
        return "Vulkan 1.3 is required";

    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &f13 };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12 };
    f->vkGetPhysicalDeviceFeatures2(pd, &f2);
    if (!f2.features.shaderFloat64)
        return "no shaderFloat64: the reference arithmetic needs double precision in shaders";
    if (!f2.features.shaderInt64)
        return "no shaderInt64: integer SSIM needs 64-bit moments";
    if (!f12.timelineSemaphore)
        return "no timelineSemaphore";
    if (!f13.synchronization2)
        return "no synchronization2";

    uint32_t n = 0;
    f->vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *qf = calloc(n ? n : 1, sizeof(*qf));
    if (!qf)
        return "out of memory";
    f->vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qf);
    int found = -1;
    /* prefer a compute-only family (an async compute queue), then any */
    for (uint32_t i = 0; i < n && found < 0; i++)
        if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && !(qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
            qf[i].timestampValidBits)
            found = (int)i;
    for (uint32_t i = 0; i < n && found < 0; i++)
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            found = (int)i;
    free(qf);
    if (found < 0)
        return "no queue family with compute";
    *family = (uint32_t)found;
    return NULL;
}

/* The usable devices, GPUs first (in enumeration order), then the others
 * (CPU implementations such as lavapipe). */
static int list_devices(const struct vk_fns *f, VkInstance inst, VkPhysicalDevice *out,
                        uint32_t *families, int max, int gpus_only, const struct gpussim_logger *log)
{
    uint32_t n = 0;
    if (f->vkEnumeratePhysicalDevices(inst, &n, NULL) != VK_SUCCESS || !n)
        return 0;
    VkPhysicalDevice *pd = calloc(n, sizeof(*pd));
    if (!pd)
        return 0;
    f->vkEnumeratePhysicalDevices(inst, &n, pd);
    int count = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < n && count < max; i++) {
            VkPhysicalDeviceProperties props;
            f->vkGetPhysicalDeviceProperties(pd[i], &props);
            const int is_gpu = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
                               props.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ||
                               props.deviceType == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU;
            if (is_gpu != (pass == 0) || (gpus_only && !is_gpu))
                continue;
            uint32_t fam;
            const char *why = device_unusable(f, pd[i], &fam);
            if (why) {
                gpussim_log(log, GPUSSIM_LOG_VERBOSE, "vulkan: skipping %s: %s", props.deviceName, why);
                continue;
            }
            families[count] = fam;
            out[count++] = pd[i];
        }
    free(pd);
    return count;
}

/* AUTO's quiet check: a usable GPU (a CPU implementation such as lavapipe is
 * slower than the CPU backend, so AUTO never picks it; ask for it by name).
 * With an adopted device, that device is it. */
static int vk_probe(const struct gpussim_config *cfg)
{
    if (cfg->params.hw_device)
        return 0;
    struct vk_fns f = { 0 };
    VkInstance inst = VK_NULL_HANDLE;
    struct gpussim_logger quiet = cfg->log;
    if (quiet.level > GPUSSIM_LOG_VERBOSE)
        quiet.level = GPUSSIM_LOG_VERBOSE;
    int err = shared_instance(&f, &inst, &quiet, 1);
    if (err >= 0) {
        VkPhysicalDevice pd[16];
        uint32_t fam[16];
        err = list_devices(&f, inst, pd, fam, 16, 1, &quiet) > cfg->params.device ? 0 : -ENODEV;
    }
    return err;
}

static int create_own_device(struct vk_backend *be)
{
    const struct gpussim_logger *log = &be->cfg.log;
    struct vk_fns *f = &be->fns;
    int err = shared_instance(f, &be->inst, log, 0);
    if (err < 0)
        return err;

    VkPhysicalDevice pd[16];
    uint32_t fam[16];
    const int n = list_devices(f, be->inst, pd, fam, 16, 0, log);
    if (n <= be->cfg.params.device) {
        gpussim_log(log, GPUSSIM_LOG_ERROR,
                    "vulkan: device %d requested, %d usable device(s) (Vulkan 1.3 with "
                    "shaderFloat64, shaderInt64, timeline semaphores and synchronization2)",
                    be->cfg.params.device, n);
        return -ENODEV;
    }
    be->pdev = pd[be->cfg.params.device];
    be->family = fam[be->cfg.params.device];

    const float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = be->family,
        .queueCount = 1,
        .pQueuePriorities = &prio,
    };
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .synchronization2 = VK_TRUE,
    };
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &f13,
        .timelineSemaphore = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 f2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &f12,
        .features = { .shaderFloat64 = VK_TRUE, .shaderInt64 = VK_TRUE },
    };
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &f2,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
    };
    VkResult res = f->vkCreateDevice(be->pdev, &dci, NULL, &be->dev);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkCreateDevice");
    be->own_device = 1;
    return load_device(f, be->dev, log);
}

/* Checks what the backend needs on a device it did not create. */
static int adopt_device(struct vk_backend *be, const struct gpussim_vk_device *hw)
{
    const struct gpussim_logger *log = &be->cfg.log;
    struct vk_fns *f = &be->fns;
    if (!hw->get_proc_addr || !hw->instance || !hw->phys_dev || !hw->device || !hw->queue_count) {
        gpussim_log(log, GPUSSIM_LOG_ERROR,
                    "vulkan: the adopted device descriptor is incomplete (get_proc_addr, "
                    "instance, phys_dev, device and a queue are required)");
        return -EINVAL;
    }
    f->vkGetInstanceProcAddr = hw->get_proc_addr;
    be->inst = hw->instance;
    be->pdev = hw->phys_dev;
    be->dev = hw->device;
    be->family = hw->queue_family;
    int err = load_instance(f, be->inst, log);
    if (err < 0)
        return err;
    uint32_t fam;
    const char *why = device_unusable(f, be->pdev, &fam);
    if (why) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "vulkan: the adopted device is not usable: %s", why);
        return -ENODEV;
    }
    uint32_t n = 0;
    f->vkGetPhysicalDeviceQueueFamilyProperties(be->pdev, &n, NULL);
    VkQueueFamilyProperties qf[64];
    n = n > 64 ? 64 : n;
    f->vkGetPhysicalDeviceQueueFamilyProperties(be->pdev, &n, qf);
    if (be->family >= n || !(qf[be->family].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
        gpussim_log(log, GPUSSIM_LOG_ERROR,
                    "vulkan: queue family %u of the adopted device has no compute", be->family);
        return -EINVAL;
    }
    /* The enabled features are only known when the caller passes them; the
     * physical device supporting them is the best we can check otherwise. */
    if (hw->features) {
        const VkPhysicalDeviceFeatures2 *ef = hw->features;
        int tl = -1, s2 = -1;
        for (const VkBaseInStructure *p = ef->pNext; p; p = p->pNext) {
            if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)
                tl = ((const VkPhysicalDeviceVulkan12Features *)p)->timelineSemaphore;
            else if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES)
                tl = ((const VkPhysicalDeviceTimelineSemaphoreFeatures *)p)->timelineSemaphore;
            else if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES)
                s2 = ((const VkPhysicalDeviceVulkan13Features *)p)->synchronization2;
            else if (p->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES)
                s2 = ((const VkPhysicalDeviceSynchronization2Features *)p)->synchronization2;
        }
        const char *missing = !ef->features.shaderFloat64 ? "shaderFloat64"
                            : !ef->features.shaderInt64   ? "shaderInt64"
                            : !tl                         ? "timelineSemaphore"
                            : !s2                         ? "synchronization2"
                                                          : NULL;
        if (missing) {
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "vulkan: the adopted device was created without %s, which gpussim's "
                        "shaders need (FFmpeg enables it when the device supports it)", missing);
            return -ENODEV;
        }
    } else {
        gpussim_log(log, GPUSSIM_LOG_VERBOSE,
                    "vulkan: adopted device without its feature list; assuming shaderFloat64, "
                    "shaderInt64, timelineSemaphore and synchronization2 are enabled");
    }
    f->vkGetDeviceProcAddr = (PFN_vkGetDeviceProcAddr)f->vkGetInstanceProcAddr(be->inst, "vkGetDeviceProcAddr");
    be->lock_queue = hw->lock_queue;
    be->unlock_queue = hw->unlock_queue;
    be->lock_opaque = hw->lock_opaque;
    return load_device(f, be->dev, log);
}

/* ---- init / uninit ------------------------------------------------------------ */

static void vk_uninit(void **ppriv)
{
    struct vk_backend *be = ppriv ? *ppriv : NULL;
    if (!be)
        return;
    const struct vk_fns *f = &be->fns;
    if (be->dev) {
        /* our own work only: the adopted device may be busy with FFmpeg's */
        if (be->timeline && be->timeline_value) {
            VkSemaphoreWaitInfo wi = {
                .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                .semaphoreCount = 1,
                .pSemaphores = &be->timeline,
                .pValues = &be->timeline_value,
            };
            const VkResult res = f->vkWaitSemaphores(be->dev, &wi, 120ull * 1000 * 1000 * 1000);
            if (res != VK_SUCCESS) {
                /* Work that never finishes (a frame semaphore nobody
                 * signals, a lost device): freeing what it uses would be
                 * undefined, waiting forever a hang; leak it instead. */
                gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                            "vulkan: work still pending at destroy (VkResult %d); its resources "
                            "are leaked rather than freed under the device", (int)res);
                free(be->slots);
                free(be);
                *ppriv = NULL;
                return;
            }
        }
        /* The timeline says our last batch has signalled; a driver may
         * still be finishing that batch on its submit thread (lavapipe
         * crashed in it when destroy followed the last wait at once, as
         * after a failed frame). Idle the queue before freeing what the
         * batches used; on an adopted queue this also waits for the
         * caller's work on it, which destroy can afford. */
        if (be->queue) {
            if (be->lock_queue)
                be->lock_queue(be->lock_opaque, be->family, 0);
            f->vkQueueWaitIdle(be->queue);
            if (be->unlock_queue)
                be->unlock_queue(be->lock_opaque, be->family, 0);
        }
        if (be->slots)
            for (int i = 0; i < be->nb_slots; i++) {
                struct vk_slot *s = &be->slots[i];
                vk_frame_release_views(be, s);
                vk_buffer_destroy(be, &s->host);
                if (s->query_pool)
                    f->vkDestroyQueryPool(be->dev, s->query_pool, NULL);
            }
        if (be->cmd_pool)
            f->vkDestroyCommandPool(be->dev, be->cmd_pool, NULL);
        if (be->timeline)
            f->vkDestroySemaphore(be->dev, be->timeline, NULL);
        vk_program_uninit(be);
        vk_buffer_destroy(be, &be->scratch);
        vk_buffer_destroy(be, &be->results);
        if (be->own_device)
            f->vkDestroyDevice(be->dev, NULL);
    }
    /* the instance is the process's (shared_instance) or the caller's */
    free(be->slots);
    free(be);
    *ppriv = NULL;
}

static int vk_init(const struct gpussim_config *cfg, void **ppriv, int *nb_slots)
{
    const struct vk_fns *f;
    VkResult res;
    int err;
    struct vk_backend *be = calloc(1, sizeof(*be));
    if (!be)
        return -ENOMEM;
    be->cfg = *cfg;
    f = &be->fns;
    {
        /* developer aid: log the device time of every dispatch (debug level) */
        const char *st = getenv("GPUSSIM_VK_STEP_TIMES");
        be->step_times = st && *st == '1';
        /* test aid (tests/test_ladder): at most N distorted pictures a
         * ladder dispatch ("all" or unset: as many as the device allows) */
        const char *lg = getenv("GPUSSIM_TEST_LADDER_GROUP");
        be->ladder_group = lg ? atoi(lg) : 0;
        /* test aid: which ladder window stages compute the reference's
         * moments in every workgroup ("all", "none"; unset: level 0) */
        const char *lr = getenv("GPUSSIM_TEST_LADDER_REF");
        be->ladder_ref = !lr                   ? LADDER_REF_LEVEL0
                         : !strcmp(lr, "all")  ? LADDER_REF_ALL
                         : !strcmp(lr, "none") ? LADDER_REF_NONE
                                               : LADDER_REF_LEVEL0;
    }

    if (cfg->params.hw_device)
        err = adopt_device(be, cfg->params.hw_device);
    else
        err = create_own_device(be);
    if (err < 0)
        goto fail;

    f->vkGetPhysicalDeviceProperties(be->pdev, &be->props);
    {
        /* test aid (tests/parity/test_parity_vulkan.sh): at most N bytes of
         * shared memory a workgroup, as on a device with less (Vulkan
         * promises 16384): the shaders that need more (ssim_hv, issim_hv8)
         * give way to their two-pass forms */
        const char *sl = getenv("GPUSSIM_TEST_VK_SHARED_LIMIT");
        const long lim = sl ? strtol(sl, NULL, 10) : 0;
        VkPhysicalDeviceLimits *l = &be->props.limits;
        if (lim > 0 && lim < (long)l->maxComputeSharedMemorySize) {
            gpussim_log(&cfg->log, GPUSSIM_LOG_INFO,
                        "vulkan: GPUSSIM_TEST_VK_SHARED_LIMIT: %ld of %u bytes of shared memory "
                        "a workgroup",
                        lim, l->maxComputeSharedMemorySize);
            l->maxComputeSharedMemorySize = (uint32_t)lim;
        }
    }
    f->vkGetPhysicalDeviceMemoryProperties(be->pdev, &be->mem_props);
    f->vkGetDeviceQueue(be->dev, be->family, 0, &be->queue);
    {
        uint32_t n = 0;
        f->vkGetPhysicalDeviceQueueFamilyProperties(be->pdev, &n, NULL);
        VkQueueFamilyProperties qf[64];
        n = n > 64 ? 64 : n;
        f->vkGetPhysicalDeviceQueueFamilyProperties(be->pdev, &n, qf);
        be->timestamp_bits = be->family < n ? qf[be->family].timestampValidBits : 0;
    }

    VkSemaphoreTypeCreateInfo sti = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
        .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
    };
    VkSemaphoreCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &sti };
    res = f->vkCreateSemaphore(be->dev, &sci, NULL, &be->timeline);
    if ((err = vk_err(be, res, "vkCreateSemaphore")) < 0)
        goto fail;

    VkCommandPoolCreateInfo cpi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = be->family,
    };
    res = f->vkCreateCommandPool(be->dev, &cpi, NULL, &be->cmd_pool);
    if ((err = vk_err(be, res, "vkCreateCommandPool")) < 0)
        goto fail;

    /* enough frames in flight to hide the host's unpacking and summing; a
     * ladder frame is nb_distorted pairs' work, two of them overlap enough
     * (and each slot stages all its pictures in host memory) */
    be->nb_slots = cfg->nb_distorted > 1 ? 2 : 4;
    if (cfg->params.max_in_flight && cfg->params.max_in_flight < be->nb_slots)
        be->nb_slots = cfg->params.max_in_flight;
    be->slots = calloc((size_t)be->nb_slots, sizeof(*be->slots));
    if (!be->slots) {
        err = -ENOMEM;
        goto fail;
    }
    /* a ladder frame holds the reference and every distorted picture */
    be->nb_pics = cfg->nb_distorted > 1 ? 1 + cfg->nb_distorted : 2;

    err = vk_program_init(be);
    if (err < 0)
        goto fail;

    for (int i = 0; i < be->nb_slots; i++) {
        struct vk_slot *s = &be->slots[i];
        VkCommandBufferAllocateInfo cai = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = be->cmd_pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1,
        };
        res = f->vkAllocateCommandBuffers(be->dev, &cai, &s->cmd);
        if ((err = vk_err(be, res, "vkAllocateCommandBuffers")) < 0)
            goto fail;
        if (be->timestamp_bits) {
            VkQueryPoolCreateInfo qpi = {
                .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                /* frame start/end, then one per step with GPUSSIM_VK_STEP_TIMES */
                .queryCount = 2 + (uint32_t)be->max_steps,
            };
            res = f->vkCreateQueryPool(be->dev, &qpi, NULL, &s->query_pool);
            if ((err = vk_err(be, res, "vkCreateQueryPool")) < 0)
                goto fail;
        }
        err = vk_buffer_create(be, &s->host, be->host_size, 1);
        if (err < 0)
            goto fail;
    }

    gpussim_log(&cfg->log, GPUSSIM_LOG_VERBOSE,
                "vulkan: %s%s, queue family %u, %d frame slot(s), %.1f MiB device scratch",
                be->props.deviceName, cfg->params.hw_device ? " (adopted)" : "", be->family,
                be->nb_slots, be->scratch.size / 1048576.0);
    *ppriv = be;
    *nb_slots = be->nb_slots;
    return 0;

fail:
    vk_uninit((void **)&be);
    return err;
}

/* ---- submit / wait ------------------------------------------------------------- */

static int vk_submit(void *priv, int idx, const struct gpussim_picture *ref,
                     const struct gpussim_picture *dis)
{
    struct vk_backend *be = priv;
    struct vk_slot *s = &be->slots[idx];
    if (ref->memory == GPUSSIM_MEMORY_VULKAN) {
        const struct gpussim_vk_frame *fr[2] = { ref->hw, dis->hw };
        return vk_submit_frames(be, s, fr, 2);
    }
    vk_stage_host_picture(be, s, ref, 0);
    vk_stage_host_picture(be, s, dis, 1);
    return vk_record_and_submit(be, s, NULL);
}

/* A ladder frame: the reference and cfg.nb_distorted pictures in one
 * command buffer (the program of build_ladder_program). */
static int vk_submit_multi(void *priv, int idx, const struct gpussim_picture *ref,
                           const struct gpussim_picture *const *dis)
{
    struct vk_backend *be = priv;
    struct vk_slot *s = &be->slots[idx];
    if (ref->memory == GPUSSIM_MEMORY_VULKAN) {
        const struct gpussim_vk_frame *fr[VK_MAX_PICS];
        fr[0] = ref->hw;
        for (int k = 1; k < be->nb_pics; k++)
            fr[k] = dis[k - 1]->hw;
        return vk_submit_frames(be, s, fr, be->nb_pics);
    }
    vk_stage_host_picture(be, s, ref, 0);
    for (int k = 1; k < be->nb_pics; k++)
        vk_stage_host_picture(be, s, dis[k - 1], k);
    return vk_record_and_submit(be, s, NULL);
}

/* Fills sums[0 .. nb_pics - 2]: one for a pair, one per distorted picture
 * of a ladder (wait and wait_multi). */
static int vk_wait(void *priv, int idx, int block, struct gpussim_frame_sums *sums)
{
    struct vk_backend *be = priv;
    struct vk_slot *s = &be->slots[idx];
    const struct vk_fns *f = &be->fns;
    uint64_t value = 0;
    VkResult res = f->vkGetSemaphoreCounterValue(be->dev, be->timeline, &value);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkGetSemaphoreCounterValue");
    if (value < s->done_value) {
        if (!block)
            return 0;
        VkSemaphoreWaitInfo wi = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
            .semaphoreCount = 1,
            .pSemaphores = &be->timeline,
            .pValues = &s->done_value,
        };
        /* generous: a 4K frame on a software device takes seconds */
        res = f->vkWaitSemaphores(be->dev, &wi, 120ull * 1000 * 1000 * 1000);
        if (res == VK_TIMEOUT) {
            gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                        "vulkan: frame not finished after 120 s (a waited-on frame semaphore "
                        "never signalled?)");
            return -EIO;
        }
        if (res != VK_SUCCESS)
            return vk_err(be, res, "vkWaitSemaphores");
    }
    vk_frame_release_views(be, s);
    vk_program_collect(be, s, sums);
    if (be->step_times)
        vk_program_log_step_times(be, s);
    return 1;
}

static int vk_device_time_ms(void *priv, int idx, double *ms)
{
    struct vk_backend *be = priv;
    struct vk_slot *s = &be->slots[idx];
    if (!s->query_pool)
        return -ENOSYS;
    uint64_t ts[2];
    VkResult res = be->fns.vkGetQueryPoolResults(be->dev, s->query_pool, 0, 2, sizeof(ts), ts,
                                                 sizeof(ts[0]), VK_QUERY_RESULT_64_BIT);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkGetQueryPoolResults");
    const uint64_t mask = be->timestamp_bits >= 64 ? ~0ull : (1ull << be->timestamp_bits) - 1;
    *ms = (double)((ts[1] - ts[0]) & mask) * be->props.limits.timestampPeriod * 1e-6;
    return 0;
}

const struct gpussim_backend gpussim_backend_vulkan = {
    .probe = vk_probe,
    .init = vk_init,
    .uninit = vk_uninit,
    .submit = vk_submit,
    .wait = vk_wait,
    .submit_multi = vk_submit_multi,
    .wait_multi = vk_wait,
    .device_time_ms = vk_device_time_ms,
};
