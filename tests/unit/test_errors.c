/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Every configuration that cannot work fails at create time with the right
 * error code and a message naming the limit; bad calls fail cleanly.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/testutil.h"

static struct gpussim_params base(int w, int h, int bd)
{
    struct gpussim_params p;
    gpussim_default_params(&p);
    p.backend = GPUSSIM_BACKEND_CPU;
    p.format = (struct gpussim_format){ .width = w, .height = h, .bit_depth = bd };
    p.log_cb = test_log_cb;
    p.threads = 1;
    return p;
}

static void expect_create(const struct gpussim_params *p, int err, const char *msg, const char *what)
{
    GpussimContext *ctx = (GpussimContext *)(uintptr_t)1; /* must be reset to NULL on failure */
    test_last_error[0] = 0;
    const int ret = gpussim_create(&ctx, p);
    CHECK(ret == err, "%s: gpussim_create returned %d, want %d", what, ret, err);
    CHECK(ret >= 0 || ctx == NULL, "%s: handle not cleared on failure", what);
    if (msg)
        CHECK(strstr(test_last_error, msg) != NULL, "%s: message \"%s\" lacks \"%s\"", what,
              test_last_error, msg);
    if (ret >= 0)
        gpussim_destroy(&ctx);
}

int main(void)
{
    struct gpussim_params p;

    /* bit depths outside libvmaf's 8/10/12/16 */
    p = base(640, 360, 9);
    expect_create(&p, -EINVAL, "bit depth 9 is not supported", "depth 9");
    p = base(640, 360, 17);
    expect_create(&p, -EINVAL, "bit depth 17 is not supported", "depth 17");
    p = base(640, 360, 14);
    expect_create(&p, -EINVAL, "bit depth 14 is not supported", "depth 14");

    /* MS-SSIM below 176x176, in either dimension, luma or chroma */
    p = base(175, 400, 8);
    p.metrics = GPUSSIM_METRIC_FLOAT_MS_SSIM;
    expect_create(&p, -EINVAL, "MS-SSIM needs at least 176x176", "ms_ssim 175 wide");
    p = base(400, 170, 8);
    p.metrics = GPUSSIM_METRIC_FLOAT_MS_SSIM;
    expect_create(&p, -EINVAL, "the luma plane is 400x170", "ms_ssim 170 high");
    p = base(176, 176, 8);
    p.metrics = GPUSSIM_METRIC_FLOAT_MS_SSIM;
    expect_create(&p, 0, NULL, "ms_ssim at exactly 176x176");
    p = base(352, 352, 8);
    p.metrics = GPUSSIM_METRIC_FLOAT_MS_SSIM;
    p.planes = GPUSSIM_PLANES_ALL; /* chroma 176x176: fine */
    expect_create(&p, 0, NULL, "ms_ssim chroma at 176x176");
    p = base(350, 352, 8);
    p.metrics = GPUSSIM_METRIC_FLOAT_MS_SSIM;
    p.planes = GPUSSIM_PLANES_ALL; /* chroma 175x176 */
    expect_create(&p, -EINVAL, "the U plane is 175x176", "ms_ssim chroma too small");

    /* float_ssim: the decimated plane must hold an 11x11 window */
    p = base(10, 64, 8);
    p.metrics = GPUSSIM_METRIC_FLOAT_SSIM;
    expect_create(&p, -EINVAL, "smaller than the 11x11 window", "float_ssim 10 wide");
    p = base(100, 100, 8);
    p.metrics = GPUSSIM_METRIC_FLOAT_SSIM;
    p.ssim_scale = 10; /* 100/10 = 10 < 11 */
    expect_create(&p, -EINVAL, "decimated by scale 10 is 10x10", "float_ssim forced scale");
    p = base(110, 110, 8);
    p.metrics = GPUSSIM_METRIC_FLOAT_SSIM;
    p.ssim_scale = 10;
    expect_create(&p, 0, NULL, "float_ssim forced scale at the limit");
    p = base(640, 360, 8);
    p.ssim_scale = 11;
    expect_create(&p, -EINVAL, "scale 11 is out of range", "scale 11");

    /* ANSNR's 5x5 filter */
    p = base(2, 64, 8);
    p.metrics = GPUSSIM_METRIC_FLOAT_ANSNR;
    expect_create(&p, -EINVAL, "needs at least 3x3", "ansnr 2 wide");

    /* formats */
    p = base(0, 64, 8);
    expect_create(&p, -EINVAL, "invalid frame size 0x64", "zero width");
    p = base(640, 360, 8);
    p.format.chroma = GPUSSIM_CHROMA_GRAY;
    p.planes = GPUSSIM_PLANES_ALL;
    expect_create(&p, -EINVAL, "planes=all needs chroma planes", "gray with planes=all");
    p = base(640, 360, 8);
    p.format.msb_aligned = 1;
    expect_create(&p, -EINVAL, "msb_aligned needs 16-bit words", "msb 8-bit");
    p = base(640, 360, 8);
    p.format.chroma = GPUSSIM_CHROMA_GRAY;
    p.format.packing = GPUSSIM_PACKING_SEMIPLANAR_UV;
    expect_create(&p, -EINVAL, "gray format has no chroma", "gray semi-planar");
    p = base(640, 360, 8);
    p.metrics = 0x100;
    expect_create(&p, -EINVAL, "unknown metric bits", "metric bits");
    p = base(640, 360, 8);
    p.threads = -1;
    expect_create(&p, -EINVAL, "must be >= 0", "negative threads");

    /* a backend that is not built says so (only checkable where it is absent) */
    p = base(640, 360, 8);
    p.backend = GPUSSIM_BACKEND_ZE;
    {
        GpussimContext *ctx = NULL;
        const int ret = gpussim_create(&ctx, &p);
        CHECK(ret == 0 || ret == -ENOSYS || ret == -ENODEV, "ze backend: unexpected %d", ret);
        if (ret == -ENOSYS)
            CHECK(strstr(test_last_error, "the ze backend is not built") != NULL,
                  "ze message: %s", test_last_error);
        gpussim_destroy(&ctx);
    }

    /* API misuse */
    CHECK(gpussim_create(NULL, &p) == -EINVAL, "create(NULL)");
    gpussim_destroy(NULL);
    {
        GpussimContext *ctx = NULL;
        gpussim_destroy(&ctx);
        CHECK(ctx == NULL, "destroy of a NULL handle");
    }

    /* queue limits, missing planes, small strides, collect on empty */
    {
        struct gpussim_format fmt = { 64, 64, 8, GPUSSIM_CHROMA_420, GPUSSIM_PACKING_PLANAR, 0 };
        struct test_frame f;
        struct test_packed pk;
        test_frame_alloc(&f, &fmt);
        test_fill(&f, 8, PATTERN_RANDOM, 3);
        test_pack(&f, &fmt, &pk);
        p = base(64, 64, 8);
        p.metrics = GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_SSIM;
        p.max_in_flight = 2;
        GpussimContext *ctx = NULL;
        CHECK(gpussim_create(&ctx, &p) == 0, "create 64x64: %s", test_last_error);
        struct gpussim_result res;
        CHECK(gpussim_collect(ctx, &res, 1) == 0, "collect with nothing pending returns 0");
        CHECK(gpussim_submit(ctx, &pk.pic, &pk.pic) == 0, "first submit gets index 0");
        CHECK(gpussim_submit(ctx, &pk.pic, &pk.pic) == 1, "second submit gets index 1");
        CHECK(gpussim_submit(ctx, &pk.pic, &pk.pic) == -EAGAIN, "third submit: -EAGAIN at max_in_flight");
        CHECK(gpussim_pending(ctx) == 2, "two pending");
        CHECK(gpussim_collect(ctx, &res, 1) == 1 && res.index == 0 && res.values[0] == 1.0,
              "collect frame 0 (identity: float_ssim 1)");
        CHECK(gpussim_submit(ctx, NULL, &pk.pic) == -EINVAL, "NULL reference");
        struct gpussim_picture bad = pk.pic;
        bad.data[0] = NULL;
        CHECK(gpussim_submit(ctx, &bad, &pk.pic) == -EINVAL &&
                  strstr(test_last_error, "plane 0 is missing"),
              "missing plane: %s", test_last_error);
        bad = pk.pic;
        bad.stride[0] = 32;
        CHECK(gpussim_submit(ctx, &pk.pic, &bad) == -EINVAL &&
                  strstr(test_last_error, "stride 32 is smaller than a row (64 bytes)"),
              "small stride: %s", test_last_error);
        bad = pk.pic;
        bad.memory = GPUSSIM_MEMORY_CUDA;
        CHECK(gpussim_submit(ctx, &bad, &bad) == -EINVAL &&
                  strstr(test_last_error, "cannot read CUDA reference pictures"),
              "wrong memory: %s", test_last_error);
        CHECK(gpussim_submit(ctx, &pk.pic, &pk.pic) == 2, "submit after errors gets index 2");
        CHECK(gpussim_collect(ctx, &res, 1) == 1 && res.index == 1, "collect 1");
        CHECK(gpussim_collect(ctx, &res, 1) == 1 && res.index == 2, "collect 2");
        CHECK(gpussim_collect(ctx, &res, 0) == 0, "nothing left");
        /* destroy with frames in flight must not leak or hang */
        gpussim_submit(ctx, &pk.pic, &pk.pic);
        gpussim_destroy(&ctx);
        CHECK(ctx == NULL, "destroy clears the handle");
        test_packed_free(&pk);
        test_frame_free(&f);
    }
    /* strides the picture check must refuse without undefined behaviour:
     * odd strides or addresses of 16-bit words, PTRDIFF_MIN (whose negation
     * overflows), strides whose last-row offset overflows; a negative stride
     * (bottom-up rows) still works and scores like the top-down copy */
    {
        enum { W = 64, H = 64 };
        p = base(W, H, 10);
        p.metrics = GPUSSIM_METRIC_FLOAT_SSIM | GPUSSIM_METRIC_SSIM;
        p.max_in_flight = 1;
        GpussimContext *ctx = NULL;
        CHECK(gpussim_create(&ctx, &p) == 0, "create 64x64 10-bit: %s", test_last_error);
        /* room for a 2*W+1 byte stride plus one byte of misalignment */
        const size_t size = (size_t)(2 * W + 2) * H + 2;
        uint16_t *words = calloc(size / 2 + 1, 2);
        uint8_t *bytes = (uint8_t *)words;
        uint64_t seed = 5;
        for (size_t i = 0; i < size; i++)
            bytes[i] = (uint8_t)(test_rand(&seed) & (i & 1 ? 0x03 : 0xff)); /* LE 10-bit words */
        struct gpussim_picture good = { 0 }, bad;
        good.data[0] = bytes;
        good.stride[0] = 2 * W;

        bad = good;
        bad.stride[0] = 2 * W + 1;
        CHECK(gpussim_submit(ctx, &bad, &good) == -EINVAL &&
                  strstr(test_last_error, "reference picture: plane 0 stride 129 is odd; 10-bit "
                                          "samples are 16-bit words, so the stride must be a "
                                          "multiple of 2 bytes"),
              "odd 10-bit stride: %s", test_last_error);
        bad = good;
        bad.stride[0] = -(2 * W + 1);
        bad.data[0] = bytes + (size_t)(2 * W + 1) * (H - 1);
        CHECK(gpussim_submit(ctx, &good, &bad) == -EINVAL &&
                  strstr(test_last_error, "distorted picture: plane 0 stride -129 is odd"),
              "odd negative 10-bit stride: %s", test_last_error);
        bad = good;
        bad.data[0] = bytes + 1;
        CHECK(gpussim_submit(ctx, &bad, &good) == -EINVAL &&
                  strstr(test_last_error, "reference picture: plane 0 starts at an odd address; "
                                          "10-bit samples are 16-bit words and must be 2-byte "
                                          "aligned"),
              "odd 10-bit address: %s", test_last_error);
        bad = good;
        bad.stride[0] = PTRDIFF_MIN;
        CHECK(gpussim_submit(ctx, &bad, &good) == -EINVAL &&
                  strstr(test_last_error, "reference picture: plane 0 stride -9223372036854775808 "
                                          "is too large for 64 rows"),
              "PTRDIFF_MIN stride: %s", test_last_error);
        bad.stride[0] = PTRDIFF_MAX;
        CHECK(gpussim_submit(ctx, &good, &bad) == -EINVAL &&
                  strstr(test_last_error, "distorted picture: plane 0 stride 9223372036854775807 "
                                          "is too large for 64 rows"),
              "PTRDIFF_MAX stride: %s", test_last_error);
        bad.stride[0] = PTRDIFF_MAX / 63 + 1;
        CHECK(gpussim_submit(ctx, &good, &bad) == -EINVAL && strstr(test_last_error, "too large for 64 rows"),
              "stride just above the overflow bound: %s", test_last_error);
        bad.stride[0] = -(2 * W - 2);
        CHECK(gpussim_submit(ctx, &good, &bad) == -EINVAL &&
                  strstr(test_last_error, "plane 0 stride -126 is smaller than a row (128 bytes)"),
              "short negative stride: %s", test_last_error);

        /* the same samples top-down and bottom-up (negative stride) */
        uint16_t *flip = malloc(sizeof(uint16_t) * W * H);
        for (int y = 0; y < H; y++)
            memcpy(flip + (size_t)(H - 1 - y) * W, bytes + (size_t)y * 2 * W, 2 * W);
        struct gpussim_picture up = { 0 };
        up.data[0] = flip + (size_t)(H - 1) * W;
        up.stride[0] = -2 * W;
        struct gpussim_picture zero = good;
        zero.data[0] = bytes + 2 * W; /* rows shifted by one: not identical */
        struct gpussim_result res;
        double top[2], bottom[2];
        CHECK(gpussim_submit(ctx, &good, &zero) == 0, "top-down submit: %s", test_last_error);
        CHECK(gpussim_collect(ctx, &res, 1) == 1 && res.nb_values == 2, "top-down collect");
        memcpy(top, res.values, sizeof(top));
        CHECK(gpussim_submit(ctx, &up, &zero) == 1, "bottom-up submit: %s", test_last_error);
        CHECK(gpussim_collect(ctx, &res, 1) == 1, "bottom-up collect");
        memcpy(bottom, res.values, sizeof(bottom));
        CHECK(top[0] == bottom[0] && top[1] == bottom[1] && top[0] < 1.0,
              "negative stride scores %.17g %.17g, positive %.17g %.17g", bottom[0], bottom[1],
              top[0], top[1]);
        free(flip);
        free(words);
        gpussim_destroy(&ctx);
    }
    CHECK(strcmp(gpussim_strerror(-EAGAIN), "too many frames in flight; collect results first") == 0,
          "strerror");

    /* an option given twice in one feature: refused when the values differ,
     * as the feature given twice with other options is; the same value twice
     * is the same request */
    static const struct {
        const char *spec, *msg; /* msg NULL: accepted */
    } twice[] = {
        { "float_ms_ssim:enable_lcs=1:enable_lcs=0", "feature float_ms_ssim: option enable_lcs is given twice" },
        { "float_ssim=enable_db=true:clip_db=1:enable_db=false", "feature float_ssim: option enable_db is given twice" },
        { "float_ssim:scale=2:ssim_scale=3", "feature float_ssim: option ssim_scale is given twice" },
        { "ms_ssim:clip_db=1:clip_db=0", "feature float_ms_ssim: option clip_db is given twice" },
        { "float_ms_ssim:enable_lcs=1:enable_lcs=true", NULL },
        { "float_ssim:scale=2:enable_lcs=1:scale=2", NULL },
    };
    for (size_t i = 0; i < sizeof(twice) / sizeof(*twice); i++) {
        p = base(640, 360, 8);
        test_last_error[0] = '\0';
        const int ret = gpussim_use_feature(&p, twice[i].spec);
        if (twice[i].msg)
            CHECK(ret == -EINVAL && strstr(test_last_error, twice[i].msg), "%s: %d \"%s\", want \"%s\"",
                  twice[i].spec, ret, test_last_error, twice[i].msg);
        else
            CHECK(ret == 0 && p.metrics, "%s: %d %s", twice[i].spec, ret, test_last_error);
    }

    /* the option table (GPUSSIM_FEATURE_OPTIONS) is what the library takes:
     * each row's default, range and float_ms_ssim bit, for every feature
     * whose options list names it, and nothing for the others */
    static const struct {
        const char *name, *field;
        int min, max;
        unsigned own_bit;
    } rows[] = {
#define ROW(name, field, short_name, type, def, min, max, own_bit, help)                           \
    { #name, #field, min, max, own_bit },
        GPUSSIM_FEATURE_OPTIONS(ROW)
#undef ROW
    };
    struct gpussim_params d;
    gpussim_default_params(&d);
#define DEFAULT(name, field, short_name, type, def, ...)                                           \
    CHECK(d.field == def, "default of %s: %d, the table says %d", #name, d.field, def);
    GPUSSIM_FEATURE_OPTIONS(DEFAULT)
#undef DEFAULT
    for (int f = 0; gpussim_feature_get(f); f++) {
        const struct gpussim_feature_info *fi = gpussim_feature_get(f);
        for (size_t r = 0; r < sizeof(rows) / sizeof(*rows); r++) {
            char spec[128], want[64], got[512] = "";
            const char *o = strstr(fi->options, rows[r].name);
            const int takes = o && (o[strlen(rows[r].name)] == ',' || !o[strlen(rows[r].name)]);
            if (fi->metric == GPUSSIM_METRIC_FLOAT_MS_SSIM)
                CHECK(takes == !!rows[r].own_bit, "float_ms_ssim %s %s but its bit is 0x%x",
                      takes ? "takes" : "lacks", rows[r].name, rows[r].own_bit);
            /* the largest value is taken and comes back in the canonical string */
            p = base(640, 360, 8);
            test_last_error[0] = '\0';
            snprintf(spec, sizeof(spec), "%s:%s=%d", fi->name, rows[r].name, rows[r].max);
            int ret = gpussim_use_feature(&p, spec);
            if (!takes) {
                CHECK(ret == -EINVAL && strstr(test_last_error, "unknown option"), "%s: %d %s",
                      spec, ret, test_last_error);
                continue;
            }
            snprintf(want, sizeof(want), ":%s=%d", rows[r].name, rows[r].max);
            ret = ret < 0 ? ret : gpussim_features_string(&p, got, sizeof(got));
            CHECK(ret > 0 && strstr(got, want), "%s: %d, features string '%s'", spec, ret, got);
            /* its field name is accepted too (ssim_scale) */
            p = base(640, 360, 8);
            snprintf(spec, sizeof(spec), "%s:%s=%d", fi->name, rows[r].field, rows[r].min);
            CHECK(gpussim_use_feature(&p, spec) == 0, "%s: %s", spec, test_last_error);
            /* one past the range is refused, naming the option */
            p = base(640, 360, 8);
            test_last_error[0] = '\0';
            snprintf(spec, sizeof(spec), "%s:%s=%d", fi->name, rows[r].name, rows[r].max + 1);
            ret = gpussim_use_feature(&p, spec);
            CHECK(ret == -EINVAL && strstr(test_last_error, rows[r].name), "%s: %d %s", spec, ret,
                  test_last_error);
        }
    }
    return test_summary();
}
