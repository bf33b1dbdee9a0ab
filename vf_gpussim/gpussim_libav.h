/*
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * Copyright (c) 2026 The gpussim authors
 *
 * This file is free software; you can redistribute it and/or modify it under
 * the terms of the GNU Lesser General Public License as published by the Free
 * Software Foundation; either version 2.1 of the License, or (at your option)
 * any later version, like the FFmpeg sources it is compiled with.
 *
 * It is distributed in the hope that it will be useful, but WITHOUT ANY
 * WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
 * FOR A PARTICULAR PURPOSE. See the GNU Lesser General Public License
 * (COPYING.LGPLv2.1) for more details.
 */
/*
 * libavutil <-> libgpussim glue, like libplacebo's utils/libav.h: pixel
 * formats to struct gpussim_format, AVFrames (software, CUDA, Vulkan, VAAPI)
 * to struct gpussim_picture, and the devices the library adopts. Static
 * functions in a header, compiled with vf_gpussim.c inside FFmpeg's
 * libavfilter (scripts/ffmpeg-build.sh copies both there).
 *
 * The device policy is the library's (gpussim_backend_order()): this glue
 * only tells it where the frames are (params.memory, the VAAPI driver's
 * vendor as params.device_vendor) and gives it the devices it asks for
 * (a Vulkan device derived from the VAAPI one, on demand).
 *
 * Lifetime: a GpussimLibavDevice lives as long as the library context; a
 * GpussimLibavPicture as long as the library reads that picture (until its
 * scores are collected), then gpussim_libav_picture_unref(). *
 * What the filter calls (the other functions are their helpers):
 *   gpussim_libav_format()         AVPixelFormat -> struct gpussim_format
 *   gpussim_libav_setup()          params.memory, vendor, device from the link's frames
 *   gpussim_libav_created()        after gpussim_create(): what the library picked
 *   gpussim_libav_picture()        AVFrame -> struct gpussim_picture (+ what to unref)
 *   gpussim_libav_picture_unref()  once the picture's scores are collected
 *   gpussim_libav_uninit()         after gpussim_destroy()
 *
 * Why a header of static functions and not a .c: it is compiled inside
 * FFmpeg's libavfilter, with FFmpeg's config.h, by one file (vf_gpussim.c),
 * as libplacebo's utils/libav.h is by vf_libplacebo.c. A .c would be one
 * more object each patch (patches/<version>/) adds to libavfilter/Makefile,
 * an already patched FFmpeg tree would not build it, and its external
 * symbols would enter libavfilter's namespace (where FFmpeg wants ff_);
 * static functions of one includer cost nothing, and the Vulkan, CUDA and
 * VAAPI parts vanish with FFmpeg's CONFIG_* without unused-function warnings.
 */
#ifndef GPUSSIM_LIBAV_H
#define GPUSSIM_LIBAV_H

#include <string.h>

#include <gpussim/gpussim.h>
#include <gpussim/gpussim_cuda.h>

#include "libavutil/avstring.h"
#include "libavutil/buffer.h"
#include "libavutil/frame.h"
#include "libavutil/hwcontext.h"
#include "libavutil/internal.h"
#include "libavutil/log.h"
#include "libavutil/pixdesc.h"

#if CONFIG_CUDA
#include "libavutil/hwcontext_cuda_internal.h"
#endif
#if CONFIG_VAAPI
#include "libavutil/hwcontext_drm.h"
#include "libavutil/hwcontext_vaapi.h"
#endif
#if CONFIG_VULKAN
#include <gpussim/gpussim_vulkan.h>
#include "libavutil/hwcontext_vulkan.h"
#endif

/* FFmpeg 9.0 (libavutil 61) stores AVVkFrame.access as VkAccessFlagBits2. */
#if LIBAVUTIL_VERSION_MAJOR >= 61
#define GPUSSIM_VK_ACCESS2 1
#else
#define GPUSSIM_VK_ACCESS2 0
#endif

#if defined(FF_API_VULKAN_SYNC_QUEUES) && !FF_API_VULKAN_SYNC_QUEUES
#define GPUSSIM_VK_QUEUE_LOCK 0
#else
#define GPUSSIM_VK_QUEUE_LOCK 1
#endif

/* ---- pixel formats ------------------------------------------------------- */

/* Maps a software pixel format to the library's description (width and
 * height left 0); the filter's table of accepted formats is derived from
 * this, so every FFmpeg version offers all of its layouts the library reads
 * (planar, NV12/NV21-style, P0xx MSB-aligned) at 8, 10, 12 and 16 bits,
 * little-endian. */
static inline int gpussim_libav_format(enum AVPixelFormat fmt, struct gpussim_format *out)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(fmt);
    struct gpussim_format f = { 0 };
    int bytes;

    if (!d || (d->flags & (AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_RGB |
                           AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM |
                           AV_PIX_FMT_FLAG_ALPHA | AV_PIX_FMT_FLAG_BAYER |
                           AV_PIX_FMT_FLAG_FLOAT)))
        return AVERROR(EINVAL);
    if (d->nb_components != 1 && d->nb_components != 3)
        return AVERROR(EINVAL);
    f.bit_depth = d->comp[0].depth;
    if (f.bit_depth != 8 && f.bit_depth != 10 && f.bit_depth != 12 && f.bit_depth != 16)
        return AVERROR(EINVAL);
    bytes = f.bit_depth > 8 ? 2 : 1;
    /* the value sits either in the low bits or MSB-aligned (P010-style) */
    if (d->comp[0].shift && d->comp[0].shift != 8 * bytes - f.bit_depth)
        return AVERROR(EINVAL);
    f.msb_aligned = d->comp[0].shift != 0;
    if (d->comp[0].plane != 0 || d->comp[0].step != bytes || d->comp[0].offset != 0)
        return AVERROR(EINVAL);

    if (d->nb_components == 1) {
        f.chroma = GPUSSIM_CHROMA_GRAY;
        f.packing = GPUSSIM_PACKING_PLANAR;
    } else {
        for (int i = 1; i < 3; i++)
            if (d->comp[i].depth != f.bit_depth || d->comp[i].shift != d->comp[0].shift)
                return AVERROR(EINVAL);
        if (d->log2_chroma_w == 1 && d->log2_chroma_h == 1)
            f.chroma = GPUSSIM_CHROMA_420;
        else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 0)
            f.chroma = GPUSSIM_CHROMA_422;
        else if (d->log2_chroma_w == 0 && d->log2_chroma_h == 0)
            f.chroma = GPUSSIM_CHROMA_444;
        else
            return AVERROR(EINVAL);
        if (d->comp[1].plane == 1 && d->comp[2].plane == 2 &&
            d->comp[1].step == bytes && d->comp[2].step == bytes &&
            !d->comp[1].offset && !d->comp[2].offset) {
            f.packing = GPUSSIM_PACKING_PLANAR;
        } else if (d->comp[1].plane == 1 && d->comp[2].plane == 1 &&
                   d->comp[1].step == 2 * bytes && d->comp[2].step == 2 * bytes) {
            if (d->comp[1].offset == 0 && d->comp[2].offset == bytes)
                f.packing = GPUSSIM_PACKING_SEMIPLANAR_UV;
            else if (d->comp[2].offset == 0 && d->comp[1].offset == bytes)
                f.packing = GPUSSIM_PACKING_SEMIPLANAR_VU;
            else
                return AVERROR(EINVAL);
        } else {
            return AVERROR(EINVAL);
        }
    }
    if (f.packing == GPUSSIM_PACKING_PLANAR && f.msb_aligned)
        return AVERROR(EINVAL);
    *out = f;
    return 0;
}

/* ---- devices ------------------------------------------------------------- */

typedef struct GpussimLibavDevice {
    void *log_ctx;
    enum AVPixelFormat sw_format;
    const char *frames_name;        /* "CUDA", "Vulkan", "VAAPI"; "software" */
    AVBufferRef *frames;            /* the input's frames context (VAAPI) */
    AVBufferRef *hw_device;         /* keeps the device the library adopted alive */
    AVBufferRef *vk_device;         /* VAAPI: the derived Vulkan device */
    AVBufferRef *vk_frames;         /* VAAPI: Vulkan frames derived from the VAAPI ones */
    int device_error;               /* the AVERROR of a failed get_device, logged */
    struct gpussim_cuda_device cuda_dev;
#if CONFIG_VULKAN
    struct gpussim_vk_device vk_dev;
#endif
} GpussimLibavDevice;

#if CONFIG_VULKAN
static inline void gpussim_libav_vk_lock_queue(void *opaque, uint32_t family, uint32_t index)
{
    AVHWDeviceContext *dev = opaque;
    AVVulkanDeviceContext *hw = dev->hwctx;
#if GPUSSIM_VK_QUEUE_LOCK
FF_DISABLE_DEPRECATION_WARNINGS
    if (hw->lock_queue)
        hw->lock_queue(dev, family, index);
FF_ENABLE_DEPRECATION_WARNINGS
#endif
}

static inline void gpussim_libav_vk_unlock_queue(void *opaque, uint32_t family, uint32_t index)
{
    AVHWDeviceContext *dev = opaque;
    AVVulkanDeviceContext *hw = dev->hwctx;
#if GPUSSIM_VK_QUEUE_LOCK
FF_DISABLE_DEPRECATION_WARNINGS
    if (hw->unlock_queue)
        hw->unlock_queue(dev, family, index);
FF_ENABLE_DEPRECATION_WARNINGS
#endif
}

/* Describes FFmpeg's Vulkan device (d->hw_device) for the library. */
static inline int gpussim_libav_vk_device(GpussimLibavDevice *d)
{
    AVHWDeviceContext *dev = (AVHWDeviceContext *)d->hw_device->data;
    AVVulkanDeviceContext *hw = dev->hwctx;
    int family = -1, count = 0;

    /* a compute-capable family; prefer one without graphics (async compute) */
    for (int pass = 0; pass < 2 && family < 0; pass++)
        for (int i = 0; i < hw->nb_qf; i++) {
            if (!(hw->qf[i].flags & VK_QUEUE_COMPUTE_BIT))
                continue;
            if (!pass && (hw->qf[i].flags & VK_QUEUE_GRAPHICS_BIT))
                continue;
            family = hw->qf[i].idx;
            count = hw->qf[i].num;
            break;
        }
    if (family < 0) {
        av_log(d->log_ctx, AV_LOG_ERROR, "the Vulkan device has no compute queue enabled\n");
        return AVERROR(ENODEV);
    }
    d->vk_dev = (struct gpussim_vk_device) {
        .get_proc_addr = hw->get_proc_addr,
        .instance      = hw->inst,
        .phys_dev      = hw->phys_dev,
        .device        = hw->act_dev,
        .queue_family  = (uint32_t)family,
        .queue_count   = (uint32_t)FFMAX(count, 1),
        .extensions    = hw->enabled_dev_extensions,
        .nb_extensions = hw->nb_enabled_dev_extensions,
        .features      = &hw->device_features,
        .lock_queue    = gpussim_libav_vk_lock_queue,
        .unlock_queue  = gpussim_libav_vk_unlock_queue,
        .lock_opaque   = dev,
    };
    return 0;
}
#endif

/* params.get_device: the library falls back to Vulkan for VAAPI frames. A
 * Vulkan device derived from the VAAPI one imports each surface's dma-bufs
 * (av_hwframe_map), no copy. */
static inline int gpussim_libav_get_device(void *opaque, enum gpussim_backend_type type, const void **hw_device)
{
    GpussimLibavDevice *d = opaque;
    int ret = AVERROR(ENOSYS);

#if CONFIG_VULKAN
    if (type == GPUSSIM_BACKEND_VULKAN && d->frames && !d->hw_device) {
        AVHWFramesContext *fc = (AVHWFramesContext *)d->frames->data;
        ret = av_hwdevice_ctx_create_derived(&d->vk_device, AV_HWDEVICE_TYPE_VULKAN, fc->device_ref, 0);
        if (ret < 0) {
            av_log(d->log_ctx, AV_LOG_ERROR,
                   "cannot derive a Vulkan device from the VAAPI device (%s): gpussim scores "
                   "VAAPI frames through Vulkan. Alternatively add hwdownload,format=%s\n",
                   av_err2str(ret), av_get_pix_fmt_name(d->sw_format));
            goto fail;
        }
        ret = av_hwframe_ctx_create_derived(&d->vk_frames, AV_PIX_FMT_VULKAN, d->vk_device,
                                            d->frames, AV_HWFRAME_MAP_READ);
        if (ret < 0) {
            av_log(d->log_ctx, AV_LOG_ERROR, "cannot map the VAAPI frames to Vulkan: %s\n",
                   av_err2str(ret));
            goto fail;
        }
        d->hw_device = av_buffer_ref(d->vk_device);
        if (!d->hw_device) {
            ret = AVERROR(ENOMEM);
            goto fail;
        }
        if ((ret = gpussim_libav_vk_device(d)) < 0)
            goto fail;
        *hw_device = &d->vk_dev;
        return 0;
    }
#else
    av_log(d->log_ctx, AV_LOG_ERROR, "this FFmpeg was built without Vulkan support, which gpussim "
           "needs to read %s frames; add hwdownload,format=%s\n", d->frames_name,
           av_get_pix_fmt_name(d->sw_format));
    goto fail;
#endif
    (void)type;
    (void)hw_device;
fail:
    d->device_error = ret;
    /* the library wants an errno; the AVERROR is kept for the caller */
    return AVERROR(ENODEV);
}

/*
 * Describes the frames of a link (hw_frames: its hw_frames_ctx or NULL;
 * link_format: its pixel format) in p: format, memory, the device to adopt
 * or the means to derive one, the vendor hint. Logs and fails on frames
 * gpussim cannot read.
 */
static inline int gpussim_libav_setup(GpussimLibavDevice *d, void *log_ctx, AVBufferRef *hw_frames,
                               enum AVPixelFormat link_format, struct gpussim_params *p)
{
    AVHWFramesContext *fc = hw_frames ? (AVHWFramesContext *)hw_frames->data : NULL;
    int ret;

    memset(d, 0, sizeof(*d));
    d->log_ctx = log_ctx;
    d->sw_format = fc ? fc->sw_format : link_format;
    d->frames_name = "software";
    p->memory = GPUSSIM_MEMORY_HOST;
    if (fc) {
        switch (link_format) {
        case AV_PIX_FMT_CUDA:
            d->frames_name = "CUDA";
            p->memory = GPUSSIM_MEMORY_CUDA;
            break;
        case AV_PIX_FMT_VULKAN:
            d->frames_name = "Vulkan";
            p->memory = GPUSSIM_MEMORY_VULKAN;
            break;
        case AV_PIX_FMT_VAAPI:
            d->frames_name = "VAAPI";
            p->memory = GPUSSIM_MEMORY_DMABUF;
            break;
        default:
            av_log(log_ctx, AV_LOG_ERROR, "unsupported hardware frames %s\n",
                   av_get_pix_fmt_name(link_format));
            return AVERROR(ENOSYS);
        }
    }

    ret = gpussim_libav_format(d->sw_format, &p->format);
    if (ret < 0) {
        const char *n = av_get_pix_fmt_name(d->sw_format);
        av_log(log_ctx, AV_LOG_ERROR,
               "pixel format %s is not supported: gpussim reads YUV/gray at 8, 10, 12 or 16 bits "
               "(planar, NV12/NV21-style or P010-style); convert with format=<fmt>%s\n",
               n ? n : "none", fc ? " before hwupload" : "");
        return AVERROR(EINVAL);
    }

#if LIBAVUTIL_VERSION_MAJOR < 60
    /* Known problem: with FFmpeg 7.1 (libavutil 59), Vulkan frames uploaded
     * by hwupload were read before their upload completed (lavapipe: frames
     * after the first scored wrong, FFmpeg's own hwdownload of the same
     * frames was right). FFmpeg 7.1's upload alone (hwupload,hwdownload, no
     * gpussim) already draws validation errors (its copy expects
     * TRANSFER_DST_OPTIMAL on images still UNDEFINED); 8.1 draws none.
     * Refuse rather than report a wrong number. 8.x and 9.0 are tested. */
    if (p->memory == GPUSSIM_MEMORY_VULKAN || p->memory == GPUSSIM_MEMORY_DMABUF) {
        av_log(log_ctx, AV_LOG_ERROR,
               "%s frames need FFmpeg 8.0 or newer with gpussim (with FFmpeg 7.1 the frames' "
               "upload is not reliably synchronised with gpussim's queue); add "
               "hwdownload,format=%s before gpussim, or use FFmpeg 8.1\n",
               d->frames_name, av_get_pix_fmt_name(d->sw_format));
        return AVERROR(ENOSYS);
    }
#endif

    switch (p->memory) {
    case GPUSSIM_MEMORY_CUDA: {
#if CONFIG_CUDA
        AVCUDADeviceContext *cu = fc->device_ctx->hwctx;
        d->cuda_dev.cu_context = cu->cuda_ctx;
        d->cuda_dev.cu_stream = cu->stream;
        d->hw_device = av_buffer_ref(fc->device_ref);
        if (!d->hw_device)
            return AVERROR(ENOMEM);
        p->hw_device = &d->cuda_dev;
        break;
#else
        av_log(log_ctx, AV_LOG_ERROR, "this FFmpeg was built without CUDA support\n");
        return AVERROR(ENOSYS);
#endif
    }
    case GPUSSIM_MEMORY_VULKAN:
#if CONFIG_VULKAN
        d->hw_device = av_buffer_ref(fc->device_ref);
        if (!d->hw_device)
            return AVERROR(ENOMEM);
        if ((ret = gpussim_libav_vk_device(d)) < 0)
            return ret;
        p->hw_device = &d->vk_dev;
#endif
        break;
    case GPUSSIM_MEMORY_DMABUF: {
#if CONFIG_VAAPI
        /* the library picks by vendor: the native backend of the VAAPI
         * driver's GPU (dma-bufs), else Vulkan on a derived device */
        AVVAAPIDeviceContext *va = fc->device_ctx->hwctx;
        p->device_vendor = vaQueryVendorString(va->display);
#endif
        d->frames = hw_frames;
        p->get_device = gpussim_libav_get_device;
        p->get_device_opaque = d;
        break;
    }
    default:
        break;
    }
    return 0;
}

/* After gpussim_create(): the VAAPI frames context is only needed during it. */
static inline void gpussim_libav_created(GpussimLibavDevice *d)
{
    d->frames = NULL;
}

static inline void gpussim_libav_uninit(GpussimLibavDevice *d)
{
    av_buffer_unref(&d->vk_frames);
    av_buffer_unref(&d->hw_device);
    av_buffer_unref(&d->vk_device);
}

/* ---- pictures ------------------------------------------------------------ */

#if CONFIG_VULKAN
/* Bridges gpussim's lock(opaque) to AVVulkanFramesContext.lock_frame(fc, f).
 * Before FFmpeg 9.0 AVVkFrame.access is 32 bits wide while the library speaks
 * VkAccessFlags2: the value is widened into access2[] under the lock and
 * written back, narrowed, before the frame is unlocked. */
typedef struct GpussimLibavVkLock {
    AVHWFramesContext *fc;
    AVVkFrame *f;
    int nb_images;
    uint64_t access2[GPUSSIM_VK_MAX_IMAGES];
} GpussimLibavVkLock;
#endif

/* What one picture holds while the library reads it. */
typedef struct GpussimLibavPicture {
    AVFrame *map; /* VAAPI frames mapped to Vulkan or DRM PRIME */
#if CONFIG_VULKAN
    struct gpussim_vk_frame vk;
    GpussimLibavVkLock lock;
#endif
} GpussimLibavPicture;

static inline void gpussim_libav_picture_unref(GpussimLibavPicture *pp)
{
    av_frame_free(&pp->map);
}

#if CONFIG_VULKAN
static inline void gpussim_libav_vk_lock_frame(void *opaque)
{
    GpussimLibavVkLock *l = opaque;
    AVVulkanFramesContext *vkfc = l->fc->hwctx;
    if (vkfc->lock_frame)
        vkfc->lock_frame(l->fc, l->f);
#if !GPUSSIM_VK_ACCESS2
    for (int i = 0; i < l->nb_images; i++)
        l->access2[i] = (uint64_t)l->f->access[i];
#endif
}

static inline void gpussim_libav_vk_unlock_frame(void *opaque)
{
    GpussimLibavVkLock *l = opaque;
    AVVulkanFramesContext *vkfc = l->fc->hwctx;
#if !GPUSSIM_VK_ACCESS2
    for (int i = 0; i < l->nb_images; i++) {
        uint64_t a = l->access2[i];
        /* synchronization2-only read/write bits have a legacy equivalent */
        if (a & (VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT))
            a |= VK_ACCESS_SHADER_READ_BIT;
        if (a & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT)
            a |= VK_ACCESS_SHADER_WRITE_BIT;
        l->f->access[i] = (VkAccessFlagBits)(a & 0xffffffffu);
    }
#endif
    if (vkfc->unlock_frame)
        vkfc->unlock_frame(l->fc, l->f);
}

/* A Vulkan frame; pp owns the lock bridge, which must stay valid until the
 * scores are collected. */
static inline int gpussim_libav_vk_picture(void *log_ctx, GpussimLibavPicture *pp, const AVFrame *frame,
                                    struct gpussim_picture *pic)
{
    AVHWFramesContext *fc = (AVHWFramesContext *)frame->hw_frames_ctx->data;
    AVVulkanFramesContext *vkfc = fc->hwctx;
    AVVkFrame *f = (AVVkFrame *)frame->data[0];
    struct gpussim_vk_frame *vk = &pp->vk;
    GpussimLibavVkLock *l = &pp->lock;
    int n = 0;

    while (n < AV_NUM_DATA_POINTERS && f->img[n] != VK_NULL_HANDLE)
        n++;
    if (n < 1 || n > GPUSSIM_VK_MAX_IMAGES) {
        av_log(log_ctx, AV_LOG_ERROR, "unexpected Vulkan frame with %d images\n", n);
        return AVERROR(EINVAL);
    }
    *l = (GpussimLibavVkLock) { .fc = fc, .f = f, .nb_images = n };
    memset(vk, 0, sizeof(*vk));
    vk->nb_images = n;
    for (int i = 0; i < n; i++) {
        vk->img[i] = f->img[i];
        vk->format[i] = vkfc->format[i];
        vk->layout[i] = &f->layout[i];
#if GPUSSIM_VK_ACCESS2
        vk->access[i] = (uint64_t *)&f->access[i];
#else
        vk->access[i] = &l->access2[i];
#endif
        vk->queue_family[i] = &f->queue_family[i];
        vk->sem[i] = f->sem[i];
        vk->sem_value[i] = &f->sem_value[i];
    }
    vk->lock = gpussim_libav_vk_lock_frame;
    vk->unlock = gpussim_libav_vk_unlock_frame;
    vk->lock_opaque = l;

    memset(pic, 0, sizeof(*pic));
    pic->memory = GPUSSIM_MEMORY_VULKAN;
    pic->hw = vk;
    return 0;
}
#endif /* CONFIG_VULKAN */

#if CONFIG_VAAPI
/* A VAAPI surface exported as DRM PRIME: its planes as dma-buf fds, offsets
 * and pitches for the HIP / Level Zero backends. The mapping (which owns the
 * fds) stays in pp until the scores are collected. */
static inline int gpussim_libav_dmabuf_picture(void *log_ctx, GpussimLibavPicture *pp, AVFrame *frame,
                                        struct gpussim_picture *pic)
{
    const AVDRMFrameDescriptor *d;
    AVFrame *m = av_frame_alloc();
    int ret, n = 0;

    if (!m)
        return AVERROR(ENOMEM);
    m->format = AV_PIX_FMT_DRM_PRIME;
    ret = av_hwframe_map(m, frame, AV_HWFRAME_MAP_READ);
    if (ret < 0) {
        av_log(log_ctx, AV_LOG_ERROR, "cannot export a VAAPI frame as DRM PRIME dma-bufs: %s\n",
               av_err2str(ret));
        av_frame_free(&m);
        return ret;
    }
    d = (const AVDRMFrameDescriptor *)m->data[0];
    memset(pic, 0, sizeof(*pic));
    pic->memory = GPUSSIM_MEMORY_DMABUF;
    for (int i = 0; i < GPUSSIM_MAX_PLANES; i++)
        pic->fd[i] = -1;
    for (int l = 0; l < d->nb_layers; l++)
        for (int k = 0; k < d->layers[l].nb_planes; k++) {
            const AVDRMPlaneDescriptor *pl = &d->layers[l].planes[k];
            if (n == GPUSSIM_MAX_PLANES || pl->object_index >= d->nb_objects) {
                av_log(log_ctx, AV_LOG_ERROR, "unexpected DRM PRIME layout (%d layers)\n", d->nb_layers);
                av_frame_free(&m);
                return AVERROR(EINVAL);
            }
            pic->fd[n] = d->objects[pl->object_index].fd;
            pic->offset[n] = (uint64_t)pl->offset;
            pic->stride[n] = pl->pitch;
            n++;
        }
    /* the library refuses any modifier but linear, naming it */
    pic->modifier = d->nb_objects ? d->objects[0].format_modifier : 0;
    pp->map = m;
    return 0;
}

#if CONFIG_VULKAN
/* A VAAPI surface mapped to a Vulkan image on the derived device. */
static inline int gpussim_libav_vaapi_vk_picture(GpussimLibavDevice *d, GpussimLibavPicture *pp,
                                          AVFrame *frame, struct gpussim_picture *pic)
{
    AVFrame *m = av_frame_alloc();
    int ret;

    if (!m)
        return AVERROR(ENOMEM);
    m->format = AV_PIX_FMT_VULKAN;
    m->hw_frames_ctx = av_buffer_ref(d->vk_frames);
    if (!m->hw_frames_ctx) {
        av_frame_free(&m);
        return AVERROR(ENOMEM);
    }
    ret = av_hwframe_map(m, frame, AV_HWFRAME_MAP_READ);
    if (ret < 0) {
        av_log(d->log_ctx, AV_LOG_ERROR, "cannot map a VAAPI frame to Vulkan: %s\n", av_err2str(ret));
        av_frame_free(&m);
        return ret;
    }
    pp->map = m;
    return gpussim_libav_vk_picture(d->log_ctx, pp, m, pic);
}
#endif
#endif /* CONFIG_VAAPI */

/* Fills pic from frame in the memory the library reads (memory:
 * gpussim_picture_memory()); what it maps stays in pp. */
static inline int gpussim_libav_picture(GpussimLibavDevice *d, enum gpussim_memory memory,
                                 GpussimLibavPicture *pp, AVFrame *frame, struct gpussim_picture *pic)
{
    memset(pic, 0, sizeof(*pic));
    switch (memory) {
    case GPUSSIM_MEMORY_HOST:
    case GPUSSIM_MEMORY_CUDA:
        pic->memory = memory;
        /* host pointers, or CUdeviceptr values */
        for (int i = 0; i < GPUSSIM_MAX_PLANES && frame->data[i]; i++) {
            pic->data[i] = frame->data[i];
            pic->stride[i] = frame->linesize[i];
        }
        return 0;
#if CONFIG_VAAPI
    case GPUSSIM_MEMORY_DMABUF:
        return gpussim_libav_dmabuf_picture(d->log_ctx, pp, frame, pic);
#endif
#if CONFIG_VULKAN
    case GPUSSIM_MEMORY_VULKAN:
#if CONFIG_VAAPI
        if (frame->format == AV_PIX_FMT_VAAPI)
            return gpussim_libav_vaapi_vk_picture(d, pp, frame, pic);
#endif
        return gpussim_libav_vk_picture(d->log_ctx, pp, frame, pic);
#endif
    default:
        return AVERROR(ENOSYS);
    }
}

#endif /* GPUSSIM_LIBAV_H */
