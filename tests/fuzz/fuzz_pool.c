/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * libFuzzer target: the pool's serialised form. Input starting with
 * "gpussim-pool" is parsed: when accepted, serialising the pool again must
 * give the same bytes (the form is canonical) and the statistics must be
 * consistent. Any other input is a sequence of doubles added to a pool,
 * which must survive serialise + parse with the same statistics to the bit,
 * and a self-merge must double it.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpussim/gpussim.h>

#define FUZZ_TARGET "fuzz_pool"
#include "fuzz_common.h"

static int same(double a, double b)
{
    return !memcmp(&a, &b, sizeof(a));
}

static void check_stats(const GpussimPool *p, uint64_t count)
{
    struct gpussim_pool_stats st;
    REQUIRE(gpussim_pool_stats(p, &st) == 0 && st.count == count, "count %llu", (unsigned long long)st.count);
    if (!count)
        return;
    REQUIRE(st.min <= st.max, "min %g > max %g", st.min, st.max);
    /* the mean is the correctly rounded sum divided by the count: two
     * roundings, so it may leave [min, max] by an ulp (3 copies of v) */
    REQUIRE(isnan(st.mean) || isinf(st.mean) ||
                (st.mean >= nextafter(nextafter(st.min, -INFINITY), -INFINITY) &&
                 st.mean <= nextafter(nextafter(st.max, INFINITY), INFINITY)),
            "mean %.17g outside [%.17g, %.17g]", st.mean, st.min, st.max);
    double q;
    REQUIRE(gpussim_pool_percentile(p, 50, &q) == 0, "median");
    REQUIRE(isnan(q) || (q >= st.min && q <= st.max), "median %.17g outside [min, max]", q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    GpussimPool *p = NULL, *back = NULL;
    char *blob = NULL;
    size_t len = 0;

    if (size >= 12 && !memcmp(data, "gpussim-pool", 12)) {
        last_error[0] = 0;
        const int err = gpussim_pool_deserialize2(&p, (const char *)data, size, log_cb, NULL);
        if (err < 0) {
            REQUIRE(err == -EINVAL && !p && last_error[0], "deserialize: %d '%s'", err, last_error);
            return 0;
        }
        struct gpussim_pool_stats st;
        gpussim_pool_stats(p, &st);
        check_stats(p, st.count);
        REQUIRE(gpussim_pool_serialize(p, &blob, &len) == 0, "serialize");
        REQUIRE(len == size && !memcmp(blob, data, size), "not canonical: %zu bytes in, %zu out", size, len);
        goto done;
    }

    REQUIRE(gpussim_pool_create(&p) == 0, "create");
    uint64_t count = 0;
    for (size_t i = 0; i + 8 <= size && i < 8 * 4096; i += 8) {
        double v;
        memcpy(&v, data + i, sizeof(v));
        const int err = gpussim_pool_add(p, v);
        const int refused = isnan(v) ? -EINVAL : isfinite(v) && fabs(v) > 0x1p900 ? -ERANGE : 0;
        REQUIRE(err == refused, "add %g: %d, expected %d", v, err, refused);
        count += !refused;
    }
    check_stats(p, count);
    REQUIRE(gpussim_pool_serialize(p, &blob, &len) == 0, "serialize");
    REQUIRE(gpussim_pool_deserialize2(&back, blob, len, log_cb, NULL) == 0, "parse back: %s", last_error);
    struct gpussim_pool_stats a, b;
    gpussim_pool_stats(p, &a);
    gpussim_pool_stats(back, &b);
    REQUIRE(a.count == b.count && same(a.mean, b.mean) && same(a.harmonic_mean, b.harmonic_mean) &&
                same(a.min, b.min) && same(a.max, b.max),
            "round trip changed the statistics");
    REQUIRE(gpussim_pool_merge(back, back) == 0, "self merge");
    check_stats(back, 2 * count);
    gpussim_pool_stats(back, &b);
    /* a doubled pool has the same mean (exact sums: 2s / 2n rounds as s / n) */
    REQUIRE(same(a.mean, b.mean) || (isnan(a.mean) && isnan(b.mean)), "self merge mean %.17g vs %.17g", b.mean,
            a.mean);
done:
    free(blob);
    gpussim_pool_destroy(&p);
    gpussim_pool_destroy(&back);
    return 0;
}
