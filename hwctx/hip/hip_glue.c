/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * HIP driver glue; see hip_glue.h. Compiled and linked, not run on AMD hardware.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hip_glue.h"
#include "src/dmabuf.h"
#include "src/dynload.h"

int gpussim_hip_load(struct gpussim_hip_api *api)
{
    static const char *const libs[] = { "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so",
                                        NULL };
#define HIP_FN_SYM(name) GPUSSIM_DYNSYM(api->name, #name),
    const struct gpussim_dynsym syms[] = { HIP_FUNCS(HIP_FN_SYM) };
#undef HIP_FN_SYM
    memset(api, 0, sizeof(*api));
    api->lib = gpussim_dynload(libs, syms, (int)(sizeof(syms) / sizeof(*syms)), NULL, 0);
    return api->lib ? 0 : -ENODEV;
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
#define CHECK_HIP(api, cfg, call) gpussim_hip_check(cfg, api, (api)->call, #call)

/* ---- dma-buf import ---------------------------------------------------------- */

void gpussim_hip_release_imports(const struct gpussim_hip_api *api,
                                 struct gpussim_hip_import *imports, int *nb_imports)
{
    for (int i = 0; i < *nb_imports; i++) {
        /* the mapped buffer is freed with hipFree, then the import destroyed */
        if (imports[i].ptr)
            api->hipFree(imports[i].ptr);
        if (imports[i].ext)
            api->hipDestroyExternalMemory(imports[i].ext);
        imports[i] = (struct gpussim_hip_import){ 0 };
    }
    *nb_imports = 0;
}

/*
 * ROCm imports a dma-buf through the "opaque fd" handle type (the ROCr
 * interop path maps dma-buf fds); HIP takes ownership of the fd it is
 * given, so it gets a dup and the caller's fd stays the caller's.
 */
static int import_fd(const struct gpussim_hip_api *api, const struct gpussim_config *cfg, int fd,
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
    int err = CHECK_HIP(api, cfg, hipImportExternalMemory(&imp->ext, &hd));
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
    err = CHECK_HIP(api, cfg, hipExternalMemoryGetMappedBuffer(&imp->ptr, imp->ext, &bd));
    if (err < 0) {
        api->hipDestroyExternalMemory(imp->ext);
        imp->ext = NULL;
    }
    return err;
}

int gpussim_hip_import_picture(const struct gpussim_hip_api *api, const struct gpussim_config *cfg,
                               const struct gpussim_picture *pic,
                               struct gpussim_hip_import *imports, int *nb_imports,
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
            if ((err = import_fd(api, cfg, planes[i].fd, imp)) < 0) {
                int added = *nb_imports - first;
                gpussim_hip_release_imports(api, imports + first, &added);
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
