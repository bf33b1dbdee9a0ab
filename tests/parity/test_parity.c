/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Backend parity, checkasm style: the same inputs through the CPU reference
 * and a named backend, every score compared under spec §5 (float metrics
 * |diff| <= 5e-5, integer ssim <= 1e-9), with the count of bit-identical
 * values per metric. The failing case is printed with its parameters.
 *
 *   test_parity [BACKEND] [--quick|--full]     (or GPUSSIM_PARITY_BACKEND)
 *
 * Exits 77 when the backend is not built or has no device.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/testutil.h"

/* the library's names; an unknown one runs AUTO */
static enum gpussim_backend_type parse_backend(const char *s)
{
    enum gpussim_backend_type t = GPUSSIM_BACKEND_AUTO;
    return gpussim_backend_from_name(s, &t) < 0 ? GPUSSIM_BACKEND_AUTO : t;
}

static const char *backend_label(enum gpussim_backend_type t)
{
    const char *n = gpussim_backend_type_name(t);
    return n ? n : "?";
}

/* per-metric family statistics */
enum { FAM_SSIM, FAM_MS, FAM_ANSNR, FAM_ISSIM, FAM_N };
static const char *const fam_names[FAM_N] = { "float_ssim", "float_ms_ssim", "float_ansnr", "ssim" };
static long fam_total[FAM_N], fam_exact[FAM_N];
static double fam_maxdiff[FAM_N];
static long frames_total, frames_exact;

static int family_of(const char *name)
{
    if (!strncmp(name, "float_ms_ssim", 13))
        return FAM_MS;
    if (!strncmp(name, "float_ssim", 10))
        return FAM_SSIM;
    if (!strncmp(name, "float_an", 8))
        return FAM_ANSNR;
    return FAM_ISSIM;
}

static enum gpussim_backend_type backend;

/* Scores pairs with the CPU and the backend, compares. Returns -1 when the
 * backend is unavailable (skip). */
static int compare(const char *desc, struct gpussim_params p, const struct gpussim_picture *refs,
                   const struct gpussim_picture *dis, int nb)
{
    double *vc = NULL, *vb = NULL;
    char **names = NULL;
    p.log_cb = test_log_cb;
    p.backend = GPUSSIM_BACKEND_CPU;
    const int nc = test_score(&p, refs, dis, nb, &vc, &names);
    CHECK(nc > 0, "%s: CPU reference failed: %d (%s)", desc, nc, test_last_error);
    if (nc <= 0)
        return 0;
    p.backend = backend;
    const int nbk = test_score(&p, refs, dis, nb, &vb, NULL);
    if (nbk == -ENOSYS || nbk == -ENODEV) {
        free(vc);
        test_free_names(names, nc);
        return -1;
    }
    CHECK(nbk == nc, "%s: backend gave %d scores, CPU %d (%s)", desc, nbk, nc, test_last_error);
    for (int f = 0; nbk == nc && f < nb; f++) {
        int frame_exact = 1;
        for (int k = 0; k < nc; k++) {
            const double a = vc[f * nc + k], b = vb[f * nc + k];
            const int fam = family_of(names[k]);
            const double tol = fam == FAM_ISSIM ? 1e-9 : 5e-5;
            const double d = fabs(a - b);
            fam_total[fam]++;
            fam_exact[fam] += a == b;
            frame_exact &= a == b;
            if (d > fam_maxdiff[fam])
                fam_maxdiff[fam] = d;
            CHECK(d <= tol || (isinf(a) && a == b), "%s frame %d %s: cpu %.17g %s %.17g (diff %.3g > %.0e)",
                  desc, f, names[k], a, backend_label(backend), b, d, tol);
        }
        frames_total++;
        frames_exact += frame_exact;
    }
    free(vc);
    free(vb);
    test_free_names(names, nc);
    return 0;
}


/* lcs: enable_lcs. Without it the backends may leave out the window sums no
 * result uses (MS-SSIM's l below the last level, float_ssim's l, c, s), so
 * both settings are compared. */
static int run_generated(int w, int h, int bd, enum gpussim_chroma chroma, enum gpussim_packing pk,
                         int msb, enum test_pattern pat, unsigned metrics, int planes_all, int nb,
                         int lcs)
{
    struct gpussim_format fmt = { w, h, bd, chroma, pk, msb };
    struct test_frame ref[4], dis[4];
    struct test_packed pr[4], pd[4];
    struct gpussim_picture rp[4], dp[4];
    for (int i = 0; i < nb; i++) {
        test_frame_alloc(&ref[i], &fmt);
        test_frame_alloc(&dis[i], &fmt);
        test_fill(&ref[i], bd, pat, 77 * i + w + h + bd);
        if (pat == PATTERN_RANDOM || pat == PATTERN_GRADIENT)
            test_distort(&ref[i], &dis[i], bd, (1 << bd) / 12, 991 * i + w);
        else
            test_fill(&dis[i], bd, PATTERN_GRADIENT, 5 + i);
        test_pack(&ref[i], &fmt, &pr[i]);
        test_pack(&dis[i], &fmt, &pd[i]);
        rp[i] = pr[i].pic;
        dp[i] = pd[i].pic;
    }
    struct gpussim_params p;
    gpussim_default_params(&p);
    p.format = fmt;
    p.metrics = metrics;
    p.enable_lcs = lcs;
    p.planes = planes_all ? GPUSSIM_PLANES_ALL : GPUSSIM_PLANES_LUMA;
    char desc[200];
    snprintf(desc, sizeof(desc),
             "%dx%d %d-bit chroma=%d packing=%d msb=%d pattern=%d planes=%s enable_lcs=%d", w, h,
             bd, chroma, pk, msb, pat, planes_all ? "all" : "luma", lcs);
    const int r = compare(desc, p, rp, dp, nb);
    for (int i = 0; i < nb; i++) {
        test_packed_free(&pr[i]), test_packed_free(&pd[i]);
        test_frame_free(&ref[i]), test_frame_free(&dis[i]);
    }
    return r;
}

static int run_fixtures(void)
{
    const char *dir = test_fixtures_dir();
    if (!dir)
        return 0;
    static const char *const sfx[] = { "yuv420p", "yuv420p10le", "yuv420p12le", "yuv420p16le" };
    static const int depth[] = { 8, 10, 12, 16 };
    for (int i = 0; i < 8; i++) {
        const int lcs = i < 4; /* each depth with and without enable_lcs */
        char path[4096];
        size_t rs = 0, ds = 0;
        snprintf(path, sizeof(path), "%s/src01_576x324_3f/src01_hrc00_576x324_3f.%s.yuv", dir,
                 sfx[i % 4]);
        uint8_t *r = test_read_file(path, &rs);
        snprintf(path, sizeof(path), "%s/src01_576x324_3f/src01_hrc01_576x324_3f.%s.yuv", dir,
                 sfx[i % 4]);
        uint8_t *d = test_read_file(path, &ds);
        const int bps = depth[i % 4] > 8 ? 2 : 1;
        const size_t fs = (size_t)576 * 324 * 3 / 2 * bps, ys = (size_t)576 * 324 * bps;
        if (!r || !d || rs < 3 * fs || ds < 3 * fs) {
            CHECK(0, "fixture %s unreadable", sfx[i % 4]);
            free(r), free(d);
            continue;
        }
        struct gpussim_picture rp[3], dp[3];
        memset(rp, 0, sizeof(rp)), memset(dp, 0, sizeof(dp));
        for (int f = 0; f < 3; f++) {
            for (int k = 0; k < 3; k++) {
                const size_t off = f * fs + (k ? ys + (k - 1) * ys / 4 : 0);
                rp[f].data[k] = r + off, dp[f].data[k] = d + off;
                rp[f].stride[k] = dp[f].stride[k] = (k ? 288 : 576) * bps;
            }
        }
        struct gpussim_params p;
        gpussim_default_params(&p);
        p.format = (struct gpussim_format){ 576, 324, depth[i % 4], GPUSSIM_CHROMA_420, 0, 0 };
        p.enable_lcs = lcs;
        char desc[64];
        snprintf(desc, sizeof(desc), "fixture %s enable_lcs=%d", sfx[i % 4], lcs);
        const int ret = compare(desc, p, rp, dp, 3);
        free(r), free(d);
        if (ret < 0)
            return ret;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *name = getenv("GPUSSIM_PARITY_BACKEND");
    int quick = 0, full = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--full"))
            full = 1;
        else
            name = argv[i];
    }
    if (!name) {
        fprintf(stderr, "usage: test_parity BACKEND [--quick|--full]\n");
        return 2;
    }
    backend = parse_backend(name);
    if (backend == GPUSSIM_BACKEND_AUTO) {
        fprintf(stderr, "unknown backend %s\n", name);
        return 2;
    }

    const unsigned ALL = GPUSSIM_METRIC_ALL, NO_MS = ALL & ~GPUSSIM_METRIC_FLOAT_MS_SSIM;
    if (run_fixtures() < 0)
        goto skip;

    /* every layout x depth the library accepts, with chroma planes */
    static const struct { enum gpussim_chroma c; enum gpussim_packing p; int msb; int bd; } layouts[] = {
        { GPUSSIM_CHROMA_420, 0, 0, 8 }, { GPUSSIM_CHROMA_420, 0, 0, 10 },
        { GPUSSIM_CHROMA_420, 0, 0, 12 }, { GPUSSIM_CHROMA_420, 0, 0, 16 },
        { GPUSSIM_CHROMA_422, 0, 0, 8 }, { GPUSSIM_CHROMA_422, 0, 0, 10 },
        { GPUSSIM_CHROMA_444, 0, 0, 8 }, { GPUSSIM_CHROMA_444, 0, 0, 12 },
        { GPUSSIM_CHROMA_444, 0, 0, 16 }, { GPUSSIM_CHROMA_GRAY, 0, 0, 8 },
        { GPUSSIM_CHROMA_GRAY, 0, 0, 10 }, { GPUSSIM_CHROMA_GRAY, 0, 0, 16 },
        { GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_UV, 0, 8 },  /* NV12 */
        { GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_VU, 0, 8 },  /* NV21 */
        { GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_UV, 1, 10 }, /* P010 */
        { GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_UV, 1, 12 }, /* P012 */
        { GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_UV, 1, 16 }, /* P016 */
        { GPUSSIM_CHROMA_422, GPUSSIM_PACKING_SEMIPLANAR_UV, 1, 16 }, /* P216 */
    };
    const int nl = sizeof(layouts) / sizeof(layouts[0]);
    for (int i = 0; i < (quick ? 4 : nl); i++) {
        const int gray = layouts[i].c == GPUSSIM_CHROMA_GRAY;
        const int w = 354 + 2 * (i % 3), h = 360 + (i % 2);
        if (run_generated(w, h, layouts[i].bd, layouts[i].c, layouts[i].p, layouts[i].msb,
                          (enum test_pattern)(i % 2 ? PATTERN_RANDOM : PATTERN_GRADIENT),
                          layouts[i].c == GPUSSIM_CHROMA_444 || gray ? ALL : NO_MS, !gray, 2,
                          !(i & 2)) < 0)
            goto skip;
    }

    /* size classes: minimum sizes, odd sizes, float_ssim scales 1..4 */
    static const struct { int w, h; unsigned m; } sizes[] = {
        { 176, 176, 0 },  /* MS-SSIM minimum */
        { 11, 11, 1 },    /* the 11x11 window minimum (no MS-SSIM) */
        { 23, 13, 1 },
        { 1281, 719, 0 }, /* scale 3, odd */
        { 513, 385, 0 },  /* scale 2, odd width */
        { 1920, 1080, 0 }, /* scale 4 */
    };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        if (quick && sizes[i].w > 600)
            continue;
        if (run_generated(sizes[i].w, sizes[i].h, 8, GPUSSIM_CHROMA_GRAY, 0, 0, PATTERN_GRADIENT,
                          sizes[i].m ? NO_MS : ALL, 0, 1, (int)(i % 2)) < 0)
            goto skip;
    }

    /* content classes at every depth */
    static const enum test_pattern pats[] = { PATTERN_RANDOM, PATTERN_FLAT, PATTERN_MAX, PATTERN_ZERO,
                                              PATTERN_CHECKER, PATTERN_GRADIENT };
    for (int bd = 8; bd <= 16; bd += bd == 12 ? 4 : 2)
        for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
            if (quick && bd != 8)
                continue;
            if (run_generated(192, 180 + (int)i, bd, GPUSSIM_CHROMA_GRAY, 0, 0, pats[i], ALL, 0, 1,
                              (int)(i % 2)) < 0)
                goto skip;
        }

    if (full) /* 2160p, every metric, 10-bit: the largest production size */
        if (run_generated(3840, 2160, 10, GPUSSIM_CHROMA_420, 0, 0, PATTERN_GRADIENT, ALL, 1, 1,
                          0) < 0)
            goto skip;

    printf("parity %s vs cpu (spec §5: float metrics <= 5e-5, ssim <= 1e-9):\n", name);
    for (int f = 0; f < FAM_N; f++)
        printf("  %-14s %6ld/%-6ld values bit-identical, max |diff| %.3g\n", fam_names[f],
               fam_exact[f], fam_total[f], fam_maxdiff[f]);
    printf("  frames with every value bit-identical: %ld/%ld\n", frames_exact, frames_total);
    return test_summary();

skip:
    printf("SKIP: backend %s unavailable (%s)\n", name, test_last_error);
    return TEST_SKIP;
}
