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

struct ze_slot {
    void *raw[GPUSSIM_MAX_SCORE_PLANES][2]; /* ref, dis: uint16 true samples */
    /* per stage of the plan with partial sums: windows: [0] 4 doubles per
     * work-group; ANSNR: one float per row, signal then noise; integer
     * SSIM: double terms, int64 weights per work-group */
    struct ze_partial part[GPUSSIM_PLAN_MAX_STAGES][2];
    /* scratch, sized for the largest plane and reused plane after plane */
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
    const struct gpussim_plan *plan; /* cfg.plan */
    struct ze_plan_ops ops;
    int nb_slots;
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
            dev_free(p, &sl->raw[i][0]);
            dev_free(p, &sl->raw[i][1]);
        }
        for (int i = 0; i < GPUSSIM_PLAN_MAX_STAGES; i++) {
            partial_free(p, &sl->part[i][0]);
            partial_free(p, &sl->part[i][1]);
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

static size_t max_size(size_t a, size_t b)
{
    return a > b ? a : b;
}

/* A slot's buffers: what the plan's stages write, scratch sized for the
 * largest plane that uses it. */
static int slot_alloc(ZePlan *p, struct ze_slot *sl)
{
    const struct gpussim_plan *plan = p->plan;
    size_t flt = 0, dec = 0, pyr[GPUSSIM_MSSSIM_SCALES - 1] = { 0 }, filt = 0, hmom = 0, imom = 0;
    int err;

    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        const size_t n = (size_t)st->in_w * st->in_h;
        struct ze_partial *pt = sl->part[i];
        switch (st->kind) {
        case GPUSSIM_STAGE_UNPACK:
            for (int k = 0; k < 2; k++)
                if ((err = dev_alloc(p, n * sizeof(uint16_t), &sl->raw[st->plane][k])) < 0)
                    return err;
            break;
        case GPUSSIM_STAGE_CONVERT:
            flt = max_size(flt, n * sizeof(float));
            break;
        case GPUSSIM_STAGE_DECIMATE_BOX:
            dec = max_size(dec, (size_t)st->out_w * st->out_h * sizeof(float));
            break;
        case GPUSSIM_STAGE_DECIMATE_LPF:
            pyr[st->out_level - 1] =
                max_size(pyr[st->out_level - 1], (size_t)st->out_w * st->out_h * sizeof(float));
            break;
        case GPUSSIM_STAGE_SSIM_WINDOWS:
            if (st->same_as >= 0)
                break;
            hmom = max_size(hmom, 5 * (size_t)st->out_w * st->in_h * sizeof(float));
            if ((err = partial_alloc(p, &pt[0], groups_of(st->out_w) * st->out_h * 4 *
                                                    sizeof(double))) < 0)
                return err;
            break;
        case GPUSSIM_STAGE_ANSNR:
            filt = max_size(filt, n * sizeof(float));
            for (int k = 0; k < 2; k++)
                if ((err = partial_alloc(p, &pt[k], (size_t)st->in_h * sizeof(float))) < 0)
                    return err;
            break;
        case GPUSSIM_STAGE_ISSIM:
            imom = max_size(imom, 5 * n * sizeof(int64_t));
            if ((err = partial_alloc(p, &pt[0], groups_of(st->in_w) * st->in_h * sizeof(double))) < 0 ||
                (err = partial_alloc(p, &pt[1], groups_of(st->in_w) * st->in_h * sizeof(int64_t))) < 0)
                return err;
            break;
        case GPUSSIM_STAGE_REDUCE:
            break;
        }
    }
    for (int k = 0; k < 2; k++) {
        if (flt && (err = dev_alloc(p, flt, &sl->flt[k])) < 0)
            return err;
        if (dec && (err = dev_alloc(p, dec, &sl->dec[k])) < 0)
            return err;
        for (int l = 0; l < GPUSSIM_MSSSIM_SCALES - 1; l++)
            if (pyr[l] && (err = dev_alloc(p, pyr[l], &sl->pyr[k][l])) < 0)
                return err;
        if (filt) {
            if ((err = dev_alloc(p, filt, &sl->filt[k])) < 0)
                return err;
            if ((err = dev_alloc(p, k ? sizeof(p->ansnr_dis_coef) : sizeof(p->ansnr_ref_coef),
                                 &sl->ansnr_coef[k])) < 0)
                return err;
        }
    }
    if (hmom && (err = dev_alloc(p, hmom, &sl->hmom)) < 0)
        return err;
    if (imom && (err = dev_alloc(p, imom, &sl->imom)) < 0)
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
    p->plan = &p->cfg.plan;
    p->ops = *ops;
    p->nb_slots = nb_slots;

    /* the reference's coefficients: the double quotient rounded to float */
    for (int i = 0; i < GPUSSIM_ANSNR_REF_LEN * GPUSSIM_ANSNR_REF_LEN; i++)
        p->ansnr_ref_coef[i] = GPUSSIM_ANSNR_COEF(ref_w[i], GPUSSIM_ANSNR_REF_DIV);
    for (int i = 0; i < GPUSSIM_ANSNR_DIS_LEN * GPUSSIM_ANSNR_DIS_LEN; i++)
        p->ansnr_dis_coef[i] = GPUSSIM_ANSNR_COEF(dis_w[i], GPUSSIM_ANSNR_DIS_DIV);

    p->slots = calloc((size_t)nb_slots, sizeof(*p->slots));
    if (!p->slots)
        goto fail;
    for (int s = 0; s < nb_slots; s++)
        if ((err = slot_alloc(p, &p->slots[s])) < 0)
            goto fail;
    if (nb_slots > 0 && p->slots[0].ansnr_coef[0]) {
        const size_t sz[2] = { sizeof(p->ansnr_ref_coef), sizeof(p->ansnr_dis_coef) };
        const void *src[2] = { p->ansnr_ref_coef, p->ansnr_dis_coef };
        for (int k = 0; k < 2; k++) {
            if ((err = p->ops.host_alloc(p->ops.opaque, sz[k], &p->ansnr_coef_host[k])) < 0)
                goto fail;
            memcpy(p->ansnr_coef_host[k], src[k], sz[k]);
        }
    }
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

/* The slot's storage of a logical plane of picture k (0 ref, 1 dis). */
static void *plane_buf(struct ze_slot *sl, int plane, enum gpussim_plan_buf b, int level, int k)
{
    switch (b) {
    case GPUSSIM_BUF_RAW: return sl->raw[plane][k];
    case GPUSSIM_BUF_FLOAT: /* FLOAT_ANSNR is written after FLOAT's last reader */
    case GPUSSIM_BUF_FLOAT_ANSNR: return sl->flt[k];
    case GPUSSIM_BUF_BOX: return sl->dec[k];
    case GPUSSIM_BUF_LEVEL: return sl->pyr[k][level - 1];
    default: return NULL;
    }
}

/* Records one stage of the plan (both pictures). */
static int record_stage(ZePlan *p, int slot, int idx, const struct ze_plane_src ref[3],
                        const struct ze_plane_src dis[3])
{
    const struct gpussim_plan_stage *st = &p->plan->stage[idx];
    struct ze_slot *sl = &p->slots[slot];
    struct ze_partial *pt = sl->part[idx];
    const int w = st->in_w, h = st->in_h, n = w * h, pl = st->plane;
    void *in[2], *out[2];
    int err;

    for (int k = 0; k < 2; k++) {
        in[k] = plane_buf(sl, pl, st->in, st->in_level, k);
        out[k] = plane_buf(sl, pl, st->out, st->out_level, k);
    }
    switch (st->kind) {
    case GPUSSIM_STAGE_UNPACK:
        for (int k = 0; k < 2; k++) {
            const struct ze_plane_src *src = &(k ? dis : ref)[st->src.src_plane];
            LAUNCH_2D(ZE_K_UNPACK_PLANE, w, h, ZB(src->buf), ZUL(src->offset), ZL(src->pitch),
                      ZI(st->src.bytes_per_sample), ZI(st->src.first), ZI(st->src.step),
                      ZI(st->src.shift), ZU(st->src.mask), ZI(w), ZI(h), ZB(out[k]));
        }
        return 0;
    case GPUSSIM_STAGE_CONVERT:
        for (int k = 0; k < 2; k++)
            LAUNCH(ZE_K_CONVERT_TO_FLOAT, n, 1, LINE_WG, 1, ZB(in[k]), ZI(n), ZF(st->inv_scaler),
                   ZF(st->offset), ZB(out[k]));
        return 0;
    case GPUSSIM_STAGE_DECIMATE_BOX:
        for (int k = 0; k < 2; k++)
            LAUNCH_2D(ZE_K_SSIM_DECIMATE_BOX, st->out_w, st->out_h, ZB(in[k]), ZI(w), ZI(h),
                      ZI(st->factor), ZF(st->box_tap), ZB(out[k]), ZI(st->out_w), ZI(st->out_h));
        return 0;
    case GPUSSIM_STAGE_DECIMATE_LPF:
        for (int k = 0; k < 2; k++)
            LAUNCH_2D(ZE_K_MSSSIM_DECIMATE_LPF, st->out_w, st->out_h, ZB(in[k]), ZI(w), ZI(h),
                      ZB(out[k]), ZI(st->out_w), ZI(st->out_h));
        return 0;
    case GPUSSIM_STAGE_SSIM_WINDOWS:
        if (st->same_as >= 0)
            return 0; /* collect reads that stage's partials */
        LAUNCH_2D(ZE_K_SSIM_HFILTER, st->out_w, h, ZB(in[0]), ZB(in[1]), ZI(w), ZI(h),
                  ZB(sl->hmom));
        LAUNCH(ZE_K_SSIM_VFILTER_TERMS, st->out_w, st->out_h, ZE_PLAN_REDUCE_WG, 1, ZB(sl->hmom),
               ZI(w), ZI(h), ZB(pt[0].dev));
        return download(p, slot, &pt[0]);
    case GPUSSIM_STAGE_ANSNR:
        LAUNCH_2D(ZE_K_ANSNR_FILTER, w, h, ZB(in[0]), ZB(in[1]), ZI(w), ZI(h),
                  ZB(sl->ansnr_coef[0]), ZB(sl->ansnr_coef[1]), ZB(sl->filt[0]),
                  ZB(sl->filt[1]));
        LAUNCH(ZE_K_ANSNR_ROW_SUMS, h, 1, LINE_WG, 1, ZB(sl->filt[0]), ZB(sl->filt[1]), ZI(w),
               ZI(h), ZB(pt[0].dev), ZB(pt[1].dev));
        if ((err = download(p, slot, &pt[0])) < 0)
            return err;
        return download(p, slot, &pt[1]);
    case GPUSSIM_STAGE_ISSIM:
        LAUNCH_2D(ZE_K_ISSIM_HFILTER, w, h, ZB(in[0]), ZB(in[1]), ZI(w), ZI(h), ZB(sl->imom));
        LAUNCH(ZE_K_ISSIM_VFILTER_TERMS, w, h, ZE_PLAN_REDUCE_WG, 1, ZB(sl->imom), ZI(w), ZI(h),
               ZD(st->c1base), ZD(st->c2base), ZB(pt[0].dev), ZB(pt[1].dev));
        if ((err = download(p, slot, &pt[0])) < 0)
            return err;
        return download(p, slot, &pt[1]);
    case GPUSSIM_STAGE_REDUCE:
        return 0; /* on the host, at collect */
    }
    return 0;
}

int ze_plan_record_device(ZePlan *p, int slot, const struct ze_plane_src ref[3],
                          const struct ze_plane_src dis[3])
{
    struct ze_slot *sl = &p->slots[slot];
    int err;

    if (!sl->coef_uploaded && sl->ansnr_coef[0]) {
        for (int k = 0; k < 2; k++)
            if ((err = p->ops.upload(p->ops.opaque, slot, sl->ansnr_coef[k], p->ansnr_coef_host[k],
                                     k ? sizeof(p->ansnr_dis_coef) : sizeof(p->ansnr_ref_coef))) < 0)
                return err;
        sl->coef_uploaded = 1;
    }
    for (int i = 0; i < p->plan->nb_stages; i++)
        if ((err = record_stage(p, slot, i, ref, dis)) < 0)
            return err;
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
        for (int i = 0; i < p->plan->nb_pic_planes; i++) {
            const size_t row = (size_t)p->plan->pic_row_samples[i] * p->cfg.bytes_per_sample;
            const size_t size = row * p->plan->pic_rows[i];
            if (!sl->stage_dev[k][i]) {
                /* allocated on first use: host frames only */
                if ((err = dev_alloc(p, size, &sl->stage_dev[k][i])) < 0)
                    return err;
                if ((err = p->ops.host_alloc(p->ops.opaque, size, &sl->stage_host[k][i])) < 0)
                    return err;
            }
            /* compact copy: the caller's strides may be anything, negative too */
            uint8_t *dst = sl->stage_host[k][i];
            for (int y = 0; y < p->plan->pic_rows[i]; y++)
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

void ze_plan_collect(ZePlan *p, int slot, struct gpussim_frame_sums *sums)
{
    const struct gpussim_plan *plan = p->plan;
    struct ze_slot *sl = &p->slots[slot];
    memset(sums, 0, sizeof(*sums));
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *r = &plan->stage[i];
        if (r->kind != GPUSSIM_STAGE_REDUCE)
            continue;
        const struct gpussim_plan_stage *src = &plan->stage[r->producer];
        const struct ze_partial *pt =
            sl->part[src->same_as >= 0 ? src->same_as : r->producer];
        double v[4] = { 0.0, 0.0, 0.0, 0.0 };
        switch (r->slot) {
        case GPUSSIM_RESULT_SSIM:
        case GPUSSIM_RESULT_MSSSIM:
            /* work-groups are row segments: raster order */
            gpussim_sum_partials(pt[0].host, pt[0].size / (4 * sizeof(double)), 4, v);
            break;
        case GPUSSIM_RESULT_ANSNR:
            /* the reference's float totals: row sums added top to bottom */
            v[0] = gpussim_sum_float_rows(pt[0].host, src->in_h, 1);
            v[1] = gpussim_sum_float_rows(pt[1].host, src->in_h, 1);
            break;
        case GPUSSIM_RESULT_ISSIM: {
            const int64_t *w = pt[1].host;
            const size_t n = pt[0].size / sizeof(double);
            int64_t sw = 0; /* integers: exact in any order (< 2^53 for 32768^2 frames) */
            gpussim_sum_partials(pt[0].host, n, 1, v);
            for (size_t g = 0; g < n; g++)
                sw += w[g];
            v[1] = (double)sw;
            break;
        }
        case GPUSSIM_RESULT_NONE:
            break;
        }
        gpussim_plan_store(r, sums, v);
    }
}
