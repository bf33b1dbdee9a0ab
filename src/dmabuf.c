/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * dma-buf picture rules for the backends that import them as linear
 * device memory (HIP, Level Zero); see dmabuf.h.
 *
 * Why only linear: both APIs import a dma-buf as untyped device memory and
 * the kernels address it with offset + y * pitch. A tiled or compressed
 * layout (Intel X/Y/4 tiling, CCS, AMD swizzle/DCC) would be read as
 * garbage, silently. Such frames go through the Vulkan backend, which
 * imports them as images with the modifier, or are exported linear.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "dmabuf.h"

void gpussim_drm_modifier_name(uint64_t mod, char *buf, size_t size)
{
    static const char *const intel[] = {
        [1] = "I915_FORMAT_MOD_X_TILED",
        [2] = "I915_FORMAT_MOD_Y_TILED",
        [3] = "I915_FORMAT_MOD_Yf_TILED",
        [4] = "I915_FORMAT_MOD_Y_TILED_CCS",
        [5] = "I915_FORMAT_MOD_Yf_TILED_CCS",
        [6] = "I915_FORMAT_MOD_Y_TILED_GEN12_RC_CCS",
        [7] = "I915_FORMAT_MOD_Y_TILED_GEN12_MC_CCS",
        [8] = "I915_FORMAT_MOD_Y_TILED_GEN12_RC_CCS_CC",
        [9] = "I915_FORMAT_MOD_4_TILED",
    };
    static const char *const vendors[] = {
        "none", "Intel", "AMD", "NVIDIA", "Samsung", "Qualcomm", "Vivante", "Broadcom", "ARM",
        "Allwinner", "Amlogic",
    };
    const unsigned vendor = (unsigned)(mod >> 56);
    const uint64_t code = mod & 0x00ffffffffffffffull;

    if (mod == GPUSSIM_DRM_MOD_LINEAR)
        snprintf(buf, size, "DRM_FORMAT_MOD_LINEAR (0x0)");
    else if (mod == GPUSSIM_DRM_MOD_INVALID)
        snprintf(buf, size, "DRM_FORMAT_MOD_INVALID (0x%016llx, implicit layout)",
                 (unsigned long long)mod);
    else if (vendor == 1 && code < sizeof(intel) / sizeof(intel[0]) && intel[code])
        snprintf(buf, size, "%s (0x%016llx)", intel[code], (unsigned long long)mod);
    else if (vendor == 2)
        /* AMD_FMT_MOD: tile version in bits 0-7, swizzle mode in bits 8-12 */
        snprintf(buf, size, "AMD_FMT_MOD tile version %u swizzle %u (0x%016llx)",
                 (unsigned)(code & 0xff), (unsigned)((code >> 8) & 0x1f), (unsigned long long)mod);
    else
        snprintf(buf, size, "%s vendor modifier 0x%016llx",
                 vendor < sizeof(vendors) / sizeof(vendors[0]) ? vendors[vendor] : "unknown",
                 (unsigned long long)mod);
}

int gpussim_dmabuf_check_linear(const struct gpussim_logger *log, const char *backend,
                                uint64_t modifier)
{
    char name[128];
    if (modifier == GPUSSIM_DRM_MOD_LINEAR)
        return 0;
    gpussim_drm_modifier_name(modifier, name, sizeof(name));
    gpussim_log(log, GPUSSIM_LOG_ERROR,
                "%s: the dma-buf frame has modifier %s; the %s backend imports only linear "
                "surfaces (DRM_FORMAT_MOD_LINEAR). Export the VAAPI surface linear, or use "
                "backend=vulkan, which imports tiled surfaces with their modifier",
                backend, name, backend);
    return -EINVAL;
}

int64_t gpussim_dmabuf_size(int fd)
{
    const off_t end = lseek(fd, 0, SEEK_END);
    if (end < 0)
        return -errno;
    lseek(fd, 0, SEEK_SET);
    return (int64_t)end;
}

int gpussim_dmabuf_planes(const struct gpussim_config *cfg, const char *backend,
                          const struct gpussim_picture *pic,
                          struct gpussim_dmabuf_plane planes[3], int *nb_planes)
{
    const struct gpussim_logger *log = &cfg->log;
    const enum gpussim_packing pk = cfg->params.format.packing;
    int n = 1;
    planes[0].row_bytes = cfg->plane[0].width * cfg->bytes_per_sample;
    planes[0].rows = cfg->plane[0].height;
    if (cfg->nb_planes > 1) {
        if (pk == GPUSSIM_PACKING_PLANAR) {
            n = 3;
            for (int i = 1; i < 3; i++) {
                planes[i].row_bytes = cfg->plane[i].width * cfg->bytes_per_sample;
                planes[i].rows = cfg->plane[i].height;
            }
        } else {
            n = 2;
            planes[1].row_bytes = 2 * cfg->plane[1].width * cfg->bytes_per_sample;
            planes[1].rows = cfg->plane[1].height;
        }
    }
    for (int i = 0; i < n; i++) {
        struct gpussim_dmabuf_plane *pl = &planes[i];
        pl->fd = pic->fd[i];
        pl->offset = pic->offset[i];
        pl->pitch = pic->stride[i];
        if (pl->fd < 0) {
            gpussim_log(log, GPUSSIM_LOG_ERROR, "%s: dma-buf plane %d has no fd (%d)", backend, i,
                        pl->fd);
            return -EINVAL;
        }
        if (pl->pitch < pl->row_bytes) {
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "%s: dma-buf plane %d pitch %lld is below its row size %d bytes", backend, i,
                        (long long)pl->pitch, pl->row_bytes);
            return -EINVAL;
        }
        const int64_t size = gpussim_dmabuf_size(pl->fd);
        if (size < 0) {
            gpussim_log(log, GPUSSIM_LOG_ERROR, "%s: cannot get the size of dma-buf fd %d (plane %d)",
                        backend, pl->fd, i);
            return -EINVAL;
        }
        const uint64_t end = pl->offset + (uint64_t)pl->pitch * (uint64_t)(pl->rows - 1) +
                             (uint64_t)pl->row_bytes;
        if (end > (uint64_t)size) {
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "%s: dma-buf plane %d (offset %llu, pitch %lld, %d rows of %d bytes) ends at "
                        "byte %llu, past the buffer's %lld bytes",
                        backend, i, (unsigned long long)pl->offset, (long long)pl->pitch, pl->rows,
                        pl->row_bytes, (unsigned long long)end, (long long)size);
            return -EINVAL;
        }
    }
    *nb_planes = n;
    return 0;
}
