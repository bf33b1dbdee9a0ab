/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The frame plan (src/plan.h) walked with the CPU reference kernels: the
 * reference recipe of one scored plane, stage by stage, as hwctx/cpu.c's
 * score_plane() runs it (same kernels, same buffers, same order), and the
 * per-stage oracle of tests/test_stages.c. Built with -ffp-contract=off.
 */
#include <stddef.h>
#include <string.h>

#include "internal.h"
#include "kernels/c/kernels_c.h"

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
