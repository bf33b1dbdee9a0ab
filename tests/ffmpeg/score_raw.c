/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The FFmpeg tests' library-direct oracle: scores two raw planar YUV/gray
 * files with libgpussim on the CPU backend (every metric, lcs terms) and
 * prints the scores with the library's log writer (libvmaf-layout JSON), so the filter's numbers can be
 * compared with what the library gives for the same frames without FFmpeg
 * in between. (The gpussim CLI does the same and more; the tests use it
 * when it is built, this otherwise.)
 *
 * usage: score_raw REF DIS WIDTH HEIGHT CHROMA(420|422|444|400) BITDEPTH PLANES(luma|all)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpussim/gpussim.h>
#include <gpussim/gpussim_log.h>

static void log_cb(void *opaque, enum gpussim_log_level level, const char *msg)
{
    (void)opaque;
    (void)level;
    fprintf(stderr, "score_raw: %s\n", msg);
}

int main(int argc, char **argv)
{
    struct gpussim_params p;
    GpussimContext *ctx = NULL;
    FILE *fr = NULL, *fd = NULL;
    unsigned char *ref = NULL, *dis = NULL;
    GpussimLogWriter *log = NULL;
    int ret = 1, frames = 0;

    if (argc != 8) {
        fprintf(stderr, "usage: %s REF DIS WIDTH HEIGHT 420|422|444|400 BITDEPTH luma|all\n", argv[0]);
        return 2;
    }
    gpussim_default_params(&p);
    p.backend = GPUSSIM_BACKEND_CPU;
    p.metrics = GPUSSIM_METRIC_ALL;
    p.enable_lcs = 1;
    p.format.width = atoi(argv[3]);
    p.format.height = atoi(argv[4]);
    p.format.bit_depth = atoi(argv[6]);
    p.format.packing = GPUSSIM_PACKING_PLANAR;
    p.planes = strcmp(argv[7], "all") ? GPUSSIM_PLANES_LUMA : GPUSSIM_PLANES_ALL;
    p.log_cb = log_cb;
    p.log_level = GPUSSIM_LOG_WARNING;
    const int c = atoi(argv[5]);
    int cw = p.format.width, ch = p.format.height, nplanes = 3;
    switch (c) {
    case 420: p.format.chroma = GPUSSIM_CHROMA_420; cw = (cw + 1) / 2; ch = (ch + 1) / 2; break;
    case 422: p.format.chroma = GPUSSIM_CHROMA_422; cw = (cw + 1) / 2; break;
    case 444: p.format.chroma = GPUSSIM_CHROMA_444; break;
    case 400: p.format.chroma = GPUSSIM_CHROMA_GRAY; nplanes = 1; cw = ch = 0; break;
    default: fprintf(stderr, "bad chroma %s\n", argv[5]); return 2;
    }
    const size_t bps = p.format.bit_depth > 8 ? 2 : 1;
    const size_t luma = (size_t)p.format.width * p.format.height * bps;
    const size_t chroma = (size_t)cw * ch * bps;
    const size_t frame = luma + (nplanes - 1) * chroma;

    if (gpussim_create(&ctx, &p) < 0)
        goto fail;
    fr = fopen(argv[1], "rb");
    fd = fopen(argv[2], "rb");
    ref = malloc(frame);
    dis = malloc(frame);
    if (!fr || !fd || !ref || !dis) {
        fprintf(stderr, "score_raw: cannot open inputs\n");
        goto fail;
    }
    struct gpussim_log_writer_params wp = { 0 };
    wp.file = stdout;
    wp.first_frame = 0;
    wp.log_cb = log_cb;
    if (gpussim_log_open(&log, ctx, &wp) < 0)
        goto fail;
    while (fread(ref, 1, frame, fr) == frame && fread(dis, 1, frame, fd) == frame) {
        struct gpussim_picture pr = { 0 }, pd = { 0 };
        struct gpussim_result res;
        size_t off = 0;
        for (int i = 0; i < nplanes; i++) {
            const int w = i ? cw : p.format.width;
            pr.data[i] = ref + off;
            pd.data[i] = dis + off;
            pr.stride[i] = pd.stride[i] = (ptrdiff_t)(w * bps);
            off += i ? chroma : luma;
        }
        /* one frame at a time: the host buffers are reused at once */
        if (gpussim_submit(ctx, &pr, &pd) < 0 || gpussim_collect(ctx, &res, 1) != 1)
            goto fail;
        if (gpussim_log_write_frame(log, res.values, NAN) < 0)
            goto fail;
        frames++;
    }
    ret = gpussim_log_close(&log, NAN) < 0 || !frames; /* no frame read is a failure */

fail:
    if (fr)
        fclose(fr);
    if (fd)
        fclose(fd);
    free(ref);
    free(dis);
    gpussim_log_close(&log, NAN);
    gpussim_destroy(&ctx);
    return ret;
}
