/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The final arithmetic every backend shares: a frame's sums turned into
 * scores (means rounded as the reference rounds them, the MS-SSIM combine,
 * dB and ANSNR's ceilings).
 *
 * Built with -ffp-contract=off: this is reference arithmetic too.
 */
#include <math.h>

#include "src/core.h"

#define SSIM_WINDOW GPUSSIM_GAUSSIAN11_LEN

/* spec §1.7: the finite ceiling for a w x h plane at this depth. */
static double ssim_max_db(const struct gpussim_config *cfg, const struct gpussim_plane_geometry *g,
                          int clip_db)
{
    if (!clip_db)
        return INFINITY;
    const unsigned peak = (1u << cfg->params.format.bit_depth) - 1;
    return ceil(10. * log10(peak * peak / (0.5 / ((double)g->width * g->height))));
}

static double to_db(double score, double max_db)
{
    const double db = -10. * log10(1 - score);
    return db < max_db ? db : max_db;
}

/* spec §3.5: ANSNR's peak and ceiling per depth. */
static void ansnr_peak(int bit_depth, double *peak, double *psnr_max)
{
    switch (bit_depth) {
    case 8: *peak = 255.0, *psnr_max = 60.0; break;
    case 10: *peak = 255.75, *psnr_max = 72.0; break;
    case 12: *peak = 255.9375, *psnr_max = 84.0; break;
    default: *peak = 255.99609375, *psnr_max = 108.0; break;
    }
}

void gpussim_scores_finish(const struct gpussim_config *cfg, const struct gpussim_frame_sums *sums,
                           double *values)
{
    static const float alpha[] = { GPUSSIM_MSSSIM_ALPHA };
    static const float beta[] = { GPUSSIM_MSSSIM_BETA };
    static const float gamma_[] = { GPUSSIM_MSSSIM_GAMMA };
    int n = 0;

    for (int p = 0; p < cfg->nb_planes; p++) {
        const struct gpussim_plane_geometry *g = &cfg->plane[p];
        const struct gpussim_plane_sums *ps = &sums->plane[p];
        const double ssim_max = ssim_max_db(cfg, g, cfg->ssim.clip_db);
        const double ms_max = ssim_max_db(cfg, g, cfg->ms.clip_db);

        if (cfg->metrics & GPUSSIM_METRIC_FLOAT_SSIM) {
            const double windows = (double)(g->ssim_width - (SSIM_WINDOW - 1)) *
                                   (g->ssim_height - (SSIM_WINDOW - 1));
            double score = (float)(ps->ssim_term / windows);
            if (cfg->ssim.enable_db)
                score = to_db(score, ssim_max);
            values[n++] = score;
            if (cfg->ssim.enable_lcs) {
                values[n++] = (float)(ps->ssim_l / windows);
                values[n++] = (float)(ps->ssim_c / windows);
                values[n++] = (float)(ps->ssim_s / windows);
            }
        }
        if (cfg->metrics & GPUSSIM_METRIC_FLOAT_MS_SSIM) {
            float l[GPUSSIM_MSSSIM_SCALES], c[GPUSSIM_MSSSIM_SCALES], s[GPUSSIM_MSSSIM_SCALES];
            double ms = 1.0;
            for (int i = 0; i < GPUSSIM_MSSSIM_SCALES; i++) {
                const double windows = (double)(g->ms_width[i] - (SSIM_WINDOW - 1)) *
                                       (g->ms_height[i] - (SSIM_WINDOW - 1));
                l[i] = (float)(ps->ms_l[i] / windows);
                c[i] = (float)(ps->ms_c[i] / windows);
                s[i] = (float)(ps->ms_s[i] / windows);
                ms *= pow(l[i], alpha[i]) * pow(c[i], beta[i]) * pow(s[i], gamma_[i]);
            }
            if (cfg->ms.enable_db)
                ms = to_db(ms, ms_max);
            values[n++] = ms;
            if (cfg->ms.enable_lcs) {
                for (int i = 0; i < GPUSSIM_MSSSIM_SCALES; i++)
                    values[n++] = l[i];
                for (int i = 0; i < GPUSSIM_MSSSIM_SCALES; i++)
                    values[n++] = c[i];
                for (int i = 0; i < GPUSSIM_MSSSIM_SCALES; i++)
                    values[n++] = s[i];
            }
        }
        if (cfg->metrics & GPUSSIM_METRIC_FLOAT_ANSNR) {
            double peak, psnr_max;
            ansnr_peak(cfg->params.format.bit_depth, &peak, &psnr_max);
            const float sig = ps->ansnr_sig, noise = ps->ansnr_noise;
            values[n++] = noise == 0 ? psnr_max : 10.0 * log10((double)(sig / noise));
            const double np = noise > 1e-10 ? (double)noise : 1e-10;
            const double anpsnr = 10 * log10(peak * peak * g->width * g->height / np);
            values[n++] = anpsnr < psnr_max ? anpsnr : psnr_max;
        }
        if (cfg->metrics & GPUSSIM_METRIC_SSIM)
            values[n++] = ps->issim_term / ps->issim_weight;
    }
}
