/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The configuration every backend shares, validated once at create time:
 * the picture format, the scored planes and the geometry of each metric on
 * each of them (scales, decimated sizes) with its size limits, and the
 * default features ("all the frame size allows").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "src/core.h"

#define SSIM_WINDOW GPUSSIM_GAUSSIAN11_LEN
#define MSSSIM_MIN_SIDE (SSIM_WINDOW << (GPUSSIM_MSSSIM_SCALES - 1)) /* 176 */
#define ANSNR_MIN_SIDE 3 /* the 5x5 filter reflects two samples into the plane */

int gpussim_ssim_auto_scale(int w, int h)
{
    /* libvmaf: max(1, round((float)min(w, h) / 256.0f)); the quotient is
     * exact, so adding 0.5f and truncating is round-half-away here. */
    const float q = (float)(w < h ? w : h) / 256.0f;
    const int s = (int)(q + 0.5f);
    return s > 1 ? s : 1;
}


static const char *plane_name(int i)
{
    static const char *const names[] = { "luma", "U", "V" };
    return names[i];
}

int gpussim_format_check(const struct gpussim_logger *log, const struct gpussim_format *f)
{
    if (f->width <= 0 || f->height <= 0) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "invalid frame size %dx%d", f->width, f->height);
        return -EINVAL;
    }
    if (f->width > 32768 || f->height > 32768) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "frame size %dx%d is above the 32768x32768 limit",
                    f->width, f->height);
        return -EINVAL;
    }
    if (f->bit_depth != 8 && f->bit_depth != 10 && f->bit_depth != 12 && f->bit_depth != 16) {
        gpussim_log(log, GPUSSIM_LOG_ERROR,
                    "bit depth %d is not supported: libvmaf's metrics are defined for 8, 10, 12 "
                    "and 16 bits",
                    f->bit_depth);
        return -EINVAL;
    }
    if ((unsigned)f->chroma > GPUSSIM_CHROMA_GRAY) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "unknown chroma subsampling %d", (int)f->chroma);
        return -EINVAL;
    }
    if ((unsigned)f->packing > GPUSSIM_PACKING_SEMIPLANAR_VU) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "unknown sample packing %d", (int)f->packing);
        return -EINVAL;
    }
    if (f->packing != GPUSSIM_PACKING_PLANAR && f->chroma == GPUSSIM_CHROMA_GRAY) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "a gray format has no chroma plane to interleave");
        return -EINVAL;
    }
    if (f->msb_aligned && f->bit_depth == 8) {
        gpussim_log(log, GPUSSIM_LOG_ERROR,
                    "msb_aligned needs 16-bit words (P010/P012/P016); bit depth is 8");
        return -EINVAL;
    }
    return 0;
}

/* Whether one metric fits score plane i. When it does not: strict (the
 * metric was asked for) logs the error naming the limit; otherwise (the
 * default features) logs the warning that leaves it out. */
static int check_metric(const struct gpussim_config *cfg, int i, unsigned metric, int strict)
{
    const struct gpussim_logger *log = &cfg->log;
    const struct gpussim_plane_geometry *g = &cfg->plane[i];
    const char *pn = plane_name(i);
    const char *what = i == 0 ? "the frame size" : "the chroma plane size (planes=all)";
    static const char left_out[] = "(left out of the default features; naming the feature makes this an error)";

    if (metric == GPUSSIM_METRIC_FLOAT_SSIM &&
        (g->ssim_width < SSIM_WINDOW || g->ssim_height < SSIM_WINDOW)) {
        if (strict)
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "float_ssim: the %s plane %dx%d decimated by scale %d is %dx%d, smaller than "
                        "the %dx%d window (needs at least %dx%d after decimation)",
                        pn, g->width, g->height, g->ssim_scale, g->ssim_width, g->ssim_height,
                        SSIM_WINDOW, SSIM_WINDOW, SSIM_WINDOW, SSIM_WINDOW);
        else if (g->ssim_scale == 1)
            gpussim_log(log, GPUSSIM_LOG_WARNING,
                        "%s %dx%d is below float_ssim's %dx%d window of %dx%d: float_ssim is not "
                        "computed %s",
                        what, g->width, g->height, SSIM_WINDOW, SSIM_WINDOW, SSIM_WINDOW, SSIM_WINDOW,
                        left_out);
        else
            gpussim_log(log, GPUSSIM_LOG_WARNING,
                        "%s %dx%d decimated by scale %d is %dx%d, below float_ssim's %dx%d window: "
                        "float_ssim is not computed %s",
                        what, g->width, g->height, g->ssim_scale, g->ssim_width, g->ssim_height,
                        SSIM_WINDOW, SSIM_WINDOW, left_out);
        return -EINVAL;
    }
    if (metric == GPUSSIM_METRIC_FLOAT_MS_SSIM) {
        /* libvmaf's admission rule halves with floor division, although the
         * pyramid itself rounds up (spec §2.2): 175 is refused, 176 accepted */
        int cw = g->width, ch = g->height;
        for (int s = 0; s < GPUSSIM_MSSSIM_SCALES; s++, cw /= 2, ch /= 2) {
            if (cw >= SSIM_WINDOW && ch >= SSIM_WINDOW)
                continue;
            if (strict)
                gpussim_log(log, GPUSSIM_LOG_ERROR,
                            "float_ms_ssim: the %s plane is %dx%d; MS-SSIM needs at least %dx%d "
                            "(an %dx%d window at each of its %d scales)",
                            pn, g->width, g->height, MSSSIM_MIN_SIDE, MSSSIM_MIN_SIDE, SSIM_WINDOW,
                            SSIM_WINDOW, GPUSSIM_MSSSIM_SCALES);
            else
                gpussim_log(log, GPUSSIM_LOG_WARNING,
                            "%s %dx%d is below MS-SSIM's minimum of %dx%d: float_ms_ssim is not "
                            "computed %s",
                            what, g->width, g->height, MSSSIM_MIN_SIDE, MSSSIM_MIN_SIDE, left_out);
            return -EINVAL;
        }
    }
    if (metric == GPUSSIM_METRIC_FLOAT_ANSNR && (g->width < ANSNR_MIN_SIDE || g->height < ANSNR_MIN_SIDE)) {
        if (strict)
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "float_ansnr: the %s plane is %dx%d; the 5x5 filter needs at least %dx%d",
                        pn, g->width, g->height, ANSNR_MIN_SIDE, ANSNR_MIN_SIDE);
        else
            gpussim_log(log, GPUSSIM_LOG_WARNING,
                        "%s %dx%d is below ANSNR's minimum of %dx%d: float_ansnr is not computed %s",
                        what, g->width, g->height, ANSNR_MIN_SIDE, ANSNR_MIN_SIDE, left_out);
        return -EINVAL;
    }
    return 0;
}

static int check_plane(const struct gpussim_config *cfg, int i)
{
    static const unsigned order[] = { GPUSSIM_METRIC_FLOAT_SSIM, GPUSSIM_METRIC_FLOAT_MS_SSIM,
                                      GPUSSIM_METRIC_FLOAT_ANSNR };
    for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++)
        if ((cfg->metrics & order[k]) && check_metric(cfg, i, order[k], 1) < 0)
            return -EINVAL;
    return 0;
}

/* No feature chosen: every metric the frame size allows on every scored
 * plane (one rule for every front-end), with a warning for each left out. */
static int apply_default_metrics(struct gpussim_config *cfg)
{
    static const unsigned order[] = { GPUSSIM_METRIC_FLOAT_MS_SSIM, GPUSSIM_METRIC_FLOAT_SSIM,
                                      GPUSSIM_METRIC_FLOAT_ANSNR };
    for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++)
        for (int i = 0; i < cfg->nb_planes; i++)
            if (check_metric(cfg, i, order[k], 0) < 0) {
                cfg->metrics &= ~order[k];
                break;
            }
    cfg->params.metrics = cfg->metrics;
    return 0;
}

int gpussim_config_init(struct gpussim_config *cfg, const struct gpussim_params *params)
{
    int err;
    memset(cfg, 0, sizeof(*cfg));
    cfg->params = *params;
    cfg->log.cb = params->log_cb;
    cfg->log.opaque = params->log_opaque;
    cfg->log.level = params->log_level ? params->log_level : GPUSSIM_LOG_INFO;
    cfg->params.log_level = cfg->log.level;

    const struct gpussim_format *f = &params->format;
    err = gpussim_format_check(&cfg->log, f);
    if (err < 0)
        return err;

    if (params->metrics & ~(unsigned)GPUSSIM_METRIC_ALL) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "unknown metric bits 0x%x",
                    params->metrics & ~(unsigned)GPUSSIM_METRIC_ALL);
        return -EINVAL;
    }
    const int default_metrics = !params->metrics;
    cfg->metrics = params->metrics ? params->metrics : GPUSSIM_METRIC_ALL;
    cfg->params.metrics = cfg->metrics;

    err = gpussim_feature_values_check(&cfg->log, params);
    if (err < 0)
        return err;
    gpussim_feature_values(params, GPUSSIM_METRIC_FLOAT_SSIM, &cfg->ssim);
    gpussim_feature_values(params, GPUSSIM_METRIC_FLOAT_MS_SSIM, &cfg->ms);

    if ((unsigned)params->planes > GPUSSIM_PLANES_ALL) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "unknown planes selection %d", (int)params->planes);
        return -EINVAL;
    }
    if (params->planes == GPUSSIM_PLANES_ALL && f->chroma == GPUSSIM_CHROMA_GRAY) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "planes=all needs chroma planes; the format is gray");
        return -EINVAL;
    }
    if (params->threads < 0 || params->threads > 256 || params->max_in_flight < 0 ||
        params->device < 0) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR,
                    "threads (%d), max_in_flight (%d) and device (%d) must be >= 0 (threads <= 256)",
                    params->threads, params->max_in_flight, params->device);
        return -EINVAL;
    }
    if (params->nb_distorted < 0 || params->nb_distorted > GPUSSIM_MAX_DISTORTED) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR,
                    "nb_distorted %d is out of range: 0 or 1 (one distorted picture per reference) "
                    "up to %d", params->nb_distorted, GPUSSIM_MAX_DISTORTED);
        return -EINVAL;
    }
    cfg->nb_distorted = params->nb_distorted > 1 ? params->nb_distorted : 1;
    if ((unsigned)params->backend > GPUSSIM_BACKEND_ZE) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "unknown backend %d", (int)params->backend);
        return -EINVAL;
    }

    cfg->chroma_shift_x = f->chroma == GPUSSIM_CHROMA_420 || f->chroma == GPUSSIM_CHROMA_422;
    cfg->chroma_shift_y = f->chroma == GPUSSIM_CHROMA_420;
    cfg->bytes_per_sample = f->bit_depth > 8 ? 2 : 1;
    cfg->nb_planes = params->planes == GPUSSIM_PLANES_ALL ? 3 : 1;

    for (int i = 0; i < cfg->nb_planes; i++) {
        struct gpussim_plane_geometry *g = &cfg->plane[i];
        g->width = i ? -((-f->width) >> cfg->chroma_shift_x) : f->width;
        g->height = i ? -((-f->height) >> cfg->chroma_shift_y) : f->height;
        g->ssim_scale =
            cfg->ssim.scale ? cfg->ssim.scale : gpussim_ssim_auto_scale(g->width, g->height);
        g->ssim_width = g->ssim_scale > 1 ? gpussim_decimated_size(g->width, g->ssim_scale) : g->width;
        g->ssim_height = g->ssim_scale > 1 ? gpussim_decimated_size(g->height, g->ssim_scale) : g->height;
        int cw = g->width, ch = g->height;
        for (int s = 0; s < GPUSSIM_MSSSIM_SCALES; s++) {
            g->ms_width[s] = cw;
            g->ms_height[s] = ch;
            cw = gpussim_decimated_size(cw, 2);
            ch = gpussim_decimated_size(ch, 2);
        }
        snprintf(g->suffix, sizeof(g->suffix), "%s", i == 0 ? "" : i == 1 ? ".u" : ".v");
    }
    if (default_metrics)
        apply_default_metrics(cfg);
    for (int i = 0; i < cfg->nb_planes; i++) {
        err = check_plane(cfg, i);
        if (err < 0)
            return err;
    }
    gpussim_plan_init(&cfg->plan, cfg);
    return 0;
}
