/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * libFuzzer target: the CLI's command line and feature strings
 * (tools/options.c). The input is split at NUL bytes into arguments after
 * "gpussim". What must hold: no crash; an accepted command line names both
 * inputs; its features (the library's gpussim_use_feature) are known metric
 * bits with valid options, and their canonical string names each of them.
 * Then a context on a fuzzed frame size with those features is either
 * refused or, with the default rule, keeps integer ssim.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli_msg.h"
#include "tools/options.h"

#define FUZZ_TARGET "fuzz_options"
#include "fuzz_common.h"

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

/* Does a canonical spec list (NAME[:opts]|NAME...) name this feature? */
static int names_feature(const char *spec, const char *name)
{
    const size_t n = strlen(name);
    for (const char *t = spec; *t; t += strcspn(t, "|"), t += *t == '|') {
        const size_t len = strcspn(t, ":|");
        if (len == n && !memcmp(t, name, n))
            return 1;
    }
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
        const struct gpussim_params *p = &o.params;
        REQUIRE(!(p->metrics & ~(unsigned)GPUSSIM_METRIC_ALL), "metrics 0x%x", p->metrics);
        REQUIRE(p->ssim_scale >= 0 && p->ssim_scale <= 10, "scale %d", p->ssim_scale);
        REQUIRE((p->features_named & ~p->metrics) == 0, "named 0x%x of 0x%x", p->features_named, p->metrics);
        char spec[512];
        const int n = gpussim_features_string(p, spec, sizeof(spec));
        REQUIRE(n > 0 && (size_t)n < sizeof(spec), "features string %d", n);
        for (int i = 0; gpussim_feature_get(i); i++) {
            const struct gpussim_feature_info *fi = gpussim_feature_get(i);
            REQUIRE(!!(p->metrics & fi->metric) == names_feature(spec, fi->name), "%s in '%s'?", fi->name, spec);
        }

        struct gpussim_params q = *p;
        q.backend = GPUSSIM_BACKEND_CPU;
        q.threads = 1;
        q.log_cb = NULL;
        q.format.width = 1 + (int)(size % 300);
        q.format.height = 1 + (int)((size * 7) % 300);
        q.format.bit_depth = 8;
        q.format.chroma = (enum gpussim_chroma)(size % 4);
        GpussimContext *ctx = NULL;
        if (gpussim_create(&ctx, &q) >= 0) {
            const char *const *names;
            const int nb = gpussim_score_names(ctx, &names);
            REQUIRE(nb > 0, "no scores");
            int has_ssim = 0;
            for (int i = 0; i < nb; i++)
                has_ssim |= !strcmp(names[i], "ssim");
            REQUIRE(p->metrics || has_ssim, "default features lost ssim");
            gpussim_destroy(&ctx);
        }
    }
    free(copy);
    return 0;
}
