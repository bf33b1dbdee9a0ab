/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The CPU reference backend: the oracle of every other backend's tests and
 * the fallback when there is no GPU.
 *
 * Host pictures are unpacked at submit into the slot's 16-bit planes (MSB
 * alignment removed, interleaved chroma split), so the caller may reuse its
 * buffers at once. Frames are independent, so they run on a pool of worker
 * threads, one frame per worker; inside a frame the arithmetic is the
 * reference's, in the reference's order.
 *
 * A ladder frame (one reference, nb_distorted pictures) runs on one worker:
 * the reference's float plane, its float_ssim decimation, its MS-SSIM
 * pyramid, its Gaussian means and means of squares at every scale and its
 * filtered ANSNR plane are computed once, then each distorted picture is
 * scored against them with the same operations in the same order as a pair
 * (so each score is bit-identical to the pair's). Integer SSIM shares
 * nothing: its per-pixel terms mix both pictures from the start.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "mem.h"
#include "kernels/c/kernels_c.h"

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_DONE };

struct cpu_slot {
    /* [picture][plane]: picture 0 the reference, 1.. the distorted ones */
    uint16_t *(*raw)[GPUSSIM_MAX_SCORE_PLANES];
    struct gpussim_frame_sums *sums; /* one per distorted picture */
    enum slot_state state;
};

/* A ladder worker's copy of the reference's terms for one plane. */
struct cpu_ref_terms {
    float *ssim_dec;                          /* float_ssim decimated reference */
    float *ssim_mu, *ssim_exx;                /* its Gaussian mean and mean of squares */
    float *pyr[GPUSSIM_MSSSIM_SCALES];        /* MS-SSIM pyramid (level 0: ref_f) */
    float *ms_mu[GPUSSIM_MSSSIM_SCALES], *ms_exx[GPUSSIM_MSSSIM_SCALES];
    float *ansnr_filt;                        /* the reference filtered by ANSNR's 3x3 */
    float *storage;                           /* one allocation for all of them */
};

struct cpu_worker {
    struct cpu_backend *be;
    pthread_t thread;
    int started;
    CpuScratch *scratch;
    float *ref_f, *dis_f; /* a whole plane as float, then the MS-SSIM pyramid */
    float *ref_d, *dis_d; /* float_ssim decimated, or the pyramid's next level */
    struct cpu_ref_terms ref; /* ladder frames only */
};

struct cpu_backend {
    struct gpussim_config cfg;
    int nb_slots, nb_workers;
    int nb_dis; /* distorted pictures per frame */
    struct cpu_slot *slots;
    struct cpu_worker *workers;
    int *queue; /* FIFO of slot indices, nb_slots long */
    int q_head, q_len;
    int quit;
    pthread_mutex_t lock;
    pthread_cond_t work_cond, done_cond;
};

/* ---- one frame ------------------------------------------------------------ */

static void score_plane(struct cpu_worker *wk, const struct gpussim_plane_geometry *g,
                        const uint16_t *ref, const uint16_t *dis, struct gpussim_plane_sums *out)
{
    const struct gpussim_config *cfg = &wk->be->cfg;
    const int bd = cfg->params.format.bit_depth;
    const float scaler = (float)(1 << (bd - 8));
    const int w = g->width, h = g->height;
    CpuScratch *s = wk->scratch;
    double sums[4];

    if (cfg->metrics & (GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_MS_SSIM)) {
        convert_to_float_c(ref, w, h, w, scaler, 0.0f, wk->ref_f);
        convert_to_float_c(dis, w, h, w, scaler, 0.0f, wk->dis_f);
    }
    if (cfg->metrics & GPUSSIM_METRIC_FLOAT_SSIM) {
        const float *r = wk->ref_f, *d = wk->dis_f;
        if (g->ssim_scale > 1) {
            ssim_decimate_box_c(wk->ref_f, w, h, g->ssim_scale, wk->ref_d, s);
            ssim_decimate_box_c(wk->dis_f, w, h, g->ssim_scale, wk->dis_d, s);
            r = wk->ref_d, d = wk->dis_d;
        }
        ssim_window_sums_c(r, d, g->ssim_width, g->ssim_height, sums, s);
        out->ssim_term = sums[0], out->ssim_l = sums[1], out->ssim_c = sums[2], out->ssim_s = sums[3];
    }
    if (cfg->metrics & GPUSSIM_METRIC_FLOAT_MS_SSIM) {
        /* level i lives alternately in the _f and _d buffers */
        float *cur_r = wk->ref_f, *cur_d = wk->dis_f, *nxt_r = wk->ref_d, *nxt_d = wk->dis_d;
        for (int i = 0; i < GPUSSIM_MSSSIM_SCALES; i++) {
            ssim_window_sums_c(cur_r, cur_d, g->ms_width[i], g->ms_height[i], sums, s);
            out->ms_l[i] = sums[1], out->ms_c[i] = sums[2], out->ms_s[i] = sums[3];
            if (i + 1 == GPUSSIM_MSSSIM_SCALES)
                break;
            msssim_decimate_lpf_c(cur_r, g->ms_width[i], g->ms_height[i], nxt_r, s);
            msssim_decimate_lpf_c(cur_d, g->ms_width[i], g->ms_height[i], nxt_d, s);
            float *t = cur_r; cur_r = nxt_r; nxt_r = t;
            t = cur_d; cur_d = nxt_d; nxt_d = t;
        }
    }
    if (cfg->metrics & GPUSSIM_METRIC_FLOAT_ANSNR) {
        convert_to_float_c(ref, w, h, w, scaler, -128.0f, wk->ref_f);
        convert_to_float_c(dis, w, h, w, scaler, -128.0f, wk->dis_f);
        ansnr_sums_c(wk->ref_f, wk->dis_f, w, h, &out->ansnr_sig, &out->ansnr_noise, s);
    }
    if (cfg->metrics & GPUSSIM_METRIC_SSIM)
        issim_sums_c(ref, dis, w, h, bd, &out->issim_term, &out->issim_weight, s);
}

/* Places the reference terms of plane geometry g in one float array; with
 * base NULL only counts. Returns the number of floats. */
static size_t layout_ref_terms(const struct gpussim_config *cfg, const struct gpussim_plane_geometry *g,
                               float *base, struct cpu_ref_terms *t)
{
    size_t n = 0;
#define TAKE(ptr, count) do { if (base) (ptr) = base + n; n += (size_t)(count); } while (0)
    if (cfg->metrics & GPUSSIM_METRIC_FLOAT_SSIM) {
        const size_t ow = (size_t)g->ssim_width - 10, oh = (size_t)g->ssim_height - 10;
        if (g->ssim_scale > 1)
            TAKE(t->ssim_dec, (size_t)g->ssim_width * g->ssim_height);
        TAKE(t->ssim_mu, ow * oh);
        TAKE(t->ssim_exx, ow * oh);
    }
    if (cfg->metrics & GPUSSIM_METRIC_FLOAT_MS_SSIM) {
        for (int i = 0; i < GPUSSIM_MSSSIM_SCALES; i++) {
            const size_t ow = (size_t)g->ms_width[i] - 10, oh = (size_t)g->ms_height[i] - 10;
            if (i)
                TAKE(t->pyr[i], (size_t)g->ms_width[i] * g->ms_height[i]);
            TAKE(t->ms_mu[i], ow * oh);
            TAKE(t->ms_exx[i], ow * oh);
        }
    }
    if (cfg->metrics & GPUSSIM_METRIC_FLOAT_ANSNR)
        TAKE(t->ansnr_filt, (size_t)g->width * g->height);
#undef TAKE
    return n;
}

/* One plane of a ladder frame: the reference's terms once, then each
 * distorted picture; out[k] is distorted picture k's sums of this plane. */
static void score_plane_multi(struct cpu_worker *wk, const struct gpussim_plane_geometry *g,
                              const uint16_t *ref, const uint16_t *const *dis, int nb_dis,
                              struct gpussim_plane_sums *const *out)
{
    const struct gpussim_config *cfg = &wk->be->cfg;
    const int bd = cfg->params.format.bit_depth;
    const float scaler = (float)(1 << (bd - 8));
    const int w = g->width, h = g->height;
    CpuScratch *s = wk->scratch;
    struct cpu_ref_terms *t = &wk->ref;
    double sums[4];

    layout_ref_terms(cfg, g, t->storage, t);
    if (cfg->metrics & (GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_MS_SSIM))
        convert_to_float_c(ref, w, h, w, scaler, 0.0f, wk->ref_f);
    const float *ssim_ref = wk->ref_f;
    if (cfg->metrics & GPUSSIM_METRIC_FLOAT_SSIM) {
        if (g->ssim_scale > 1) {
            ssim_decimate_box_c(wk->ref_f, w, h, g->ssim_scale, t->ssim_dec, s);
            ssim_ref = t->ssim_dec;
        }
        ssim_ref_moments_c(ssim_ref, g->ssim_width, g->ssim_height, t->ssim_mu, t->ssim_exx, s);
    }
    if (cfg->metrics & GPUSSIM_METRIC_FLOAT_MS_SSIM) {
        t->pyr[0] = wk->ref_f;
        for (int i = 0; i < GPUSSIM_MSSSIM_SCALES; i++) {
            if (i)
                msssim_decimate_lpf_c(t->pyr[i - 1], g->ms_width[i - 1], g->ms_height[i - 1],
                                      t->pyr[i], s);
            ssim_ref_moments_c(t->pyr[i], g->ms_width[i], g->ms_height[i], t->ms_mu[i],
                               t->ms_exx[i], s);
        }
    }
    for (int k = 0; k < nb_dis; k++) {
        struct gpussim_plane_sums *o = out[k];
        if (!(cfg->metrics & (GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_MS_SSIM)))
            break;
        convert_to_float_c(dis[k], w, h, w, scaler, 0.0f, wk->dis_f);
        if (cfg->metrics & GPUSSIM_METRIC_FLOAT_SSIM) {
            const float *d = wk->dis_f;
            if (g->ssim_scale > 1) {
                ssim_decimate_box_c(wk->dis_f, w, h, g->ssim_scale, wk->dis_d, s);
                d = wk->dis_d;
            }
            ssim_window_sums_ref_c(ssim_ref, t->ssim_mu, t->ssim_exx, d, g->ssim_width,
                                   g->ssim_height, sums, s);
            o->ssim_term = sums[0], o->ssim_l = sums[1], o->ssim_c = sums[2], o->ssim_s = sums[3];
        }
        if (cfg->metrics & GPUSSIM_METRIC_FLOAT_MS_SSIM) {
            float *cur_d = wk->dis_f, *nxt_d = wk->dis_d;
            for (int i = 0; i < GPUSSIM_MSSSIM_SCALES; i++) {
                ssim_window_sums_ref_c(t->pyr[i], t->ms_mu[i], t->ms_exx[i], cur_d, g->ms_width[i],
                                       g->ms_height[i], sums, s);
                o->ms_l[i] = sums[1], o->ms_c[i] = sums[2], o->ms_s[i] = sums[3];
                if (i + 1 == GPUSSIM_MSSSIM_SCALES)
                    break;
                msssim_decimate_lpf_c(cur_d, g->ms_width[i], g->ms_height[i], nxt_d, s);
                float *tmp = cur_d; cur_d = nxt_d; nxt_d = tmp;
            }
        }
    }
    if (cfg->metrics & GPUSSIM_METRIC_FLOAT_ANSNR) {
        float sig;
        convert_to_float_c(ref, w, h, w, scaler, -128.0f, wk->ref_f);
        ansnr_ref_c(wk->ref_f, w, h, t->ansnr_filt, &sig, s);
        for (int k = 0; k < nb_dis; k++) {
            convert_to_float_c(dis[k], w, h, w, scaler, -128.0f, wk->dis_f);
            out[k]->ansnr_sig = sig;
            ansnr_noise_c(t->ansnr_filt, wk->dis_f, w, h, &out[k]->ansnr_noise, s);
        }
    }
    if (cfg->metrics & GPUSSIM_METRIC_SSIM)
        for (int k = 0; k < nb_dis; k++)
            issim_sums_c(ref, dis[k], w, h, bd, &out[k]->issim_term, &out[k]->issim_weight, s);
}

static void *worker_main(void *arg)
{
    struct cpu_worker *wk = arg;
    struct cpu_backend *be = wk->be;

    pthread_mutex_lock(&be->lock);
    for (;;) {
        while (!be->q_len && !be->quit)
            pthread_cond_wait(&be->work_cond, &be->lock);
        if (!be->q_len && be->quit)
            break;
        const int idx = be->queue[be->q_head];
        be->q_head = (be->q_head + 1) % be->nb_slots;
        be->q_len--;
        pthread_mutex_unlock(&be->lock);

        struct cpu_slot *slot = &be->slots[idx];
        memset(slot->sums, 0, sizeof(*slot->sums) * (size_t)be->nb_dis);
        for (int p = 0; p < be->cfg.nb_planes; p++) {
            if (be->nb_dis == 1) {
                score_plane(wk, &be->cfg.plane[p], slot->raw[0][p], slot->raw[1][p],
                            &slot->sums[0].plane[p]);
                continue;
            }
            const uint16_t *dis[GPUSSIM_MAX_DISTORTED];
            struct gpussim_plane_sums *out[GPUSSIM_MAX_DISTORTED];
            for (int k = 0; k < be->nb_dis; k++) {
                dis[k] = slot->raw[1 + k][p];
                out[k] = &slot->sums[k].plane[p];
            }
            score_plane_multi(wk, &be->cfg.plane[p], slot->raw[0][p], dis, be->nb_dis, out);
        }

        pthread_mutex_lock(&be->lock);
        slot->state = SLOT_DONE;
        pthread_cond_broadcast(&be->done_cond);
    }
    pthread_mutex_unlock(&be->lock);
    return NULL;
}

/* ---- host picture unpacking ----------------------------------------------- */

/* Copies one component (every `step`-th sample from `first`) of a host plane
 * into a contiguous w x h plane of true sample values. */
static void unpack_component(const struct gpussim_config *cfg, const void *data, ptrdiff_t stride,
                             int w, int h, int first, int step, uint16_t *dst)
{
    const int bd = cfg->params.format.bit_depth;
    const int shift = cfg->params.format.msb_aligned ? 16 - bd : 0;
    const unsigned mask = (1u << bd) - 1;
    for (int y = 0; y < h; y++) {
        const uint8_t *row = (const uint8_t *)data + (ptrdiff_t)y * stride;
        uint16_t *d = dst + (size_t)y * w;
        if (cfg->bytes_per_sample == 1) {
            for (int x = 0; x < w; x++)
                d[x] = row[first + x * step];
        } else {
            const uint16_t *r16 = (const uint16_t *)row;
            for (int x = 0; x < w; x++)
                d[x] = (uint16_t)((r16[first + x * step] >> shift) & mask);
        }
    }
}

static void unpack_picture(const struct gpussim_config *cfg, const struct gpussim_picture *pic,
                           uint16_t *const planes[GPUSSIM_MAX_SCORE_PLANES])
{
    const enum gpussim_packing pk = cfg->params.format.packing;
    unpack_component(cfg, pic->data[0], pic->stride[0], cfg->plane[0].width, cfg->plane[0].height,
                     0, 1, planes[0]);
    for (int p = 1; p < cfg->nb_planes; p++) {
        const struct gpussim_plane_geometry *g = &cfg->plane[p];
        if (pk == GPUSSIM_PACKING_PLANAR)
            unpack_component(cfg, pic->data[p], pic->stride[p], g->width, g->height, 0, 1, planes[p]);
        else /* U is first in UV order, second in VU order */
            unpack_component(cfg, pic->data[1], pic->stride[1], g->width, g->height,
                             (p == 1) == (pk == GPUSSIM_PACKING_SEMIPLANAR_UV) ? 0 : 1, 2, planes[p]);
    }
}

/* ---- vtable --------------------------------------------------------------- */

static void cpu_uninit(void **ppriv)
{
    struct cpu_backend *be = ppriv ? *ppriv : NULL;
    if (!be)
        return;
    if (be->workers) {
        pthread_mutex_lock(&be->lock);
        be->quit = 1;
        pthread_cond_broadcast(&be->work_cond);
        pthread_mutex_unlock(&be->lock);
        for (int i = 0; i < be->nb_workers; i++) {
            struct cpu_worker *wk = &be->workers[i];
            if (wk->started)
                pthread_join(wk->thread, NULL);
            cpu_scratch_free(&wk->scratch);
            gpussim_free(wk->ref_f);
            gpussim_free(wk->dis_f);
            gpussim_free(wk->ref_d);
            gpussim_free(wk->dis_d);
            gpussim_free(wk->ref.storage);
        }
        gpussim_free(be->workers);
    }
    if (be->slots)
        for (int i = 0; i < be->nb_slots; i++) {
            if (be->slots[i].raw)
                for (int k = 0; k < 1 + be->nb_dis; k++)
                    for (int p = 0; p < GPUSSIM_MAX_SCORE_PLANES; p++)
                        gpussim_free(be->slots[i].raw[k][p]);
            gpussim_free(be->slots[i].raw);
            gpussim_free(be->slots[i].sums);
        }
    gpussim_free(be->slots);
    gpussim_free(be->queue);
    pthread_cond_destroy(&be->work_cond);
    pthread_cond_destroy(&be->done_cond);
    pthread_mutex_destroy(&be->lock);
    gpussim_free(be);
    *ppriv = NULL;
}

static int cpu_init(const struct gpussim_config *cfg, void **ppriv, int *nb_slots)
{
    struct cpu_backend *be = gpussim_calloc(1, sizeof(*be));
    if (!be) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "cpu: out of memory for the backend");
        return -ENOMEM;
    }
    pthread_mutex_init(&be->lock, NULL);
    pthread_cond_init(&be->work_cond, NULL);
    pthread_cond_init(&be->done_cond, NULL);
    be->cfg = *cfg;
    be->nb_dis = cfg->nb_distorted;

    int threads = cfg->params.threads;
    if (!threads) {
        const long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)(n < 16 ? n : 16) : 1; /* each worker holds ~50 MB at 1080p */
    }
    be->nb_workers = threads;
    /* enough frames in flight to keep every worker busy while the caller reads */
    be->nb_slots = threads + 2;
    if (cfg->params.max_in_flight && cfg->params.max_in_flight < be->nb_slots)
        be->nb_slots = cfg->params.max_in_flight;

    const size_t luma = (size_t)cfg->plane[0].width * cfg->plane[0].height;
    be->slots = gpussim_calloc((size_t)be->nb_slots, sizeof(*be->slots));
    be->queue = gpussim_calloc((size_t)be->nb_slots, sizeof(*be->queue));
    be->workers = gpussim_calloc((size_t)be->nb_workers, sizeof(*be->workers));
    if (!be->slots || !be->queue || !be->workers)
        goto fail_nomem;
    for (int i = 0; i < be->nb_slots; i++) {
        be->slots[i].raw = gpussim_calloc((size_t)(1 + be->nb_dis), sizeof(*be->slots[i].raw));
        be->slots[i].sums = gpussim_calloc((size_t)be->nb_dis, sizeof(*be->slots[i].sums));
        if (!be->slots[i].raw || !be->slots[i].sums)
            goto fail_nomem;
    }
    for (int i = 0; i < be->nb_slots; i++)
        for (int k = 0; k < 1 + be->nb_dis; k++)
            for (int p = 0; p < cfg->nb_planes; p++) {
                const size_t n = (size_t)cfg->plane[p].width * cfg->plane[p].height;
                be->slots[i].raw[k][p] = gpussim_malloc(n * sizeof(uint16_t));
                if (!be->slots[i].raw[k][p])
                    goto fail_nomem;
            }
    for (int i = 0; i < be->nb_workers; i++) {
        struct cpu_worker *wk = &be->workers[i];
        wk->be = be;
        wk->scratch = cpu_scratch_alloc(cfg->plane[0].width, cfg->plane[0].height);
        wk->ref_f = gpussim_malloc(luma * sizeof(float));
        wk->dis_f = gpussim_malloc(luma * sizeof(float));
        wk->ref_d = gpussim_malloc(luma * sizeof(float));
        wk->dis_d = gpussim_malloc(luma * sizeof(float));
        if (!wk->scratch || !wk->ref_f || !wk->dis_f || !wk->ref_d || !wk->dis_d)
            goto fail_nomem;
        if (be->nb_dis > 1) {
            /* the largest plane's terms (a chroma plane may keep a larger
             * float_ssim plane than luma: its automatic scale is smaller) */
            size_t n = 0;
            for (int p = 0; p < cfg->nb_planes; p++) {
                const size_t np = layout_ref_terms(cfg, &cfg->plane[p], NULL, &wk->ref);
                n = np > n ? np : n;
            }
            wk->ref.storage = gpussim_malloc((n ? n : 1) * sizeof(float));
            if (!wk->ref.storage)
                goto fail_nomem;
        }
    }
    for (int i = 0; i < be->nb_workers; i++) {
        struct cpu_worker *wk = &be->workers[i];
        const int err = gpussim_thread_create(&wk->thread, worker_main, wk);
        if (err) {
            gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "cpu: cannot start worker thread %d: %s", i,
                        strerror(err));
            cpu_uninit((void **)&be);
            return -ENOMEM; /* out of threads is out of memory to the caller */
        }
        wk->started = 1;
    }
    gpussim_log(&cfg->log, GPUSSIM_LOG_VERBOSE, "cpu: %d worker thread(s), %d frame slot(s)",
                be->nb_workers, be->nb_slots);
    *ppriv = be;
    *nb_slots = be->nb_slots;
    return 0;

fail_nomem:
    gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "cpu: out of memory for %dx%d frames",
                cfg->plane[0].width, cfg->plane[0].height);
    cpu_uninit((void **)&be);
    return -ENOMEM;
}

static void queue_slot(struct cpu_backend *be, struct cpu_slot *slot, int idx)
{
    pthread_mutex_lock(&be->lock);
    slot->state = SLOT_QUEUED;
    be->queue[(be->q_head + be->q_len) % be->nb_slots] = idx;
    be->q_len++;
    pthread_cond_signal(&be->work_cond);
    pthread_mutex_unlock(&be->lock);
}

static int cpu_submit(void *priv, int idx, const struct gpussim_picture *ref,
                      const struct gpussim_picture *dis)
{
    struct cpu_backend *be = priv;
    struct cpu_slot *slot = &be->slots[idx];
    /* the core reuses a slot only after collecting it, so no lock is needed
     * to fill it: no worker looks at a free slot */
    unpack_picture(&be->cfg, ref, slot->raw[0]);
    unpack_picture(&be->cfg, dis, slot->raw[1]);
    queue_slot(be, slot, idx);
    return 0;
}

static int cpu_submit_multi(void *priv, int idx, const struct gpussim_picture *ref,
                            const struct gpussim_picture *const *dis)
{
    struct cpu_backend *be = priv;
    struct cpu_slot *slot = &be->slots[idx];
    unpack_picture(&be->cfg, ref, slot->raw[0]);
    for (int k = 0; k < be->nb_dis; k++)
        unpack_picture(&be->cfg, dis[k], slot->raw[1 + k]);
    queue_slot(be, slot, idx);
    return 0;
}

static int cpu_wait_multi(void *priv, int idx, int block, struct gpussim_frame_sums *sums)
{
    struct cpu_backend *be = priv;
    struct cpu_slot *slot = &be->slots[idx];
    pthread_mutex_lock(&be->lock);
    while (slot->state != SLOT_DONE) {
        if (!block) {
            pthread_mutex_unlock(&be->lock);
            return 0;
        }
        pthread_cond_wait(&be->done_cond, &be->lock);
    }
    memcpy(sums, slot->sums, sizeof(*sums) * (size_t)be->nb_dis);
    slot->state = SLOT_FREE;
    pthread_mutex_unlock(&be->lock);
    return 1;
}

static int cpu_wait(void *priv, int idx, int block, struct gpussim_frame_sums *sums)
{
    return cpu_wait_multi(priv, idx, block, sums);
}

const struct gpussim_backend gpussim_backend_cpu = {
    .name = "cpu",
    .type = GPUSSIM_BACKEND_CPU,
    .memory_mask = 1u << GPUSSIM_MEMORY_HOST,
    .probe = NULL,
    .init = cpu_init,
    .uninit = cpu_uninit,
    .submit = cpu_submit,
    .wait = cpu_wait,
    .submit_multi = cpu_submit_multi,
    .wait_multi = cpu_wait_multi,
};
