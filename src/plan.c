/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The frame plan (see plan.h): built once per configuration, walked by
 * every backend. Built with -ffp-contract=off like the rest of the
 * library: the host sums here are reference arithmetic.
 */
#include <string.h>

#include "src/backend.h"
#include "plan.h"

#define SSIM_K GPUSSIM_GAUSSIAN11_LEN

static struct gpussim_plan_stage *add(struct gpussim_plan *plan, enum gpussim_stage_kind kind,
                                      unsigned metrics, int p, int w, int h)
{
    struct gpussim_plan_stage *st = &plan->stage[plan->nb_stages++];
    memset(st, 0, sizeof(*st));
    st->kind = kind;
    st->metrics = metrics;
    st->plane = p;
    st->in_w = st->out_w = w;
    st->in_h = st->out_h = h;
    st->producer = -1;
    st->same_as = -1;
    return st;
}

/* The window sums over a w x h pair, those of `sums`; returns the stage's
 * index. */
static int add_windows(struct gpussim_plan *plan, unsigned metric, int p, int scale,
                       enum gpussim_plan_buf in, int level, int w, int h,
                       enum gpussim_result_slot slot, unsigned sums)
{
    struct gpussim_plan_stage *st = add(plan, GPUSSIM_STAGE_SSIM_WINDOWS, metric, p, w, h);
    st->sums = sums;
    st->scale = scale;
    st->in = in;
    st->in_level = level;
    st->out_w = w - (SSIM_K - 1);
    st->out_h = h - (SSIM_K - 1);
    st->slot = slot;
    return plan->nb_stages - 1;
}

void gpussim_plan_init(struct gpussim_plan *plan, const struct gpussim_config *cfg)
{
    const unsigned m = cfg->metrics;
    const enum gpussim_packing pk = cfg->params.format.packing;
    const int bd = cfg->params.format.bit_depth;
    const float scaler = (float)(1 << (bd - 8));
    const float inv_scaler = 1.0f / scaler; /* exact: a power of two */
    const unsigned samplemax = (1u << bd) - 1;

    memset(plan, 0, sizeof(*plan));

    /* picture planes read, in samples (a UV plane holds two per chroma column) */
    plan->nb_pic_planes = 1;
    plan->pic_row_samples[0] = cfg->plane[0].width, plan->pic_rows[0] = cfg->plane[0].height;
    if (cfg->nb_planes > 1) {
        if (pk == GPUSSIM_PACKING_PLANAR) {
            plan->nb_pic_planes = 3;
            for (int i = 1; i < 3; i++)
                plan->pic_row_samples[i] = cfg->plane[i].width, plan->pic_rows[i] = cfg->plane[i].height;
        } else {
            plan->nb_pic_planes = 2;
            plan->pic_row_samples[1] = 2 * cfg->plane[1].width, plan->pic_rows[1] = cfg->plane[1].height;
        }
    }

    for (int p = 0; p < cfg->nb_planes; p++) {
        const struct gpussim_plane_geometry *g = &cfg->plane[p];
        const int w = g->width, h = g->height;
        struct gpussim_plan_stage *st;

        st = add(plan, GPUSSIM_STAGE_UNPACK, m, p, w, h);
        st->in = GPUSSIM_BUF_PICTURE, st->out = GPUSSIM_BUF_RAW;
        st->src.src_plane = p;
        st->src.first = 0;
        st->src.step = 1;
        if (p > 0 && pk != GPUSSIM_PACKING_PLANAR) {
            /* U is first in UV order, second in VU order */
            st->src.src_plane = 1;
            st->src.step = 2;
            st->src.first = (p == 1) == (pk == GPUSSIM_PACKING_SEMIPLANAR_UV) ? 0 : 1;
        }
        st->src.bytes_per_sample = cfg->bytes_per_sample;
        st->src.shift = cfg->params.format.msb_aligned ? 16 - bd : 0;
        st->src.mask = samplemax;
        st->scaler = scaler, st->inv_scaler = inv_scaler;

        const unsigned fl = m & (GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_MS_SSIM);
        if (fl) {
            st = add(plan, GPUSSIM_STAGE_CONVERT, fl, p, w, h);
            st->in = GPUSSIM_BUF_RAW, st->out = GPUSSIM_BUF_FLOAT;
            st->scaler = scaler, st->inv_scaler = inv_scaler, st->offset = 0.0f;
        }

        int ssim_windows = -1;
        if (m & GPUSSIM_METRIC_FLOAT_SSIM) {
            enum gpussim_plan_buf in = GPUSSIM_BUF_FLOAT;
            if (g->ssim_scale > 1) {
                st = add(plan, GPUSSIM_STAGE_DECIMATE_BOX, GPUSSIM_METRIC_FLOAT_SSIM, p, w, h);
                st->in = GPUSSIM_BUF_FLOAT, st->out = GPUSSIM_BUF_BOX;
                st->out_w = g->ssim_width, st->out_h = g->ssim_height;
                st->factor = g->ssim_scale;
                st->box_tap = 1.0f / (float)(g->ssim_scale * g->ssim_scale);
                st->scaler = scaler, st->inv_scaler = inv_scaler;
                in = GPUSSIM_BUF_BOX;
            }
            const unsigned lcs = GPUSSIM_SUM_L | GPUSSIM_SUM_C | GPUSSIM_SUM_S;
            ssim_windows = add_windows(plan, GPUSSIM_METRIC_FLOAT_SSIM, p, 0, in, 0, g->ssim_width,
                                       g->ssim_height, GPUSSIM_RESULT_SSIM,
                                       GPUSSIM_SUM_TERM | (cfg->ssim.enable_lcs ? lcs : 0));
            plan->stage[ssim_windows].scaler = scaler;
            plan->stage[ssim_windows].inv_scaler = inv_scaler;
        }

        if (m & GPUSSIM_METRIC_FLOAT_MS_SSIM) {
            for (int l = 0; l < GPUSSIM_MSSSIM_SCALES; l++) {
                /* spec §2.5: only the last level's l has a nonzero exponent */
                const int need_l = cfg->ms.enable_lcs || l + 1 == GPUSSIM_MSSSIM_SCALES;
                const int i =
                    add_windows(plan, GPUSSIM_METRIC_FLOAT_MS_SSIM, p, l,
                                l ? GPUSSIM_BUF_LEVEL : GPUSSIM_BUF_FLOAT, l, g->ms_width[l],
                                g->ms_height[l], GPUSSIM_RESULT_MSSSIM,
                                GPUSSIM_SUM_C | GPUSSIM_SUM_S | (need_l ? GPUSSIM_SUM_L : 0));
                plan->stage[i].scaler = scaler, plan->stage[i].inv_scaler = inv_scaler;
                /* scale 1: float_ssim's windows run on the same level-0 planes;
                 * both stages then sum what either needs */
                if (l == 0 && ssim_windows >= 0 && g->ssim_scale == 1) {
                    plan->stage[i].same_as = ssim_windows;
                    plan->stage[i].sums |= plan->stage[ssim_windows].sums;
                    plan->stage[ssim_windows].sums = plan->stage[i].sums;
                }
                if (l + 1 == GPUSSIM_MSSSIM_SCALES)
                    break;
                st = add(plan, GPUSSIM_STAGE_DECIMATE_LPF, GPUSSIM_METRIC_FLOAT_MS_SSIM, p,
                         g->ms_width[l], g->ms_height[l]);
                st->scale = l;
                st->in = l ? GPUSSIM_BUF_LEVEL : GPUSSIM_BUF_FLOAT, st->in_level = l;
                st->out = GPUSSIM_BUF_LEVEL, st->out_level = l + 1;
                st->out_w = g->ms_width[l + 1], st->out_h = g->ms_height[l + 1];
                st->scaler = scaler, st->inv_scaler = inv_scaler;
            }
        }

        if (m & GPUSSIM_METRIC_FLOAT_ANSNR) {
            st = add(plan, GPUSSIM_STAGE_CONVERT, GPUSSIM_METRIC_FLOAT_ANSNR, p, w, h);
            st->in = GPUSSIM_BUF_RAW, st->out = GPUSSIM_BUF_FLOAT_ANSNR;
            st->scaler = scaler, st->inv_scaler = inv_scaler, st->offset = -128.0f;
            st = add(plan, GPUSSIM_STAGE_ANSNR, GPUSSIM_METRIC_FLOAT_ANSNR, p, w, h);
            st->in = GPUSSIM_BUF_FLOAT_ANSNR;
            st->scaler = scaler, st->inv_scaler = inv_scaler, st->offset = -128.0f;
            st->slot = GPUSSIM_RESULT_ANSNR;
        }

        if (m & GPUSSIM_METRIC_SSIM) {
            st = add(plan, GPUSSIM_STAGE_ISSIM, GPUSSIM_METRIC_SSIM, p, w, h);
            st->in = GPUSSIM_BUF_RAW;
            st->bit_depth = bd;
            st->scaler = scaler;
            st->c1base = GPUSSIM_ISSIM_C1BASE(samplemax);
            st->c2base = GPUSSIM_ISSIM_C2BASE(samplemax);
            st->slot = GPUSSIM_RESULT_ISSIM;
        }
    }

    /* the final reductions, one per result slot, in stage order */
    const int nb_compute = plan->nb_stages;
    for (int i = 0; i < nb_compute; i++) {
        const struct gpussim_plan_stage *src = &plan->stage[i];
        if (src->slot == GPUSSIM_RESULT_NONE)
            continue;
        struct gpussim_plan_stage *st = add(plan, GPUSSIM_STAGE_REDUCE, src->metrics, src->plane,
                                            src->out_w, src->out_h);
        st->scale = src->scale;
        st->slot = src->slot;
        st->producer = i;
        st->windows = (double)src->out_w * src->out_h;
        plan->nb_results++;
    }
}

int gpussim_plan_reduce_of(const struct gpussim_plan *plan, int producer)
{
    for (int i = 0; i < plan->nb_stages; i++)
        if (plan->stage[i].kind == GPUSSIM_STAGE_REDUCE && plan->stage[i].producer == producer)
            return i;
    return -1;
}

const char *gpussim_stage_name(enum gpussim_stage_kind kind)
{
    switch (kind) {
    case GPUSSIM_STAGE_UNPACK: return "unpack";
    case GPUSSIM_STAGE_CONVERT: return "convert";
    case GPUSSIM_STAGE_DECIMATE_BOX: return "decimate_box";
    case GPUSSIM_STAGE_DECIMATE_LPF: return "decimate_lpf";
    case GPUSSIM_STAGE_SSIM_WINDOWS: return "windows";
    case GPUSSIM_STAGE_ANSNR: return "ansnr";
    case GPUSSIM_STAGE_ISSIM: return "issim";
    case GPUSSIM_STAGE_REDUCE: return "reduce";
    }
    return "?";
}

void gpussim_plan_store(const struct gpussim_plan_stage *r, struct gpussim_frame_sums *sums,
                        const double v[4])
{
    struct gpussim_plane_sums *ps = &sums->plane[r->plane];
    switch (r->slot) {
    case GPUSSIM_RESULT_SSIM:
        ps->ssim_term = v[0], ps->ssim_l = v[1], ps->ssim_c = v[2], ps->ssim_s = v[3];
        break;
    case GPUSSIM_RESULT_MSSSIM:
        ps->ms_l[r->scale] = v[1], ps->ms_c[r->scale] = v[2], ps->ms_s[r->scale] = v[3];
        break;
    case GPUSSIM_RESULT_ANSNR: /* floats, exact through double */
        ps->ansnr_sig = (float)v[0], ps->ansnr_noise = (float)v[1];
        break;
    case GPUSSIM_RESULT_ISSIM:
        ps->issim_term = v[0], ps->issim_weight = v[1];
        break;
    case GPUSSIM_RESULT_NONE:
        break;
    }
}

void gpussim_plan_load(const struct gpussim_plan_stage *r, const struct gpussim_frame_sums *sums,
                       double v[4])
{
    const struct gpussim_plane_sums *ps = &sums->plane[r->plane];
    v[0] = v[1] = v[2] = v[3] = 0.0;
    switch (r->slot) {
    case GPUSSIM_RESULT_SSIM:
        v[0] = ps->ssim_term, v[1] = ps->ssim_l, v[2] = ps->ssim_c, v[3] = ps->ssim_s;
        break;
    case GPUSSIM_RESULT_MSSSIM:
        v[1] = ps->ms_l[r->scale], v[2] = ps->ms_c[r->scale], v[3] = ps->ms_s[r->scale];
        break;
    case GPUSSIM_RESULT_ANSNR:
        v[0] = ps->ansnr_sig, v[1] = ps->ansnr_noise;
        break;
    case GPUSSIM_RESULT_ISSIM:
        v[0] = ps->issim_term, v[1] = ps->issim_weight;
        break;
    case GPUSSIM_RESULT_NONE:
        break;
    }
}

void gpussim_sum_partials(const double *part, size_t count, int fields, double out[4])
{
    double acc[4] = { 0.0, 0.0, 0.0, 0.0 };
    for (size_t g = 0; g < count; g++)
        for (int f = 0; f < fields; f++)
            acc[f] += part[(size_t)fields * g + f];
    for (int f = 0; f < 4; f++)
        out[f] = acc[f];
}

float gpussim_sum_float_rows(const float *rows, int nb_rows, int stride)
{
    float sum = 0.0f;
    for (int y = 0; y < nb_rows; y++)
        sum += rows[(size_t)y * stride];
    return sum;
}

double gpussim_issim_weight_sum(int w, int h)
{
    const int taps[] = { GPUSSIM_ISSIM_TAPS };
    const int R = GPUSSIM_ISSIM_LEN / 2;
    int64_t sv = 0, sh = 0;
    for (int y = 0; y < h; y++)
        for (int t = 0; t < GPUSSIM_ISSIM_LEN; t++)
            if (y + t - R >= 0 && y + t - R < h)
                sv += taps[t];
    for (int x = 0; x < w; x++)
        for (int t = 0; t < GPUSSIM_ISSIM_LEN; t++)
            if (x + t - R >= 0 && x + t - R < w)
                sh += taps[t];
    return (double)(sv * sh);
}
