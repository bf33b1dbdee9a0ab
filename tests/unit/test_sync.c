/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The frame-offset search (gpussim_sync_*), through the public API: two
 * inputs cut from one generated sequence at a known offset (moving gradient
 * plus per-frame noise, the distorted one with noise of its own) must give
 * that offset back at every depth and layout, with negative strides and
 * garbage above the depth; the PSNRs must be the same at every depth for
 * the same 8-bit content; short inputs, identical frames, ties and argument
 * errors behave as documented.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpussim/gpussim.h>

#include "tests/lib/testutil.h"

#define W 64
#define H 48

/* Content frame k in 8-bit values: a gradient moving 11 levels a frame plus
 * noise of its own, so that every frame differs from its neighbours. With
 * extra_seed != 0 a little more noise (the distorted input's coding). */
static void content_frame(struct test_frame *f, int k, uint64_t extra_seed, int bit_depth)
{
    uint64_t st = 0x5eed0000u + (uint64_t)k * 7919u;
    uint64_t ex = extra_seed * 104729u + (uint64_t)k;
    for (int y = 0; y < f->h; y++)
        for (int x = 0; x < f->w; x++) {
            int v = (x * 2 + y + k * 11) % 200 + 28 + (int)(test_rand(&st) % 21) - 10;
            if (extra_seed)
                v += (int)(test_rand(&ex) % 5) - 2;
            v = v < 0 ? 0 : v > 255 ? 255 : v;
            f->comp[0][(size_t)y * f->w + x] = (uint16_t)(v << (bit_depth - 8));
        }
    for (int c = 1; c < f->nb_comp; c++)
        for (int i = 0; i < f->cw * f->ch; i++)
            f->comp[c][i] = (uint16_t)(((i + k) % 256) << (bit_depth - 8));
}

struct layout {
    const char *name;
    struct gpussim_format fmt;
    int negative_stride; /* the luma plane bottom-up */
    int garbage;         /* bits outside the depth set in every sample */
};

/* Flips a packed picture's planes bottom-up (negative strides). */
static void flip(struct test_packed *pk, const struct test_frame *f)
{
    for (int p = 0; p < 3 && pk->plane[p]; p++) {
        const int h = p ? f->ch : f->h;
        pk->pic.data[p] = pk->plane[p] + (ptrdiff_t)(h - 1) * pk->stride[p];
        pk->pic.stride[p] = -pk->stride[p];
    }
}

/* Rows of the flipped picture must read as the original: copy rows reversed. */
static void reverse_rows(struct test_packed *pk, const struct test_frame *f)
{
    for (int p = 0; p < 3 && pk->plane[p]; p++) {
        const int h = p ? f->ch : f->h;
        const size_t n = (size_t)pk->stride[p];
        unsigned char *tmp = malloc(n);
        for (int y = 0; y < h / 2; y++) {
            unsigned char *a = pk->plane[p] + (size_t)y * n, *b = pk->plane[p] + (size_t)(h - 1 - y) * n;
            memcpy(tmp, a, n);
            memcpy(a, b, n);
            memcpy(b, tmp, n);
        }
        free(tmp);
    }
}

static void add_garbage(struct test_packed *pk, const struct layout *l, const struct test_frame *f)
{
    const struct gpussim_format *fmt = &l->fmt;
    const uint16_t bits = fmt->msb_aligned ? (uint16_t)((1u << (16 - fmt->bit_depth)) - 1u)
                                           : (uint16_t)(0xffffu << fmt->bit_depth);
    for (int y = 0; y < f->h; y++) {
        uint16_t *row = (uint16_t *)(void *)(pk->plane[0] + (size_t)y * pk->stride[0]);
        for (int x = 0; x < f->w; x++)
            row[x] |= (uint16_t)(bits & (x * 40503u + y));
    }
}

/* Adds content frames first..first+n-1 to input; returns the last add's result. */
static int add_frames(GpussimSync *s, const struct layout *l, int input, int first, int n,
                      uint64_t extra_seed)
{
    struct test_frame f;
    int ret = 0;
    if (test_frame_alloc(&f, &l->fmt) < 0)
        return -1;
    for (int k = first; k < first + n; k++) {
        struct test_packed pk;
        content_frame(&f, k, extra_seed, l->fmt.bit_depth);
        if (test_pack(&f, &l->fmt, &pk) < 0) {
            ret = -1;
            break;
        }
        if (l->garbage)
            add_garbage(&pk, l, &f);
        if (l->negative_stride) {
            reverse_rows(&pk, &f);
            flip(&pk, &f);
        }
        ret = gpussim_sync_add(s, input, &pk.pic);
        /* the picture is freed at once: the search keeps its own copy */
        test_packed_free(&pk);
        if (ret < 0)
            break;
    }
    test_frame_free(&f);
    return ret;
}

/* Cuts the inputs at offset d (distorted frame i = content i + max(d, 0),
 * reference frame i = content i + max(-d, 0)), gives nd and nr frames, and
 * returns find's result. */
static int run_case(const struct layout *l, int window, int pairs, int d, int nd, int nr, int *found,
                    double *psnr, double *runner_up)
{
    struct gpussim_sync_params p = { .format = l->fmt, .window = window, .pairs = pairs,
                                     .log_cb = test_log_cb };
    GpussimSync *s = NULL;
    int err = gpussim_sync_create(&s, &p);
    CHECK(err == 0, "%s: create: %d (%s)", l->name, err, test_last_error);
    if (err < 0)
        return err;
    const int frames = gpussim_sync_frames(s);
    CHECK(frames == window + (pairs ? pairs : GPUSSIM_SYNC_DEFAULT_PAIRS), "%s: frames %d", l->name,
          frames);
    const int dis_first = d > 0 ? d : 0, ref_first = d < 0 ? -d : 0;
    if (nd > 0) {
        err = add_frames(s, l, 0, dis_first, nd, 1);
        CHECK(err == (nd < frames ? nd : frames), "%s d=%+d: distorted add returned %d (%s)", l->name,
              d, err, test_last_error);
    }
    if (nr > 0) {
        err = add_frames(s, l, 1, ref_first, nr, 0);
        CHECK(err == (nr < frames ? nr : frames), "%s d=%+d: reference add returned %d (%s)", l->name,
              d, err, test_last_error);
    }
    err = gpussim_sync_find(s, found, psnr, runner_up);
    gpussim_sync_destroy(&s);
    CHECK(s == NULL, "destroy sets the handle to NULL");
    return err;
}

static const struct layout layouts[] = {
    { "8-bit planar 4:2:0", { W, H, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 }, 0, 0 },
    { "8-bit NV12, negative stride", { W, H, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_UV, 0 }, 1, 0 },
    { "10-bit planar 4:2:2, bits above the depth set",
      { W, H, 10, GPUSSIM_CHROMA_422, GPUSSIM_PACKING_PLANAR, 0 }, 0, 1 },
    { "10-bit P010 (msb aligned), low bits set", { W, H, 10, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_UV, 1 }, 0, 1 },
    { "10-bit planar gray, negative stride", { W, H, 10, GPUSSIM_CHROMA_GRAY, GPUSSIM_PACKING_PLANAR, 0 }, 1, 0 },
    { "12-bit NV21-like 4:2:0", { W, H, 12, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_VU, 0 }, 0, 0 },
    { "16-bit planar 4:4:4", { W, H, 16, GPUSSIM_CHROMA_444, GPUSSIM_PACKING_PLANAR, 0 }, 0, 0 },
    { "16-bit P016, negative stride", { W, H, 16, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_UV, 1 }, 1, 0 },
    { "8-bit 66x50 (remainders dropped)", { 66, 50, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 }, 0, 0 },
};
#define NB_LAYOUTS (int)(sizeof(layouts) / sizeof(layouts[0]))

static void offsets_found(void)
{
    const int window = 6;
    const int offsets[] = { -3, 0, 3, window, -window, 1, -1 };
    /* the PSNRs of the 8-bit 64x48 layout, which every depth must repeat */
    double psnr8[sizeof(offsets) / sizeof(*offsets)], run8[sizeof(offsets) / sizeof(*offsets)];
    for (int li = 0; li < NB_LAYOUTS; li++) {
        const struct layout *l = &layouts[li];
        for (size_t oi = 0; oi < sizeof(offsets) / sizeof(*offsets); oi++) {
            const int d = offsets[oi];
            int found = 99;
            double psnr = NAN, runner = NAN;
            const int n = window + GPUSSIM_SYNC_DEFAULT_PAIRS;
            /* two frames more than needed: the extra ones are ignored */
            const int err = run_case(l, window, 0, d, n + 2, n + 2, &found, &psnr, &runner);
            CHECK(err == 0 && found == d, "%s: offset %+d found as %+d (err %d: %s)", l->name, d,
                  found, err, test_last_error);
            /* the distorted noise is +-2 on 4x4 means of 8-bit samples: about
             * 57 dB; a wrong offset compares frames 11 levels apart at least */
            CHECK(isfinite(psnr) && psnr > 50.0 && psnr < 65.0, "%s d=%+d: PSNR %.3f", l->name, d, psnr);
            CHECK(isfinite(runner) && runner < 30.0 && runner > 5.0, "%s d=%+d: runner-up PSNR %.3f",
                  l->name, d, runner);
            if (l->fmt.width != W)
                continue;
            if (li == 0) {
                psnr8[oi] = psnr;
                run8[oi] = runner;
            } else {
                CHECK(psnr == psnr8[oi] && runner == run8[oi],
                      "%s d=%+d: PSNR %.17g / %.17g differs from 8 bits' %.17g / %.17g", l->name, d,
                      psnr, runner, psnr8[oi], run8[oi]);
            }
        }
    }
    /* the largest window, the offsets at its ends, one pair per offset */
    const struct layout *l = &layouts[0];
    const int big[] = { GPUSSIM_SYNC_MAX_WINDOW, -GPUSSIM_SYNC_MAX_WINDOW, 17 };
    for (size_t i = 0; i < sizeof(big) / sizeof(*big); i++) {
        int found = 99;
        double psnr, runner;
        const int n = GPUSSIM_SYNC_MAX_WINDOW + 1;
        const int err = run_case(l, GPUSSIM_SYNC_MAX_WINDOW, 1, big[i], n, n, &found, &psnr, &runner);
        CHECK(err == 0 && found == big[i], "window %d, 1 pair: offset %+d found as %+d",
              GPUSSIM_SYNC_MAX_WINDOW, big[i], found);
    }
}

/* Short inputs: the search uses what was added. */
static void short_inputs(void)
{
    const struct layout *l = &layouts[0];
    int found = 99, err;
    double psnr, runner;
    /* 2 distorted frames, all reference ones: d = +3 still found */
    err = run_case(l, 6, 0, 3, 2, 11, &found, &psnr, &runner);
    CHECK(err == 0 && found == 3, "short distorted input: %+d (err %d)", found, err);
    /* 4 reference frames: offset -2 leaves the reference frames 0..3 paired with
     * distorted 2..5; d = -2 found */
    err = run_case(l, 6, 0, -2, 11, 4, &found, &psnr, &runner);
    CHECK(err == 0 && found == -2, "short reference input: %+d (err %d)", found, err);
    /* one frame each: only offset 0 has a pair; no runner-up */
    err = run_case(l, 6, 0, 0, 1, 1, &found, &psnr, &runner);
    CHECK(err == 0 && found == 0 && psnr > 40.0 && runner == -INFINITY,
          "one frame each: %+d, PSNR %.3f, runner-up %g", found, psnr, runner);
    /* one reference frame (content 2), distorted frames of content 0..2:
     * only offsets 0, -1 and -2 have a pair; -2 pairs the same content */
    err = run_case(l, 6, 0, -2, 3, 1, &found, &psnr, &runner);
    CHECK(err == 0 && found == -2 && isfinite(runner), "one reference frame: %+d (runner-up %g)",
          found, runner);
    /* an input without a frame: no pair at all */
    test_last_error[0] = 0;
    err = run_case(l, 6, 0, 0, 0, 5, &found, &psnr, &runner);
    CHECK(err == -EINVAL && strstr(test_last_error, "no frame pair"),
          "no distorted frame: err %d, message '%s'", err, test_last_error);
    err = run_case(l, 6, 0, 0, 5, 0, &found, &psnr, &runner);
    CHECK(err == -EINVAL, "no reference frame: err %d", err);
}

/* Identical and periodic frames: the tie rules. */
static void ties(void)
{
    const struct gpussim_format fmt = { W, H, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 };
    struct test_frame a, b;
    struct test_packed pa, pb;
    CHECK(test_frame_alloc(&a, &fmt) == 0 && test_frame_alloc(&b, &fmt) == 0, "alloc");
    test_fill(&a, 8, PATTERN_RANDOM, 1);
    test_fill(&b, 8, PATTERN_RANDOM, 2);
    CHECK(test_pack(&a, &fmt, &pa) == 0 && test_pack(&b, &fmt, &pb) == 0, "pack");
    struct gpussim_sync_params p = { .format = fmt, .window = 4, .log_cb = test_log_cb };
    GpussimSync *s = NULL;
    int found = 99;
    double psnr = 0, runner = 0;

    /* the same frame everywhere: every offset is perfect, 0 wins */
    CHECK(gpussim_sync_create(&s, &p) == 0, "create");
    for (int i = 0; i < 9; i++)
        CHECK(gpussim_sync_add(s, 0, &pa.pic) == i + 1 && gpussim_sync_add(s, 1, &pa.pic) == i + 1,
              "add %d", i);
    CHECK(gpussim_sync_add(s, 0, &pa.pic) == 9, "a frame beyond gpussim_sync_frames() is ignored");
    CHECK(gpussim_sync_find(s, &found, &psnr, &runner) == 0 && found == 0 && psnr == INFINITY &&
          runner == INFINITY, "identical frames: %+d, PSNR %g, runner-up %g", found, psnr, runner);
    /* psnr and runner_up_psnr may be NULL */
    found = 99;
    CHECK(gpussim_sync_find(s, &found, NULL, NULL) == 0 && found == 0, "find without PSNRs");
    gpussim_sync_destroy(&s);

    /* distorted A B A B ..., reference B A B A ...: offsets -3, -1, +1, +3
     * are all perfect; the smallest |d| wins, then d >= 0: +1 */
    CHECK(gpussim_sync_create(&s, &p) == 0, "create");
    for (int i = 0; i < 9; i++) {
        gpussim_sync_add(s, 0, i & 1 ? &pb.pic : &pa.pic);
        gpussim_sync_add(s, 1, i & 1 ? &pa.pic : &pb.pic);
    }
    CHECK(gpussim_sync_find(s, &found, &psnr, &runner) == 0 && found == 1 && psnr == INFINITY &&
          runner == INFINITY, "periodic frames: %+d (expected +1), PSNR %g, runner-up %g", found, psnr,
          runner);
    gpussim_sync_destroy(&s);
    gpussim_sync_destroy(&s); /* NULL-safe */
    gpussim_sync_destroy(NULL);
    test_packed_free(&pa);
    test_packed_free(&pb);
    test_frame_free(&a);
    test_frame_free(&b);
}

/* Frames below 4x4 are compared whole (no decimation). */
static void tiny_frames(void)
{
    const struct layout l = { "8-bit 3x2 gray", { 3, 2, 8, GPUSSIM_CHROMA_GRAY, GPUSSIM_PACKING_PLANAR, 0 }, 0, 0 };
    int found = 99;
    double psnr, runner;
    const int err = run_case(&l, 4, 0, 2, 9, 9, &found, &psnr, &runner);
    CHECK(err == 0 && found == 2, "3x2 frames: %+d (err %d: %s)", found, err, test_last_error);
}

static void create_fails(struct gpussim_sync_params p, const char *want, const char *what)
{
    GpussimSync *s = (GpussimSync *)(void *)&p; /* must come back NULL */
    test_last_error[0] = 0;
    const int err = gpussim_sync_create(&s, &p);
    CHECK(err == -EINVAL && s == NULL && strstr(test_last_error, want),
          "%s: err %d, handle %p, message '%s' (expected to name '%s')", what, err, (void *)s,
          test_last_error, want);
}

static void argument_errors(void)
{
    const struct gpussim_format fmt = { W, H, 10, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 };
    const struct gpussim_sync_params good = { .format = fmt, .window = 2, .log_cb = test_log_cb };
    struct gpussim_sync_params p;
    GpussimSync *s = NULL;

    CHECK(gpussim_sync_create(NULL, &good) == -EINVAL, "create(NULL)");
    CHECK(gpussim_sync_create(&s, NULL) == -EINVAL && !s, "create without params");
    p = good, p.window = 0;
    create_fails(p, "window", "window 0");
    p = good, p.window = GPUSSIM_SYNC_MAX_WINDOW + 1;
    create_fails(p, "window", "window above the maximum");
    p = good, p.pairs = -1;
    create_fails(p, "pairs", "pairs -1");
    p = good, p.pairs = GPUSSIM_SYNC_MAX_PAIRS + 1;
    create_fails(p, "pairs", "pairs above the maximum");
    p = good, p.format.bit_depth = 9;
    create_fails(p, "bit depth", "bit depth 9");
    p = good, p.format.width = 0;
    create_fails(p, "frame size", "width 0");
    p = good, p.reserved[3] = &p;
    create_fails(p, "reserved", "reserved field set");
    p = good, p.pairs = GPUSSIM_SYNC_MAX_PAIRS;
    CHECK(gpussim_sync_create(&s, &p) == 0 && gpussim_sync_frames(s) == 2 + GPUSSIM_SYNC_MAX_PAIRS,
          "the most pairs");
    gpussim_sync_destroy(&s);

    CHECK(gpussim_sync_create(&s, &good) == 0, "create: %s", test_last_error);
    CHECK(gpussim_sync_frames(s) == 2 + GPUSSIM_SYNC_DEFAULT_PAIRS, "frames %d", gpussim_sync_frames(s));
    CHECK(gpussim_sync_frames(NULL) == -EINVAL, "frames(NULL)");
    struct test_frame f;
    struct test_packed pk;
    CHECK(test_frame_alloc(&f, &fmt) == 0, "alloc");
    test_fill(&f, 10, PATTERN_GRADIENT, 3);
    CHECK(test_pack(&f, &fmt, &pk) == 0, "pack");
    struct gpussim_picture pic = pk.pic;

    CHECK(gpussim_sync_add(NULL, 0, &pic) == -EINVAL, "add(NULL)");
    CHECK(gpussim_sync_add(s, 2, &pic) == -EINVAL && strstr(test_last_error, "input 2"), "input 2: %s",
          test_last_error);
    CHECK(gpussim_sync_add(s, -1, &pic) == -EINVAL, "input -1");
    CHECK(gpussim_sync_add(s, 0, NULL) == -EINVAL, "no picture");
    pic = pk.pic, pic.memory = GPUSSIM_MEMORY_CUDA;
    CHECK(gpussim_sync_add(s, 0, &pic) == -EINVAL && strstr(test_last_error, "host memory"), "CUDA: %s",
          test_last_error);
    pic = pk.pic, pic.data[0] = NULL;
    CHECK(gpussim_sync_add(s, 1, &pic) == -EINVAL && strstr(test_last_error, "luma"), "no luma: %s",
          test_last_error);
    pic = pk.pic, pic.stride[0] = W; /* 10-bit: a row is 2 * W bytes */
    CHECK(gpussim_sync_add(s, 0, &pic) == -EINVAL && strstr(test_last_error, "smaller than a row"),
          "short stride: %s", test_last_error);
    pic = pk.pic, pic.stride[0] += 1;
    CHECK(gpussim_sync_add(s, 0, &pic) == -EINVAL && strstr(test_last_error, "even"), "odd stride: %s",
          test_last_error);
    pic = pk.pic, pic.data[0] = (const unsigned char *)pic.data[0] + 1;
    CHECK(gpussim_sync_add(s, 0, &pic) == -EINVAL && strstr(test_last_error, "even"), "odd address: %s",
          test_last_error);
    int found = 0;
    test_last_error[0] = 0;
    CHECK(gpussim_sync_find(s, &found, NULL, NULL) == -EINVAL && strstr(test_last_error, "no frame pair"),
          "find on an empty search (the refused frames were not added): %s", test_last_error);
    CHECK(gpussim_sync_add(s, 0, &pk.pic) == 1 && gpussim_sync_add(s, 1, &pk.pic) == 1, "good adds");
    CHECK(gpussim_sync_find(s, NULL, NULL, NULL) == -EINVAL, "find without an offset pointer");
    CHECK(gpussim_sync_find(NULL, &found, NULL, NULL) == -EINVAL, "find(NULL)");
    CHECK(gpussim_sync_find(s, &found, NULL, NULL) == 0 && found == 0, "find: %+d", found);
    gpussim_sync_destroy(&s);
    test_packed_free(&pk);
    test_frame_free(&f);
}

int main(void)
{
    offsets_found();
    short_inputs();
    ties();
    tiny_frames();
    argument_errors();
    return test_summary();
}
