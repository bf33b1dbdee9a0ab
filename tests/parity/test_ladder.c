/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * One reference, several distorted pictures (gpussim_submit_multi): every
 * value of a ladder frame must be bit-identical (memcmp of the doubles) to
 * the same pair scored by a pair context of the same backend. The CPU
 * backend's native ladder (reference terms shared) always runs; Vulkan's
 * native ladder (one command buffer, the reference's terms computed once)
 * and CUDA's (one slot, the reference's terms computed once) run when
 * their device exists, else that part is skipped (exit 77 only when
 * nothing but the CPU could be checked and GPUSSIM_LADDER_REQUIRE_GPU is
 * set). 3 renditions (two pictures a decimation dispatch on Vulkan) and 6
 * (an odd picture left alone), 5 on CUDA, 16 on both. Every ladder must be native (the context
 * logs "reference terms shared"). CUDA's runs four times: its window
 * kernels' blocks scoring as many distorted pictures as it chooses, all of
 * them, one and two each (GPUSSIM_TEST_LADDER_GROUP; with 3: 2 + 1).
 * Vulkan's three times: its per-picture dispatches covering every
 * distorted picture; two each (the same variable; with 3: 2 + 1, with 6 at
 * four each: 4 + 2) with the reference's SSIM window moments computed in
 * every workgroup at every level (GPUSSIM_TEST_LADDER_REF=all: there
 * from float planes too); and those moments apart at level 0 too ("none").
 * Also: the errors of a wrong count or a bad distorted picture.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/testutil.h"

static int NB_DIS = 3; /* 6 for the waves of a 4-slot backend, 16 the most */
#define NB_FRAMES 4

struct ladder_case {
    const char *name;
    int w, h, bit_depth;
    enum gpussim_chroma chroma;
    enum gpussim_planes planes;
    enum test_pattern pattern;
    int lcs;
    int scale;
    enum gpussim_packing packing;
    int msb;
    unsigned metrics; /* 0: all four */
};

static const struct ladder_case cases[] = {
    { "8-bit random 420", 200, 180, 8, GPUSSIM_CHROMA_420, GPUSSIM_PLANES_LUMA, PATTERN_RANDOM, 1,
      0, GPUSSIM_PACKING_PLANAR, 0, 0 },
    { "8-bit gradient 420 planes=all", 384, 360, 8, GPUSSIM_CHROMA_420, GPUSSIM_PLANES_ALL,
      PATTERN_GRADIENT, 0, 0, GPUSSIM_PACKING_PLANAR, 0, 0 },
    { "10-bit random 444", 190, 177, 10, GPUSSIM_CHROMA_444, GPUSSIM_PLANES_LUMA, PATTERN_RANDOM, 1,
      0, GPUSSIM_PACKING_PLANAR, 0, 0 },
    { "10-bit checker 420 scale=2", 256, 200, 10, GPUSSIM_CHROMA_420, GPUSSIM_PLANES_LUMA,
      PATTERN_CHECKER, 0, 2, GPUSSIM_PACKING_PLANAR, 0, 0 },
    { "10-bit gradient 422 planes=all", 660, 390, 10, GPUSSIM_CHROMA_422, GPUSSIM_PLANES_ALL,
      PATTERN_GRADIENT, 1, 0, GPUSSIM_PACKING_PLANAR, 0, 0 },
    /* above 12 bits: integer SSIM's 64-bit moments */
    { "16-bit random 420", 200, 180, 16, GPUSSIM_CHROMA_420, GPUSSIM_PLANES_LUMA, PATTERN_RANDOM, 0,
      0, GPUSSIM_PACKING_PLANAR, 0, 0 },
    /* float_ssim's box decimation by a factor that is not a power of two */
    { "16-bit random 420 scale=3", 300, 250, 16, GPUSSIM_CHROMA_420, GPUSSIM_PLANES_LUMA,
      PATTERN_RANDOM, 1, 3, GPUSSIM_PACKING_PLANAR, 0, 0 },
    /* semi-planar chroma: each picture's interleaved plane unpacked twice */
    { "8-bit nv21 planes=all", 384, 360, 8, GPUSSIM_CHROMA_420, GPUSSIM_PLANES_ALL, PATTERN_RANDOM,
      0, 0, GPUSSIM_PACKING_SEMIPLANAR_VU, 0, 0 },
    { "10-bit p010 planes=all", 384, 360, 10, GPUSSIM_CHROMA_420, GPUSSIM_PLANES_ALL,
      PATTERN_GRADIENT, 1, 0, GPUSSIM_PACKING_SEMIPLANAR_UV, 1, 0 },
    /* integer SSIM alone at 8 bits (one dispatch, a pair's workgroup 4
     * tiles of 32 x 16 pixels one below the other): rows and columns no
     * multiple of them (150 rows: 10 tiles, a last workgroup of 2), widths
     * no multiple of 4 (scalar loads: 190 and the chroma's 95) */
    { "8-bit random 422 planes=all ssim 190x150", 190, 150, 8, GPUSSIM_CHROMA_422,
      GPUSSIM_PLANES_ALL, PATTERN_RANDOM, 0, 0, GPUSSIM_PACKING_PLANAR, 0, GPUSSIM_METRIC_SSIM },
    /* ANSNR alone on planes narrower than a chunk of the Vulkan noise pass
     * (64 columns and a 2-column margin: one chunk reflected at both
     * ends), with one chunk away from both edges (132 = 2 x 64 + 4) and
     * row counts that leave a workgroup's last rows (8) partly empty */
    { "8-bit random 420 ansnr 40x21", 40, 21, 8, GPUSSIM_CHROMA_420, GPUSSIM_PLANES_LUMA,
      PATTERN_RANDOM, 0, 0, GPUSSIM_PACKING_PLANAR, 0, GPUSSIM_METRIC_FLOAT_ANSNR },
    { "10-bit random 444 planes=all ansnr 132x67", 132, 67, 10, GPUSSIM_CHROMA_444,
      GPUSSIM_PLANES_ALL, PATTERN_RANDOM, 0, 0, GPUSSIM_PACKING_PLANAR, 0,
      GPUSSIM_METRIC_FLOAT_ANSNR },
};

/* The ladder context's log: whether it shares the reference's terms. */
static int ladder_native;

static void ladder_log_cb(void *opaque, enum gpussim_log_level level, const char *msg)
{
    if (strstr(msg, "reference terms shared"))
        ladder_native = 1;
    if (level <= GPUSSIM_LOG_INFO)
        test_log_cb(opaque, level, msg);
}

static void fill_params(struct gpussim_params *p, const struct ladder_case *c, enum gpussim_backend_type b,
                        int nb_dis)
{
    gpussim_default_params(p);
    p->backend = b;
    p->metrics = c->metrics ? c->metrics : GPUSSIM_METRIC_ALL;
    p->format.width = c->w;
    p->format.height = c->h;
    p->format.bit_depth = c->bit_depth;
    p->format.chroma = c->chroma;
    p->format.packing = c->packing;
    p->format.msb_aligned = c->msb;
    p->planes = c->planes;
    p->enable_lcs = c->lcs;
    p->ssim_scale = c->scale;
    p->threads = 2;
    p->nb_distorted = nb_dis;
    p->log_cb = test_log_cb;
}

/* Runs one case on one backend: 0 done, 1 backend unavailable (skipped). */
static int run_case(const struct ladder_case *c, enum gpussim_backend_type b)
{
    struct gpussim_params p;
    struct gpussim_format fmt = { c->w, c->h, c->bit_depth, c->chroma, c->packing, c->msb };
    struct test_frame ref[NB_FRAMES], dis[NB_FRAMES][GPUSSIM_MAX_DISTORTED];
    struct test_packed pref[NB_FRAMES], pdis[NB_FRAMES][GPUSSIM_MAX_DISTORTED];
    struct gpussim_picture refs[NB_FRAMES], pair_dis[NB_FRAMES];
    GpussimContext *ctx = NULL;
    double *pair[GPUSSIM_MAX_DISTORTED] = { 0 }, *ladder = NULL;
    int nb_scores = 0, skipped = 0, err;
    const char *bname = gpussim_backend_type_name(b);

    for (int f = 0; f < NB_FRAMES; f++) {
        test_frame_alloc(&ref[f], &fmt);
        test_fill(&ref[f], c->bit_depth, f == 3 ? PATTERN_FLAT : c->pattern, 100 + f);
        test_pack(&ref[f], &fmt, &pref[f]);
        refs[f] = pref[f].pic;
        for (int k = 0; k < NB_DIS; k++) {
            test_frame_alloc(&dis[f][k], &fmt);
            /* rendition k: noise growing with k; rendition 0 of frame 2 is the reference */
            test_distort(&ref[f], &dis[f][k], c->bit_depth, f == 2 && k == 0 ? 0 : (4 + 12 * k) << (c->bit_depth - 8),
                         1000 + 10 * f + k);
            test_pack(&dis[f][k], &fmt, &pdis[f][k]);
        }
    }

    /* the oracle: each rendition as pairs on a pair context of the backend */
    for (int k = 0; k < NB_DIS; k++) {
        for (int f = 0; f < NB_FRAMES; f++)
            pair_dis[f] = pdis[f][k].pic;
        fill_params(&p, c, b, 0);
        err = test_score(&p, refs, pair_dis, NB_FRAMES, &pair[k], NULL);
        if (err == -ENODEV || err == -ENOSYS) {
            printf("  %s: %s unavailable (%s), skipped\n", c->name, bname, gpussim_strerror(err));
            skipped = 1;
            goto done;
        }
        CHECK(err > 0, "%s/%s: pair context for rendition %d: %s", c->name, bname, k, test_last_error);
        if (err <= 0)
            goto done;
        nb_scores = err;
    }

    fill_params(&p, c, b, NB_DIS);
    p.log_cb = ladder_log_cb;
    p.log_level = GPUSSIM_LOG_VERBOSE;
    ladder_native = 0;
    err = gpussim_create(&ctx, &p);
    CHECK(err == 0, "%s/%s: ladder context: %s", c->name, bname, test_last_error);
    if (err < 0)
        goto done;
    CHECK(ladder_native, "%s/%s: the ladder is not native (reference terms not shared)", c->name,
          bname);
    CHECK(gpussim_renditions(ctx) == NB_DIS, "%s/%s: renditions %d", c->name, bname, gpussim_renditions(ctx));
    ladder = calloc((size_t)NB_FRAMES * NB_DIS * nb_scores, sizeof(*ladder));
    /* submit as far as the queue takes, collecting without waiting in between */
    int got = 0;
    for (int f = 0; f < NB_FRAMES; f++) {
        const struct gpussim_picture *d[GPUSSIM_MAX_DISTORTED];
        struct gpussim_result res;
        int64_t idx;
        for (int k = 0; k < NB_DIS; k++)
            d[k] = &pdis[f][k].pic;
        while ((idx = gpussim_submit_multi(ctx, &refs[f], d, NB_DIS)) == -EAGAIN) {
            err = gpussim_collect(ctx, &res, got & 1); /* non-blocking on every other try */
            if (err < 0) {
                CHECK(0, "%s/%s: collect: %d", c->name, bname, err);
                goto done;
            }
            if (err == 1) {
                CHECK(res.nb_values == NB_DIS * nb_scores, "%s/%s: nb_values %d", c->name, bname, res.nb_values);
                memcpy(ladder + res.index * NB_DIS * nb_scores, res.values, sizeof(double) * NB_DIS * nb_scores);
                got++;
            }
        }
        CHECK(idx == f, "%s/%s: submit_multi returned %lld", c->name, bname, (long long)idx);
        if (idx < 0)
            goto done;
    }
    while (got < NB_FRAMES) {
        struct gpussim_result res;
        err = gpussim_collect(ctx, &res, 1);
        CHECK(err == 1, "%s/%s: final collect: %d", c->name, bname, err);
        if (err != 1)
            goto done;
        memcpy(ladder + res.index * NB_DIS * nb_scores, res.values, sizeof(double) * NB_DIS * nb_scores);
        got++;
    }

    int identical = 0, total = 0;
    for (int f = 0; f < NB_FRAMES; f++)
        for (int k = 0; k < NB_DIS; k++) {
            const double *a = ladder + ((size_t)f * NB_DIS + k) * nb_scores;
            const double *e = pair[k] + (size_t)f * nb_scores;
            const int same = !memcmp(a, e, sizeof(double) * nb_scores);
            total++;
            identical += same;
            if (!same)
                for (int i = 0; i < nb_scores; i++)
                    if (memcmp(&a[i], &e[i], sizeof(double)))
                        CHECK(0, "%s/%s: frame %d rendition %d score %d: ladder %.17g, pair %.17g", c->name,
                              bname, f, k, i, a[i], e[i]);
        }
    CHECK(identical == total, "%s/%s: %d of %d rendition frames bit-identical", c->name, bname, identical, total);
    const char *group = getenv("GPUSSIM_TEST_LADDER_GROUP");
    const char *ref_mode = getenv("GPUSSIM_TEST_LADDER_REF");
    printf("  %-32s %-6s %d frames x %d renditions x %d scores: %d/%d bit-identical%s%s%s%s\n",
           c->name, bname, NB_FRAMES, NB_DIS, nb_scores, identical, total,
           b != GPUSSIM_BACKEND_CPU ? " group=" : "",
           b != GPUSSIM_BACKEND_CPU ? (group ? group : "default") : "", ref_mode ? " ref=" : "",
           ref_mode ? ref_mode : "");

done:
    gpussim_destroy(&ctx);
    free(ladder);
    for (int k = 0; k < NB_DIS; k++)
        free(pair[k]);
    for (int f = 0; f < NB_FRAMES; f++) {
        test_packed_free(&pref[f]);
        test_frame_free(&ref[f]);
        for (int k = 0; k < NB_DIS; k++) {
            test_packed_free(&pdis[f][k]);
            test_frame_free(&dis[f][k]);
        }
    }
    return skipped;
}

static void test_errors(void)
{
    const struct ladder_case *c = &cases[0];
    struct gpussim_format fmt = { c->w, c->h, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 };
    struct gpussim_params p;
    struct test_frame f;
    struct test_packed pk;
    GpussimContext *ctx = NULL;
    int err;

    fill_params(&p, c, GPUSSIM_BACKEND_CPU, GPUSSIM_MAX_DISTORTED + 1);
    err = gpussim_create(&ctx, &p);
    CHECK(err == -EINVAL && strstr(test_last_error, "nb_distorted 17 is out of range"),
          "17 distorted pictures: %d '%s'", err, test_last_error);
    fill_params(&p, c, GPUSSIM_BACKEND_CPU, -1);
    err = gpussim_create(&ctx, &p);
    CHECK(err == -EINVAL, "nb_distorted -1: %d", err);

    test_frame_alloc(&f, &fmt);
    test_fill(&f, 8, PATTERN_RANDOM, 7);
    test_pack(&f, &fmt, &pk);
    fill_params(&p, c, GPUSSIM_BACKEND_CPU, NB_DIS);
    err = gpussim_create(&ctx, &p);
    CHECK(err == 0, "ladder context: %s", test_last_error);
    if (!err) {
        const struct gpussim_picture *d[3] = { &pk.pic, &pk.pic, &pk.pic };
        struct gpussim_picture bad = pk.pic;
        int64_t r = gpussim_submit_multi(ctx, &pk.pic, d, 2);
        CHECK(r == -EINVAL && strstr(test_last_error, "2 distorted picture(s) given, but the context scores 3"),
              "wrong count: %lld '%s'", (long long)r, test_last_error);
        r = gpussim_submit(ctx, &pk.pic, &pk.pic);
        CHECK(r == -EINVAL && strstr(test_last_error, "use gpussim_submit_multi()"),
              "pair submit on a ladder: %lld '%s'", (long long)r, test_last_error);
        bad.stride[0] = 3; /* smaller than a row */
        d[1] = &bad;
        r = gpussim_submit_multi(ctx, &pk.pic, d, 3);
        CHECK(r == -EINVAL && strstr(test_last_error, "distorted #1 picture: plane 0 stride 3"),
              "bad distorted #1: %lld '%s'", (long long)r, test_last_error);
        d[1] = NULL;
        r = gpussim_submit_multi(ctx, &pk.pic, d, 3);
        CHECK(r == -EINVAL && strstr(test_last_error, "no distorted #1 picture"),
              "missing distorted #1: %lld '%s'", (long long)r, test_last_error);
        r = gpussim_submit_multi(ctx, &pk.pic, NULL, NB_DIS);
        CHECK(r == -EINVAL, "no array: %lld", (long long)r);
        CHECK(gpussim_pending(ctx) == 0, "nothing queued after refusals: %d", gpussim_pending(ctx));
        d[1] = &pk.pic;
        r = gpussim_submit_multi(ctx, &pk.pic, d, 3);
        CHECK(r == 0, "a good frame after refusals: %lld", (long long)r);
        struct gpussim_result res;
        CHECK(gpussim_collect(ctx, &res, 1) == 1 && res.nb_values > 0 && res.values[0] == 1.0,
              "identical pictures score 1");
        gpussim_destroy(&ctx);
    }
    /* a pair context refuses a ladder frame */
    fill_params(&p, c, GPUSSIM_BACKEND_CPU, 0);
    if (gpussim_create(&ctx, &p) == 0) {
        const struct gpussim_picture *d[2] = { &pk.pic, &pk.pic };
        CHECK(gpussim_renditions(ctx) == 1, "pair context: 1 rendition");
        const int64_t r = gpussim_submit_multi(ctx, &pk.pic, d, 2);
        CHECK(r == -EINVAL && strstr(test_last_error, "scores 1 per reference"), "pair context, 2 pictures: '%s'",
              test_last_error);
        gpussim_destroy(&ctx);
    }
    /* max_in_flight counts ladder frames (native or not) */
    fill_params(&p, c, GPUSSIM_BACKEND_VULKAN, NB_DIS);
    p.max_in_flight = 1;
    err = gpussim_create(&ctx, &p);
    if (err == -ENODEV || err == -ENOSYS) {
        printf("  vulkan unavailable: the fallback's slot checks are not run\n");
    } else {
        CHECK(err == 0, "vulkan ladder of %d with max_in_flight=1: %d '%s'", NB_DIS, err, test_last_error);
        if (!err) {
            const struct gpussim_picture *d[3] = { &pk.pic, &pk.pic, &pk.pic };
            CHECK(gpussim_submit_multi(ctx, &pk.pic, d, NB_DIS) == 0, "first frame");
            CHECK(gpussim_submit_multi(ctx, &pk.pic, d, NB_DIS) == -EAGAIN, "max_in_flight=1: second frame waits");
            struct gpussim_result res;
            CHECK(gpussim_collect(ctx, &res, 1) == 1 && res.nb_values > 0 && res.values[0] == 1.0, "collected");
            gpussim_destroy(&ctx);
        }
    }
    test_packed_free(&pk);
    test_frame_free(&f);
}

int main(void)
{
    static const enum gpussim_backend_type backends[] = {
        GPUSSIM_BACKEND_CPU, GPUSSIM_BACKEND_VULKAN, GPUSSIM_BACKEND_CUDA,
    };
    /* CUDA's window kernels: distorted pictures per block as the backend
     * chooses, all, one, two */
    static const char *const cuda_group[] = { NULL, "all", "1", "2" };
    /* Vulkan's per-picture dispatches: as many pictures as fit, two; the
     * windows' reference moments in every workgroup where the backend
     * chooses (level 0), everywhere, nowhere */
    static const char *const vulkan_group[] = { NULL, "2", NULL };
    static const char *const vulkan_ref[] = { NULL, "all", "none" };
    int gpu_ran = 0;
    for (size_t b = 0; b < sizeof(backends) / sizeof(backends[0]); b++) {
        int skipped = 0;
        const int cuda = backends[b] == GPUSSIM_BACKEND_CUDA;
        const size_t modes = cuda ? 4 : backends[b] == GPUSSIM_BACKEND_VULKAN ? 3 : 1;
        for (size_t m = 0; m < modes && !skipped; m++) {
            const char *group = cuda ? cuda_group[m] : vulkan_group[m];
            const char *ref = cuda ? NULL : vulkan_ref[m];
            if (group)
                setenv("GPUSSIM_TEST_LADDER_GROUP", group, 1);
            if (ref)
                setenv("GPUSSIM_TEST_LADDER_REF", ref, 1);
            for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                skipped = run_case(&cases[i], backends[b]);
                if (skipped)
                    break;
            }
            unsetenv("GPUSSIM_TEST_LADDER_GROUP");
            unsetenv("GPUSSIM_TEST_LADDER_REF");
        }
        if (!skipped && backends[b] != GPUSSIM_BACKEND_CPU)
            gpu_ran = 1;
    }
    /* wider than the 4 slots of the GPU backends */
    NB_DIS = 6;
    run_case(&cases[0], GPUSSIM_BACKEND_CPU);
    run_case(&cases[2], GPUSSIM_BACKEND_VULKAN);
    run_case(&cases[2], GPUSSIM_BACKEND_CUDA);
    setenv("GPUSSIM_TEST_LADDER_GROUP", "all", 1);
    run_case(&cases[4], GPUSSIM_BACKEND_CUDA);
    setenv("GPUSSIM_TEST_LADDER_GROUP", "4", 1);
    run_case(&cases[6], GPUSSIM_BACKEND_CUDA);
    run_case(&cases[2], GPUSSIM_BACKEND_VULKAN);
    unsetenv("GPUSSIM_TEST_LADDER_GROUP");
    /* CUDA's ANSNR takes its distorted pictures 4 per block (3, 16) or 2
     * (6; with 5: 2 + 2 + 1, one picture alone in the last block) */
    NB_DIS = 5;
    run_case(&cases[2], GPUSSIM_BACKEND_CUDA);
    /* the widest ladder: Vulkan's and CUDA's frame of 17 pictures */
    NB_DIS = GPUSSIM_MAX_DISTORTED;
    run_case(&cases[0], GPUSSIM_BACKEND_VULKAN);
    run_case(&cases[0], GPUSSIM_BACKEND_CUDA);
    NB_DIS = 3;
    test_errors();
    if (!gpu_ran)
        printf("no GPU backend answered: no GPU ladder was checked\n");
    const int ret = test_summary();
    if (!ret && !gpu_ran && getenv("GPUSSIM_LADDER_REQUIRE_GPU"))
        return TEST_SKIP;
    return ret;
}
