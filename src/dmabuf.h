/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * dma-buf (DRM PRIME) pictures for the backends that import them as plain
 * linear device memory (HIP, Level Zero): check the modifier, name it in
 * errors, and bound every plane inside its buffer.
 */
#ifndef GPUSSIM_DMABUF_H
#define GPUSSIM_DMABUF_H

#include <stddef.h>
#include <stdint.h>

#include "src/backend.h"

/* DRM_FORMAT_MOD_LINEAR and DRM_FORMAT_MOD_INVALID of drm_fourcc.h. */
#define GPUSSIM_DRM_MOD_LINEAR 0ull
#define GPUSSIM_DRM_MOD_INVALID 0x00ffffffffffffffull

/* Writes a readable name of a DRM format modifier ("I915_FORMAT_MOD_Y_TILED
 * (0x0100000000000002)"). */
void gpussim_drm_modifier_name(uint64_t modifier, char *buf, size_t size);

/* 0 for a linear surface; else logs an error naming the modifier and what
 * to do instead, and returns -EINVAL. */
int gpussim_dmabuf_check_linear(const struct gpussim_logger *log, const char *backend,
                                uint64_t modifier);

/* One picture plane of a dma-buf frame as the device reads it. */
struct gpussim_dmabuf_plane {
    int fd;
    uint64_t offset;
    int64_t pitch;
    int row_bytes, rows;
};

/* The picture planes a configuration reads from a DMABUF picture (1, 2 for
 * semi-planar chroma, 3 for planar chroma) with their extents; checks fds,
 * pitches and that each plane lies inside its buffer (size from lseek).
 * Logs and returns -EINVAL on a bad picture. */
int gpussim_dmabuf_planes(const struct gpussim_config *cfg, const char *backend,
                          const struct gpussim_picture *pic,
                          struct gpussim_dmabuf_plane planes[3], int *nb_planes);

/* Size in bytes of a dma-buf (lseek to its end), or a negative errno. */
int64_t gpussim_dmabuf_size(int fd);

#endif /* GPUSSIM_DMABUF_H */
