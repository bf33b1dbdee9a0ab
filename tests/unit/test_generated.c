/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The CPU backend on generated inputs: every layout and depth, odd sizes,
 * automatic and forced float_ssim scales (decimation, which the fixtures do
 * not reach), minimum sizes, flat/max/checkerboard/random content, chroma
 * planes — each compared bit for bit with the naive transcription in
 * naive_ref.c. Plus layout equivalences and identity inputs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/naive_ref.h"
#include "tests/lib/testutil.h"

struct gen_case {
    int w, h, bd;
    enum gpussim_chroma chroma;
    enum gpussim_packing packing;
    int msb;
    enum test_pattern pattern;
    unsigned metrics;
    int scale, lcs, db, clip_db;
};

static const char *pattern_name(enum test_pattern p)
{
    static const char *const n[] = { "random", "flat", "max", "zero", "checker", "gradient" };
    return n[p];
}

/* Scores the case with the library and with the naive reference; returns 0
 * when every value matched exactly. */
static void run_case(const struct gen_case *c, uint64_t seed)
{
    struct gpussim_format fmt = { .width = c->w, .height = c->h, .bit_depth = c->bd,
                                  .chroma = c->chroma, .packing = c->packing, .msb_aligned = c->msb };
    struct test_frame ref, dis;
    struct test_packed pr, pd;
    test_frame_alloc(&ref, &fmt);
    test_frame_alloc(&dis, &fmt);
    test_fill(&ref, c->bd, c->pattern, seed);
    if (c->pattern == PATTERN_RANDOM || c->pattern == PATTERN_GRADIENT)
        test_distort(&ref, &dis, c->bd, (1 << c->bd) / 16, seed + 1);
    else
        test_fill(&dis, c->bd, c->pattern == PATTERN_CHECKER ? PATTERN_FLAT : PATTERN_CHECKER, seed + 2);
    test_pack(&ref, &fmt, &pr);
    test_pack(&dis, &fmt, &pd);

    struct gpussim_params p;
    gpussim_default_params(&p);
    p.backend = GPUSSIM_BACKEND_CPU;
    p.format = fmt;
    p.metrics = c->metrics;
    p.ssim_scale = c->scale;
    p.enable_lcs = c->lcs;
    p.enable_db = c->db;
    p.clip_db = c->clip_db;
    p.planes = c->chroma == GPUSSIM_CHROMA_GRAY ? GPUSSIM_PLANES_LUMA : GPUSSIM_PLANES_ALL;
    p.threads = 2;
    p.log_cb = test_log_cb;

    double *v = NULL;
    char **names = NULL;
    const int n = test_score(&p, &pr.pic, &pd.pic, 1, &v, &names);
    char desc[256];
    snprintf(desc, sizeof(desc), "%dx%d %dbit chroma=%d packing=%d msb=%d %s metrics=0x%x scale=%d lcs=%d db=%d clip=%d",
             c->w, c->h, c->bd, c->chroma, c->packing, c->msb, pattern_name(c->pattern), c->metrics,
             c->scale, c->lcs, c->db, c->clip_db);
    CHECK(n > 0, "%s: scoring failed: %d (%s)", desc, n, test_last_error);
    if (n > 0) {
        double want[256];
        int k = 0;
        const struct naive_opts o = {
            .float_ssim = !!(c->metrics & GPUSSIM_METRIC_FLOAT_SSIM),
            .ms_ssim = !!(c->metrics & GPUSSIM_METRIC_FLOAT_MS_SSIM),
            .ansnr = !!(c->metrics & GPUSSIM_METRIC_FLOAT_ANSNR),
            .issim = !!(c->metrics & GPUSSIM_METRIC_SSIM),
            .scale = c->scale, .lcs = c->lcs, .db = c->db, .clip_db = c->clip_db,
        };
        for (int comp = 0; comp < ref.nb_comp; comp++) {
            const int w = comp ? ref.cw : ref.w, h = comp ? ref.ch : ref.h;
            k += naive_scores(ref.comp[comp], dis.comp[comp], w, h, c->bd, &o, want + k);
        }
        CHECK(k == n, "%s: %d scores, naive reference has %d", desc, n, k);
        int bad = 0;
        for (int i = 0; i < n && i < k; i++) {
            const int same = v[i] == want[i] || (isnan(v[i]) && isnan(want[i]));
            if (!same && bad++ < 4)
                fprintf(stderr, "  %s %s: cpu %.17g naive %.17g\n", desc, names[i], v[i], want[i]);
            CHECK(same, "%s: %s differs from the naive reference", desc, names[i]);
        }
    }
    free(v);
    test_free_names(names, n);
    test_packed_free(&pr);
    test_packed_free(&pd);
    test_frame_free(&ref);
    test_frame_free(&dis);
}

/* The same samples in two layouts must give the same scores, bit for bit. */
static void check_layout_equivalence(int bd, enum gpussim_packing pk_a, int msb_a,
                                     enum gpussim_packing pk_b, int msb_b)
{
    struct gpussim_format fa = { 352, 288, bd, GPUSSIM_CHROMA_420, pk_a, msb_a };
    struct gpussim_format fb = { 352, 288, bd, GPUSSIM_CHROMA_420, pk_b, msb_b };
    struct test_frame ref, dis;
    struct test_packed ra, da, rb, db;
    test_frame_alloc(&ref, &fa);
    test_frame_alloc(&dis, &fa);
    test_fill(&ref, bd, PATTERN_GRADIENT, 99);
    test_distort(&ref, &dis, bd, 1 << (bd - 4), 100);
    test_pack(&ref, &fa, &ra), test_pack(&dis, &fa, &da);
    test_pack(&ref, &fb, &rb), test_pack(&dis, &fb, &db);

    struct gpussim_params p;
    gpussim_default_params(&p);
    p.backend = GPUSSIM_BACKEND_CPU;
    p.planes = GPUSSIM_PLANES_ALL;
    p.enable_lcs = 1;
    p.metrics = GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_ANSNR | GPUSSIM_METRIC_SSIM;
    p.log_cb = test_log_cb;
    double *va = NULL, *vb = NULL;
    p.format = fa;
    const int na = test_score(&p, &ra.pic, &da.pic, 1, &va, NULL);
    p.format = fb;
    const int nb = test_score(&p, &rb.pic, &db.pic, 1, &vb, NULL);
    CHECK(na > 0 && na == nb, "layout equivalence %d-bit: %d vs %d scores (%s)", bd, na, nb,
          test_last_error);
    int same = na > 0 && na == nb;
    for (int i = 0; same && i < na; i++)
        same = va[i] == vb[i];
    CHECK(same, "%d-bit: packing %d msb %d and packing %d msb %d give different scores", bd, pk_a,
          msb_a, pk_b, msb_b);
    free(va), free(vb);
    test_packed_free(&ra), test_packed_free(&da), test_packed_free(&rb), test_packed_free(&db);
    test_frame_free(&ref), test_frame_free(&dis);
}

static void check_identity(enum test_pattern pat, int bd)
{
    struct gpussim_format f = { 320, 240, bd, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 };
    struct test_frame ref;
    struct test_packed pr;
    test_frame_alloc(&ref, &f);
    test_fill(&ref, bd, pat, 7);
    test_pack(&ref, &f, &pr);
    struct gpussim_params p;
    gpussim_default_params(&p);
    p.backend = GPUSSIM_BACKEND_CPU;
    p.format = f;
    p.metrics = GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_MS_SSIM | GPUSSIM_METRIC_SSIM;
    p.log_cb = test_log_cb;
    double *v = NULL;
    char **names = NULL;
    const int n = test_score(&p, &pr.pic, &pr.pic, 1, &v, &names);
    CHECK(n == 3, "identity: %d scores (%s)", n, test_last_error);
    /* float_ssim and integer ssim are exactly 1; float_ms_ssim multiplies
     * five float-rounded means, and on synthetic noise one of them can land
     * one float ulp under 1 in the reference's own arithmetic (the naive
     * cross-check above shows the same); the natural-content fixture gives
     * exactly 1 (test_fixtures). */
    for (int i = 0; i < n; i++) {
        const double tol = strcmp(names[i], "float_ms_ssim") ? 0.0 : 1e-7;
        CHECK(fabs(v[i] - 1.0) <= tol, "identity %s %d-bit: %s = %.17g, want 1", pattern_name(pat),
              bd, names[i], v[i]);
    }
    free(v);
    test_free_names(names, n);
    test_packed_free(&pr);
    test_frame_free(&ref);
}

int main(void)
{
    const unsigned ALL = GPUSSIM_METRIC_ALL;
    const unsigned NO_MS = ALL & ~GPUSSIM_METRIC_FLOAT_MS_SSIM;
    const enum gpussim_chroma C420 = GPUSSIM_CHROMA_420, C422 = GPUSSIM_CHROMA_422,
                              C444 = GPUSSIM_CHROMA_444, GRAY = GPUSSIM_CHROMA_GRAY;
    const enum gpussim_packing PL = GPUSSIM_PACKING_PLANAR, UV = GPUSSIM_PACKING_SEMIPLANAR_UV,
                               VU = GPUSSIM_PACKING_SEMIPLANAR_VU;
    const struct gen_case cases[] = {
        /* MS-SSIM's minimum, luma and chroma (4:4:4 keeps chroma at 176) */
        { 176, 176, 8, C444, PL, 0, PATTERN_RANDOM, ALL, 0, 1, 0, 0 },
        { 176, 176, 16, GRAY, PL, 0, PATTERN_GRADIENT, ALL, 0, 1, 1, 1 },
        /* odd sizes: 1281x719 -> float_ssim scale 3 (odd box), chroma 641x360 -> scale 1 */
        { 1281, 719, 8, C420, PL, 0, PATTERN_GRADIENT, ALL, 0, 1, 0, 0 },
        /* scale 2 (even box, left-biased) with odd width, 10-bit 4:2:2 */
        { 513, 385, 10, C422, PL, 0, PATTERN_RANDOM, NO_MS, 0, 1, 0, 0 },
        /* 1080p-like aspect at reduced height: scale 4 with odd width */
        { 1025, 1030, 12, GRAY, PL, 0, PATTERN_GRADIENT, GPUSSIM_METRIC_FLOAT_SSIM, 0, 1, 1, 0 },
        /* forced scales, including 10 and an odd 5 */
        { 300, 200, 8, GRAY, PL, 0, PATTERN_RANDOM, GPUSSIM_METRIC_FLOAT_SSIM, 10, 1, 0, 0 },
        { 301, 203, 16, GRAY, PL, 0, PATTERN_RANDOM, GPUSSIM_METRIC_FLOAT_SSIM, 5, 1, 0, 0 },
        /* tiny planes: the 11x11 window minimum and ANSNR/integer SSIM borders */
        { 11, 11, 8, GRAY, PL, 0, PATTERN_RANDOM, NO_MS, 0, 1, 0, 0 },
        { 23, 13, 12, C444, PL, 0, PATTERN_CHECKER, NO_MS, 0, 1, 0, 0 },
        /* flat, max, zero and checkerboard content at every depth */
        { 200, 180, 8, C420, PL, 0, PATTERN_FLAT, ALL & ~GPUSSIM_METRIC_FLOAT_MS_SSIM, 0, 1, 1, 1 },
        { 192, 192, 16, GRAY, PL, 0, PATTERN_MAX, ALL, 0, 1, 1, 1 },
        { 192, 192, 12, GRAY, PL, 0, PATTERN_ZERO, ALL, 0, 1, 0, 0 },
        { 192, 192, 10, GRAY, PL, 0, PATTERN_CHECKER, ALL, 0, 1, 1, 0 },
        { 192, 192, 16, GRAY, PL, 0, PATTERN_CHECKER, ALL, 0, 0, 0, 0 },
        /* semi-planar layouts: NV12, NV21, P010, P012, P016 */
        { 354, 354, 8, C420, UV, 0, PATTERN_RANDOM, ALL, 0, 0, 0, 0 },
        { 354, 354, 8, C420, VU, 0, PATTERN_GRADIENT, NO_MS, 0, 0, 0, 0 },
        { 354, 354, 10, C420, UV, 1, PATTERN_GRADIENT, ALL, 0, 1, 0, 0 },
        { 362, 360, 12, C420, UV, 1, PATTERN_RANDOM, ALL, 0, 0, 0, 0 },
        { 356, 358, 16, C420, UV, 1, PATTERN_RANDOM, ALL, 0, 0, 1, 1 },
        /* 4:2:2 semi-planar 16-bit (P216), 4:4:4 semi-planar (P416) */
        { 360, 352, 16, C422, UV, 1, PATTERN_GRADIENT, NO_MS, 0, 0, 0, 0 },
        { 181, 177, 10, C444, UV, 1, PATTERN_RANDOM, ALL, 0, 0, 0, 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_case(&cases[i], 1000 + i);

    check_layout_equivalence(10, GPUSSIM_PACKING_PLANAR, 0, GPUSSIM_PACKING_SEMIPLANAR_UV, 1); /* yuv420p10 vs P010 */
    check_layout_equivalence(16, GPUSSIM_PACKING_PLANAR, 0, GPUSSIM_PACKING_SEMIPLANAR_UV, 1); /* yuv420p16 vs P016 */
    check_layout_equivalence(8, GPUSSIM_PACKING_PLANAR, 0, GPUSSIM_PACKING_SEMIPLANAR_UV, 0);  /* yuv420p vs NV12 */
    check_layout_equivalence(8, GPUSSIM_PACKING_SEMIPLANAR_VU, 0, GPUSSIM_PACKING_SEMIPLANAR_UV, 0); /* NV21 vs NV12 */

    for (int bd = 8; bd <= 16; bd += bd == 12 ? 4 : 2) {
        check_identity(PATTERN_RANDOM, bd);
        check_identity(PATTERN_GRADIENT, bd);
        check_identity(PATTERN_FLAT, bd);
    }
    return test_summary();
}
