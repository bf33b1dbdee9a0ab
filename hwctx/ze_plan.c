/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The frame plan of the OpenCL C kernels; see ze_plan.h. Built with
 * -ffp-contract=off: the host-side reductions are reference arithmetic.
 *
 * Per score plane: unpack both pictures to true sample values, convert to
 * float, (decimate,) run the SSIM window on float_ssim's plane and on every
 * MS-SSIM level, ANSNR's filters and row sums, integer SSIM's moments and
 * terms; then download the partial sums. The partials are added here in
 * raster order (work-groups are row segments), so the result is the same
 * on every run and every device.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ze_plan.h"

const char *const gpussim_ze_kernel_names[ZE_K_COUNT] = {
    [ZE_K_UNPACK_PLANE] = "unpack_plane_ze",
    [ZE_K_CONVERT_TO_FLOAT] = "convert_to_float_ze",
    [ZE_K_SSIM_DECIMATE_BOX] = "ssim_decimate_box_ze",
    [ZE_K_MSSSIM_DECIMATE_LPF] = "msssim_decimate_lpf_ze",
    [ZE_K_SSIM_HFILTER] = "ssim_hfilter_ze",
    [ZE_K_SSIM_VFILTER_TERMS] = "ssim_vfilter_terms_ze",
    [ZE_K_ANSNR_FILTER] = "ansnr_filter_ze",
    [ZE_K_ANSNR_ROW_SUMS] = "ansnr_row_sums_ze",
    [ZE_K_ISSIM_HFILTER] = "issim_hfilter_ze",
    [ZE_K_ISSIM_VFILTER_TERMS] = "issim_vfilter_terms_ze",
};

#define SSIM_K GPUSSIM_GAUSSIAN11_LEN
#define TILE_X 32 /* local size of the element-wise 2-D kernels */
#define TILE_Y 4
#define LINE_WG 64 /* local size of the 1-D kernels */

/* A device buffer with its host mirror (partial sums). */
struct ze_partial {
    void *dev;
    void *host;
    size_t size;
};

/* Per slot and score plane. */
struct ze_plane_state {
    void *raw[2];                       /* ref, dis: uint16 true samples */
    struct ze_partial ssim;             /* 4 doubles per work-group */
    struct ze_partial ms[GPUSSIM_MSSSIM_SCALES];
    struct ze_partial sig_rows, noise_rows; /* one float per row */
    struct ze_partial iterm, iweight;   /* double / int64 per work-group */
    int ms0_is_ssim;                    /* scale 1: MS-SSIM level 0 reuses float_ssim's sums */
};

struct ze_slot {
    struct ze_plane_state plane[GPUSSIM_MAX_SCORE_PLANES];
    /* scratch, sized for the luma plane and reused plane after plane */
    void *flt[2], *dec[2], *pyr[2][GPUSSIM_MSSSIM_SCALES - 1], *filt[2];
    void *hmom, *imom;
    /* host frames: compact copies of the picture planes and their uploads */
    void *stage_host[2][3], *stage_dev[2][3];
    /* ANSNR coefficients, uploaded by the slot's first frame (per slot, so
     * that no slot depends on another one's work) */
    void *ansnr_coef[2];
    int coef_uploaded;
};

struct ZePlan {
    struct gpussim_config cfg;
    struct ze_plan_ops ops;
    int nb_slots;
    int nb_pic_planes;            /* picture planes read: 1, 2 (semi-planar) or 3 */
    int pic_w[3], pic_h[3];       /* in samples (a UV plane counts both) */
    struct ze_slot *slots;
    float ansnr_ref_coef[GPUSSIM_ANSNR_REF_LEN * GPUSSIM_ANSNR_REF_LEN];
    float ansnr_dis_coef[GPUSSIM_ANSNR_DIS_LEN * GPUSSIM_ANSNR_DIS_LEN];
    void *ansnr_coef_host[2]; /* the source of every slot's upload */
};

static size_t round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

static size_t groups_of(int n)
{
    return round_up((size_t)n, ZE_PLAN_REDUCE_WG) / ZE_PLAN_REDUCE_WG;
}

/* ---- allocation ----------------------------------------------------------- */

static int dev_alloc(ZePlan *p, size_t size, void **buf)
{
    const int err = p->ops.alloc(p->ops.opaque, size ? size : 16, buf);
    if (err < 0)
        gpussim_log(&p->cfg.log, GPUSSIM_LOG_ERROR, "ze: cannot allocate %zu bytes of device memory",
                    size);
    return err;
}

static int partial_alloc(ZePlan *p, struct ze_partial *pt, size_t size)
{
    int err = dev_alloc(p, size, &pt->dev);
    if (err < 0)
        return err;
    err = p->ops.host_alloc(p->ops.opaque, size, &pt->host);
    if (err < 0) {
        gpussim_log(&p->cfg.log, GPUSSIM_LOG_ERROR, "ze: cannot allocate %zu bytes of host memory",
                    size);
        return err;
    }
    pt->size = size;
    return 0;
}

static void partial_free(ZePlan *p, struct ze_partial *pt)
{
    if (pt->dev)
        p->ops.free(p->ops.opaque, pt->dev);
    if (pt->host)
        p->ops.host_free(p->ops.opaque, pt->host);
    memset(pt, 0, sizeof(*pt));
}

static void dev_free(ZePlan *p, void **buf)
{
    if (*buf)
        p->ops.free(p->ops.opaque, *buf);
    *buf = NULL;
}

void ze_plan_destroy(ZePlan **pplan)
{
    ZePlan *p = pplan ? *pplan : NULL;
    if (!p)
        return;
    for (int s = 0; p->slots && s < p->nb_slots; s++) {
        struct ze_slot *sl = &p->slots[s];
        for (int i = 0; i < GPUSSIM_MAX_SCORE_PLANES; i++) {
            struct ze_plane_state *ps = &sl->plane[i];
            dev_free(p, &ps->raw[0]);
            dev_free(p, &ps->raw[1]);
            partial_free(p, &ps->ssim);
            for (int l = 0; l < GPUSSIM_MSSSIM_SCALES; l++)
                partial_free(p, &ps->ms[l]);
            partial_free(p, &ps->sig_rows);
            partial_free(p, &ps->noise_rows);
            partial_free(p, &ps->iterm);
            partial_free(p, &ps->iweight);
        }
        for (int k = 0; k < 2; k++) {
            dev_free(p, &sl->flt[k]);
            dev_free(p, &sl->dec[k]);
            dev_free(p, &sl->filt[k]);
            for (int l = 0; l < GPUSSIM_MSSSIM_SCALES - 1; l++)
                dev_free(p, &sl->pyr[k][l]);
            for (int i = 0; i < 3; i++) {
                dev_free(p, &sl->stage_dev[k][i]);
                if (sl->stage_host[k][i])
                    p->ops.host_free(p->ops.opaque, sl->stage_host[k][i]);
            }
        }
        dev_free(p, &sl->hmom);
        dev_free(p, &sl->imom);
        dev_free(p, &sl->ansnr_coef[0]);
        dev_free(p, &sl->ansnr_coef[1]);
    }
    for (int k = 0; k < 2; k++) {
        if (p->ansnr_coef_host[k])
            p->ops.host_free(p->ops.opaque, p->ansnr_coef_host[k]);
    }
    free(p->slots);
    free(p);
    *pplan = NULL;
}

static int plane_state_alloc(ZePlan *p, struct ze_plane_state *ps,
                             const struct gpussim_plane_geometry *g)
{
    const unsigned m = p->cfg.metrics;
    const size_t n = (size_t)g->width * g->height;
    int err;
    for (int k = 0; k < 2; k++)
        if ((err = dev_alloc(p, n * sizeof(uint16_t), &ps->raw[k])) < 0)
            return err;
    if (m & GPUSSIM_METRIC_FLOAT_SSIM) {
        const size_t wg = groups_of(g->ssim_width - (SSIM_K - 1)) * (g->ssim_height - (SSIM_K - 1));
        if ((err = partial_alloc(p, &ps->ssim, wg * 4 * sizeof(double))) < 0)
            return err;
    }
    if (m & GPUSSIM_METRIC_FLOAT_MS_SSIM) {
        ps->ms0_is_ssim = (m & GPUSSIM_METRIC_FLOAT_SSIM) && g->ssim_scale == 1;
        for (int l = ps->ms0_is_ssim; l < GPUSSIM_MSSSIM_SCALES; l++) {
            const size_t wg = groups_of(g->ms_width[l] - (SSIM_K - 1)) *
                              (g->ms_height[l] - (SSIM_K - 1));
            if ((err = partial_alloc(p, &ps->ms[l], wg * 4 * sizeof(double))) < 0)
                return err;
        }
    }
    if (m & GPUSSIM_METRIC_FLOAT_ANSNR) {
        if ((err = partial_alloc(p, &ps->sig_rows, (size_t)g->height * sizeof(float))) < 0 ||
            (err = partial_alloc(p, &ps->noise_rows, (size_t)g->height * sizeof(float))) < 0)
            return err;
    }
    if (m & GPUSSIM_METRIC_SSIM) {
        const size_t wg = groups_of(g->width) * g->height;
        if ((err = partial_alloc(p, &ps->iterm, wg * sizeof(double))) < 0 ||
            (err = partial_alloc(p, &ps->iweight, wg * sizeof(int64_t))) < 0)
            return err;
    }
    return 0;
}

static int slot_alloc(ZePlan *p, struct ze_slot *sl)
{
    const struct gpussim_config *cfg = &p->cfg;
    const struct gpussim_plane_geometry *g0 = &cfg->plane[0];
    const unsigned m = cfg->metrics;
    const size_t n = (size_t)g0->width * g0->height;
    int err;

    for (int i = 0; i < cfg->nb_planes; i++)
        if ((err = plane_state_alloc(p, &sl->plane[i], &cfg->plane[i])) < 0)
            return err;
    for (int k = 0; k < 2; k++) {
        if (m & (GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_MS_SSIM | GPUSSIM_METRIC_FLOAT_ANSNR))
            if ((err = dev_alloc(p, n * sizeof(float), &sl->flt[k])) < 0)
                return err;
        if ((m & GPUSSIM_METRIC_FLOAT_SSIM) && g0->ssim_scale > 1)
            if ((err = dev_alloc(p, (size_t)g0->ssim_width * g0->ssim_height * sizeof(float),
                                 &sl->dec[k])) < 0)
                return err;
        if (m & GPUSSIM_METRIC_FLOAT_MS_SSIM)
            for (int l = 1; l < GPUSSIM_MSSSIM_SCALES; l++)
                if ((err = dev_alloc(p, (size_t)g0->ms_width[l] * g0->ms_height[l] * sizeof(float),
                                     &sl->pyr[k][l - 1])) < 0)
                    return err;
        if (m & GPUSSIM_METRIC_FLOAT_ANSNR) {
            if ((err = dev_alloc(p, n * sizeof(float), &sl->filt[k])) < 0)
                return err;
            if ((err = dev_alloc(p, k ? sizeof(p->ansnr_dis_coef) : sizeof(p->ansnr_ref_coef),
                                 &sl->ansnr_coef[k])) < 0)
                return err;
        }
    }
    /* the largest window plane is level 0 (MS-SSIM) or float_ssim's plane */
    if (m & (GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_MS_SSIM))
        if ((err = dev_alloc(p, 5 * (size_t)(g0->width - (SSIM_K - 1)) * g0->height * sizeof(float),
                             &sl->hmom)) < 0)
            return err;
    if (m & GPUSSIM_METRIC_SSIM)
        if ((err = dev_alloc(p, 5 * n * sizeof(int64_t), &sl->imom)) < 0)
            return err;
    return 0;
}

int ze_plan_create(ZePlan **pplan, const struct gpussim_config *cfg, const struct ze_plan_ops *ops,
                   int nb_slots)
{
    static const int ref_w[] = { GPUSSIM_ANSNR_REF_WEIGHTS };
    static const int dis_w[] = { GPUSSIM_ANSNR_DIS_WEIGHTS };
    int err = -ENOMEM;
    ZePlan *p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    p->cfg = *cfg;
    p->ops = *ops;
    p->nb_slots = nb_slots;

    /* picture planes read, in samples (a UV plane holds two per chroma column) */
    p->nb_pic_planes = 1;
    p->pic_w[0] = cfg->plane[0].width, p->pic_h[0] = cfg->plane[0].height;
    if (cfg->nb_planes > 1) {
        if (cfg->params.format.packing == GPUSSIM_PACKING_PLANAR) {
            p->nb_pic_planes = 3;
            for (int i = 1; i < 3; i++)
                p->pic_w[i] = cfg->plane[i].width, p->pic_h[i] = cfg->plane[i].height;
        } else {
            p->nb_pic_planes = 2;
            p->pic_w[1] = 2 * cfg->plane[1].width, p->pic_h[1] = cfg->plane[1].height;
        }
    }

    /* the reference's coefficients: the double quotient rounded to float */
    for (int i = 0; i < GPUSSIM_ANSNR_REF_LEN * GPUSSIM_ANSNR_REF_LEN; i++)
        p->ansnr_ref_coef[i] = GPUSSIM_ANSNR_COEF(ref_w[i], GPUSSIM_ANSNR_REF_DIV);
    for (int i = 0; i < GPUSSIM_ANSNR_DIS_LEN * GPUSSIM_ANSNR_DIS_LEN; i++)
        p->ansnr_dis_coef[i] = GPUSSIM_ANSNR_COEF(dis_w[i], GPUSSIM_ANSNR_DIS_DIV);

    p->slots = calloc((size_t)nb_slots, sizeof(*p->slots));
    if (!p->slots)
        goto fail;
    if (cfg->metrics & GPUSSIM_METRIC_FLOAT_ANSNR) {
        const size_t sz[2] = { sizeof(p->ansnr_ref_coef), sizeof(p->ansnr_dis_coef) };
        const void *src[2] = { p->ansnr_ref_coef, p->ansnr_dis_coef };
        for (int k = 0; k < 2; k++) {
            if ((err = p->ops.host_alloc(p->ops.opaque, sz[k], &p->ansnr_coef_host[k])) < 0)
                goto fail;
            memcpy(p->ansnr_coef_host[k], src[k], sz[k]);
        }
    }
    for (int s = 0; s < nb_slots; s++)
        if ((err = slot_alloc(p, &p->slots[s])) < 0)
            goto fail;
    *pplan = p;
    return 0;

fail:
    ze_plan_destroy(&p);
    return err < 0 ? err : -ENOMEM;
}

/* ---- recording ------------------------------------------------------------ */

#define ZB(x) ((struct ze_arg){ .kind = ZE_ARG_BUF, .v.buf = (x) })
#define ZI(x) ((struct ze_arg){ .kind = ZE_ARG_I32, .v.i32 = (x) })
#define ZU(x) ((struct ze_arg){ .kind = ZE_ARG_U32, .v.u32 = (x) })
#define ZL(x) ((struct ze_arg){ .kind = ZE_ARG_I64, .v.i64 = (x) })
#define ZUL(x) ((struct ze_arg){ .kind = ZE_ARG_U64, .v.u64 = (x) })
#define ZF(x) ((struct ze_arg){ .kind = ZE_ARG_F32, .v.f32 = (x) })
#define ZD(x) ((struct ze_arg){ .kind = ZE_ARG_F64, .v.f64 = (x) })

#define LAUNCH(k, gx, gy, lx, ly, ...)                                                          \
    do {                                                                                      \
        const struct ze_arg a_[] = { __VA_ARGS__ };                                           \
        const size_t gl_[2] = { round_up((size_t)(gx), (lx)), round_up((size_t)(gy), (ly)) }; \
        const size_t lo_[2] = { (lx), (ly) };                                                 \
        err = p->ops.launch(p->ops.opaque, slot, (k), gl_, lo_,                               \
                            (int)(sizeof(a_) / sizeof(a_[0])), a_);                           \
        if (err < 0)                                                                          \
            return err;                                                                       \
    } while (0)

#define LAUNCH_2D(k, gx, gy, ...) LAUNCH(k, gx, gy, TILE_X, TILE_Y, __VA_ARGS__)

static int download(ZePlan *p, int slot, struct ze_partial *pt)
{
    return p->ops.download(p->ops.opaque, slot, pt->host, pt->dev, pt->size);
}

/* The SSIM window sums of one (ref, dis) plane pair into pt. */
static int record_window(ZePlan *p, int slot, void *ref, void *dis, int w, int h,
                         struct ze_partial *pt)
{
    struct ze_slot *sl = &p->slots[slot];
    const int ow = w - (SSIM_K - 1), oh = h - (SSIM_K - 1);
    int err;
    LAUNCH_2D(ZE_K_SSIM_HFILTER, ow, h, ZB(ref), ZB(dis), ZI(w), ZI(h), ZB(sl->hmom));
    LAUNCH(ZE_K_SSIM_VFILTER_TERMS, ow, oh, ZE_PLAN_REDUCE_WG, 1, ZB(sl->hmom), ZI(w), ZI(h),
           ZB(pt->dev));
    return download(p, slot, pt);
}

static int record_plane(ZePlan *p, int slot, int i, const struct ze_plane_src *rsrc,
                        const struct ze_plane_src *dsrc, int first, int step)
{
    const struct gpussim_config *cfg = &p->cfg;
    const struct gpussim_plane_geometry *g = &cfg->plane[i];
    struct ze_slot *sl = &p->slots[slot];
    struct ze_plane_state *ps = &sl->plane[i];
    const unsigned m = cfg->metrics;
    const int bd = cfg->params.format.bit_depth;
    const int w = g->width, h = g->height, n = w * h;
    const int shift = cfg->params.format.msb_aligned ? 16 - bd : 0;
    const float inv_scaler = 1.0f / (float)(1 << (bd - 8)); /* exact: a power of two */
    const struct ze_plane_src *src[2] = { rsrc, dsrc };
    int err;

    for (int k = 0; k < 2; k++)
        LAUNCH_2D(ZE_K_UNPACK_PLANE, w, h, ZB(src[k]->buf), ZUL(src[k]->offset),
                  ZL(src[k]->pitch), ZI(cfg->bytes_per_sample), ZI(first), ZI(step), ZI(shift),
                  ZU((1u << bd) - 1), ZI(w), ZI(h), ZB(ps->raw[k]));

    if (m & (GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_MS_SSIM))
        for (int k = 0; k < 2; k++)
            LAUNCH(ZE_K_CONVERT_TO_FLOAT, n, 1, LINE_WG, 1, ZB(ps->raw[k]), ZI(n), ZF(inv_scaler),
                   ZF(0.0f), ZB(sl->flt[k]));

    if (m & GPUSSIM_METRIC_FLOAT_SSIM) {
        void *r = sl->flt[0], *d = sl->flt[1];
        if (g->ssim_scale > 1) {
            const int f = g->ssim_scale;
            const float k = 1.0f / (f * f); /* the reference's float tap */
            for (int j = 0; j < 2; j++)
                LAUNCH_2D(ZE_K_SSIM_DECIMATE_BOX, g->ssim_width, g->ssim_height, ZB(sl->flt[j]),
                          ZI(w), ZI(h), ZI(f), ZF(k), ZB(sl->dec[j]), ZI(g->ssim_width),
                          ZI(g->ssim_height));
            r = sl->dec[0], d = sl->dec[1];
        }
        if ((err = record_window(p, slot, r, d, g->ssim_width, g->ssim_height, &ps->ssim)) < 0)
            return err;
    }

    if (m & GPUSSIM_METRIC_FLOAT_MS_SSIM) {
        void *cur[2] = { sl->flt[0], sl->flt[1] };
        for (int l = 0; l < GPUSSIM_MSSSIM_SCALES; l++) {
            if (l > 0 || !ps->ms0_is_ssim)
                if ((err = record_window(p, slot, cur[0], cur[1], g->ms_width[l], g->ms_height[l],
                                         &ps->ms[l])) < 0)
                    return err;
            if (l + 1 == GPUSSIM_MSSSIM_SCALES)
                break;
            for (int k = 0; k < 2; k++) {
                LAUNCH_2D(ZE_K_MSSSIM_DECIMATE_LPF, g->ms_width[l + 1], g->ms_height[l + 1],
                          ZB(cur[k]), ZI(g->ms_width[l]), ZI(g->ms_height[l]),
                          ZB(sl->pyr[k][l]), ZI(g->ms_width[l + 1]), ZI(g->ms_height[l + 1]));
                cur[k] = sl->pyr[k][l];
            }
        }
    }

    if (m & GPUSSIM_METRIC_FLOAT_ANSNR) {
        for (int k = 0; k < 2; k++)
            LAUNCH(ZE_K_CONVERT_TO_FLOAT, n, 1, LINE_WG, 1, ZB(ps->raw[k]), ZI(n), ZF(inv_scaler),
                   ZF(-128.0f), ZB(sl->flt[k]));
        LAUNCH_2D(ZE_K_ANSNR_FILTER, w, h, ZB(sl->flt[0]), ZB(sl->flt[1]), ZI(w), ZI(h),
                  ZB(sl->ansnr_coef[0]), ZB(sl->ansnr_coef[1]), ZB(sl->filt[0]),
                  ZB(sl->filt[1]));
        LAUNCH(ZE_K_ANSNR_ROW_SUMS, h, 1, LINE_WG, 1, ZB(sl->filt[0]), ZB(sl->filt[1]), ZI(w),
               ZI(h), ZB(ps->sig_rows.dev), ZB(ps->noise_rows.dev));
        if ((err = download(p, slot, &ps->sig_rows)) < 0 ||
            (err = download(p, slot, &ps->noise_rows)) < 0)
            return err;
    }

    if (m & GPUSSIM_METRIC_SSIM) {
        const unsigned samplemax = (1u << bd) - 1;
        const double c1base = (double)samplemax * samplemax * (0.01 * 0.01);
        const double c2base = (double)samplemax * samplemax * (0.03 * 0.03);
        LAUNCH_2D(ZE_K_ISSIM_HFILTER, w, h, ZB(ps->raw[0]), ZB(ps->raw[1]), ZI(w), ZI(h),
                  ZB(sl->imom));
        LAUNCH(ZE_K_ISSIM_VFILTER_TERMS, w, h, ZE_PLAN_REDUCE_WG, 1, ZB(sl->imom), ZI(w), ZI(h),
               ZD(c1base), ZD(c2base), ZB(ps->iterm.dev), ZB(ps->iweight.dev));
        if ((err = download(p, slot, &ps->iterm)) < 0 || (err = download(p, slot, &ps->iweight)) < 0)
            return err;
    }
    return 0;
}

int ze_plan_record_device(ZePlan *p, int slot, const struct ze_plane_src ref[3],
                          const struct ze_plane_src dis[3])
{
    const struct gpussim_config *cfg = &p->cfg;
    const enum gpussim_packing pk = cfg->params.format.packing;
    int err;

    struct ze_slot *sl = &p->slots[slot];
    if (!sl->coef_uploaded && (cfg->metrics & GPUSSIM_METRIC_FLOAT_ANSNR)) {
        for (int k = 0; k < 2; k++)
            if ((err = p->ops.upload(p->ops.opaque, slot, sl->ansnr_coef[k], p->ansnr_coef_host[k],
                                     k ? sizeof(p->ansnr_dis_coef) : sizeof(p->ansnr_ref_coef))) < 0)
                return err;
        sl->coef_uploaded = 1;
    }
    for (int i = 0; i < cfg->nb_planes; i++) {
        if (i == 0 || pk == GPUSSIM_PACKING_PLANAR)
            err = record_plane(p, slot, i, &ref[i], &dis[i], 0, 1);
        else /* U is first in UV order, second in VU order */
            err = record_plane(p, slot, i, &ref[1], &dis[1],
                               (i == 1) == (pk == GPUSSIM_PACKING_SEMIPLANAR_UV) ? 0 : 1, 2);
        if (err < 0)
            return err;
    }
    return 0;
}

int ze_plan_record_host(ZePlan *p, int slot, const struct gpussim_picture *ref,
                        const struct gpussim_picture *dis)
{
    struct ze_slot *sl = &p->slots[slot];
    const struct gpussim_picture *pic[2] = { ref, dis };
    struct ze_plane_src src[2][3];
    int err;

    memset(src, 0, sizeof(src));
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < p->nb_pic_planes; i++) {
            const size_t row = (size_t)p->pic_w[i] * p->cfg.bytes_per_sample;
            const size_t size = row * p->pic_h[i];
            if (!sl->stage_dev[k][i]) {
                /* allocated on first use: host frames only */
                if ((err = dev_alloc(p, size, &sl->stage_dev[k][i])) < 0)
                    return err;
                if ((err = p->ops.host_alloc(p->ops.opaque, size, &sl->stage_host[k][i])) < 0)
                    return err;
            }
            /* compact copy: the caller's strides may be anything, negative too */
            uint8_t *dst = sl->stage_host[k][i];
            for (int y = 0; y < p->pic_h[i]; y++)
                memcpy(dst + row * y, (const uint8_t *)pic[k]->data[i] + (ptrdiff_t)y * pic[k]->stride[i],
                       row);
            if ((err = p->ops.upload(p->ops.opaque, slot, sl->stage_dev[k][i], dst, size)) < 0)
                return err;
            src[k][i].buf = sl->stage_dev[k][i];
            src[k][i].offset = 0;
            src[k][i].pitch = (int64_t)row;
        }
    }
    return ze_plan_record_device(p, slot, src[0], src[1]);
}

/* ---- reduction ------------------------------------------------------------ */

/* Adds 4-double work-group partials in raster order (rows, then the row's
 * segments left to right). */
static void sum_window_partials(const struct ze_partial *pt, double out[4])
{
    const double *v = pt->host;
    const size_t n = pt->size / (4 * sizeof(double));
    double t = 0.0, l = 0.0, c = 0.0, s = 0.0;
    for (size_t g = 0; g < n; g++) {
        t += v[4 * g];
        l += v[4 * g + 1];
        c += v[4 * g + 2];
        s += v[4 * g + 3];
    }
    out[0] = t, out[1] = l, out[2] = c, out[3] = s;
}

void ze_plan_collect(ZePlan *p, int slot, struct gpussim_frame_sums *sums)
{
    const struct gpussim_config *cfg = &p->cfg;
    const unsigned m = cfg->metrics;
    memset(sums, 0, sizeof(*sums));
    for (int i = 0; i < cfg->nb_planes; i++) {
        struct ze_plane_state *ps = &p->slots[slot].plane[i];
        struct gpussim_plane_sums *out = &sums->plane[i];
        double v[4];
        if (m & GPUSSIM_METRIC_FLOAT_SSIM) {
            sum_window_partials(&ps->ssim, v);
            out->ssim_term = v[0], out->ssim_l = v[1], out->ssim_c = v[2], out->ssim_s = v[3];
        }
        if (m & GPUSSIM_METRIC_FLOAT_MS_SSIM) {
            for (int l = 0; l < GPUSSIM_MSSSIM_SCALES; l++) {
                sum_window_partials(l == 0 && ps->ms0_is_ssim ? &ps->ssim : &ps->ms[l], v);
                out->ms_l[l] = v[1], out->ms_c[l] = v[2], out->ms_s[l] = v[3];
            }
        }
        if (m & GPUSSIM_METRIC_FLOAT_ANSNR) {
            /* the reference's float totals: row sums added top to bottom */
            const float *sr = ps->sig_rows.host, *nr = ps->noise_rows.host;
            float sig = 0.0f, noise = 0.0f;
            for (int y = 0; y < cfg->plane[i].height; y++) {
                sig += sr[y];
                noise += nr[y];
            }
            out->ansnr_sig = sig, out->ansnr_noise = noise;
        }
        if (m & GPUSSIM_METRIC_SSIM) {
            const double *t = ps->iterm.host;
            const int64_t *w = ps->iweight.host;
            const size_t n = ps->iterm.size / sizeof(double);
            double st = 0.0;
            int64_t sw = 0; /* integers: exact in any order (< 2^53 for 32768^2 frames) */
            for (size_t g = 0; g < n; g++) {
                st += t[g];
                sw += w[g];
            }
            out->issim_term = st, out->issim_weight = (double)sw;
        }
    }
}
