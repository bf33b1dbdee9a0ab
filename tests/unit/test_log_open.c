/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The log writer never overwrites a file this process has open for reading
 * (ffmpeg's input, when the filter's log_path names it): the path itself, a
 * hard link and a symlink to it are refused before anything is opened for
 * writing, and the file's bytes stay as they were. A file the process writes
 * (ffmpeg's output) is refused too, except stdout redirected to the log;
 * an unrelated path, and the input once closed, are written as usual.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpussim/gpussim_log.h"
#include "tests/lib/testutil.h"

static const char content[] = "YUV4MPEG2 W64 H64 F25:1 C420jpeg\nFRAME\nnot a log: an input\n";

static int file_is(const char *path, const char *want, size_t len)
{
    size_t n = 0;
    uint8_t *got = test_read_file(path, &n);
    const int same = got && n == len && !memcmp(got, want, len);
    free(got);
    return same;
}

static int open_log(GpussimContext *ctx, const char *path, GpussimLogWriter **w)
{
    struct gpussim_log_writer_params lp;
    memset(&lp, 0, sizeof(lp));
    lp.path = path;
    lp.first_frame = -1;
    lp.log_cb = test_log_cb;
    test_last_error[0] = '\0';
    *w = (GpussimLogWriter *)(uintptr_t)1; /* must be reset to NULL on failure */
    return gpussim_log_open(w, ctx, &lp);
}

static void expect_refused(GpussimContext *ctx, const char *path, const char *input, const char *what)
{
    GpussimLogWriter *w;
    const int ret = open_log(ctx, path, &w);
    CHECK(ret == -EINVAL, "%s: gpussim_log_open returned %d, want -EINVAL", what, ret);
    CHECK(w == NULL, "%s: writer not NULL on failure", what);
    CHECK(strstr(test_last_error, "open for reading") && strstr(test_last_error, path),
          "%s: message \"%s\" lacks the path and the reason", what, test_last_error);
    CHECK(file_is(input, content, sizeof(content) - 1), "%s: the input's bytes changed", what);
    gpussim_log_close(&w, NAN);
}

int main(void)
{
    char dir[] = "/tmp/gpussim-log-open.XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (access("/proc/self/fd", R_OK) != 0) {
        printf("SKIP: no /proc/self/fd (the check is skipped there)\n");
        rmdir(dir);
        return TEST_SKIP;
    }
    char in[256], hard[256], sym[256], other[256], wronly[256];
    snprintf(in, sizeof(in), "%s/ref.y4m", dir);
    snprintf(hard, sizeof(hard), "%s/hard.y4m", dir);
    snprintf(sym, sizeof(sym), "%s/sym.y4m", dir);
    snprintf(other, sizeof(other), "%s/log.json", dir);
    snprintf(wronly, sizeof(wronly), "%s/stdout.json", dir);
    FILE *f = fopen(in, "wb");
    CHECK(f && fwrite(content, 1, sizeof(content) - 1, f) == sizeof(content) - 1 && !fclose(f), "writing %s", in);
    CHECK(!link(in, hard) && !symlink(in, sym), "links: %s", strerror(errno));

    struct gpussim_params p;
    gpussim_default_params(&p);
    p.backend = GPUSSIM_BACKEND_CPU;
    p.format = (struct gpussim_format){ .width = 64, .height = 64, .bit_depth = 8 };
    p.metrics = GPUSSIM_METRIC_FLOAT_SSIM;
    p.log_cb = test_log_cb;
    p.threads = 1;
    GpussimContext *ctx = NULL;
    int ret = gpussim_create(&ctx, &p);
    CHECK(ret == 0, "gpussim_create: %d %s", ret, test_last_error);
    if (ret < 0)
        return test_summary();

    /* the input is open for reading, as ffmpeg has its inputs open */
    FILE *input = fopen(in, "rb");
    CHECK(input != NULL, "opening %s", in);
    expect_refused(ctx, in, in, "the input itself");
    expect_refused(ctx, hard, in, "a hard link to the input");
    expect_refused(ctx, sym, in, "a symlink to the input");

    /* an unrelated path is written */
    GpussimLogWriter *w;
    ret = open_log(ctx, other, &w);
    CHECK(ret == 0 && w, "an unrelated path: %d %s", ret, test_last_error);
    const double v = 0.5;
    CHECK(gpussim_log_write_frame(w, &v, NAN) == 0, "writing a frame");
    CHECK(gpussim_log_close(&w, 25.0) == 0, "closing");
    struct gpussim_log *log = NULL;
    ret = gpussim_log_read(&log, other, test_log_cb, NULL);
    CHECK(ret == 0 && log && log->nb_frames == 1 && log->values[0] == 0.5, "reading the log back: %d", ret);
    gpussim_log_free(&log);

    /* a file this process writes (ffmpeg's output, another log) is refused too */
    FILE *out = fopen(wronly, "w");
    CHECK(out && fputs("ffmpeg's output\n", out) >= 0 && !fflush(out), "opening %s for writing", wronly);
    ret = open_log(ctx, wronly, &w);
    CHECK(ret == -EINVAL && !w && strstr(test_last_error, "open for writing") &&
              strstr(test_last_error, "an output or another log?"),
          "a path this process writes: %d \"%s\"", ret, test_last_error);
    CHECK(file_is(wronly, "ffmpeg's output\n", 16), "the written file's bytes changed");
    /* ... except stdout redirected to it: `-o /dev/stdout > log.json` and `-o log.json > log.json` */
    fflush(stdout);
    const int saved = dup(1);
    CHECK(saved >= 0 && out && dup2(fileno(out), 1) == 1, "stdout to %s", wronly);
    if (out)
        fclose(out);
    const int r1 = open_log(ctx, wronly, &w);
    gpussim_log_close(&w, NAN);
    const int r2 = open_log(ctx, "/dev/stdout", &w);
    gpussim_log_close(&w, NAN);
    CHECK(saved >= 0 && dup2(saved, 1) == 1 && !close(saved), "stdout restored");
    CHECK(r1 == 0, "the path stdout writes to: %d %s", r1, test_last_error);
    CHECK(r2 == 0, "/dev/stdout: %d %s", r2, test_last_error);

    /* closed, it is no longer an input */
    if (input)
        fclose(input);
    ret = open_log(ctx, sym, &w);
    CHECK(ret == 0 && w, "the input once closed: %d %s", ret, test_last_error);
    gpussim_log_close(&w, NAN);

    gpussim_destroy(&ctx);
    unlink(in);
    unlink(hard);
    unlink(sym);
    unlink(other);
    unlink(wronly);
    rmdir(dir);
    return test_summary();
}
