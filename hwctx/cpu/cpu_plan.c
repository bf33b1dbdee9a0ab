/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The frame plan (src/plan.h) walked with the CPU reference kernels: the
 * CPU backend's recipe (hwctx/cpu/cpu.c runs nothing else) and the per-stage
 * oracle of tests/unit/test_stages.c. Built with -ffp-contract=off.
 *
 * Two walks: a pair (gpussim_plan_run_plane_c), and a ladder's reference
 * once (gpussim_plan_run_ref_c) then each distorted picture against it
 * (gpussim_plan_run_dis_c). Both walk the same stage list; the ladder's
 * kernels are the pair kernels split in two (ssim_ref_moments_c +
 * ssim_window_sums_ref_c, ansnr_ref_c + ansnr_noise_c), bit-identical to
 * them, so a ladder's scores equal the pairs' to the bit.
 */
#include <stddef.h>
#include <string.h>

#include "src/backend.h"
#include "kernels/c/kernels.h"

void gpussim_plan_unpack_c(const struct gpussim_plan_stage *st, const struct gpussim_picture *pic,
                           uint16_t *dst)
{
    const struct gpussim_plane_source *src = &st->src;
    const int w = st->in_w, h = st->in_h;
    for (int y = 0; y < h; y++) {
        const uint8_t *row = (const uint8_t *)pic->data[src->src_plane] +
                             (ptrdiff_t)y * pic->stride[src->src_plane];
        uint16_t *d = dst + (size_t)y * w;
        if (src->bytes_per_sample == 1) {
            for (int x = 0; x < w; x++)
                d[x] = row[src->first + x * src->step];
        } else {
            const uint16_t *r16 = (const uint16_t *)row;
            for (int x = 0; x < w; x++)
                d[x] = (uint16_t)((r16[src->first + x * src->step] >> src->shift) & src->mask);
        }
    }
}

/* Buffer b of picture k: FLOAT and FLOAT_ANSNR in f (ANSNR's convert runs
 * after FLOAT's last reader); BOX in d; the pyramid alternates between d
 * (odd levels) and f (even levels), each level read before the next one
 * overwrites its buffer. */
static float *buf_c(const struct gpussim_plan_buffers_c *b, enum gpussim_plan_buf which, int level,
                    int k)
{
    switch (which) {
    case GPUSSIM_BUF_BOX: return b->d[k];
    case GPUSSIM_BUF_LEVEL: return level & 1 ? b->d[k] : b->f[k];
    default: return b->f[k];
    }
}

void gpussim_plan_run_plane_c(const struct gpussim_plan *plan, int plane,
                              const uint16_t *const raw[2], const struct gpussim_plan_buffers_c *b,
                              struct gpussim_frame_sums *sums)
{
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        if (st->plane != plane)
            continue;
        const int w = st->in_w, h = st->in_h;
        float *in[2] = { buf_c(b, st->in, st->in_level, 0), buf_c(b, st->in, st->in_level, 1) };
        float *out[2] = { buf_c(b, st->out, st->out_level, 0), buf_c(b, st->out, st->out_level, 1) };
        double v[4] = { 0.0, 0.0, 0.0, 0.0 };
        float sig = 0.0f, noise = 0.0f;
        switch (st->kind) {
        case GPUSSIM_STAGE_UNPACK:
            break; /* the caller's raw planes */
        case GPUSSIM_STAGE_CONVERT:
            for (int k = 0; k < 2; k++)
                convert_to_float_c(raw[k], w, h, w, st->scaler, st->offset, out[k]);
            break;
        case GPUSSIM_STAGE_DECIMATE_BOX:
            for (int k = 0; k < 2; k++)
                ssim_decimate_box_c(in[k], w, h, st->factor, out[k], b->scratch);
            break;
        case GPUSSIM_STAGE_DECIMATE_LPF:
            for (int k = 0; k < 2; k++)
                msssim_decimate_lpf_c(in[k], w, h, out[k], b->scratch);
            break;
        case GPUSSIM_STAGE_SSIM_WINDOWS:
            ssim_window_sums_c(in[0], in[1], w, h, v, b->scratch);
            break;
        case GPUSSIM_STAGE_ANSNR:
            ansnr_sums_c(in[0], in[1], w, h, &sig, &noise, b->scratch);
            v[0] = sig, v[1] = noise;
            break;
        case GPUSSIM_STAGE_ISSIM:
            issim_sums_c(raw[0], raw[1], w, h, st->bit_depth, &v[0], &v[1], b->scratch);
            break;
        case GPUSSIM_STAGE_REDUCE:
            break; /* the kernels above reduce in the reference's order */
        }
        if (st->slot != GPUSSIM_RESULT_NONE && st->kind != GPUSSIM_STAGE_REDUCE)
            gpussim_plan_store(&plan->stage[gpussim_plan_reduce_of(plan, i)], sums, v);
    }
}

/* ---- a ladder: the reference once, then each distorted picture ------------- */

/* Where each stage's reference terms start in the terms array (off[i]);
 * returns the number of floats. The reference's decimated planes (BOX,
 * LEVEL 1..), its Gaussian means and means of squares per window stage
 * (a stage computing the same as another shares its terms) and ANSNR's
 * filtered plane. */
static size_t ref_layout(const struct gpussim_plan *plan, int plane, size_t *off)
{
    size_t n = 0;
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        size_t count = 0;
        if (st->plane != plane)
            continue;
        switch (st->kind) {
        case GPUSSIM_STAGE_DECIMATE_BOX:
        case GPUSSIM_STAGE_DECIMATE_LPF:
            count = (size_t)st->out_w * st->out_h;
            break;
        case GPUSSIM_STAGE_SSIM_WINDOWS:
            if (st->same_as >= 0) {
                off[i] = off[st->same_as];
                continue;
            }
            count = 2 * (size_t)st->out_w * st->out_h; /* mean, then mean of squares */
            break;
        case GPUSSIM_STAGE_ANSNR:
            count = (size_t)st->in_w * st->in_h;
            break;
        default:
            break;
        }
        off[i] = n;
        n += count;
    }
    return n;
}

size_t gpussim_plan_ref_size_c(const struct gpussim_plan *plan, int plane)
{
    size_t off[GPUSSIM_PLAN_MAX_STAGES];
    return ref_layout(plan, plane, off);
}

/* The reference's float planes as the walk produces them: level 0 (FLOAT)
 * in the caller's f[0], the decimated ones in the terms. */
struct ref_planes {
    const float *box, *level[GPUSSIM_MSSSIM_SCALES];
};

static const float *ref_plane(const struct ref_planes *r, enum gpussim_plan_buf which, int level)
{
    switch (which) {
    case GPUSSIM_BUF_BOX: return r->box;
    case GPUSSIM_BUF_LEVEL: return r->level[level];
    default: return r->level[0];
    }
}

/* A decimation's reference output: remembered where the next stages read it. */
static void ref_set_out(struct ref_planes *r, const struct gpussim_plan_stage *st, const float *p)
{
    if (st->out == GPUSSIM_BUF_BOX)
        r->box = p;
    else
        r->level[st->out_level] = p;
}

void gpussim_plan_run_ref_c(const struct gpussim_plan *plan, int plane, const uint16_t *raw,
                            const struct gpussim_plan_buffers_c *b, float *terms,
                            struct gpussim_plan_ref_c *ref)
{
    size_t off[GPUSSIM_PLAN_MAX_STAGES];
    struct ref_planes r = { .box = NULL, .level = { b->f[0] } };
    /* ANSNR's offset -128 reference is read only here: d[0] holds it (f[0]
     * keeps level 0 for the distorted pictures' window sums) */
    float *ansnr_in = b->d[0];

    ref_layout(plan, plane, off);
    ref->raw = raw;
    ref->f = b->f[0];
    ref->terms = terms;
    ref->ansnr_sig = 0.0f;
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        if (st->plane != plane)
            continue;
        const int w = st->in_w, h = st->in_h;
        const float *in = ref_plane(&r, st->in, st->in_level);
        float *t = terms + off[i];
        switch (st->kind) {
        case GPUSSIM_STAGE_CONVERT:
            convert_to_float_c(raw, w, h, w, st->scaler, st->offset,
                               st->out == GPUSSIM_BUF_FLOAT_ANSNR ? ansnr_in : b->f[0]);
            break;
        case GPUSSIM_STAGE_DECIMATE_BOX:
            ssim_decimate_box_c(in, w, h, st->factor, t, b->scratch);
            ref_set_out(&r, st, t);
            break;
        case GPUSSIM_STAGE_DECIMATE_LPF:
            msssim_decimate_lpf_c(in, w, h, t, b->scratch);
            ref_set_out(&r, st, t);
            break;
        case GPUSSIM_STAGE_SSIM_WINDOWS:
            if (st->same_as < 0)
                ssim_ref_moments_c(in, w, h, t, t + (size_t)st->out_w * st->out_h, b->scratch);
            break;
        case GPUSSIM_STAGE_ANSNR:
            ansnr_ref_c(ansnr_in, w, h, t, &ref->ansnr_sig, b->scratch);
            break;
        default: /* UNPACK: the caller's; ISSIM mixes both pictures from the start */
            break;
        }
    }
}

void gpussim_plan_run_dis_c(const struct gpussim_plan *plan, int plane,
                            const struct gpussim_plan_ref_c *ref, const uint16_t *raw,
                            const struct gpussim_plan_buffers_c *b, struct gpussim_frame_sums *sums)
{
    size_t off[GPUSSIM_PLAN_MAX_STAGES];
    struct ref_planes r = { .box = NULL, .level = { ref->f } };

    ref_layout(plan, plane, off);
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        if (st->plane != plane)
            continue;
        const int w = st->in_w, h = st->in_h;
        const float *rin = ref_plane(&r, st->in, st->in_level);
        const float *t = ref->terms + off[i];
        float *in = buf_c(b, st->in, st->in_level, 1), *out = buf_c(b, st->out, st->out_level, 1);
        double v[4] = { 0.0, 0.0, 0.0, 0.0 };
        float noise = 0.0f;
        switch (st->kind) {
        case GPUSSIM_STAGE_UNPACK:
            break; /* the caller's raw plane */
        case GPUSSIM_STAGE_CONVERT:
            convert_to_float_c(raw, w, h, w, st->scaler, st->offset, out);
            break;
        case GPUSSIM_STAGE_DECIMATE_BOX:
            ssim_decimate_box_c(in, w, h, st->factor, out, b->scratch);
            ref_set_out(&r, st, t);
            break;
        case GPUSSIM_STAGE_DECIMATE_LPF:
            msssim_decimate_lpf_c(in, w, h, out, b->scratch);
            ref_set_out(&r, st, t);
            break;
        case GPUSSIM_STAGE_SSIM_WINDOWS:
            ssim_window_sums_ref_c(rin, t, t + (size_t)st->out_w * st->out_h, in, w, h, v,
                                   b->scratch);
            break;
        case GPUSSIM_STAGE_ANSNR:
            ansnr_noise_c(t, in, w, h, &noise, b->scratch);
            v[0] = ref->ansnr_sig, v[1] = noise;
            break;
        case GPUSSIM_STAGE_ISSIM:
            issim_sums_c(ref->raw, raw, w, h, st->bit_depth, &v[0], &v[1], b->scratch);
            break;
        case GPUSSIM_STAGE_REDUCE:
            break;
        }
        if (st->slot != GPUSSIM_RESULT_NONE && st->kind != GPUSSIM_STAGE_REDUCE)
            gpussim_plan_store(&plan->stage[gpussim_plan_reduce_of(plan, i)], sums, v);
    }
}
