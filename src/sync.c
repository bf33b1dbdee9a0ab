/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The frame-offset search (gpussim_sync_*): which offset between two inputs
 * makes their first frames match best. Each added frame's luma is reduced at
 * once to 4x4 block sums (integers, exact); the score of an offset is the
 * mean squared difference of those sums, accumulated exactly per row in
 * integers and per offset in doubles in a fixed order, so the pick is the
 * same on every machine and compiler.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "src/core.h"
#include "mem.h"

#define SYNC_BLOCK 4

struct GpussimSync {
    struct gpussim_sync_params params;
    struct gpussim_logger log;
    int nb_frames;         /* window + pairs: frames kept per input */
    int block;             /* SYNC_BLOCK, or 1 for frames below 4x4 */
    int dw, dh;            /* the decimated plane */
    int count[2];          /* frames held per input */
    uint32_t **frames[2];  /* [input][frame]: dw * dh block sums */
};

static int check_params(const struct gpussim_logger *log, const struct gpussim_sync_params *p)
{
    int err = gpussim_format_check(log, &p->format);
    if (err < 0)
        return err;
    if (p->window < 1 || p->window > GPUSSIM_SYNC_MAX_WINDOW) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "sync: window %d is out of range 1..%d", p->window,
                    GPUSSIM_SYNC_MAX_WINDOW);
        return -EINVAL;
    }
    if (p->pairs < 0 || p->pairs > GPUSSIM_SYNC_MAX_PAIRS) {
        gpussim_log(log, GPUSSIM_LOG_ERROR,
                    "sync: pairs %d is out of range 0..%d (0 = the default, %d)", p->pairs,
                    GPUSSIM_SYNC_MAX_PAIRS, GPUSSIM_SYNC_DEFAULT_PAIRS);
        return -EINVAL;
    }
    for (size_t i = 0; i < sizeof(p->reserved) / sizeof(*p->reserved); i++)
        if (p->reserved[i]) {
            gpussim_log(log, GPUSSIM_LOG_ERROR, "sync: reserved[%zu] is not zero", i);
            return -EINVAL;
        }
    return 0;
}

int gpussim_sync_create(GpussimSync **out, const struct gpussim_sync_params *p)
{
    if (!out)
        return -EINVAL;
    *out = NULL;
    if (!p)
        return -EINVAL;
    /* every message goes to the callback: the params carry no level */
    const struct gpussim_logger log = { p->log_cb, p->log_opaque, GPUSSIM_LOG_DEBUG };
    int err = check_params(&log, p);
    if (err < 0)
        return err;

    GpussimSync *s = gpussim_calloc(1, sizeof(*s));
    if (!s)
        return -ENOMEM;
    s->params = *p;
    s->params.pairs = p->pairs ? p->pairs : GPUSSIM_SYNC_DEFAULT_PAIRS;
    s->log = log;
    s->nb_frames = s->params.window + s->params.pairs;
    const int w = p->format.width, h = p->format.height;
    s->block = w >= SYNC_BLOCK && h >= SYNC_BLOCK ? SYNC_BLOCK : 1;
    s->dw = w / s->block;
    s->dh = h / s->block;
    for (int i = 0; i < 2; i++) {
        s->frames[i] = gpussim_calloc((size_t)s->nb_frames, sizeof(*s->frames[i]));
        if (!s->frames[i]) {
            err = -ENOMEM;
            goto fail;
        }
    }
    *out = s;
    return 0;

fail:
    gpussim_sync_destroy(&s);
    return err;
}

void gpussim_sync_destroy(GpussimSync **ps)
{
    if (!ps || !*ps)
        return;
    GpussimSync *s = *ps;
    for (int i = 0; i < 2; i++) {
        if (!s->frames[i])
            continue;
        for (int k = 0; k < s->count[i]; k++)
            gpussim_free(s->frames[i][k]);
        gpussim_free(s->frames[i]);
    }
    gpussim_free(s);
    *ps = NULL;
}

int gpussim_sync_frames(const GpussimSync *s)
{
    return s ? s->nb_frames : -EINVAL;
}

/* The luma plane's stride and address rules of gpussim_submit(). */
static int check_picture(const GpussimSync *s, int input, const struct gpussim_picture *pic)
{
    const struct gpussim_format *f = &s->params.format;
    const char *what = input ? "reference" : "distorted";
    if (pic->memory != GPUSSIM_MEMORY_HOST) {
        gpussim_log(&s->log, GPUSSIM_LOG_ERROR, "sync: the %s picture is not in host memory", what);
        return -EINVAL;
    }
    if (!pic->data[0]) {
        gpussim_log(&s->log, GPUSSIM_LOG_ERROR, "sync: the %s picture has no luma plane", what);
        return -EINVAL;
    }
    const int bps = f->bit_depth > 8 ? 2 : 1;
    const ptrdiff_t row = (ptrdiff_t)f->width * bps, stride = pic->stride[0];
    if (stride > -row && stride < row) {
        gpussim_log(&s->log, GPUSSIM_LOG_ERROR,
                    "sync: %s picture: luma stride %td is smaller than a row (%td bytes)", what,
                    stride, row);
        return -EINVAL;
    }
    if (f->height > 1 &&
        (stride > PTRDIFF_MAX / (f->height - 1) || stride < -(PTRDIFF_MAX / (f->height - 1)))) {
        gpussim_log(&s->log, GPUSSIM_LOG_ERROR,
                    "sync: %s picture: luma stride %td is too large for %d rows", what, stride,
                    f->height);
        return -EINVAL;
    }
    if (bps == 2 && ((stride & 1) || ((uintptr_t)pic->data[0] & 1))) {
        gpussim_log(&s->log, GPUSSIM_LOG_ERROR,
                    "sync: %s picture: %d-bit samples are 16-bit words; the luma stride (%td) and "
                    "address must be even",
                    what, f->bit_depth, stride);
        return -EINVAL;
    }
    return 0;
}

/* Block sums of the luma plane, right and bottom remainders dropped; 16-bit
 * words are read as the context reads them (msb_aligned shifted down, bits
 * above the depth masked off). */
static void decimate_luma(const GpussimSync *s, const struct gpussim_picture *pic, uint32_t *dst)
{
    const struct gpussim_format *f = &s->params.format;
    const int b = s->block;
    const unsigned shift = f->msb_aligned ? 16u - (unsigned)f->bit_depth : 0u;
    const unsigned mask = (1u << f->bit_depth) - 1u;
    memset(dst, 0, sizeof(*dst) * (size_t)s->dw * (size_t)s->dh);
    for (int y = 0; y < s->dh * b; y++) {
        const uint8_t *row = (const uint8_t *)pic->data[0] + (ptrdiff_t)y * pic->stride[0];
        uint32_t *d = dst + (size_t)(y / b) * (size_t)s->dw;
        if (f->bit_depth == 8) {
            for (int x = 0; x < s->dw * b; x++)
                d[x / b] += row[x];
        } else {
            const uint16_t *r16 = (const uint16_t *)(const void *)row;
            for (int x = 0; x < s->dw * b; x++)
                d[x / b] += (r16[x] >> shift) & mask;
        }
    }
}

int gpussim_sync_add(GpussimSync *s, int input, const struct gpussim_picture *pic)
{
    if (!s)
        return -EINVAL;
    if (input != 0 && input != 1) {
        gpussim_log(&s->log, GPUSSIM_LOG_ERROR,
                    "sync: input %d does not exist (0 = distorted, 1 = reference)", input);
        return -EINVAL;
    }
    if (!pic) {
        gpussim_log(&s->log, GPUSSIM_LOG_ERROR, "sync: no picture");
        return -EINVAL;
    }
    if (s->count[input] >= s->nb_frames)
        return s->count[input];
    int err = check_picture(s, input, pic);
    if (err < 0)
        return err;
    uint32_t *d = gpussim_malloc(sizeof(*d) * (size_t)s->dw * (size_t)s->dh);
    if (!d)
        return -ENOMEM;
    decimate_luma(s, pic, d);
    s->frames[input][s->count[input]++] = d;
    return s->count[input];
}

/* Sum of squared block-sum differences of two frames: exact in 64 bits per
 * row (a row holds at most 8192 blocks, each difference below 2^20), then
 * added in double row after row. */
static double frame_sq_diff(const GpussimSync *s, const uint32_t *a, const uint32_t *b)
{
    double total = 0.0;
    for (int y = 0; y < s->dh; y++) {
        uint64_t row = 0;
        const uint32_t *ra = a + (size_t)y * (size_t)s->dw, *rb = b + (size_t)y * (size_t)s->dw;
        for (int x = 0; x < s->dw; x++) {
            const int64_t diff = (int64_t)ra[x] - (int64_t)rb[x];
            row += (uint64_t)(diff * diff);
        }
        total += (double)row;
    }
    return total;
}

static double psnr_of(double mse)
{
    return mse > 0.0 ? 10.0 * log10(255.0 * 255.0 / mse) : INFINITY;
}

/* Whether offset a (mean squared error ma) beats offset b (mb). */
static int better(double ma, int a, double mb, int b)
{
    if (ma != mb)
        return ma < mb;
    const int aa = a < 0 ? -a : a, ab = b < 0 ? -b : b;
    if (aa != ab)
        return aa < ab;
    return a > b;
}

int gpussim_sync_find(GpussimSync *s, int *offset, double *psnr, double *runner_up_psnr)
{
    if (!s)
        return -EINVAL;
    if (!offset) {
        gpussim_log(&s->log, GPUSSIM_LOG_ERROR, "sync: no place for the offset");
        return -EINVAL;
    }
    const int window = s->params.window, pairs = s->params.pairs;
    const int nd = s->count[0], nr = s->count[1];
    /* Differences are of sums of block^2 samples at the input's depth: the
     * scale brings them to means of 8-bit samples (a power of two: exact). */
    const double scale = (double)(s->block * s->block) * ldexp(1.0, s->params.format.bit_depth - 8);
    const double per_pair = (double)s->dw * (double)s->dh * scale * scale;
    int best = 0, found = 0;
    double best_mse = 0.0;
    int second = 0, have_second = 0;
    double second_mse = 0.0;
    for (int d = -window; d <= window; d++) {
        const int di = d < 0 ? -d : 0, ri = d > 0 ? d : 0;
        int n = pairs;
        if (nd - di < n)
            n = nd - di;
        if (nr - ri < n)
            n = nr - ri;
        if (n <= 0)
            continue;
        double sq = 0.0;
        for (int k = 0; k < n; k++)
            sq += frame_sq_diff(s, s->frames[0][di + k], s->frames[1][ri + k]);
        const double mse = sq / (per_pair * n);
        gpussim_log(&s->log, GPUSSIM_LOG_VERBOSE,
                    "sync: offset %+d: %d pair%s from distorted frame %d / reference frame %d, "
                    "luma mse %.6g, PSNR %.3f dB",
                    d, n, n == 1 ? "" : "s", di, ri, mse, psnr_of(mse));
        if (!found || better(mse, d, best_mse, best)) {
            if (found) {
                second = best;
                second_mse = best_mse;
                have_second = 1;
            }
            best = d;
            best_mse = mse;
            found = 1;
        } else if (!have_second || better(mse, d, second_mse, second)) {
            second = d;
            second_mse = mse;
            have_second = 1;
        }
    }
    if (!found) {
        gpussim_log(&s->log, GPUSSIM_LOG_ERROR,
                    "sync: no frame pair to compare (the distorted input gave %d frames, the "
                    "reference %d)",
                    nd, nr);
        return -EINVAL;
    }
    *offset = best;
    if (psnr)
        *psnr = psnr_of(best_mse);
    if (runner_up_psnr)
        *runner_up_psnr = have_second ? psnr_of(second_mse) : -INFINITY;
    return 0;
}
