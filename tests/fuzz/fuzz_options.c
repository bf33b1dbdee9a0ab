/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * libFuzzer target: the CLI's command line and feature strings
 * (tools/options.c). The input is split at NUL bytes into arguments after
 * "gpussim". What must hold: no crash; an accepted command line names both
 * inputs and at least one feature; its plan of library contexts has one or
 * two contexts, each with metrics, together exactly the requested features,
 * float_ssim in the first; every requested feature's main key is printed.
 * Then the default-feature rule on a fuzzed frame size keeps integer ssim.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_msg.h"
#include "options.h"

#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz_options: " __VA_ARGS__);                                         \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

static void quiet(const char *level, const char *msg)
{
    (void)level, (void)msg;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    cli_msg_sink = quiet;
    /* --help and --version print to stdout */
    if (!freopen("/dev/null", "w", stdout))
        return 0;
    return 0;
}

#define MAX_ARGS 24

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int initialized;
    if (!initialized) { /* the standalone driver does not call LLVMFuzzerInitialize */
        LLVMFuzzerInitialize(NULL, NULL);
        initialized = 1;
    }
    if (size > 4096)
        return 0;
    char *copy = malloc(size + 1);
    memcpy(copy, data, size);
    copy[size] = '\0';
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)"gpussim";
    for (size_t pos = 0; pos <= size && argc <= MAX_ARGS; pos += strlen(copy + pos) + 1)
        argv[argc++] = copy + pos;
    argv[argc] = NULL;

    struct options o;
    optind = 0; /* glibc: reinitialise getopt */
    const int ret = cli_parse_options(argc, argv, &o);
    if (ret == 0) {
        REQUIRE(o.ref_path && o.dis_path, "inputs");
        unsigned want = 0;
        for (int i = 0; i < FEAT_COUNT; i++)
            if (o.feat[i].requested)
                want |= cli_features[i].metric;
        REQUIRE(want, "no feature requested");
        struct cli_group_plan g[CLI_MAX_GROUPS];
        int n = 0;
        cli_plan_groups(o.feat, g, &n);
        REQUIRE(n >= 1 && n <= CLI_MAX_GROUPS, "%d groups", n);
        unsigned got = 0;
        for (int i = 0; i < n; i++) {
            REQUIRE(g[i].metrics && !(g[i].metrics & got), "group %d metrics 0x%x", i, g[i].metrics);
            REQUIRE(g[i].ssim_scale >= 0 && g[i].ssim_scale <= 10, "scale %d", g[i].ssim_scale);
            got |= g[i].metrics;
        }
        REQUIRE(got == want, "planned 0x%x, requested 0x%x", got, want);
        REQUIRE(!(want & GPUSSIM_METRIC_FLOAT_SSIM) || (g[0].metrics & GPUSSIM_METRIC_FLOAT_SSIM),
                "float_ssim not in the first context");
        static const char *const main_key[FEAT_COUNT] = { "float_ssim", "float_ms_ssim", "float_ansnr", "ssim" };
        for (int i = 0; i < FEAT_COUNT; i++)
            REQUIRE(cli_name_is_printed(main_key[i], o.feat) == o.feat[i].requested, "%s printed?", main_key[i]);

        const struct cli_video_format fmt = { 1 + (int)(size % 300), 1 + (int)((size * 7) % 300), 8,
                                              (enum gpussim_chroma)(size % 4) };
        cli_apply_default_features(&o, &fmt);
        REQUIRE(!o.default_features || o.feat[FEAT_SSIM].requested, "default features lost ssim");
    }
    free(copy);
    return 0;
}
