/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * libFuzzer target: the CLI's y4m / raw reader (tools/input.c). The first
 * two bytes give the format a raw input is read with (and the name the file
 * has: .y4m, .yuv or .mp4); the rest is the file, read through fmemopen.
 * What must hold: no crash or leak; at most the frames the bytes hold are
 * read; every error message is printable text (bytes from the file are
 * escaped, never echoed raw); a y4m format from the header is a valid one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fmemopen */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/input.h"

#define FUZZ_TARGET "fuzz_input"
#include "fuzz_common.h"

static void check_printable(const char *s)
{
    for (; *s; s++)
        REQUIRE((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f, "raw byte 0x%02x in a message",
                (unsigned char)*s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    static const char *const names[] = { "fuzz.y4m", "fuzz.yuv", "fuzz.mp4", "fuzz" };
    static const int depths[] = { 8, 10, 12, 16 };
    static const enum gpussim_chroma chromas[] = { GPUSSIM_CHROMA_420, GPUSSIM_CHROMA_422, GPUSSIM_CHROMA_444,
                                                   GPUSSIM_CHROMA_GRAY };
    const struct cli_video_format raw = { 1 + data[0] % 24, 1 + data[1] % 24, depths[(data[0] >> 5) & 3],
                                          chromas[(data[1] >> 5) & 3] };
    const char *name = names[(data[0] >> 7) | ((data[1] >> 6) & 2)];
    data += 2, size -= 2;

    FILE *f = fmemopen(size ? (void *)data : (void *)"", size, "rb");
    if (!f)
        return 0;
    struct cli_input in;
    if (cli_input_open_stream(&in, f, name) < 0) {
        check_printable(in.err);
        cli_input_close(&in);
        return 0;
    }
    if (in.has_format) {
        const struct cli_video_format *h = &in.fmt;
        REQUIRE(h->width >= 1 && h->width <= 32768 && h->height >= 1 && h->height <= 32768 &&
                    (h->bit_depth == 8 || h->bit_depth == 10 || h->bit_depth == 12 || h->bit_depth == 16) &&
                    (unsigned)h->chroma <= GPUSSIM_CHROMA_GRAY,
                "bad y4m format %dx%d %d-bit chroma %d", h->width, h->height, h->bit_depth, (int)h->chroma);
        /* a header may claim 32768x32768: the reader would allocate that
         * frame, which is right for such a stream; the harness stops here */
        if ((uint64_t)h->width * h->height > 1u << 16) {
            cli_input_close(&in);
            return 0;
        }
    }
    if (cli_input_start(&in, &raw) < 0) {
        check_printable(in.err);
        cli_input_close(&in);
        return 0;
    }
    check_printable(in.warning);
    uint64_t frames = 0;
    for (;;) {
        const int ret = cli_input_read_frame(&in);
        if (ret < 0)
            check_printable(in.err);
        if (ret <= 0)
            break;
        frames++;
        REQUIRE(frames == in.frames_read, "frame count");
        REQUIRE(frames * in.frame_size <= size, "%llu frames of %zu bytes from %zu bytes",
                (unsigned long long)frames, in.frame_size, size);
        struct gpussim_picture pic;
        cli_input_picture(&in, &pic);
        REQUIRE(pic.data[0] == in.buf, "picture");
    }
    cli_input_close(&in);
    return 0;
}
