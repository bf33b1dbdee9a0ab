/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The CPU reference backend: the oracle of every other backend's tests and
 * the fallback when there is no GPU.
 *
 * The recipe is the frame plan (src/plan.h, cfg->plan) walked with the CPU
 * kernels (hwctx/cpu/cpu_plan.c); this file holds the threads and the slots.
 * Host pictures are unpacked at submit (the plan's UNPACK stages) into the
 * slot's 16-bit planes, so the caller may reuse its buffers at once. Frames
 * are independent, so they run on a pool of worker threads, one frame per
 * worker; inside a frame the arithmetic is the reference's, in the
 * reference's order.
 *
 * A ladder frame (one reference, nb_distorted pictures) runs on one worker:
 * the plan's reference-only work (float planes, decimations, Gaussian means
 * and means of squares, ANSNR's filtered plane) is walked once per plane,
 * then each distorted picture against it (gpussim_plan_run_ref_c /
 * gpussim_plan_run_dis_c), each score bit-identical to the pair's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/backend.h"
#include "src/mem.h"
#include "kernels/c/kernels.h"

enum slot_state { SLOT_FREE, SLOT_QUEUED, SLOT_DONE };

struct cpu_slot {
    /* [picture][plane]: picture 0 the reference, 1.. the distorted ones */
    uint16_t *(*raw)[GPUSSIM_MAX_SCORE_PLANES];
    struct gpussim_frame_sums *sums; /* one per distorted picture */
    enum slot_state state;
};

struct cpu_worker {
    struct cpu_backend *be;
    pthread_t thread;
    int started;
    struct gpussim_plan_buffers_c buf; /* per picture a whole luma plane of floats, twice */
    float *ref_terms;                  /* ladder frames only: the reference's terms */
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
        const struct gpussim_plan *plan = &be->cfg.plan;
        /* the walks store only their plane's result slots */
        memset(slot->sums, 0, sizeof(*slot->sums) * (size_t)be->nb_dis);
        for (int p = 0; p < be->cfg.nb_planes; p++) {
            if (be->nb_dis == 1) {
                const uint16_t *const raw[2] = { slot->raw[0][p], slot->raw[1][p] };
                gpussim_plan_run_plane_c(plan, p, raw, &wk->buf, &slot->sums[0]);
                continue;
            }
            struct gpussim_plan_ref_c ref;
            gpussim_plan_run_ref_c(plan, p, slot->raw[0][p], &wk->buf, wk->ref_terms, &ref);
            for (int k = 0; k < be->nb_dis; k++)
                gpussim_plan_run_dis_c(plan, p, &ref, slot->raw[1 + k][p], &wk->buf,
                                       &slot->sums[k]);
        }

        pthread_mutex_lock(&be->lock);
        slot->state = SLOT_DONE;
        pthread_cond_broadcast(&be->done_cond);
    }
    pthread_mutex_unlock(&be->lock);
    return NULL;
}

/* ---- host picture unpacking ----------------------------------------------- */

/* The plan's UNPACK stages: each scored plane's true samples, wherever
 * its picture plane holds them. */
static void unpack_picture(const struct gpussim_plan *plan, const struct gpussim_picture *pic,
                           uint16_t *const planes[GPUSSIM_MAX_SCORE_PLANES])
{
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        if (st->kind == GPUSSIM_STAGE_UNPACK)
            gpussim_plan_unpack_c(st, pic, planes[st->plane]);
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
            cpu_scratch_free(&wk->buf.scratch);
            for (int k = 0; k < 2; k++) {
                gpussim_free(wk->buf.f[k]);
                gpussim_free(wk->buf.d[k]);
            }
            gpussim_free(wk->ref_terms);
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
        wk->buf.scratch = cpu_scratch_alloc(cfg->plane[0].width, cfg->plane[0].height);
        if (!wk->buf.scratch)
            goto fail_nomem;
        for (int k = 0; k < 2; k++) {
            wk->buf.f[k] = gpussim_malloc(luma * sizeof(float));
            wk->buf.d[k] = gpussim_malloc(luma * sizeof(float));
            if (!wk->buf.f[k] || !wk->buf.d[k])
                goto fail_nomem;
        }
        if (be->nb_dis > 1) {
            /* the largest plane's terms (a chroma plane may keep a larger
             * float_ssim plane than luma: its automatic scale is smaller) */
            size_t n = 0;
            for (int p = 0; p < cfg->nb_planes; p++) {
                const size_t np = gpussim_plan_ref_size_c(&cfg->plan, p);
                n = np > n ? np : n;
            }
            wk->ref_terms = gpussim_malloc((n ? n : 1) * sizeof(float));
            if (!wk->ref_terms)
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
    unpack_picture(&be->cfg.plan, ref, slot->raw[0]);
    unpack_picture(&be->cfg.plan, dis, slot->raw[1]);
    queue_slot(be, slot, idx);
    return 0;
}

static int cpu_submit_multi(void *priv, int idx, const struct gpussim_picture *ref,
                            const struct gpussim_picture *const *dis)
{
    struct cpu_backend *be = priv;
    struct cpu_slot *slot = &be->slots[idx];
    unpack_picture(&be->cfg.plan, ref, slot->raw[0]);
    for (int k = 0; k < be->nb_dis; k++)
        unpack_picture(&be->cfg.plan, dis[k], slot->raw[1 + k]);
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
    .probe = NULL,
    .init = cpu_init,
    .uninit = cpu_uninit,
    .submit = cpu_submit,
    .wait = cpu_wait,
    .submit_multi = cpu_submit_multi,
    .wait_multi = cpu_wait_multi,
};
