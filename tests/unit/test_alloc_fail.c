/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Allocation-failure walk (dav1d style): the library's allocations and
 * thread starts all go through src/mem.c, which can fail the n-th one. For
 * every n along a scenario (two CPU contexts created, the second a ladder of
 * two distorted pictures per reference, frames submitted and
 * collected, contexts destroyed; pools created, grown, merged, self-merged,
 * serialised and parsed back), the scenario runs with the n-th allocation
 * failing and must:
 *   - report exactly -ENOMEM from the call that needed it (with a logged
 *     message where the call has a log callback), without crashing;
 *   - leave what it failed on unchanged (a pool add/merge is all or nothing);
 *   - hold no library allocation once everything is destroyed (the hook
 *     counts allocations and frees; valgrind, when run, checks the rest).
 * The walk ends with the first n the scenario does not reach; that run must
 * give the scores of a run without the hook, bit for bit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/mem.h"
#include "tests/lib/testutil.h"

#define NB_FRAMES 3

struct scenario_result {
    double scores[2][NB_FRAMES][64];
    int nb_scores[2];
    struct gpussim_pool_stats pooled, parsed;
};

static struct gpussim_params ctx_params(int which)
{
    struct gpussim_params p;
    gpussim_default_params(&p);
    p.backend = GPUSSIM_BACKEND_CPU;
    p.log_cb = test_log_cb;
    if (which == 0) {
        /* every metric with lcs: MS-SSIM needs 176x176 */
        p.format = (struct gpussim_format){ .width = 176, .height = 176, .bit_depth = 10 };
        p.enable_lcs = 1;
        p.threads = 2;
        p.max_in_flight = 2;
    } else {
        p.format = (struct gpussim_format){ .width = 64, .height = 48, .bit_depth = 8 };
        p.metrics = GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_FLOAT_ANSNR | GPUSSIM_METRIC_SSIM;
        p.planes = GPUSSIM_PLANES_ALL;
        p.threads = 1;
        p.nb_distorted = 2; /* the CPU backend's ladder: its reference terms */
    }
    return p;
}

/* A failure is fine where an allocation was failed; anything else is not. */
static int expect_nomem(int err, const char *call, int logs)
{
    CHECK(err == -ENOMEM, "%s failed with %d (%s), expected -ENOMEM", call, err, gpussim_strerror(err));
    if (logs)
        CHECK(strstr(test_last_error, "out of memory") || strstr(test_last_error, "cannot start worker thread"),
              "%s: logged \"%s\"", call, test_last_error);
    return err;
}

static int run_contexts(struct test_packed pk[2][2], struct scenario_result *out)
{
    GpussimContext *ctx[2] = { NULL, NULL };
    int err = 0;

    for (int c = 0; c < 2; c++) {
        const struct gpussim_params p = ctx_params(c);
        test_last_error[0] = 0;
        err = gpussim_create(&ctx[c], &p);
        if (err < 0) {
            CHECK(ctx[c] == NULL, "failed create left a handle");
            expect_nomem(err, "gpussim_create", 1);
            goto done;
        }
    }
    for (int c = 0; c < 2; c++) {
        int collected = 0;
        for (int f = 0; f < NB_FRAMES; f++) {
            int64_t idx;
            struct gpussim_result res;
            /* frame f: the pair alternates between identity and distorted;
             * the ladder scores the other one too */
            const struct gpussim_picture *dis[2] = { &pk[c][f & 1].pic, &pk[c][!(f & 1)].pic };
            while ((idx = gpussim_submit_multi(ctx[c], &pk[c][0].pic, dis, gpussim_renditions(ctx[c]))) ==
                   -EAGAIN) {
                CHECK(gpussim_collect(ctx[c], &res, 1) == 1, "collect to make room");
                memcpy(out->scores[c][collected++], res.values, sizeof(double) * (size_t)res.nb_values);
            }
            CHECK(idx == f, "submit %d returned %lld", f, (long long)idx);
        }
        struct gpussim_result res;
        while (gpussim_collect(ctx[c], &res, 1) == 1) {
            out->nb_scores[c] = res.nb_values;
            memcpy(out->scores[c][collected++], res.values, sizeof(double) * (size_t)res.nb_values);
        }
        CHECK(collected == NB_FRAMES, "context %d: %d results", c, collected);
    }
done:
    gpussim_destroy(&ctx[0]);
    gpussim_destroy(&ctx[1]);
    return err;
}

static int same_stats(const struct gpussim_pool_stats *a, const struct gpussim_pool_stats *b)
{
    /* bitwise: an empty pool's statistics are NaN */
    return a->count == b->count && !memcmp(&a->mean, &b->mean, sizeof(double)) &&
           !memcmp(&a->harmonic_mean, &b->harmonic_mean, sizeof(double)) &&
           !memcmp(&a->min, &b->min, sizeof(double)) && !memcmp(&a->max, &b->max, sizeof(double));
}

static int run_pools(struct scenario_result *out)
{
    GpussimPool *a = NULL, *b = NULL, *c = NULL;
    struct gpussim_pool_stats before, after;
    char *blob = NULL;
    size_t len = 0;
    double q;
    int err;

    err = gpussim_pool_create(&a);
    if (err < 0) {
        CHECK(a == NULL, "failed pool create left a handle");
        expect_nomem(err, "gpussim_pool_create", 0);
        goto done;
    }
    /* past the first 256-value block, with sums whose expansions grow */
    for (int i = 0; i < 300; i++) {
        gpussim_pool_stats(a, &before);
        err = gpussim_pool_add(a, (i % 7 ? 0.5 : 1e-9) + i * 1e-3 * (i & 1 ? 1 : -1));
        if (err < 0) {
            expect_nomem(err, "gpussim_pool_add", 0);
            gpussim_pool_stats(a, &after);
            CHECK(same_stats(&before, &after) && after.count == (uint64_t)i,
                  "a failed add changed the pool (count %llu)", (unsigned long long)after.count);
            goto done;
        }
    }
    err = gpussim_pool_create(&b);
    if (err < 0) {
        expect_nomem(err, "gpussim_pool_create", 0);
        goto done;
    }
    for (int i = 0; i < 10 && err >= 0; i++)
        err = gpussim_pool_add(b, 1.0 / (i + 1));
    if (err < 0) {
        expect_nomem(err, "gpussim_pool_add", 0);
        goto done;
    }
    for (int self = 0; self < 2; self++) {
        gpussim_pool_stats(a, &before);
        err = gpussim_pool_merge(a, self ? a : b);
        if (err < 0) {
            expect_nomem(err, self ? "gpussim_pool_merge(a, a)" : "gpussim_pool_merge", 0);
            gpussim_pool_stats(a, &after);
            CHECK(same_stats(&before, &after), "a failed merge changed the pool");
            goto done;
        }
    }
    err = gpussim_pool_percentile(a, 50, &q);
    if (err < 0) {
        expect_nomem(err, "gpussim_pool_percentile", 0);
        goto done;
    }
    err = gpussim_pool_serialize(a, &blob, &len);
    if (err < 0) {
        expect_nomem(err, "gpussim_pool_serialize", 0);
        goto done;
    }
    test_last_error[0] = 0;
    err = gpussim_pool_deserialize2(&c, blob, len, test_log_cb, NULL);
    if (err < 0) {
        CHECK(c == NULL, "failed deserialize left a pool");
        expect_nomem(err, "gpussim_pool_deserialize2", 1);
        goto done;
    }
    gpussim_pool_stats(a, &out->pooled);
    gpussim_pool_stats(c, &out->parsed);
done:
    free(blob);
    gpussim_pool_destroy(&a);
    gpussim_pool_destroy(&b);
    gpussim_pool_destroy(&c);
    return err;
}

static int scenario(struct test_packed pk[2][2], struct scenario_result *out)
{
    memset(out, 0, sizeof(*out));
    const int err = run_contexts(pk, out);
    if (err < 0)
        return err;
    return run_pools(out);
}

int main(void)
{
    struct test_frame f[2][2];
    struct test_packed pk[2][2];
    for (int c = 0; c < 2; c++) {
        const struct gpussim_params p = ctx_params(c);
        for (int k = 0; k < 2; k++) {
            test_frame_alloc(&f[c][k], &p.format);
            if (k == 0)
                test_fill(&f[c][k], p.format.bit_depth, PATTERN_GRADIENT, 11 + (uint64_t)c);
            else
                test_distort(&f[c][0], &f[c][k], p.format.bit_depth, 9, 23 + (uint64_t)c);
            test_pack(&f[c][k], &p.format, &pk[c][k]);
        }
    }

    /* the reference run, nothing armed */
    struct scenario_result want, got;
    const long live0 = gpussim_internal_alloc_live();
    CHECK(scenario(pk, &want) == 0, "scenario without failures: %s", test_last_error);
    CHECK(want.nb_scores[0] == 23 && want.nb_scores[1] == 2 * 12, "score counts %d, %d (12 x 2 renditions)", want.nb_scores[0],
          want.nb_scores[1]);
    CHECK(gpussim_internal_alloc_live() == live0, "the plain run holds %ld allocations",
          gpussim_internal_alloc_live() - live0);

    long n = 0, failed_runs = 0;
    for (;; n++) {
        const int failed_before = test_failed;
        gpussim_internal_alloc_fail_at(n);
        const int err = scenario(pk, &got);
        const long attempts = gpussim_internal_alloc_attempts();
        gpussim_internal_alloc_fail_at(-1);
        const long held = gpussim_internal_alloc_live() - live0;
        CHECK(held == 0, "allocation %ld failed: %ld allocation(s) leaked", n, held);
        if (attempts <= n) { /* allocation n was never reached: a full run */
            CHECK(err == 0, "full run under the hook failed: %d", err);
            CHECK(!memcmp(got.scores, want.scores, sizeof(want.scores)) &&
                      got.nb_scores[0] == want.nb_scores[0] && got.nb_scores[1] == want.nb_scores[1],
                  "scores under the hook differ");
            CHECK(same_stats(&got.pooled, &want.pooled) && same_stats(&got.parsed, &want.pooled),
                  "pool statistics under the hook differ");
            break;
        }
        CHECK(err == -ENOMEM, "allocation %ld failed but the scenario returned %d", n, err);
        failed_runs++;
        if (test_failed != failed_before)
            printf("    (the failures above: allocation %ld of the scenario failed)\n", n);
    }
    printf("allocation failures injected: %ld (every allocation and thread start of the scenario)\n",
           failed_runs);
    CHECK(failed_runs > 40, "only %ld allocation points: is the hook wired in?", failed_runs);

    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 2; k++) {
            test_packed_free(&pk[c][k]);
            test_frame_free(&f[c][k]);
        }
    return test_summary();
}
