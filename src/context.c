/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The public context: backend selection, the in-order queue of frames in
 * flight, and turning each frame's sums into scores.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mem.h"

struct GpussimContext {
    struct gpussim_config cfg;
    const struct gpussim_backend *backend;
    void *priv;
    int nb_slots;
    uint64_t submitted, collected;
    int last_slot;
    int nb_scores;
    const char **names;
    char *names_storage;
    double *values;
};

void gpussim_default_params(struct gpussim_params *p)
{
    memset(p, 0, sizeof(*p));
    p->log_level = GPUSSIM_LOG_INFO;
}

const char *gpussim_strerror(int err)
{
    switch (err) {
    case 0: return "success";
    case -EINVAL: return "invalid argument or configuration";
    case -ENOMEM: return "out of memory";
    case -ENODEV: return "backend device unavailable";
    case -ENOSYS: return "backend not built into this library";
    case -ERANGE: return "value out of range";
    case -EAGAIN: return "too many frames in flight; collect results first";
    case -EIO: return "device error";
    default: return "unknown error";
    }
}

static const struct gpussim_backend *find_backend(enum gpussim_backend_type type)
{
    for (const struct gpussim_backend *const *b = gpussim_backends; *b; b++)
        if ((*b)->type == type)
            return *b;
    return NULL;
}

static int start_backend(GpussimContext *c, const struct gpussim_backend *b)
{
    int slots = 0;
    int err = b->init(&c->cfg, &c->priv, &slots);
    if (err < 0)
        return err;
    c->backend = b;
    c->nb_slots = slots;
    if (c->cfg.params.max_in_flight && c->cfg.params.max_in_flight < slots)
        c->nb_slots = c->cfg.params.max_in_flight;
    return 0;
}

static int select_backend(GpussimContext *c)
{
    const struct gpussim_logger *log = &c->cfg.log;
    const enum gpussim_backend_type want = c->cfg.params.backend;

    if (want != GPUSSIM_BACKEND_AUTO) {
        const struct gpussim_backend *b = find_backend(want);
        if (!b) {
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "the %s backend is not built into this libgpussim (configure --enable-%s "
                        "with its toolchain present)",
                        gpussim_backend_type_name(want),
                        want == GPUSSIM_BACKEND_ZE ? "level-zero" : gpussim_backend_type_name(want));
            return -ENOSYS;
        }
        return start_backend(c, b);
    }

    /* AUTO: the first backend that reads the pictures' memory and whose
     * device answers; the CPU backend is last and always answers. */
    for (const struct gpussim_backend *const *b = gpussim_backends; *b; b++) {
        if ((*b)->probe && (*b)->probe(&c->cfg) < 0)
            continue;
        int err = start_backend(c, *b);
        if (err >= 0)
            return 0;
        gpussim_log(log, GPUSSIM_LOG_VERBOSE, "backend %s unavailable (%s), trying the next",
                    (*b)->name, gpussim_strerror(err));
    }
    gpussim_log(log, GPUSSIM_LOG_ERROR, "no backend could be started");
    return -ENODEV;
}

int gpussim_create(GpussimContext **pctx, const struct gpussim_params *params)
{
    int err;
    if (!pctx || !params)
        return -EINVAL;
    *pctx = NULL;

    GpussimContext *c = gpussim_calloc(1, sizeof(*c));
    if (!c) {
        const struct gpussim_logger log = { params->log_cb, params->log_opaque,
                                            params->log_level ? params->log_level : GPUSSIM_LOG_INFO };
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "out of memory for the context");
        return -ENOMEM;
    }
    err = gpussim_config_init(&c->cfg, params);
    if (err < 0)
        goto fail;

    err = gpussim_scores_names(&c->cfg, &c->names, &c->names_storage);
    if (err >= 0) {
        c->nb_scores = err;
        c->values = gpussim_calloc((size_t)c->nb_scores, sizeof(*c->values));
        err = c->values ? 0 : -ENOMEM;
    }
    if (err < 0) {
        gpussim_log(&c->cfg.log, GPUSSIM_LOG_ERROR, "out of memory for the score names and values");
        goto fail;
    }

    err = select_backend(c);
    if (err < 0)
        goto fail;
    gpussim_log(&c->cfg.log, GPUSSIM_LOG_VERBOSE, "backend %s, %d frame(s) in flight",
                c->backend->name, c->nb_slots);
    *pctx = c;
    return 0;

fail:
    gpussim_destroy(&c);
    return err;
}

void gpussim_destroy(GpussimContext **pctx)
{
    GpussimContext *c = pctx ? *pctx : NULL;
    if (!c)
        return;
    if (c->backend) {
        struct gpussim_frame_sums sums;
        /* frames still in flight read caller memory: let them finish */
        while (c->collected < c->submitted) {
            const int slot = (int)(c->collected % (uint64_t)c->nb_slots);
            c->backend->wait(c->priv, slot, 1, &sums);
            c->collected++;
        }
        c->backend->uninit(&c->priv);
    }
    gpussim_free(c->values);
    gpussim_free(c->names);
    gpussim_free(c->names_storage);
    gpussim_free(c);
    *pctx = NULL;
}

const struct gpussim_config *gpussim_internal_config(const GpussimContext *c)
{
    return &c->cfg;
}

const char *gpussim_library_version(void)
{
#ifdef PACKAGE_VERSION
    return PACKAGE_VERSION;
#else
    return "unknown";
#endif
}

const char *gpussim_backend_name(const GpussimContext *c)
{
    return c && c->backend ? c->backend->name : "none";
}

int gpussim_score_names(const GpussimContext *c, const char *const **names)
{
    if (!c || !names)
        return -EINVAL;
    *names = c->names;
    return c->nb_scores;
}

int gpussim_pending(const GpussimContext *c)
{
    return c ? (int)(c->submitted - c->collected) : 0;
}

static int check_picture(const GpussimContext *c, const struct gpussim_picture *pic, const char *what)
{
    const struct gpussim_logger *log = &c->cfg.log;
    if (!pic) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "no %s picture", what);
        return -EINVAL;
    }
    if ((unsigned)pic->memory > GPUSSIM_MEMORY_DMABUF ||
        !(c->backend->memory_mask & (1u << pic->memory))) {
        static const char *const mem[] = { "host", "CUDA", "Vulkan", "dma-buf" };
        gpussim_log(log, GPUSSIM_LOG_ERROR, "the %s backend cannot read %s %s pictures",
                    c->backend->name, (unsigned)pic->memory <= GPUSSIM_MEMORY_DMABUF ? mem[pic->memory] : "unknown", what);
        return -EINVAL;
    }
    if (pic->memory == GPUSSIM_MEMORY_VULKAN) {
        if (!pic->hw) {
            gpussim_log(log, GPUSSIM_LOG_ERROR, "%s Vulkan picture without a frame descriptor", what);
            return -EINVAL;
        }
        return 0;
    }
    /* planes the scores read: luma, and the chroma plane(s) with planes=all */
    const struct gpussim_format *f = &c->cfg.params.format;
    int need = 1;
    if (c->cfg.nb_planes > 1)
        need = f->packing == GPUSSIM_PACKING_PLANAR ? 3 : 2;
    for (int i = 0; i < need; i++) {
        if (pic->memory == GPUSSIM_MEMORY_DMABUF ? pic->fd[i] < 0 : !pic->data[i]) {
            gpussim_log(log, GPUSSIM_LOG_ERROR, "%s picture: plane %d is missing", what, i);
            return -EINVAL;
        }
        const int w = i ? c->cfg.plane[1].width * (f->packing == GPUSSIM_PACKING_PLANAR ? 1 : 2)
                        : f->width;
        const int h = c->cfg.plane[i ? 1 : 0].height;
        const ptrdiff_t row = (ptrdiff_t)w * c->cfg.bytes_per_sample;
        const ptrdiff_t stride = pic->stride[i];
        /* compared without negating: -PTRDIFF_MIN does not exist */
        if (stride > -row && stride < row) {
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "%s picture: plane %d stride %td is smaller than a row (%td bytes)", what, i,
                        stride, row);
            return -EINVAL;
        }
        /* the last row starts (h - 1) * stride bytes from the first: that
         * offset must be a representable pointer difference */
        if (h > 1 && (stride > PTRDIFF_MAX / (h - 1) || stride < -(PTRDIFF_MAX / (h - 1)))) {
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "%s picture: plane %d stride %td is too large for %d rows (the offset of "
                        "the last row overflows)",
                        what, i, stride, h);
            return -EINVAL;
        }
        /* Samples deeper than 8 bits are 16-bit words, read as such by every
         * backend (host unpack, device uploads and kernels): an odd stride or
         * an odd plane address would make those reads misaligned. Refused
         * rather than read bytewise: no producer (FFmpeg frames, y4m, raw
         * files) lays 16-bit samples out that way. */
        if (c->cfg.bytes_per_sample == 2) {
            if (stride & 1) {
                gpussim_log(log, GPUSSIM_LOG_ERROR,
                            "%s picture: plane %d stride %td is odd; %d-bit samples are 16-bit "
                            "words, so the stride must be a multiple of 2 bytes",
                            what, i, stride, f->bit_depth);
                return -EINVAL;
            }
            if (pic->memory != GPUSSIM_MEMORY_DMABUF ? ((uintptr_t)pic->data[i] & 1)
                                                     : (pic->offset[i] & 1)) {
                gpussim_log(log, GPUSSIM_LOG_ERROR,
                            "%s picture: plane %d starts at an odd address; %d-bit samples are "
                            "16-bit words and must be 2-byte aligned",
                            what, i, f->bit_depth);
                return -EINVAL;
            }
        }
    }
    return 0;
}

int64_t gpussim_submit(GpussimContext *c, const struct gpussim_picture *ref,
                       const struct gpussim_picture *dis)
{
    int err;
    if (!c)
        return -EINVAL;
    if (c->submitted - c->collected >= (uint64_t)c->nb_slots)
        return -EAGAIN;
    err = check_picture(c, ref, "reference");
    if (err < 0)
        return err;
    err = check_picture(c, dis, "distorted");
    if (err < 0)
        return err;
    if (ref->memory != dis->memory) {
        gpussim_log(&c->cfg.log, GPUSSIM_LOG_ERROR,
                    "reference and distorted pictures are in different memories");
        return -EINVAL;
    }
    const int slot = (int)(c->submitted % (uint64_t)c->nb_slots);
    err = c->backend->submit(c->priv, slot, ref, dis);
    if (err < 0)
        return err;
    return (int64_t)c->submitted++;
}

int gpussim_collect(GpussimContext *c, struct gpussim_result *res, int wait)
{
    if (!c || !res)
        return -EINVAL;
    if (c->collected == c->submitted)
        return 0;
    const int slot = (int)(c->collected % (uint64_t)c->nb_slots);
    struct gpussim_frame_sums sums;
    memset(&sums, 0, sizeof(sums));
    int ret = c->backend->wait(c->priv, slot, wait, &sums);
    if (ret == 0)
        return 0;
    const uint64_t index = c->collected++;
    c->last_slot = slot;
    if (ret < 0) {
        gpussim_log(&c->cfg.log, GPUSSIM_LOG_ERROR, "frame %llu failed on backend %s: %s",
                    (unsigned long long)index, c->backend->name, gpussim_strerror(ret));
        return ret;
    }
    gpussim_scores_finish(&c->cfg, &sums, c->values);
    res->index = index;
    res->nb_values = c->nb_scores;
    res->values = c->values;
    return 1;
}

int gpussim_internal_last_device_ms(GpussimContext *c, double *ms)
{
    if (!c || !ms || !c->collected)
        return -EINVAL;
    if (!c->backend->device_time_ms)
        return -ENOSYS;
    return c->backend->device_time_ms(c->priv, c->last_slot, ms);
}
