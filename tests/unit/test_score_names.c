/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The library's names, through the public API only: the scores and terms of
 * a context (gpussim_score_names), which of them are terms
 * (gpussim_score_is_term: the filter's summary and the CLI's plot keep to
 * the others), and every backend name both ways.
 */
#include <stdio.h>
#include <string.h>

#include <gpussim/gpussim.h>

#include "tests/lib/testutil.h"

static int is_score(const char *name)
{
    static const char *const scores[] = { "float_ssim", "float_ms_ssim", "float_ansnr",
                                          "float_anpsnr", "ssim" };
    const size_t len = strcspn(name, ".");
    for (size_t i = 0; i < sizeof(scores) / sizeof(scores[0]); i++)
        if (strlen(scores[i]) == len && !strncmp(name, scores[i], len))
            return 1;
    return 0;
}

static void context_names(void)
{
    struct gpussim_params p;
    gpussim_default_params(&p);
    p.backend = GPUSSIM_BACKEND_CPU;
    p.format = (struct gpussim_format){ .width = 352, .height = 352, .bit_depth = 8,
                                        .chroma = GPUSSIM_CHROMA_420 };
    p.planes = GPUSSIM_PLANES_ALL;
    p.log_cb = test_log_cb;
    CHECK(gpussim_use_feature(&p, "float_ssim:enable_lcs=1") == 0, "float_ssim: %s", test_last_error);
    CHECK(gpussim_use_feature(&p, "float_ms_ssim:enable_lcs=1") == 0, "float_ms_ssim: %s",
          test_last_error);
    CHECK(gpussim_use_feature(&p, "float_ansnr") == 0, "float_ansnr: %s", test_last_error);
    CHECK(gpussim_use_feature(&p, "ssim") == 0, "ssim: %s", test_last_error);
    GpussimContext *ctx = NULL;
    const int err = gpussim_create(&ctx, &p);
    CHECK(err == 0, "create: %d (%s)", err, test_last_error);
    if (err < 0)
        return;
    CHECK(!strcmp(gpussim_backend_name(ctx), gpussim_backend_type_name(GPUSSIM_BACKEND_CPU)),
          "the context's backend is named %s", gpussim_backend_name(ctx));
    const char *const *names = NULL;
    const int n = gpussim_score_names(ctx, &names);
    /* per plane: float_ssim + 3 terms, float_ms_ssim + 15 terms, ansnr,
     * anpsnr, ssim */
    CHECK(n == 3 * 23, "%d score names, expected 69", n);
    int terms = 0, scores = 0;
    for (int i = 0; i < n; i++) {
        const int t = gpussim_score_is_term(names[i]);
        CHECK(t == !is_score(names[i]), "%s: gpussim_score_is_term = %d", names[i], t);
        terms += t;
        scores += !t;
    }
    CHECK(terms == 3 * 18 && scores == 3 * 5, "%d terms and %d scores, expected 54 and 15", terms,
          scores);
    printf("a 4:2:0 context, all planes, every metric with its terms: %d names, %d terms, %d scores\n",
           n, terms, scores);
    gpussim_destroy(&ctx);
}

static void term_edges(void)
{
    static const struct { const char *name; int term; } cases[] = {
        { "float_ssim_l", 1 },          { "float_ssim_s.v", 1 },
        { "float_ms_ssim_c_scale4", 1 }, { "float_ms_ssim_l_scale0.u", 1 },
        { "float_ms_ssim_l_scale5", 0 }, /* there are 5 scales, 0..4 */
        { "float_ms_ssim_x_scale0", 0 }, { "float_ssim_x", 0 },
        { "float_ssim_", 0 },            { "float_ssim_ll", 0 },
        { "float_ssim", 0 },             { "float_ms_ssim.u", 0 },
        { "ssim", 0 },                   { "float_anpsnr", 0 },
        { "vmaf", 0 },                   { "psnr_y", 0 },
        { "", 0 },                       { NULL, 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        CHECK(gpussim_score_is_term(cases[i].name) == cases[i].term, "gpussim_score_is_term(%s) != %d",
              cases[i].name ? cases[i].name : "NULL", cases[i].term);
    printf("gpussim_score_is_term: %zu edge names\n", sizeof(cases) / sizeof(cases[0]));
}

static void backend_names(void)
{
    static const char *const want[] = { "auto", "cpu", "cuda", "vulkan", "hip", "ze" };
    const enum gpussim_backend_type types[] = { GPUSSIM_BACKEND_AUTO, GPUSSIM_BACKEND_CPU,
                                                GPUSSIM_BACKEND_CUDA, GPUSSIM_BACKEND_VULKAN,
                                                GPUSSIM_BACKEND_HIP, GPUSSIM_BACKEND_ZE };
    for (int i = 0; i < 6; i++) {
        const char *name = gpussim_backend_type_name(types[i]);
        enum gpussim_backend_type back = (enum gpussim_backend_type)-1;
        CHECK(name && !strcmp(name, want[i]), "backend %d is named %s, expected %s", (int)types[i],
              name ? name : "NULL", want[i]);
        CHECK(gpussim_backend_from_name(want[i], &back) == 0 && back == types[i],
              "gpussim_backend_from_name(%s) = %d", want[i], (int)back);
    }
    enum gpussim_backend_type t;
    CHECK(gpussim_backend_type_name((enum gpussim_backend_type)99) == NULL, "type 99 has a name");
    CHECK(gpussim_backend_from_name("opencl", &t) < 0, "\"opencl\" is taken for a backend");
    printf("backend names: 6 both ways\n");
}

int main(void)
{
    context_names();
    term_edges();
    backend_names();
    return test_summary();
}
