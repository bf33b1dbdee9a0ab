/*
 * HIP driver glue; see hip_glue.h. Compiled, not run on AMD hardware.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hip_glue.h"
#include "hip_ze_dmabuf.h"

int gpussim_hip_load(struct gpussim_hip_api *api)
{
    static const char *const names[] = { "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so" };
    memset(api, 0, sizeof(*api));
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !api->lib; i++)
        api->lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!api->lib)
        return -ENODEV;
    /* hipGetDeviceProperties keeps the ROCm 5 layout under this name in
     * ROCm 6 (the new layout is hipGetDevicePropertiesR0600); the buffer
     * passed to it is oversized anyway (open_device) */
#define HIP_FN_LOAD(name)                                                                          \
    if (!(api->name = (__typeof__(&name))dlsym(api->lib, #name)))                                  \
        goto fail;
    HIP_FUNCS(HIP_FN_LOAD)
#undef HIP_FN_LOAD
    return 0;
fail:
    dlclose(api->lib);
    api->lib = NULL;
    return -ENODEV;
}

void gpussim_hip_unload(struct gpussim_hip_api *api)
{
    if (api->lib)
        dlclose(api->lib);
    api->lib = NULL;
}

int gpussim_hip_check(const struct gpussim_config *cfg, const struct gpussim_hip_api *api,
                      hipError_t r, const char *what)
{
    if (r == hipSuccess)
        return 0;
    const char *name = api->hipGetErrorName ? api->hipGetErrorName(r) : NULL;
    gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "hip: %s failed: %s (%d)", what,
                name ? name : "hipError_t", (int)r);
    switch (r) {
    case hipErrorOutOfMemory: return -ENOMEM;
    case hipErrorInvalidValue: return -EINVAL;
    case hipErrorNoDevice:
    case hipErrorInvalidDevice:
    case hipErrorNoBinaryForGpu: return -ENODEV;
    default: return -EIO;
    }
}
#define CHECK_HIP(d, cfg, call) gpussim_hip_check(cfg, &(d)->api, (d)->api.call, #call)

int gpussim_hip_probe(const struct gpussim_config *cfg)
{
    struct gpussim_hip_api api;
    int n = 0;
    if (gpussim_hip_load(&api) < 0) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_VERBOSE, "hip: libamdhip64 not found");
        return -ENODEV;
    }
    const int ok = api.hipInit(0) == hipSuccess && api.hipGetDeviceCount(&n) == hipSuccess &&
                   cfg->params.device < n;
    if (!ok)
        gpussim_log(&cfg->log, GPUSSIM_LOG_VERBOSE, "hip: no HIP device %d (%d found)",
                    cfg->params.device, n);
    gpussim_hip_unload(&api);
    return ok ? 0 : -ENODEV;
}

void gpussim_hip_close(struct gpussim_hip_device *d)
{
    if (d->api.lib) {
        if (d->stream)
            d->api.hipStreamSynchronize(d->stream);
        if (d->module)
            d->api.hipModuleUnload(d->module);
        if (d->stream)
            d->api.hipStreamDestroy(d->stream);
    }
    d->module = NULL;
    d->stream = NULL;
    gpussim_hip_unload(&d->api);
}

int gpussim_hip_open(struct gpussim_hip_device *d, const struct gpussim_config *cfg,
                     const void *image, const char *image_archs)
{
    int err, n = 0;
    memset(d, 0, sizeof(*d));
    d->index = cfg->params.device;
    if (gpussim_hip_load(&d->api) < 0) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR,
                    "hip: cannot load libamdhip64 (install the ROCm HIP runtime)");
        return -ENODEV;
    }
    if ((err = CHECK_HIP(d, cfg, hipInit(0))) < 0 ||
        (err = CHECK_HIP(d, cfg, hipGetDeviceCount(&n))) < 0)
        goto fail;
    if (d->index >= n) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "hip: device %d requested, %d present", d->index,
                    n);
        err = -ENODEV;
        goto fail;
    }
    /* oversized: the struct grows between ROCm releases */
    union {
        hipDeviceProp_t p;
        char room[8192];
    } props;
    memset(&props, 0, sizeof(props));
    if ((err = CHECK_HIP(d, cfg, hipGetDeviceProperties(&props.p, d->index))) < 0 ||
        (err = CHECK_HIP(d, cfg, hipSetDevice(d->index))) < 0)
        goto fail;
    memcpy(d->name, props.p.name, sizeof(d->name) - 1);
    memcpy(d->arch, props.p.gcnArchName, sizeof(d->arch) - 1);
    if ((err = CHECK_HIP(d, cfg, hipStreamCreateWithFlags(&d->stream, hipStreamNonBlocking))) < 0)
        goto fail;
    const hipError_t r = d->api.hipModuleLoadData(&d->module, image);
    if (r == hipErrorNoBinaryForGpu || r == hipErrorInvalidImage || r == hipErrorInvalidKernelFile) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR,
                    "hip: device '%s' is %s; this libgpussim has kernels for %s only (rebuild with "
                    "HIP_OFFLOAD_ARCHS including it)",
                    d->name, d->arch, image_archs);
        err = -ENODEV;
        goto fail;
    }
    if ((err = gpussim_hip_check(cfg, &d->api, r, "hipModuleLoadData")) < 0)
        goto fail;
    gpussim_log(&cfg->log, GPUSSIM_LOG_VERBOSE, "hip: device %d '%s' (%s)", d->index, d->name,
                d->arch);
    return 0;

fail:
    gpussim_hip_close(d);
    return err;
}

/* ---- dma-buf import ---------------------------------------------------------- */

void gpussim_hip_release_imports(struct gpussim_hip_device *d, struct gpussim_hip_import *imports,
                                 int *nb_imports)
{
    for (int i = 0; i < *nb_imports; i++) {
        /* the mapped buffer is freed with hipFree, then the import destroyed */
        if (imports[i].ptr)
            d->api.hipFree(imports[i].ptr);
        if (imports[i].ext)
            d->api.hipDestroyExternalMemory(imports[i].ext);
        imports[i] = (struct gpussim_hip_import){ 0 };
    }
    *nb_imports = 0;
}

/*
 * ROCm imports a dma-buf through the "opaque fd" handle type (the ROCr
 * interop path maps dma-buf fds); HIP takes ownership of the fd it is
 * given, so it gets a dup and the caller's fd stays the caller's.
 */
static int import_fd(struct gpussim_hip_device *d, const struct gpussim_config *cfg, int fd,
                     struct gpussim_hip_import *imp)
{
    const int64_t size = gpussim_dmabuf_size(fd);
    if (size <= 0) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "hip: cannot get the size of dma-buf fd %d", fd);
        return -EINVAL;
    }
    const int own = dup(fd);
    if (own < 0) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "hip: cannot dup dma-buf fd %d", fd);
        return -errno;
    }
    hipExternalMemoryHandleDesc hd;
    memset(&hd, 0, sizeof(hd));
    hd.type = hipExternalMemoryHandleTypeOpaqueFd;
    hd.handle.fd = own;
    hd.size = (unsigned long long)size;
    int err = CHECK_HIP(d, cfg, hipImportExternalMemory(&imp->ext, &hd));
    if (err < 0) {
        close(own); /* not consumed on failure */
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "hip: importing dma-buf fd %d (%lld bytes) failed",
                    fd, (long long)size);
        return err;
    }
    hipExternalMemoryBufferDesc bd;
    memset(&bd, 0, sizeof(bd));
    bd.offset = 0;
    bd.size = (unsigned long long)size;
    err = CHECK_HIP(d, cfg, hipExternalMemoryGetMappedBuffer(&imp->ptr, imp->ext, &bd));
    if (err < 0) {
        d->api.hipDestroyExternalMemory(imp->ext);
        imp->ext = NULL;
    }
    return err;
}

int gpussim_hip_import_picture(struct gpussim_hip_device *d, const struct gpussim_config *cfg,
                               const struct gpussim_picture *pic,
                               struct gpussim_hip_import imports[3], int *nb_imports,
                               void *plane_ptr[3], int64_t plane_pitch[3])
{
    struct gpussim_dmabuf_plane planes[3];
    int nb, err;
    if ((err = gpussim_dmabuf_check_linear(&cfg->log, "hip", pic->modifier)) < 0)
        return err;
    if ((err = gpussim_dmabuf_planes(cfg, "hip", pic, planes, &nb)) < 0)
        return err;
    const int first = *nb_imports;
    for (int i = 0; i < nb; i++) {
        void *base = NULL;
        for (int j = 0; j < i; j++)
            if (planes[j].fd == planes[i].fd)
                base = (uint8_t *)plane_ptr[j] - planes[j].offset;
        if (!base) {
            struct gpussim_hip_import *imp = &imports[*nb_imports];
            if ((err = import_fd(d, cfg, planes[i].fd, imp)) < 0) {
                int added = *nb_imports - first;
                gpussim_hip_release_imports(d, imports + first, &added);
                *nb_imports = first;
                return err;
            }
            (*nb_imports)++;
            base = imp->ptr;
        }
        plane_ptr[i] = (uint8_t *)base + planes[i].offset;
        plane_pitch[i] = planes[i].pitch;
    }
    return 0;
}

/* ---- host frames --------------------------------------------------------------- */

/* Picture planes a configuration reads: rows and bytes per row. */
static int host_planes(const struct gpussim_config *cfg, size_t row[3], int rows[3])
{
    int n = 1;
    row[0] = (size_t)cfg->plane[0].width * cfg->bytes_per_sample;
    rows[0] = cfg->plane[0].height;
    if (cfg->nb_planes > 1) {
        if (cfg->params.format.packing == GPUSSIM_PACKING_PLANAR) {
            n = 3;
            for (int i = 1; i < 3; i++)
                row[i] = (size_t)cfg->plane[i].width * cfg->bytes_per_sample,
                rows[i] = cfg->plane[i].height;
        } else {
            n = 2;
            row[1] = (size_t)2 * cfg->plane[1].width * cfg->bytes_per_sample;
            rows[1] = cfg->plane[1].height;
        }
    }
    return n;
}

size_t gpussim_hip_staging_size(const struct gpussim_config *cfg)
{
    size_t row[3], total = 0;
    int rows[3];
    const int n = host_planes(cfg, row, rows);
    for (int i = 0; i < n; i++)
        total += row[i] * rows[i];
    return total;
}

int gpussim_hip_upload_picture(struct gpussim_hip_device *d, const struct gpussim_config *cfg,
                               const struct gpussim_picture *pic, uint8_t *staging, void *dev,
                               void *plane_ptr[3], int64_t plane_pitch[3])
{
    size_t row[3], off = 0;
    int rows[3];
    const int n = host_planes(cfg, row, rows);
    for (int i = 0; i < n; i++) {
        /* compact copy: the caller's strides may be anything, negative too */
        for (int y = 0; y < rows[i]; y++)
            memcpy(staging + off + row[i] * y,
                   (const uint8_t *)pic->data[i] + (ptrdiff_t)y * pic->stride[i], row[i]);
        uint8_t *dst = (uint8_t *)dev + off;
        const int err = CHECK_HIP(d, cfg, hipMemcpyHtoDAsync(dst, staging + off, row[i] * rows[i],
                                                             d->stream));
        if (err < 0)
            return err;
        plane_ptr[i] = dst;
        plane_pitch[i] = (int64_t)row[i];
        off += row[i] * rows[i];
    }
    return 0;
}
