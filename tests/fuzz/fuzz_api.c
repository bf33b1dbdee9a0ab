/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * libFuzzer target: the library API on the CPU backend. The first bytes
 * pick a configuration (size up to 48x48, or 176..183 for MS-SSIM; depth,
 * chroma, packing, MSB alignment, planes, metrics, lcs/db/clip_db, scale,
 * stride padding and sign); the rest is the pixel data of both pictures.
 * What must hold:
 *   - a refused configuration or picture is -EINVAL with a logged message;
 *   - every score equals the naive second transcription of the spec
 *     (tests/lib/naive_ref.c) bit for bit, on every plane scored;
 *   - scores are in range: float_ssim and integer ssim in [-1, 1] (without
 *     dB) give or take float rounding (SSIM_SLACK: libvmaf's float
 *     denominators make a flat frame's float_ssim 1 + 2^-23, kept for
 *     bit-identity), lcs terms finite, float_anpsnr finite and at most its
 *     ceiling, float_ms_ssim in [0, 1] (same slack) or NaN (libvmaf's
 *     arithmetic, spec §2.5);
 *   - scoring the same pair again gives the same bits.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpussim/gpussim.h>

#include "tests/lib/naive_ref.h"

#define FUZZ_TARGET "fuzz_api"
#include "fuzz_common.h"

#define SSIM_SLACK 1e-6

struct reader {
    const uint8_t *p;
    size_t n, pos;
};

static unsigned next_byte(struct reader *r)
{
    return r->pos < r->n ? r->p[r->pos++] : 0;
}

/* one plane of true sample values, and its packed bytes */
struct plane_data {
    int w, h;
    uint16_t *val;
};

static int same_bits(double a, double b)
{
    return !memcmp(&a, &b, sizeof(a));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct reader rd = { data, size, 0 };
    struct gpussim_params p;
    gpussim_default_params(&p);
    p.backend = GPUSSIM_BACKEND_CPU;
    p.log_cb = log_cb;
    p.threads = 1;

    const unsigned b0 = next_byte(&rd), b1 = next_byte(&rd), b2 = next_byte(&rd);
    const unsigned b3 = next_byte(&rd), b4 = next_byte(&rd), b5 = next_byte(&rd);
    /* MS-SSIM sizes now and then (1 in 32: one costs as much as ~100 small ones) */
    const int big = (b5 & 0xf8) == 0xf8;
    p.format.width = big ? 176 + (int)(b0 & 7) : 1 + (int)(b0 % 48);
    p.format.height = big ? 176 + (int)(b1 & 7) : 1 + (int)(b1 % 48);
    static const int depths[] = { 8, 10, 12, 16 };
    p.format.bit_depth = depths[b2 & 3];
    p.format.chroma = (enum gpussim_chroma)((b2 >> 2) & 3);
    p.format.packing = (enum gpussim_packing)((b2 >> 4) % 3);
    p.format.msb_aligned = (b2 >> 6) & 1;
    p.planes = (b2 >> 7) ? GPUSSIM_PLANES_ALL : GPUSSIM_PLANES_LUMA;
    p.metrics = b3 & 15;
    if (big && !(b3 & 15))
        p.metrics = GPUSSIM_METRIC_FLOAT_MS_SSIM; /* keep the big ones about MS-SSIM */
    p.enable_lcs = (b3 >> 4) & 1;
    p.enable_db = (b3 >> 5) & 1;
    p.clip_db = (b3 >> 6) & 1;
    p.ssim_scale = (b4 & 0x80) ? (int)(b4 % 11) : 0;
    const int pad = b5 & 7;            /* extra bytes per row */
    const int flip = (b5 >> 3) & 1;    /* bottom-up rows: negative strides */
    const int misalign = (b5 >> 4) & 1; /* plane data at an odd address */
    p.max_in_flight = 1 + ((b4 >> 5) & 1);

    GpussimContext *ctx = NULL;
    last_error[0] = 0;
    int err = gpussim_create(&ctx, &p);
    if (err < 0) {
        REQUIRE(err == -EINVAL && ctx == NULL && last_error[0], "create: %d, message '%s'", err, last_error);
        return 0;
    }

    const int bps = p.format.bit_depth > 8 ? 2 : 1;
    const int sx = p.format.chroma == GPUSSIM_CHROMA_420 || p.format.chroma == GPUSSIM_CHROMA_422;
    const int sy = p.format.chroma == GPUSSIM_CHROMA_420;
    const int cw = (p.format.width + sx) >> sx, ch = (p.format.height + sy) >> sy;
    const int gray = p.format.chroma == GPUSSIM_CHROMA_GRAY;
    const int semi = p.format.packing != GPUSSIM_PACKING_PLANAR;
    const int nb_comp = gray ? 1 : 3;
    const int shift = p.format.msb_aligned ? 16 - p.format.bit_depth : 0;
    const unsigned mask = (1u << p.format.bit_depth) - 1;

    /* the pixel bytes: what is left of the input, cycled */
    const uint8_t *px = data + rd.pos;
    const size_t npx = size - rd.pos;
    size_t pxpos = 0;

    struct plane_data comp[2][3];
    uint8_t *store[2][3] = { { NULL } };
    struct gpussim_picture pic[2];
    memset(pic, 0, sizeof(pic));
    for (int k = 0; k < 2; k++) {
        for (int c = 0; c < nb_comp; c++) {
            comp[k][c].w = c ? cw : p.format.width;
            comp[k][c].h = c ? ch : p.format.height;
            comp[k][c].val = calloc((size_t)comp[k][c].w * comp[k][c].h, sizeof(uint16_t));
        }
        /* planes as stored: Y, then U, V or one interleaved UV/VU plane */
        const int nb_store = gray ? 1 : semi ? 2 : 3;
        for (int s = 0; s < nb_store; s++) {
            const int w = s ? (semi ? 2 * cw : cw) : p.format.width, h = s ? ch : p.format.height;
            const ptrdiff_t row = (ptrdiff_t)w * bps, stride = row + pad;
            uint8_t *buf = calloc((size_t)stride * h + 2, 1);
            store[k][s] = buf;
            uint8_t *base = buf + misalign;
            for (int y = 0; y < h; y++) {
                uint8_t *r = base + (size_t)(flip ? h - 1 - y : y) * stride;
                for (int x = 0; x < w; x++) {
                    unsigned word = 0;
                    for (int b = 0; b < bps; b++)
                        word |= (npx ? px[pxpos++ % npx] : 0u) << (8 * b);
                    if (bps == 1)
                        r[x] = (uint8_t)word;
                    else
                        r[2 * x] = (uint8_t)word, r[2 * x + 1] = (uint8_t)(word >> 8);
                    /* which component and position this sample is */
                    int c = s, cx = x;
                    if (s && semi) {
                        const int first_u = p.format.packing == GPUSSIM_PACKING_SEMIPLANAR_UV;
                        c = (x & 1) == (first_u ? 0 : 1) ? 1 : 2;
                        cx = x / 2;
                    }
                    const unsigned v = bps == 1 ? word : (word >> shift) & mask;
                    comp[k][c].val[(size_t)y * comp[k][c].w + cx] = (uint16_t)v;
                }
            }
            pic[k].data[s] = flip ? base + (size_t)(h - 1) * stride : base;
            pic[k].stride[s] = flip ? -stride : stride;
        }
    }

    struct gpussim_result res;
    double first[128];
    int nb = 0;
    for (int round = 0; round < 2; round++) {
        last_error[0] = 0;
        const int64_t idx = gpussim_submit(ctx, &pic[0], &pic[1]);
        if (idx < 0) {
            /* only what the picture check refuses: 16-bit words at odd offsets */
            REQUIRE(idx == -EINVAL && bps == 2 && ((pad & 1) || misalign) && last_error[0],
                    "submit: %lld, message '%s'", (long long)idx, last_error);
            goto done;
        }
        REQUIRE(!(bps == 2 && ((pad & 1) || misalign)), "an odd 16-bit layout was accepted");
        err = gpussim_collect(ctx, &res, 1);
        REQUIRE(err == 1 && res.index == (uint64_t)round && res.nb_values <= 128, "collect: %d", err);
        if (round == 0) {
            nb = res.nb_values;
            memcpy(first, res.values, sizeof(double) * (size_t)nb);
        } else {
            for (int i = 0; i < nb; i++)
                REQUIRE(same_bits(first[i], res.values[i]), "score %d differs on a second run", i);
        }
    }

    /* the naive transcription, plane by plane, in the library's order */
    const char *const *names;
    REQUIRE(gpussim_score_names(ctx, &names) == nb, "name count");
    /* no metric chosen: the library scores what the frame size allows;
     * which ones it took shows in the (luma) score names */
    unsigned metrics = p.metrics;
    for (int i = 0; !p.metrics && i < nb; i++) {
        if (!strcmp(names[i], "float_ssim"))
            metrics |= GPUSSIM_METRIC_FLOAT_SSIM;
        else if (!strcmp(names[i], "float_ms_ssim"))
            metrics |= GPUSSIM_METRIC_FLOAT_MS_SSIM;
        else if (!strcmp(names[i], "float_ansnr"))
            metrics |= GPUSSIM_METRIC_FLOAT_ANSNR;
        else if (!strcmp(names[i], "ssim"))
            metrics |= GPUSSIM_METRIC_SSIM;
    }
    const struct naive_opts o = {
        .float_ssim = !!(metrics & GPUSSIM_METRIC_FLOAT_SSIM),
        .ms_ssim = !!(metrics & GPUSSIM_METRIC_FLOAT_MS_SSIM),
        .ansnr = !!(metrics & GPUSSIM_METRIC_FLOAT_ANSNR),
        .issim = !!(metrics & GPUSSIM_METRIC_SSIM),
        .scale = p.ssim_scale, .lcs = p.enable_lcs, .db = p.enable_db, .clip_db = p.clip_db,
    };
    double want[128];
    int n = 0;
    const int nb_scored = p.planes == GPUSSIM_PLANES_ALL ? 3 : 1;
    for (int c = 0; c < nb_scored; c++)
        n += naive_scores(comp[0][c].val, comp[1][c].val, comp[0][c].w, comp[0][c].h, p.format.bit_depth,
                          &o, want + n);
    REQUIRE(n == nb, "naive gives %d scores, the library %d", n, nb);
    for (int i = 0; i < nb; i++)
        REQUIRE(same_bits(want[i], first[i]), "%s = %.17g, naive %.17g (%dx%d %d-bit chroma %d packing %d msb %d)",
                names[i], first[i], want[i], p.format.width, p.format.height, p.format.bit_depth,
                (int)p.format.chroma, (int)p.format.packing, p.format.msb_aligned);

    /* ranges */
    for (int i = 0; i < nb; i++) {
        const double v = first[i];
        const char *nm = names[i];
        if (!strncmp(nm, "float_ssim", 10) && (nm[10] == '\0' || nm[10] == '.') && !p.enable_db)
            REQUIRE(v >= -1.0 - SSIM_SLACK && v <= 1.0 + SSIM_SLACK, "%s = %.17g out of [-1, 1]", nm, v);
        if (!strncmp(nm, "ssim", 4) && (nm[4] == '\0' || nm[4] == '.'))
            REQUIRE(v >= -1.0 - SSIM_SLACK && v <= 1.0 + SSIM_SLACK, "%s = %.17g out of [-1, 1]", nm, v);
        if (!strncmp(nm, "float_ms_ssim", 13) && (nm[13] == '\0' || nm[13] == '.') && !p.enable_db)
            REQUIRE(isnan(v) || (v >= 0.0 && v <= 1.0 + SSIM_SLACK), "%s = %.17g out of [0, 1]", nm, v);
        if (!strncmp(nm, "float_ssim_", 11) || !strncmp(nm, "float_ms_ssim_", 14))
            REQUIRE(isfinite(v), "%s = %.17g is not finite", nm, v);
        if (!strncmp(nm, "float_anpsnr", 12))
            REQUIRE(isfinite(v) && v <= 108.0, "%s = %.17g", nm, v);
        if (p.enable_db && p.clip_db && (!strncmp(nm, "float_ssim", 10) || !strncmp(nm, "float_ms_ssim", 13)) &&
            !strchr(nm + 10, '_'))
            REQUIRE(isnan(v) || v < INFINITY, "%s = %.17g with clip_db", nm, v);
    }

done:
    gpussim_destroy(&ctx);
    for (int k = 0; k < 2; k++) {
        for (int c = 0; c < nb_comp; c++)
            free(comp[k][c].val);
        for (int s = 0; s < 3; s++)
            free(store[k][s]);
    }
    return 0;
}
