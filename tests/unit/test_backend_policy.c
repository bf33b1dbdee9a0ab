/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The device policy without any GPU: for each frame memory, backend choice
 * and vendor hint, and each set of backends that are built and whose
 * devices start (fakes of src/backend_policy.c's environment), the backend
 * chosen, the backends tried in order, the messages, and when the caller is
 * asked for a Vulkan device. Linked statically: it calls the library's
 * internal gpussim_backend_pick().
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "src/backends.h"
#include "tests/lib/testutil.h"

#define BIT(t) (1u << (t))
#define ALL_GPUS (BIT(GPUSSIM_BACKEND_CUDA) | BIT(GPUSSIM_BACKEND_VULKAN) | \
                  BIT(GPUSSIM_BACKEND_HIP) | BIT(GPUSSIM_BACKEND_ZE))

struct fake {
    unsigned built, answers, starts; /* bit sets of backend types */
    int start_error;                 /* what a failing start returns */
    char tried[64];                  /* the backends started, "hip,vulkan" */
    const void *hw_device;           /* what the last start got */
    int device_asked;
    int device_error;
};

static char verbose[2048];

static void log_all(void *opaque, enum gpussim_log_level level, const char *msg)
{
    const size_t n = strlen(verbose);
    test_log_cb(opaque, level, msg);
    snprintf(verbose + n, sizeof(verbose) - n, "%s\n", msg);
}

static int fake_built(void *opaque, enum gpussim_backend_type t)
{
    return !!(((struct fake *)opaque)->built & BIT(t));
}

static int fake_probe(void *opaque, enum gpussim_backend_type t)
{
    return ((struct fake *)opaque)->answers & BIT(t) ? 0 : -ENODEV;
}

static int fake_start(void *opaque, enum gpussim_backend_type t, const void *hw_device)
{
    struct fake *f = opaque;
    const size_t n = strlen(f->tried);
    snprintf(f->tried + n, sizeof(f->tried) - n, "%s%s", n ? "," : "", gpussim_backend_type_name(t));
    f->hw_device = hw_device;
    return f->starts & BIT(t) ? 0 : f->start_error ? f->start_error : -ENODEV;
}

static int vk_dev_token;

static int fake_get_device(void *opaque, enum gpussim_backend_type t, const void **hw_device)
{
    struct fake *f = opaque;
    f->device_asked++;
    if (t != GPUSSIM_BACKEND_VULKAN)
        return -EINVAL;
    if (f->device_error)
        return f->device_error;
    *hw_device = &vk_dev_token;
    return 0;
}

/* Runs the policy; returns the chosen type or the error. */
static int pick(struct fake *f, enum gpussim_memory mem, enum gpussim_backend_type backend,
                const char *vendor, int with_get_device)
{
    struct gpussim_params p;
    struct gpussim_logger log = { log_all, NULL, GPUSSIM_LOG_DEBUG };
    const struct gpussim_backend_env env = { f, fake_built, fake_probe, fake_start };

    gpussim_default_params(&p);
    p.memory = mem;
    p.backend = backend;
    p.device_vendor = vendor;
    p.log_cb = log_all;
    p.log_level = GPUSSIM_LOG_DEBUG;
    if (with_get_device) {
        p.get_device = fake_get_device;
        p.get_device_opaque = f;
    }
    f->tried[0] = '\0';
    f->hw_device = NULL;
    f->device_asked = 0;
    verbose[0] = test_last_error[0] = '\0';
    return gpussim_backend_pick(&p, &log, &env);
}

#define EXPECT(f, got, want, tried_want) do { \
        const int g_ = (got); \
        CHECK(g_ == (want) && !strcmp((f)->tried, (tried_want)), \
              "%s:%d: got %d after trying '%s', want %d after '%s' (log: %s)", __func__, __LINE__, \
              g_, (f)->tried, (int)(want), (tried_want), verbose); \
    } while (0)

static void host_frames(void)
{
    struct fake f = { .built = ALL_GPUS | BIT(GPUSSIM_BACKEND_CPU), .starts = ~0u, .answers = ~0u };
    /* AUTO: the first GPU whose device answers, in the registry's order */
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_HOST, GPUSSIM_BACKEND_AUTO, NULL, 0), GPUSSIM_BACKEND_CUDA, "cuda");
    f.answers = BIT(GPUSSIM_BACKEND_HIP) | BIT(GPUSSIM_BACKEND_CPU);
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_HOST, GPUSSIM_BACKEND_AUTO, NULL, 0), GPUSSIM_BACKEND_HIP, "hip");
    /* the vendor hint is for dma-buf frames only */
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_HOST, GPUSSIM_BACKEND_AUTO, "Intel iHD driver", 0),
           GPUSSIM_BACKEND_HIP, "hip");
    /* a device that answers the probe but fails to start: the next one */
    f.answers = ~0u;
    f.starts = BIT(GPUSSIM_BACKEND_ZE) | BIT(GPUSSIM_BACKEND_CPU);
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_HOST, GPUSSIM_BACKEND_AUTO, NULL, 0), GPUSSIM_BACKEND_ZE,
           "cuda,vulkan,hip,ze");
    CHECK(strstr(verbose, "backend cuda unavailable (backend device unavailable), trying the next"),
          "no message for the skipped cuda backend: %s", verbose);
    /* a configuration a backend refuses (-EINVAL) stops AUTO: it said why */
    f.start_error = -EINVAL;
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_HOST, GPUSSIM_BACKEND_AUTO, NULL, 0), -EINVAL, "cuda");
    f.start_error = 0;
    /* nothing built but the CPU: the CPU, without a word */
    f.built = BIT(GPUSSIM_BACKEND_CPU);
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_HOST, GPUSSIM_BACKEND_AUTO, NULL, 0), GPUSSIM_BACKEND_CPU, "cpu");
    CHECK(!verbose[0], "messages for backends not built: %s", verbose);
    /* explicit: that one, no probe; not built is -ENOSYS, named */
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_HOST, GPUSSIM_BACKEND_CPU, NULL, 0), GPUSSIM_BACKEND_CPU, "cpu");
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_HOST, GPUSSIM_BACKEND_ZE, NULL, 0), -ENOSYS, "");
    CHECK(strstr(test_last_error, "the ze backend is not built into this libgpussim (configure "
                                  "--enable-level-zero"), "ze not built: %s", test_last_error);
}

static void device_frames(void)
{
    struct fake f = { .built = ALL_GPUS | BIT(GPUSSIM_BACKEND_CPU), .starts = ~0u, .answers = 0 };
    /* CUDA and Vulkan frames are scored where they are, probes or not */
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_CUDA, GPUSSIM_BACKEND_AUTO, NULL, 0), GPUSSIM_BACKEND_CUDA, "cuda");
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_VULKAN, GPUSSIM_BACKEND_AUTO, "AMD", 0), GPUSSIM_BACKEND_VULKAN,
           "vulkan");
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_CUDA, GPUSSIM_BACKEND_CUDA, NULL, 0), GPUSSIM_BACKEND_CUDA, "cuda");
    /* and nowhere else */
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_VULKAN, GPUSSIM_BACKEND_CPU, NULL, 0), -EINVAL, "");
    CHECK(strstr(test_last_error, "backend=cpu cannot read Vulkan frames: use backend=vulkan (or auto)"),
          "cpu on Vulkan frames: %s", test_last_error);
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_CUDA, GPUSSIM_BACKEND_VULKAN, NULL, 0), -EINVAL, "");
    CHECK(strstr(test_last_error, "backend=vulkan cannot read CUDA frames: use backend=cuda (or auto)"),
          "vulkan on CUDA frames: %s", test_last_error);
    /* the one backend that reads them is missing: -ENOSYS, no fallback */
    f.built = BIT(GPUSSIM_BACKEND_CPU);
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_VULKAN, GPUSSIM_BACKEND_AUTO, NULL, 0), -ENOSYS, "");
    CHECK(strstr(test_last_error, "the vulkan backend is not built"), "%s", test_last_error);
    /* its device fails: that error, no fallback */
    f.built = ~0u;
    f.starts = 0;
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_CUDA, GPUSSIM_BACKEND_AUTO, NULL, 0), -ENODEV, "cuda");
}

static void dmabuf_frames(void)
{
    struct fake f = { .built = ~0u, .starts = ~0u, .answers = 0 };
    enum gpussim_backend_type order[GPUSSIM_MAX_BACKENDS];
    struct gpussim_params p;

    /* the vendor's own backend reads the dma-bufs; no device asked for */
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO,
                    "Intel iHD driver for Intel(R) Gen Graphics - 24.1.0", 1), GPUSSIM_BACKEND_ZE, "ze");
    CHECK(!f.device_asked && !f.hw_device, "ze was given a device");
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO,
                    "Mesa Gallium driver 24.0.5 for AMD Radeon RX 7900 XTX", 1), GPUSSIM_BACKEND_HIP, "hip");
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO, "radeonsi", 1), GPUSSIM_BACKEND_HIP,
           "hip");
    /* no hint, or a vendor without a native backend: Vulkan on the
     * caller's derived device */
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO, NULL, 1), GPUSSIM_BACKEND_VULKAN,
           "vulkan");
    CHECK(f.device_asked == 1 && f.hw_device == &vk_dev_token, "Vulkan did not get the caller's device");
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO, "Mesa nouveau", 1),
           GPUSSIM_BACKEND_VULKAN, "vulkan");
    /* the vendor's backend fails: Vulkan, saying why */
    f.starts = BIT(GPUSSIM_BACKEND_VULKAN);
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO, "Intel", 1), GPUSSIM_BACKEND_VULKAN,
           "ze,vulkan");
    CHECK(strstr(verbose, "backend ze unavailable for the dma-buf frames (backend device unavailable): "
                          "scoring them through vulkan"), "no fallback message: %s", verbose);
    CHECK(f.device_asked == 1, "the device was asked for %d times", f.device_asked);
    /* even -EINVAL of the vendor's backend falls back, as before */
    f.start_error = -EINVAL;
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO, "AMD", 1), GPUSSIM_BACKEND_VULKAN,
           "hip,vulkan");
    f.start_error = 0;
    /* the vendor's backend is not built: Vulkan, without an error message */
    f.built = ~BIT(GPUSSIM_BACKEND_ZE);
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO, "Intel", 1), GPUSSIM_BACKEND_VULKAN,
           "vulkan");
    CHECK(strstr(verbose, "backend ze unavailable for the dma-buf frames (backend not built into this "
                          "library): scoring them through vulkan") && !test_last_error[0],
          "not built: %s / %s", verbose, test_last_error);
    /* the caller cannot give a Vulkan device: its error, Vulkan not started */
    f.device_error = -EIO;
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO, "Intel", 1), -EIO, "");
    f.device_error = 0;
    /* no way to get one: -ENODEV, named */
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO, NULL, 0), -ENODEV, "");
    CHECK(strstr(test_last_error, "mapped to Vulkan images"), "no device: %s", test_last_error);
    /* neither built: Vulkan's -ENOSYS is the answer */
    f.built = BIT(GPUSSIM_BACKEND_CPU);
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_AUTO, "AMD", 1), -ENOSYS, "");
    CHECK(strstr(test_last_error, "the vulkan backend is not built"), "%s", test_last_error);
    /* explicit: hip or ze read the dma-bufs, vulkan the mapped images;
     * an explicit vendor backend does not fall back */
    f.built = ~0u;
    f.starts = BIT(GPUSSIM_BACKEND_VULKAN);
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_HIP, "Intel", 1), -ENODEV, "hip");
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_VULKAN, "Intel", 1), GPUSSIM_BACKEND_VULKAN,
           "vulkan");
    EXPECT(&f, pick(&f, GPUSSIM_MEMORY_DMABUF, GPUSSIM_BACKEND_CPU, NULL, 1), -EINVAL, "");
    CHECK(strstr(test_last_error, "backend=cpu cannot read dma-buf frames: use backend=vulkan, hip or ze"),
          "cpu on dma-buf frames: %s", test_last_error);

    /* the public order function says the same */
    gpussim_default_params(&p);
    p.memory = GPUSSIM_MEMORY_DMABUF;
    p.device_vendor = "INTEL";
    CHECK(gpussim_backend_order(&p, order) == 2 && order[0] == GPUSSIM_BACKEND_ZE &&
          order[1] == GPUSSIM_BACKEND_VULKAN, "order for Intel dma-bufs");
    p.memory = GPUSSIM_MEMORY_HOST;
    CHECK(gpussim_backend_order(&p, order) == 5 && order[4] == GPUSSIM_BACKEND_CPU, "order for host frames");
    p.memory = (enum gpussim_memory)7;
    CHECK(gpussim_backend_order(&p, order) == -EINVAL, "unknown memory accepted");
}

/* The whole path through gpussim_create(): dma-buf frames with no Vulkan
 * device to map them to are refused with the reason, whatever is built. */
static void through_create(void)
{
    struct gpussim_params p;
    GpussimContext *c = NULL;
    int err;

    gpussim_default_params(&p);
    p.format = (struct gpussim_format) { .width = 64, .height = 64, .bit_depth = 8 };
    p.metrics = GPUSSIM_METRIC_FLOAT_SSIM;
    p.log_cb = test_log_cb;
    p.backend = GPUSSIM_BACKEND_CPU;
    err = gpussim_create(&c, &p);
    CHECK(err == 0 && gpussim_picture_memory(c) == GPUSSIM_MEMORY_HOST, "cpu on host frames: %d", err);
    gpussim_destroy(&c);
    p.memory = GPUSSIM_MEMORY_VULKAN;
    err = gpussim_create(&c, &p);
    CHECK(err == -EINVAL && strstr(test_last_error, "backend=cpu cannot read Vulkan frames"),
          "cpu on Vulkan frames through create: %d %s", err, test_last_error);
    p.backend = GPUSSIM_BACKEND_AUTO;
    p.memory = GPUSSIM_MEMORY_DMABUF;
    p.device_vendor = "none";
    err = gpussim_create(&c, &p);
    CHECK(err == -ENODEV || err == -ENOSYS, "dma-buf frames without a Vulkan device: %d", err);
    CHECK(!c, "a context was returned on failure");
}

/* The backend table (src/backends.c) is what the names, the policy and the
 * context read: each row's facts come back through the public functions. */
static void table_rows(void)
{
    struct gpussim_params p;
    enum gpussim_backend_type order[GPUSSIM_MAX_BACKENDS], one[GPUSSIM_MAX_BACKENDS], t;
    int n, k;

    gpussim_default_params(&p);
    p.log_cb = test_log_cb;
    /* host frames: every row, in the table's order, the CPU last and built */
    n = gpussim_backend_order(&p, order);
    CHECK(n == GPUSSIM_NB_BACKENDS, "host order lists %d backends, the table %d", n,
          GPUSSIM_NB_BACKENDS);
    CHECK(gpussim_backend_table[GPUSSIM_NB_BACKENDS - 1].type == GPUSSIM_BACKEND_CPU &&
              gpussim_backend_table[GPUSSIM_NB_BACKENDS - 1].vtable,
          "the CPU is not last or not built");
    for (int i = 0; i < GPUSSIM_NB_BACKENDS; i++) {
        const struct gpussim_backend_info *b = &gpussim_backend_table[i];
        CHECK(n > i && order[i] == b->type, "host order[%d] is not the table's %s", i, b->name);
        CHECK(gpussim_backend_info(b->type) == b, "%s: lookup by type", b->name);
        CHECK(!strcmp(gpussim_backend_type_name(b->type), b->name), "%s: type name", b->name);
        CHECK(gpussim_backend_from_name(b->name, &t) == 0 && t == b->type, "%s: from name",
              b->name);
        for (k = 0; k < 2 && b->alias[k]; k++)
            CHECK(gpussim_backend_from_name(b->alias[k], &t) == 0 && t == b->type, "%s: alias %s",
                  b->name, b->alias[k]);
        for (k = 0; k < 2 && b->vendor[k]; k++)
            CHECK(gpussim_vendor_backend(b->vendor[k]) == b->type, "%s: vendor %s", b->name,
                  b->vendor[k]);
        CHECK(b->reads & GPUSSIM_MEMORY_BIT(GPUSSIM_MEMORY_HOST), "%s does not read host frames",
              b->name);
        /* a memory is read directly or mapped, never both (the order lists a row once) */
        CHECK(!(b->reads & b->maps), "%s both reads and maps memories 0x%x", b->name,
              b->reads & b->maps);
        /* an explicit backend is accepted exactly for the memories its row
         * reads or maps */
        for (int m = GPUSSIM_MEMORY_HOST; m <= GPUSSIM_MEMORY_DMABUF; m++) {
            const int row = !!((b->reads | b->maps) & GPUSSIM_MEMORY_BIT(m));
            p.backend = b->type;
            p.memory = (enum gpussim_memory)m;
            test_last_error[0] = '\0';
            k = gpussim_backend_order(&p, one);
            CHECK(row ? k == 1 && one[0] == b->type : k == -EINVAL,
                  "%s on %s frames: order %d, the table says %s", b->name,
                  gpussim_memory_name((enum gpussim_memory)m), k, row ? "reads" : "cannot");
        }
    }
    p.backend = GPUSSIM_BACKEND_AUTO;
    p.memory = GPUSSIM_MEMORY_HOST;
    CHECK(gpussim_backend_info(GPUSSIM_BACKEND_AUTO) == NULL, "AUTO has a row");
    CHECK(!strcmp(gpussim_backend_type_name(GPUSSIM_BACKEND_AUTO), "auto") &&
              !gpussim_backend_type_name((enum gpussim_backend_type)(GPUSSIM_BACKEND_ZE + 1)),
          "names outside the table");
    CHECK(gpussim_vendor_backend("NVIDIA") == GPUSSIM_BACKEND_AUTO, "a vendor without a backend");
}

int main(void)
{
    table_rows();
    host_frames();
    device_frames();
    dmabuf_frames();
    through_create();
    return test_summary();
}
