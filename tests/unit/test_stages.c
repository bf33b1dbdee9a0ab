/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Per-stage parity of every backend against the CPU reference, on the frame
 * plan (src/plan.h), in the manner of dav1d's checkasm and libplacebo's
 * src/tests/gpu_tests.c: one harness for all backends.
 *
 * The reference is the plan walked with the CPU kernels (hwctx/cpu/cpu_plan.c);
 * it is first checked against the CPU backend's scores (bit-identical), and
 * its ladder walk (the reference's terms once, hwctx/cpu/cpu_plan.c) against
 * its pair walk, result slot by result slot (bit-identical).
 * Each backend then runs the same plan and every result slot of every
 * stage (the SSIM window sums of float_ssim and of each MS-SSIM scale,
 * ANSNR's totals, integer SSIM's term and weight, per scored plane) is
 * compared with the reference's:
 *   - ANSNR totals and integer-SSIM weights: bit-identical;
 *   - integer SSIM: term / weight within 1e-9 (spec §5);
 *   - window sums: within 1e-9 per window (the double sums of the
 *     work-groups are added in another order than the reference's raster
 *     order); bit-identical sums and float means are counted.
 * Backends: every GPU backend of the backend table built here whose probe finds a
 * device (Vulkan on lavapipe, CUDA, HIP, Level Zero), through its vtable,
 * and the Level Zero plan on OpenCL (PoCL) when built with OpenCL. They
 * expose per frame the sums of struct gpussim_frame_sums, i.e. the result
 * slots; intermediate planes are not read back (the OpenCL decimations are
 * compared per element by test_opencl_kernels). Exit 77 when no backend
 * but the CPU can run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/backends.h"
#include "src/core.h"
#include "kernels/c/kernels.h"
#include "src/mem.h"
#include "tests/lib/testutil.h"
#if HAVE_OPENCL_TEST
#include "tests/lib/opencl_ops.h"
#endif

/* ---- the reference: the plan on the CPU kernels ------------------------------ */

/* ladder 0: the pair walk; ladder 1: the reference walked once
 * (gpussim_plan_run_ref_c), then dis against it twice, the second walk's
 * sums in *sums (the first must leave the reference's terms intact). */
static int reference_sums(const struct gpussim_config *cfg, const struct gpussim_picture *ref,
                          const struct gpussim_picture *dis, int ladder,
                          struct gpussim_frame_sums *sums)
{
    const struct gpussim_plan *plan = &cfg->plan;
    const size_t luma = (size_t)cfg->plane[0].width * cfg->plane[0].height;
    struct gpussim_plan_buffers_c b;
    uint16_t *raw[2] = { NULL, NULL };
    float *terms = NULL;
    size_t nb_terms = 1;
    int err = -ENOMEM;
    memset(&b, 0, sizeof(b));
    memset(sums, 0, sizeof(*sums));
    for (int p = 0; p < cfg->nb_planes; p++) {
        const size_t n = gpussim_plan_ref_size_c(plan, p);
        nb_terms = n > nb_terms ? n : nb_terms;
    }
    if (ladder && !(terms = malloc(nb_terms * sizeof(float))))
        goto done;
    b.scratch = cpu_scratch_alloc(cfg->plane[0].width, cfg->plane[0].height);
    for (int k = 0; k < 2; k++) {
        b.f[k] = malloc(luma * sizeof(float));
        b.d[k] = malloc(luma * sizeof(float));
        raw[k] = malloc(luma * sizeof(uint16_t));
        if (!b.f[k] || !b.d[k] || !raw[k])
            goto done;
    }
    if (!b.scratch)
        goto done;
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        if (st->kind != GPUSSIM_STAGE_UNPACK)
            continue;
        gpussim_plan_unpack_c(st, ref, raw[0]);
        gpussim_plan_unpack_c(st, dis, raw[1]);
        const uint16_t *const r[2] = { raw[0], raw[1] };
        if (!ladder) {
            gpussim_plan_run_plane_c(plan, st->plane, r, &b, sums);
            continue;
        }
        struct gpussim_plan_ref_c rt;
        struct gpussim_frame_sums first;
        gpussim_plan_run_ref_c(plan, st->plane, raw[0], &b, terms, &rt);
        gpussim_plan_run_dis_c(plan, st->plane, &rt, raw[1], &b, &first);
        gpussim_plan_run_dis_c(plan, st->plane, &rt, raw[1], &b, sums);
    }
    err = 0;
done:
    free(terms);
    for (int k = 0; k < 2; k++) {
        free(b.f[k]);
        free(b.d[k]);
        free(raw[k]);
    }
    cpu_scratch_free(&b.scratch);
    return err;
}

/* ---- backends ------------------------------------------------------------------ */

/* One frame through a backend's vtable: 1 and *sums, TEST_SKIP without a
 * device (init's -ENODEV), < 0 on failure. */
static int backend_sums(const struct gpussim_backend *be, const struct gpussim_config *cfg,
                        const struct gpussim_picture *ref, const struct gpussim_picture *dis,
                        struct gpussim_frame_sums *sums)
{
    void *priv = NULL;
    int nb_slots = 0;
    /* not probe(): it is AUTO's check and refuses CPU implementations
     * (lavapipe) that asking by name accepts */
    int err = be->init(cfg, &priv, &nb_slots);
    if (err == -ENODEV)
        return TEST_SKIP;
    if (err < 0)
        return err;
    err = be->submit(priv, 0, ref, dis);
    if (err >= 0)
        err = be->wait(priv, 0, 1, sums);
    be->uninit(&priv);
    return err < 0 ? err : 1;
}

#if HAVE_OPENCL_TEST
static struct cl_env cl;
static int cl_state; /* 0 untried, 1 ready, -1 unusable */

static int opencl_sums(const struct gpussim_config *cfg, const struct gpussim_picture *ref,
                       const struct gpussim_picture *dis, struct gpussim_frame_sums *sums)
{
    if (!cl_state) {
        const int r = cl_setup(&cl);
        /* a device whose program does not build is a failure, not a skip
         * (GPUSSIM_SRCDIR names the sources when the test runs elsewhere) */
        CHECK(r == 0 || r == TEST_SKIP, "ze-plan on OpenCL: the device '%s' is there but the "
              "kernels could not be set up (see above)", cl.device_name);
        cl_state = r == 0 ? 1 : -1;
    }
    if (cl_state < 0)
        return TEST_SKIP;
    const struct ze_plan_ops ops = cl_ops(&cl);
    ZePlan *plan = NULL;
    int err = ze_plan_create(&plan, cfg, &ops, 1);
    if (err >= 0)
        err = ze_plan_record_host(plan, 0, ref, dis);
    if (err >= 0)
        err = clFinish(cl.queue) == CL_SUCCESS ? 0 : -EIO;
    if (err >= 0)
        ze_plan_collect(plan, 0, sums);
    ze_plan_destroy(&plan);
    return err < 0 ? err : 1;
}
#endif

/* ---- comparison ------------------------------------------------------------------ */

#define NB_TARGETS 8
static const char *target_name[NB_TARGETS];
static const struct gpussim_backend *target_vtable[NB_TARGETS]; /* NULL: the OpenCL plan */
static int nb_targets, target_ran[NB_TARGETS];
static long slots_compared[NB_TARGETS], slots_identical[NB_TARGETS], means_identical[NB_TARGETS],
    means_compared[NB_TARGETS];
static int verbose;

static int same_bits(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* Every result slot of the plan: backend t vs the reference. */
static void compare_slots(int t, const char *desc, const struct gpussim_config *cfg,
                          const struct gpussim_frame_sums *want, const struct gpussim_frame_sums *got)
{
    const struct gpussim_plan *plan = &cfg->plan;
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *r = &plan->stage[i];
        if (r->kind != GPUSSIM_STAGE_REDUCE)
            continue;
        const struct gpussim_plan_stage *src = &plan->stage[r->producer];
        double a[4], b[4];
        gpussim_plan_load(r, want, a);
        gpussim_plan_load(r, got, b);
        char where[192];
        snprintf(where, sizeof(where), "%s plane %d stage %d %s scale %d", desc, r->plane,
                 r->producer, gpussim_stage_name(src->kind), r->scale);
        int identical = 1;
        if (r->slot == GPUSSIM_RESULT_ANSNR) {
            identical = same_bits(a[0], b[0]) && same_bits(a[1], b[1]);
            CHECK(identical, "%s: %s ANSNR totals sig %.9g / %.9g noise %.9g / %.9g not bit-identical",
                  target_name[t], where, a[0], b[0], a[1], b[1]);
        } else if (r->slot == GPUSSIM_RESULT_ISSIM) {
            identical = same_bits(a[0], b[0]) && same_bits(a[1], b[1]);
            const double d = fabs(a[0] / a[1] - b[0] / b[1]);
            CHECK(same_bits(a[1], b[1]), "%s: %s integer SSIM weight %.17g, reference %.17g",
                  target_name[t], where, b[1], a[1]);
            CHECK(d <= 1e-9, "%s: %s integer SSIM %.17g, reference %.17g (diff %.3g > 1e-9)",
                  target_name[t], where, b[0] / b[1], a[0] / a[1], d);
        } else {
            /* the window sums the stage's results use (a backend may leave
             * the others out: src/plan.h, GPUSSIM_SUM_*) */
            for (int f = r->slot == GPUSSIM_RESULT_SSIM ? 0 : 1; f < 4; f++) {
                if (!(src->sums & (1u << f)))
                    continue;
                const double d = fabs(a[f] - b[f]) / r->windows;
                identical &= same_bits(a[f], b[f]);
                means_compared[t]++;
                means_identical[t] += (float)(a[f] / r->windows) == (float)(b[f] / r->windows);
                CHECK(d <= 1e-9, "%s: %s field %d sum %.17g, reference %.17g (%.3g per window)",
                      target_name[t], where, f, b[f], a[f], d);
            }
        }
        slots_compared[t]++;
        slots_identical[t] += identical;
        if (verbose)
            printf("    %-8s %s: %s\n", target_name[t], where, identical ? "identical" : "within");
    }
}

struct stage_case {
    int w, h, bd;
    enum gpussim_chroma chroma;
    enum gpussim_packing packing;
    int msb, scale;
    enum gpussim_planes planes;
    unsigned metrics;
    int no_lcs; /* enable_lcs off: the window stages sum only what the scores use */
};

static void run_case(const struct stage_case *c, uint64_t seed)
{
    const struct gpussim_format fmt = { .width = c->w, .height = c->h, .bit_depth = c->bd,
                                        .chroma = c->chroma, .packing = c->packing,
                                        .msb_aligned = c->msb };
    struct test_frame ref, dis;
    struct test_packed pr, pd;
    struct gpussim_params p;
    struct gpussim_config cfg;
    gpussim_default_params(&p);
    p.format = fmt;
    p.metrics = c->metrics;
    p.ssim_scale = c->scale;
    p.planes = c->planes;
    p.enable_lcs = !c->no_lcs;
    p.threads = 1;
    p.log_cb = test_log_cb;
    test_frame_alloc(&ref, &fmt);
    test_frame_alloc(&dis, &fmt);
    test_fill(&ref, c->bd, PATTERN_GRADIENT, seed);
    test_distort(&ref, &dis, c->bd, (1 << c->bd) / 16, seed + 1);
    test_pack(&ref, &fmt, &pr);
    test_pack(&dis, &fmt, &pd);

    char desc[96];
    snprintf(desc, sizeof(desc), "%dx%d %db %s%s scale=%d%s%s", c->w, c->h, c->bd,
             c->packing == GPUSSIM_PACKING_PLANAR          ? "planar"
             : c->packing == GPUSSIM_PACKING_SEMIPLANAR_UV ? "uv"
                                                           : "vu",
             c->msb ? " msb" : "", c->scale, c->planes == GPUSSIM_PLANES_ALL ? " all planes" : "",
             c->no_lcs ? " enable_lcs=0" : "");
    int err = gpussim_config_init(&cfg, &p);
    CHECK(err == 0, "%s: config: %d (%s)", desc, err, test_last_error);
    if (err < 0)
        goto done;

    /* the reference walker is the CPU backend, bit for bit */
    struct gpussim_frame_sums want;
    CHECK(reference_sums(&cfg, &pr.pic, &pd.pic, 0, &want) == 0, "%s: reference: out of memory", desc);
    {
        /* the ladder walk (the reference's terms once) = the pair walk, bit for bit */
        struct gpussim_frame_sums lad;
        int same = 0;
        CHECK(reference_sums(&cfg, &pr.pic, &pd.pic, 1, &lad) == 0, "%s: ladder: out of memory",
              desc);
        for (int i = 0; i < cfg.plan.nb_stages; i++) {
            const struct gpussim_plan_stage *r = &cfg.plan.stage[i];
            double a[4], l[4];
            if (r->kind != GPUSSIM_STAGE_REDUCE)
                continue;
            gpussim_plan_load(r, &want, a);
            gpussim_plan_load(r, &lad, l);
            int ok = 1;
            for (int f = 0; f < 4; f++)
                ok &= same_bits(a[f], l[f]);
            same += ok;
            CHECK(ok, "%s: ladder walk, plane %d %s scale %d: %.17g %.17g %.17g %.17g, pair walk "
                  "%.17g %.17g %.17g %.17g", desc, r->plane,
                  gpussim_stage_name(cfg.plan.stage[r->producer].kind), r->scale, l[0], l[1],
                  l[2], l[3], a[0], a[1], a[2], a[3]);
        }
        printf("  %-40s ladder walk = pair walk: %d/%d result slots\n", desc, same,
               cfg.plan.nb_results);
    }
    {
        double *cpu = NULL;
        char **names = NULL;
        const int n = test_score(&p, &pr.pic, &pd.pic, 1, &cpu, &names);
        CHECK(n == gpussim_scores_count(&cfg), "%s: CPU backend: %d scores (%s)", desc, n,
              test_last_error);
        if (n == gpussim_scores_count(&cfg)) {
            double *v = calloc((size_t)n, sizeof(*v));
            gpussim_scores_finish(&cfg, &want, v);
            int same = 0;
            for (int k = 0; k < n; k++) {
                /* integer ssim: the CPU backend's kernel is cloned per ISA
                 * (target_clones), whose float sums may round differently
                 * from the walker's build: the spec's 1e-9 applies */
                const int issim = !strncmp(names[k], "ssim", 4);
                same += same_bits(v[k], cpu[k]);
                CHECK(same_bits(v[k], cpu[k]) || (issim && fabs(v[k] - cpu[k]) <= 1e-9),
                      "%s: plan walker %s = %.17g, CPU backend %.17g", desc, names[k], v[k],
                      cpu[k]);
            }
            printf("  %-40s %2d stages, %2d result slots; plan walker = CPU backend: %d/%d scores\n",
                   desc, cfg.plan.nb_stages, cfg.plan.nb_results, same, n);
            free(v);
        }
        free(cpu);
        test_free_names(names, n);
    }

    for (int t = 0; t < nb_targets; t++) {
        struct gpussim_frame_sums got;
        int r = TEST_SKIP;
        memset(&got, 0, sizeof(got));
#if HAVE_OPENCL_TEST
        if (t == nb_targets - 1)
            r = opencl_sums(&cfg, &pr.pic, &pd.pic, &got);
        else
#endif
            r = backend_sums(target_vtable[t], &cfg, &pr.pic, &pd.pic, &got);
        if (r == TEST_SKIP)
            continue;
        CHECK(r == 1, "%s: %s failed: %d (%s)", desc, target_name[t], r, test_last_error);
        if (r != 1)
            continue;
        target_ran[t] = 1;
        compare_slots(t, desc, &cfg, &want, &got);
    }
done:
    test_packed_free(&pr);
    test_packed_free(&pd);
    test_frame_free(&ref);
    test_frame_free(&dis);
}

int main(void)
{
    static const struct stage_case cases[] = {
        { 192, 176, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0, 1, GPUSSIM_PLANES_LUMA, 0,
          0 },
        { 193, 181, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0, 2, GPUSSIM_PLANES_LUMA, 0,
          1 },
        { 416, 240, 10, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0, 0, GPUSSIM_PLANES_LUMA, 0,
          0 },
        { 355, 363, 10, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_UV, 1, 1, GPUSSIM_PLANES_ALL,
          0, 0 },
        { 366, 354, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_SEMIPLANAR_VU, 0, 3, GPUSSIM_PLANES_ALL,
          0, 1 },
        { 360, 360, 12, GPUSSIM_CHROMA_444, GPUSSIM_PACKING_PLANAR, 0, 1, GPUSSIM_PLANES_ALL, 0,
          0 },
        { 200, 190, 16, GPUSSIM_CHROMA_422, GPUSSIM_PACKING_PLANAR, 0, 1, GPUSSIM_PLANES_LUMA, 0,
          0 },
        { 64, 48, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0, 1, GPUSSIM_PLANES_LUMA,
          GPUSSIM_METRIC_ALL & ~GPUSSIM_METRIC_FLOAT_MS_SSIM, 0 },
        /* float_ssim's box decimation at the factors of 1080p (4) and 2160p
         * (8): rows read as vectors where the width allows it (260, 360),
         * sample by sample where it does not (259, 362 and their chroma) */
        { 260, 204, 10, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0, 4, GPUSSIM_PLANES_LUMA,
          GPUSSIM_METRIC_FLOAT_SSIM, 0 },
        { 259, 206, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0, 4, GPUSSIM_PLANES_LUMA,
          GPUSSIM_METRIC_FLOAT_SSIM, 1 },
        { 360, 200, 8, GPUSSIM_CHROMA_444, GPUSSIM_PACKING_PLANAR, 0, 8, GPUSSIM_PLANES_LUMA,
          GPUSSIM_METRIC_FLOAT_SSIM, 0 },
        { 362, 210, 16, GPUSSIM_CHROMA_422, GPUSSIM_PACKING_PLANAR, 0, 8, GPUSSIM_PLANES_ALL,
          GPUSSIM_METRIC_FLOAT_SSIM, 0 },
    };
    const char *v = getenv("GPUSSIM_STAGES_VERBOSE");
    verbose = v && *v == '1';

    for (int i = 0; i < GPUSSIM_NB_BACKENDS && nb_targets < NB_TARGETS - 1; i++) {
        const struct gpussim_backend_info *b = &gpussim_backend_table[i];
        /* the targets are the GPU backends built here */
        if (b->type == GPUSSIM_BACKEND_CPU || !b->vtable)
            continue;
        target_vtable[nb_targets] = b->vtable;
        target_name[nb_targets++] = b->name;
    }
#if HAVE_OPENCL_TEST
    target_name[nb_targets++] = "ze-plan on OpenCL";
#endif

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_case(&cases[i], 1000 + 17 * i);

    int ran = 0;
    for (int t = 0; t < nb_targets; t++) {
        if (!target_ran[t]) {
            printf("%-18s skipped (no device)\n", target_name[t]);
            continue;
        }
        ran++;
        printf("%-18s %ld result slots within tolerance, %ld bit-identical; window means %ld/%ld "
               "bit-identical\n",
               target_name[t], slots_compared[t], slots_identical[t], means_identical[t],
               means_compared[t]);
    }
    const int status = test_summary();
    if (!ran && !status) {
        printf("SKIP: no backend but the CPU reference can run\n");
        return TEST_SKIP;
    }
    return status;
}
