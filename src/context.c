/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The public context: backend selection, the in-order queue of frames in
 * flight, and turning each frame's sums into scores.
 *
 * A ladder context (nb_distorted > 1) scores one reference against several
 * distorted pictures per frame: natively when the backend has submit_multi
 * (the reference's terms computed once), else by the fallback here, where
 * frame f occupies the backend slots f * n .. f * n + n - 1 (n pairs) and is
 * collected when all n are done. A backend with fewer than n slots scores a
 * frame in waves: one frame in flight, pair k in slot k % slots, and submit
 * waits for pair k - slots before it reuses that slot.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/backends.h"
#include "src/bench_hooks.h"
#include "src/core.h"
#include "src/mem.h"

struct GpussimContext {
    struct gpussim_config cfg;
    struct gpussim_config backend_cfg; /* what the backend got (the fallback's slot count) */
    const struct gpussim_backend_info *info; /* the backend's row (src/backends.c) */
    const struct gpussim_backend *backend;   /* its vtable */
    void *priv;
    int nb_slots;       /* frames in flight (ladder fallback: backend slots / n) */
    int nb_dis;         /* distorted pictures per frame */
    int fallback;       /* ladder scored as nb_dis pairs in consecutive slots */
    int fb_waves;       /* fallback: fewer backend slots than nb_dis (one frame in flight) */
    int backend_slots;  /* the backend's slots */
    int fb_done;        /* fallback: renditions of the next frame already waited for */
    int fb_error;       /* fallback: the first error among them */
    struct gpussim_frame_sums *sums; /* nb_dis, the frame being collected */
    uint64_t submitted, collected;
    int last_slot;
    int nb_scores;
    const char **names;
    char *names_storage;
    double *values;
    /* GPUSSIM_TEST_FAULT_FRAME: collecting this frame fails as a device
     * fault would (-EIO); -1: none. For testing front-ends' error paths. */
    int64_t fault_frame;
};

void gpussim_default_params(struct gpussim_params *p)
{
    memset(p, 0, sizeof(*p));
    p->log_level = GPUSSIM_LOG_INFO;
#define OPTION_DEFAULT(name, field, short_name, type, def, ...) p->field = def;
    GPUSSIM_FEATURE_OPTIONS(OPTION_DEFAULT)
#undef OPTION_DEFAULT
}

static int start_backend(GpussimContext *c, const struct gpussim_backend_info *info)
{
    const struct gpussim_backend *b = info->vtable;
    const int n = c->cfg.nb_distorted;
    const int native = n == 1 || (b->submit_multi && b->wait_multi);
    int slots = 0;
    /* max_in_flight counts frames; the fallback's frames take n slots each */
    c->backend_cfg = c->cfg;
    if (!native && c->cfg.params.max_in_flight)
        c->backend_cfg.params.max_in_flight =
            c->cfg.params.max_in_flight > INT_MAX / n ? INT_MAX : c->cfg.params.max_in_flight * n;
    int err = b->init(&c->backend_cfg, &c->priv, &slots);
    if (err < 0)
        return err;
    c->info = info;
    c->backend = b;
    c->fallback = !native;
    c->backend_slots = slots;
    /* the fallback keeps n backend slots per frame, or scores in waves */
    c->fb_waves = !native && slots < n;
    c->nb_slots = native ? slots : c->fb_waves ? 1 : slots / n;
    if (c->fb_waves)
        gpussim_log(
            &c->cfg.log, GPUSSIM_LOG_VERBOSE,
            "the %s backend keeps %d pair(s) in flight, fewer than the %d distorted pictures "
            "of a frame: each frame is scored in waves of %d pairs, one frame at a time",
            info->name, slots, n, slots);
    if (c->cfg.params.max_in_flight && c->cfg.params.max_in_flight < c->nb_slots)
        c->nb_slots = c->cfg.params.max_in_flight;
    return 0;
}

static int env_built(void *opaque, enum gpussim_backend_type type)
{
    (void)opaque;
    return gpussim_backend_info(type)->vtable != NULL;
}

static int env_probe(void *opaque, enum gpussim_backend_type type)
{
    const GpussimContext *c = opaque;
    const struct gpussim_backend *b = gpussim_backend_info(type)->vtable;
    return !b->probe ? 0 : b->probe(&c->cfg);
}

static int env_start(void *opaque, enum gpussim_backend_type type, const void *hw_device)
{
    GpussimContext *c = opaque;
    c->cfg.params.hw_device = hw_device;
    return start_backend(c, gpussim_backend_info(type));
}

/* The device policy (src/backend_policy.c) over the backend table. */
static int select_backend(GpussimContext *c)
{
    const struct gpussim_backend_env env = { c, env_built, env_probe, env_start };
    const int err = gpussim_backend_pick(&c->cfg.params, &c->cfg.log, &env);
    return err < 0 ? err : 0;
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
        c->nb_dis = c->cfg.nb_distorted;
        c->values = gpussim_calloc((size_t)c->nb_scores * (size_t)c->nb_dis, sizeof(*c->values));
        c->sums = gpussim_calloc((size_t)c->nb_dis, sizeof(*c->sums));
        err = c->values && c->sums ? 0 : -ENOMEM;
    }
    if (err < 0) {
        gpussim_log(&c->cfg.log, GPUSSIM_LOG_ERROR, "out of memory for the score names and values");
        goto fail;
    }

    err = select_backend(c);
    if (err < 0)
        goto fail;
    c->fault_frame = -1;
    {
        const char *v = getenv("GPUSSIM_TEST_FAULT_FRAME");
        char *end = NULL;
        const long long n = v && *v ? strtoll(v, &end, 10) : -1;
        if (v && *v && (*end || n < 0))
            gpussim_log(&c->cfg.log, GPUSSIM_LOG_WARNING,
                        "GPUSSIM_TEST_FAULT_FRAME=%s is not a frame number: ignored", v);
        else if (n >= 0) {
            c->fault_frame = n;
            gpussim_log(&c->cfg.log, GPUSSIM_LOG_WARNING,
                        "GPUSSIM_TEST_FAULT_FRAME: frame %lld will fail as a device fault (a test aid)",
                        n);
        }
    }
    gpussim_log(&c->cfg.log, GPUSSIM_LOG_VERBOSE, "backend %s, %d frame(s) in flight%s",
                c->info->name, c->nb_slots,
                c->nb_dis == 1 ? ""
                : c->fallback  ? ", distorted pictures scored as pairs"
                               : ", reference terms shared");
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
        struct gpussim_result res;
        /* frames still in flight read caller memory: let them finish */
        while (c->collected < c->submitted)
            gpussim_collect(c, &res, 1);
        c->backend->uninit(&c->priv);
    }
    gpussim_free(c->sums);
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
    return c && c->info ? c->info->name : "none";
}

enum gpussim_memory gpussim_picture_memory(const GpussimContext *c)
{
    if (!c || !c->info)
        return GPUSSIM_MEMORY_HOST;
    /* frames it maps (dma-buf for Vulkan) reach it as what the caller maps them to */
    if (c->info->maps & GPUSSIM_MEMORY_BIT(c->cfg.params.memory))
        return c->info->map_to;
    return c->cfg.params.memory;
}

int gpussim_score_names(const GpussimContext *c, const char *const **names)
{
    if (!c || !names)
        return -EINVAL;
    *names = c->names;
    return c->nb_scores;
}

int gpussim_renditions(const GpussimContext *c)
{
    return c ? c->nb_dis : 0;
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
        !(c->info->reads & GPUSSIM_MEMORY_BIT(pic->memory))) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "the %s backend cannot read %s %s pictures",
                    c->info->name, gpussim_memory_name(pic->memory), what);
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
    if (c && c->nb_dis != 1) {
        gpussim_log(&c->cfg.log, GPUSSIM_LOG_ERROR,
                    "gpussim_submit() scores one distorted picture, but the context was created "
                    "for %d (nb_distorted): use gpussim_submit_multi()", c->nb_dis);
        return -EINVAL;
    }
    return gpussim_submit_multi(c, ref, &dis, 1);
}

/* The backend slot of the fallback's pair k of the frame in slot `slot`. */
static int fallback_slot(const GpussimContext *c, int slot, int k)
{
    return c->fb_waves ? k % c->backend_slots : slot * c->nb_dis + k;
}

/* Waits for the fallback's pairs from..nb-1 (submitted before the one that
 * failed, not waited for yet). */
static void fallback_drain(GpussimContext *c, int slot, int from, int nb)
{
    struct gpussim_frame_sums sums;
    for (int k = from; k < nb; k++)
        c->backend->wait(c->priv, fallback_slot(c, slot, k), 1, &sums);
    c->fb_done = 0;
    c->fb_error = 0;
}

int64_t gpussim_submit_multi(GpussimContext *c, const struct gpussim_picture *ref,
                             const struct gpussim_picture *const *dis, int nb_dis)
{
    char what[32];
    int err;
    if (!c)
        return -EINVAL;
    if (nb_dis != c->nb_dis || !dis) {
        gpussim_log(&c->cfg.log, GPUSSIM_LOG_ERROR,
                    "%d distorted picture(s) given, but the context scores %d per reference "
                    "(nb_distorted)", dis ? nb_dis : 0, c->nb_dis);
        return -EINVAL;
    }
    if (c->submitted - c->collected >= (uint64_t)c->nb_slots)
        return -EAGAIN;
    err = check_picture(c, ref, "reference");
    if (err < 0)
        return err;
    for (int k = 0; k < nb_dis; k++) {
        if (nb_dis > 1)
            snprintf(what, sizeof(what), "distorted #%d", k);
        else
            snprintf(what, sizeof(what), "distorted");
        err = check_picture(c, dis[k], what);
        if (err < 0)
            return err;
        if (ref->memory != dis[k]->memory) {
            gpussim_log(&c->cfg.log, GPUSSIM_LOG_ERROR,
                        "reference and %s pictures are in different memories", what);
            return -EINVAL;
        }
    }
    const int slot = (int)(c->submitted % (uint64_t)c->nb_slots);
    if (nb_dis == 1) {
        err = c->backend->submit(c->priv, slot, ref, dis[0]);
    } else if (!c->fallback) {
        err = c->backend->submit_multi(c->priv, slot, ref, dis);
    } else {
        /* waves: one frame in flight, so c->sums is free for it */
        if (c->fb_waves)
            memset(c->sums, 0, sizeof(*c->sums) * (size_t)nb_dis);
        for (int k = 0; k < nb_dis; k++) {
            if (c->fb_waves && k >= c->backend_slots) {
                /* the slot's previous pair first (waits are in submission order) */
                const int j = k - c->backend_slots;
                const int ret = c->backend->wait(c->priv, fallback_slot(c, slot, j), 1, &c->sums[j]);
                if (ret < 0 && !c->fb_error)
                    c->fb_error = ret;
                c->fb_done = j + 1;
            }
            err = c->backend->submit(c->priv, fallback_slot(c, slot, k), ref, dis[k]);
            if (err < 0) {
                /* the pairs already queued read the caller's memory: finish them */
                fallback_drain(c, slot, c->fb_done, k);
                break;
            }
        }
    }
    if (err < 0)
        return err;
    return (int64_t)c->submitted++;
}

/* Waits for the next frame's sums into c->sums: 1 done, 0 not yet (!wait),
 * negative when it failed (all of a fallback frame's pairs are consumed). */
static int wait_frame(GpussimContext *c, int slot, int wait)
{
    if (c->nb_dis == 1)
        return c->backend->wait(c->priv, slot, wait, &c->sums[0]);
    if (!c->fallback)
        return c->backend->wait_multi(c->priv, slot, wait, c->sums);
    /* the pairs in order; progress is kept across non-blocking calls */
    while (c->fb_done < c->nb_dis) {
        int ret = c->backend->wait(c->priv, fallback_slot(c, slot, c->fb_done), wait || c->fb_error,
                                   &c->sums[c->fb_done]);
        if (ret == 0)
            return 0;
        if (ret < 0 && !c->fb_error)
            c->fb_error = ret;
        c->fb_done++;
    }
    const int err = c->fb_error;
    c->fb_done = 0;
    c->fb_error = 0;
    return err < 0 ? err : 1;
}

int gpussim_collect(GpussimContext *c, struct gpussim_result *res, int wait)
{
    if (!c || !res)
        return -EINVAL;
    if (c->collected == c->submitted)
        return 0;
    const int slot = (int)(c->collected % (uint64_t)c->nb_slots);
    if (!c->fb_done && !c->fb_waves)
        memset(c->sums, 0, sizeof(*c->sums) * (size_t)c->nb_dis);
    int ret = wait_frame(c, slot, wait);
    if (ret == 0)
        return 0;
    const uint64_t index = c->collected++;
    c->last_slot = c->fallback ? fallback_slot(c, slot, c->nb_dis - 1) : slot;
    if (ret > 0 && c->fault_frame >= 0 && index == (uint64_t)c->fault_frame) {
        gpussim_log(&c->cfg.log, GPUSSIM_LOG_ERROR, "frame %llu: injected device fault "
                    "(GPUSSIM_TEST_FAULT_FRAME)", (unsigned long long)index);
        ret = -EIO;
    }
    if (ret < 0) {
        gpussim_log(&c->cfg.log, GPUSSIM_LOG_ERROR, "frame %llu failed on backend %s: %s",
                    (unsigned long long)index, c->info->name, gpussim_strerror(ret));
        return ret;
    }
    for (int k = 0; k < c->nb_dis; k++)
        gpussim_scores_finish(&c->cfg, &c->sums[k], c->values + (size_t)k * c->nb_scores);
    res->index = index;
    res->nb_values = c->nb_scores * c->nb_dis;
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
