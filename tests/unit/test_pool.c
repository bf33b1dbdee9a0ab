/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Pooling: known sequences give known statistics; merging the pools of two
 * halves equals the pool of the whole, to the last bit; serialisation round
 * trips exactly.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/testutil.h"

static GpussimPool *pool_of(const double *v, int n)
{
    GpussimPool *p = NULL;
    gpussim_pool_create(&p);
    for (int i = 0; i < n; i++)
        gpussim_pool_add(p, v[i]);
    return p;
}

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof(a)) == 0;
}

int main(void)
{
    struct gpussim_pool_stats st;

    /* 1..4: mean 2.5, harmonic_mean (libvmaf's) 4 / (1/2 + 1/3 + 1/4 + 1/5) - 1 */
    {
        const double v[] = { 3, 1, 4, 2 };
        GpussimPool *p = pool_of(v, 4);
        CHECK(gpussim_pool_stats(p, &st) == 0 && st.count == 4, "count");
        CHECK(st.mean == 2.5, "mean %.17g", st.mean);
        const double hm = 4.0 / (1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5) - 1.0;
        CHECK(fabs(st.harmonic_mean - hm) < 1e-15, "harmonic mean %.17g vs %.17g", st.harmonic_mean, hm);
        CHECK(st.min == 1 && st.max == 4, "min/max");
        double q;
        CHECK(gpussim_pool_percentile(p, 50, &q) == 0 && q == 2.5, "median %.17g", q);
        CHECK(gpussim_pool_percentile(p, 0, &q) == 0 && q == 1, "p0");
        CHECK(gpussim_pool_percentile(p, 100, &q) == 0 && q == 4, "p100");
        CHECK(gpussim_pool_percentile(p, 25, &q) == 0 && q == 1.75, "p25 (linear) %.17g", q);
        CHECK(gpussim_pool_percentile(p, 101, &q) == -EINVAL, "q out of range");
        gpussim_pool_destroy(&p);
        CHECK(p == NULL, "destroy clears");
    }

    /* exact sums: a naive left-to-right double sum of this is 0, the true sum 2 */
    {
        const double v[] = { 1e100, 1.0, -1e100, 1.0 };
        GpussimPool *p = pool_of(v, 4);
        gpussim_pool_stats(p, &st);
        CHECK(st.mean == 0.5, "exact mean %.17g, want 0.5", st.mean);
        gpussim_pool_destroy(&p);
    }

    /* merge of two halves == whole, bitwise, on values whose sum is order-sensitive */
    {
        enum { N = 1001 };
        double *v = malloc(sizeof(double) * N);
        uint64_t s = 42;
        for (int i = 0; i < N; i++)
            v[i] = 0.9 + (double)test_rand(&s) / 4294967296.0 * 0.1 * (i % 7 ? 1 : 1e-9);
        GpussimPool *whole = pool_of(v, N), *a = pool_of(v, 500), *b = pool_of(v + 500, N - 500);
        CHECK(gpussim_pool_merge(a, b) == 0, "merge");
        struct gpussim_pool_stats sw, sm;
        gpussim_pool_stats(whole, &sw);
        gpussim_pool_stats(a, &sm);
        CHECK(sw.count == sm.count && same_bits(sw.mean, sm.mean) &&
                  same_bits(sw.harmonic_mean, sm.harmonic_mean) && sw.min == sm.min && sw.max == sm.max,
              "merged halves differ from the whole: mean %.17g vs %.17g", sm.mean, sw.mean);
        /* reverse merge order gives the same bits too */
        GpussimPool *c = pool_of(v + 500, N - 500), *d = pool_of(v, 500);
        gpussim_pool_merge(c, d);
        struct gpussim_pool_stats sr;
        gpussim_pool_stats(c, &sr);
        CHECK(same_bits(sr.mean, sw.mean) && same_bits(sr.harmonic_mean, sw.harmonic_mean),
              "reverse merge differs");
        double q1, q2;
        gpussim_pool_percentile(whole, 95, &q1);
        gpussim_pool_percentile(c, 95, &q2);
        CHECK(q1 == q2, "p95 after merge");

        /* serialise / deserialise: exact */
        char *buf = NULL;
        size_t len = 0;
        CHECK(gpussim_pool_serialize(whole, &buf, &len) == 0 && len > 0, "serialize");
        GpussimPool *back = NULL;
        CHECK(gpussim_pool_deserialize(&back, buf, len) == 0, "deserialize");
        struct gpussim_pool_stats sb;
        gpussim_pool_stats(back, &sb);
        CHECK(sb.count == sw.count && same_bits(sb.mean, sw.mean) && sb.min == sw.min,
              "round trip changed the pool");
        gpussim_pool_destroy(&back);
        CHECK(gpussim_pool_deserialize(&back, "not a pool", 10) == -EINVAL && back == NULL,
              "garbage is refused");
        free(buf);
        gpussim_pool_destroy(&back);
        gpussim_pool_destroy(&whole), gpussim_pool_destroy(&a), gpussim_pool_destroy(&b);
        gpussim_pool_destroy(&c), gpussim_pool_destroy(&d);
        free(v);
    }

    /* merging a pool into itself gives every value twice (and terminates) */
    {
        const double v[] = { 1, 2, 4 }, twice[] = { 1, 2, 4, 1, 2, 4 };
        GpussimPool *p = pool_of(v, 3), *ref = pool_of(twice, 6);
        CHECK(gpussim_pool_merge(p, p) == 0, "self merge");
        struct gpussim_pool_stats sr;
        gpussim_pool_stats(p, &st);
        gpussim_pool_stats(ref, &sr);
        CHECK(st.count == 6 && same_bits(st.mean, sr.mean) && st.mean == 14.0 / 6 &&
                  same_bits(st.harmonic_mean, sr.harmonic_mean) && st.min == 1 && st.max == 4,
              "self merge: count %llu mean %.17g", (unsigned long long)st.count, st.mean);
        double q;
        CHECK(gpussim_pool_percentile(p, 50, &q) == 0 && q == 2, "self merge median %.17g", q);
        CHECK(gpussim_pool_percentile(p, 100, &q) == 0 && q == 4, "self merge max");
        /* once more: 12 values, the pool's internal storage grows past its first block */
        for (int i = 0; i < 7; i++)
            CHECK(gpussim_pool_merge(p, p) == 0, "self merge %d", i);
        gpussim_pool_stats(p, &st);
        CHECK(st.count == 6 << 7 && st.mean == 14.0 / 6, "7 more self merges: count %llu mean %.17g",
              (unsigned long long)st.count, st.mean);
        gpussim_pool_destroy(&p);
        gpussim_pool_destroy(&ref);
    }

    /* empty pools merge into empty pools (no storage yet: fuzz_pool found a
     * memcpy from NULL there, undefined behaviour under UBSan) */
    {
        GpussimPool *a = NULL, *b = NULL;
        gpussim_pool_create(&a);
        gpussim_pool_create(&b);
        CHECK(gpussim_pool_merge(a, b) == 0 && gpussim_pool_merge(a, a) == 0, "empty merges");
        gpussim_pool_stats(a, &st);
        CHECK(st.count == 0 && isnan(st.mean), "empty after empty merges");
        gpussim_pool_add(b, 0.25);
        CHECK(gpussim_pool_merge(a, b) == 0, "merge into empty");
        gpussim_pool_stats(a, &st);
        CHECK(st.count == 1 && st.mean == 0.25, "merge into empty: %.17g", st.mean);
        gpussim_pool_destroy(&a);
        gpussim_pool_destroy(&b);
    }

    /* the serialised form: version, count, the values' bits, CRC-32 (zlib's) */
    {
        const double v[] = { 1.5, 3.0 };
        GpussimPool *p = pool_of(v, 2), *back = NULL;
        char *buf = NULL;
        size_t len = 0;
        static const char want[] = "gpussim-pool 2 2\n3ff8000000000000\n4008000000000000\ncrc32 1329887b\n";
        CHECK(gpussim_pool_serialize(p, &buf, &len) == 0 && len == strlen(want) && !strcmp(buf, want),
              "serialised form:\n%s", buf ? buf : "(null)");
        CHECK(gpussim_pool_deserialize2(&back, buf, len, test_log_cb, NULL) == 0, "round trip");
        gpussim_pool_stats(back, &st);
        CHECK(st.count == 2 && st.mean == 2.25, "round trip mean %.17g", st.mean);
        gpussim_pool_destroy(&back);

        /* truncated at every byte: refused, with a logged reason, never a pool */
        int refused = 0;
        for (size_t n = 0; n < len; n++) {
            test_last_error[0] = 0;
            back = (GpussimPool *)(uintptr_t)1;
            const int ret = gpussim_pool_deserialize2(&back, buf, n, test_log_cb, NULL);
            refused += ret == -EINVAL && back == NULL && test_last_error[0];
        }
        CHECK(refused == (int)len, "truncations refused: %d of %zu", refused, len);
        test_last_error[0] = 0;
        CHECK(gpussim_pool_deserialize2(&back, buf, len - 20, test_log_cb, NULL) == -EINVAL &&
                  strstr(test_last_error, "pool blob: 29 bytes follow the header; 2 values need 49: "
                                          "the blob is truncated or extended"),
              "truncation message: %s", test_last_error);
        /* one byte more */
        char *longer = malloc(len + 1);
        memcpy(longer, buf, len);
        longer[len] = '\n';
        CHECK(gpussim_pool_deserialize(&back, longer, len + 1) == -EINVAL && !back, "extended blob");
        /* every single-byte corruption at every position */
        refused = 0;
        int tried = 0;
        for (size_t i = 0; i < len; i++)
            for (int x = 1; x < 256; x++) {
                memcpy(longer, buf, len);
                longer[i] = (char)(longer[i] ^ x);
                refused += gpussim_pool_deserialize(&back, longer, len) == -EINVAL && !back;
                tried++;
                gpussim_pool_destroy(&back);
            }
        CHECK(refused == tried, "single-byte corruptions refused: %d of %d", refused, tried);
        memcpy(longer, buf, len);
        longer[20] ^= 1; /* a value bit */
        CHECK(gpussim_pool_deserialize2(&back, longer, len, test_log_cb, NULL) == -EINVAL &&
                  strstr(test_last_error, "checksum mismatch (stored crc32 1329887b, computed "),
              "corrupted value: %s", test_last_error);
        free(longer);
        free(buf);
        gpussim_pool_destroy(&p);

        /* the blob: version 1, "0x1.8p+1" cut to "0x1.8p" (was read as 1.5) */
        static const char v1[] = "gpussim-pool 1 1\n0x1.8p";
        CHECK(gpussim_pool_deserialize2(&back, v1, strlen(v1), test_log_cb, NULL) == -EINVAL && !back &&
                  strstr(test_last_error, "format version 1 is not supported"),
              "version 1: %s", test_last_error);
        /* a count no blob of this length can hold: refused before allocating */
        static const char huge[] = "gpussim-pool 2 18446744073709551615\ncrc32 b568d6bf\n";
        CHECK(gpussim_pool_deserialize2(&back, huge, strlen(huge), test_log_cb, NULL) == -EINVAL &&
                  !back && strstr(test_last_error, "18446744073709551615 values cannot fit"),
              "huge count: %s", test_last_error);
        static const char over[] = "gpussim-pool 2 18446744073709551616\ncrc32 00000000\n";
        CHECK(gpussim_pool_deserialize2(&back, over, strlen(over), test_log_cb, NULL) == -EINVAL &&
                  strstr(test_last_error, "malformed header"),
              "count overflow: %s", test_last_error);
        /* a NaN with a valid checksum */
        static const char nan[] = "gpussim-pool 2 1\n7ff8000000000000\ncrc32 5f1ec6d2\n";
        CHECK(gpussim_pool_deserialize2(&back, nan, strlen(nan), test_log_cb, NULL) == -EINVAL &&
                  strstr(test_last_error, "value 0 is NaN"),
              "NaN value: %s", test_last_error);
        CHECK(gpussim_pool_deserialize2(&back, NULL, 3, test_log_cb, NULL) == -EINVAL, "NULL buffer");
    }

    /* edge cases */
    {
        GpussimPool *p = NULL;
        gpussim_pool_create(&p);
        gpussim_pool_stats(p, &st);
        CHECK(st.count == 0 && isnan(st.mean), "empty pool: NaN mean");
        double q;
        CHECK(gpussim_pool_percentile(p, 50, &q) == -EINVAL, "empty percentile");
        CHECK(gpussim_pool_add(p, NAN) == -EINVAL, "NaN refused");
        CHECK(gpussim_pool_add(p, INFINITY) == 0, "inf accepted (dB of a perfect frame)");
        CHECK(gpussim_pool_add(p, 0x1p901) == -ERANGE && gpussim_pool_add(p, -DBL_MAX) == -ERANGE,
              "finite values beyond 2^900 refused (their exact sums could overflow)");
        gpussim_pool_add(p, 20.0);
        gpussim_pool_stats(p, &st);
        CHECK(isinf(st.mean) && st.min == 20.0 && isinf(st.max), "inf makes the mean infinite");
        gpussim_pool_destroy(&p);
    }
    return test_summary();
}
