/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The CPU reference against libvmaf: every value of every fixture frame, at
 * 8/10/12/16 bits and for the identity pair, must be bit-identical
 * (difference 0.0 at full double precision). Also with several worker
 * thread counts and a single frame in flight.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/testutil.h"

#define FIX_W 576
#define FIX_H 324

static void run_fixture(const char *dir, const char *json, const char *ref_name,
                        const char *dis_name, int bit_depth, int threads, int max_in_flight)
{
    char path[4096];
    struct test_expected exp;
    snprintf(path, sizeof(path), "%s/src01_576x324_3f/%s", dir, json);
    int err = test_expected_load(path, &exp);
    CHECK(err == 0 && exp.nb_frames == 3, "%s: cannot load expected values", json);
    if (err)
        return;

    size_t rsize = 0, dsize = 0;
    snprintf(path, sizeof(path), "%s/src01_576x324_3f/%s", dir, ref_name);
    uint8_t *ref = test_read_file(path, &rsize);
    snprintf(path, sizeof(path), "%s/src01_576x324_3f/%s", dir, dis_name);
    uint8_t *dis = test_read_file(path, &dsize);
    const int bps = bit_depth > 8 ? 2 : 1;
    const size_t frame_size = (size_t)FIX_W * FIX_H * 3 / 2 * bps;
    CHECK(ref && dis && rsize == 3 * frame_size && dsize == 3 * frame_size, "%s: bad yuv files",
          json);
    if (!ref || !dis || rsize != 3 * frame_size || dsize != 3 * frame_size)
        goto done;

    struct gpussim_params p;
    gpussim_default_params(&p);
    p.backend = GPUSSIM_BACKEND_CPU;
    p.format = (struct gpussim_format){ .width = FIX_W, .height = FIX_H, .bit_depth = bit_depth };
    p.enable_lcs = 1;
    p.threads = threads;
    p.max_in_flight = max_in_flight;
    p.log_cb = test_log_cb;

    struct gpussim_picture rp[3], dp[3];
    memset(rp, 0, sizeof(rp));
    memset(dp, 0, sizeof(dp));
    for (int i = 0; i < 3; i++) {
        /* planar 4:2:0: Y, then U, then V */
        const uint8_t *rb = ref + i * frame_size, *db = dis + i * frame_size;
        const size_t ysz = (size_t)FIX_W * FIX_H * bps, csz = ysz / 4;
        rp[i].data[0] = rb, rp[i].data[1] = rb + ysz, rp[i].data[2] = rb + ysz + csz;
        dp[i].data[0] = db, dp[i].data[1] = db + ysz, dp[i].data[2] = db + ysz + csz;
        for (int k = 0; k < 3; k++) {
            rp[i].stride[k] = dp[i].stride[k] = (k ? FIX_W / 2 : FIX_W) * bps;
        }
    }
    double *v = NULL;
    char **names = NULL;
    const int n = test_score(&p, rp, dp, 3, &v, &names);
    CHECK(n == 23, "%s: expected 23 scores per frame, got %d (%s)", json, n, test_last_error);
    int exact = 0, total = 0;
    for (int f = 0; n > 0 && f < 3; f++)
        for (int k = 0; k < n; k++) {
            int found;
            const double want = test_expected_get(&exp, f, names[k], &found);
            CHECK(found, "%s: key %s missing from the fixture", json, names[k]);
            total++;
            exact += v[f * n + k] == want;
            CHECK(v[f * n + k] == want,
                  "%s (threads %d) frame %d %s: got %.17g, libvmaf %.17g (diff %.3g)", json,
                  threads, f, names[k], v[f * n + k], want, v[f * n + k] - want);
        }
    printf("%-30s threads=%d: %d/%d values bit-identical to libvmaf\n", json, threads, exact, total);
    free(v);
    test_free_names(names, n);
done:
    free(ref);
    free(dis);
    test_expected_free(&exp);
}

int main(void)
{
    const char *dir = test_fixtures_dir();
    if (!dir)
        return test_summary();
    static const struct {
        const char *json, *suffix;
        int bd;
    } sets[] = {
        { "expected_8bit.json", "yuv420p", 8 },
        { "expected_10bit.json", "yuv420p10le", 10 },
        { "expected_12bit.json", "yuv420p12le", 12 },
        { "expected_16bit.json", "yuv420p16le", 16 },
    };
    char rn[256], dn[256];
    for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
        snprintf(rn, sizeof(rn), "src01_hrc00_576x324_3f.%s.yuv", sets[i].suffix);
        snprintf(dn, sizeof(dn), "src01_hrc01_576x324_3f.%s.yuv", sets[i].suffix);
        run_fixture(dir, sets[i].json, rn, dn, sets[i].bd, 0, 0);
    }
    /* threads and queue depth must not change a single bit */
    run_fixture(dir, "expected_8bit.json", "src01_hrc00_576x324_3f.yuv420p.yuv",
                "src01_hrc01_576x324_3f.yuv420p.yuv", 8, 1, 1);
    run_fixture(dir, "expected_8bit.json", "src01_hrc00_576x324_3f.yuv420p.yuv",
                "src01_hrc01_576x324_3f.yuv420p.yuv", 8, 3, 2);
    run_fixture(dir, "expected_8bit_identity.json", "src01_hrc00_576x324_3f.yuv420p.yuv",
                "src01_hrc00_576x324_3f.yuv420p.yuv", 8, 0, 0);
    return test_summary();
}
