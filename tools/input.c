/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Raw YUV and YUV4MPEG2 readers.
 *
 * YUV4MPEG2 as written by FFmpeg and mjpegtools: a header line
 * "YUV4MPEG2 W<w> H<h> [F<n>:<d>] [I<p|t|b|m|?>] [A<n>:<d>] [C<tag>] [X<any>]"
 * with the fields in any order, then per frame "FRAME[ params]\n" and the
 * planes. Samples of more than 8 bits are 16-bit little-endian words, like
 * FFmpeg's yuv420p10le etc. — the same layout as the raw inputs.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input.h"

#define Y4M_SIGNATURE "YUV4MPEG2 "
#define Y4M_SIGNATURE_LEN 10
/* Bounds on header lines: X fields are free text, but a header longer than
 * this is not a y4m header (and must not make us read a whole raw file). */
#define Y4M_HEADER_MAX 4096
#define Y4M_FRAME_HEADER_MAX 1024
#define MAX_SIDE 32768

static int input_error(struct cli_input *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->err, sizeof(in->err), fmt, ap);
    va_end(ap);
    return -1;
}

/* Reads up to n bytes, replaying the sniffed prefix first. */
static size_t input_read(struct cli_input *in, void *dst, size_t n)
{
    unsigned char *d = dst;
    size_t got = 0;
    while (got < n && in->prefix_pos < in->prefix_len)
        d[got++] = in->prefix[in->prefix_pos++];
    if (got < n)
        got += fread(d + got, 1, n - got, in->f);
    return got;
}

static int input_getc(struct cli_input *in)
{
    if (in->prefix_pos < in->prefix_len)
        return in->prefix[in->prefix_pos++];
    return getc(in->f);
}

/* Reads one '\n'-terminated line (without the '\n') into line.
 * @return length, -2 at end of input before any byte, -1 on error
 *         (message set). */
static int read_line(struct cli_input *in, char *line, size_t size, const char *what)
{
    size_t n = 0;
    for (;;) {
        const int ch = input_getc(in);
        if (ch == EOF) {
            if (ferror(in->f))
                return input_error(in, "%s: read error: %s", in->path, strerror(errno));
            if (n == 0)
                return -2;
            return input_error(in, "%s: input ends inside a %s", in->path, what);
        }
        if (ch == '\n')
            break;
        if (n + 1 >= size)
            return input_error(in, "%s: %s longer than %zu bytes", in->path, what, size - 1);
        line[n++] = (char)ch;
    }
    line[n] = '\0';
    return (int)n;
}

static int parse_positive(const char *s, int max, int *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v <= 0 || v > max)
        return -1;
    *out = (int)v;
    return 0;
}

/* Y4M C tags: 420jpeg 420mpeg2 420paldv 420 422 444 mono, each optionally
 * with a depth (420p10, 422p12, 444p16, mono12). */
static int parse_y4m_colorspace(struct cli_input *in, const char *tag, struct cli_video_format *f)
{
    const char *rest;
    if (!strncmp(tag, "420", 3)) {
        f->chroma = GPUSSIM_CHROMA_420;
        rest = tag + 3;
        /* chroma siting variants: same sample layout */
        if (!strcmp(rest, "jpeg") || !strcmp(rest, "mpeg2") || !strcmp(rest, "paldv"))
            rest += strlen(rest);
    } else if (!strncmp(tag, "422", 3)) {
        f->chroma = GPUSSIM_CHROMA_422;
        rest = tag + 3;
    } else if (!strncmp(tag, "444", 3)) {
        f->chroma = GPUSSIM_CHROMA_444;
        rest = tag + 3;
        if (!strcmp(rest, "alpha"))
            return input_error(in, "%s: y4m colorspace C%s (with an alpha plane) is not supported",
                               in->path, tag);
    } else if (!strncmp(tag, "mono", 4)) {
        f->chroma = GPUSSIM_CHROMA_GRAY;
        rest = tag + 4;
    } else {
        return input_error(in,
                           "%s: y4m colorspace C%s is not supported (supported: 420jpeg, "
                           "420mpeg2, 420paldv, 420, 422, 444, mono, with depths like 420p10)",
                           in->path, tag);
    }

    f->bit_depth = 8;
    if (*rest) {
        if (f->chroma != GPUSSIM_CHROMA_GRAY) {
            if (*rest != 'p')
                return input_error(in, "%s: y4m colorspace C%s is not supported", in->path, tag);
            rest++;
        }
        int depth;
        if (!isdigit((unsigned char)*rest) || parse_positive(rest, 64, &depth) < 0)
            return input_error(in, "%s: y4m colorspace C%s is not supported", in->path, tag);
        f->bit_depth = depth;
    }
    if (f->bit_depth != 8 && f->bit_depth != 10 && f->bit_depth != 12 && f->bit_depth != 16)
        return input_error(in,
                           "%s: unsupported bit depth %d (y4m colorspace C%s): libvmaf's metrics "
                           "are defined for 8, 10, 12 and 16 bits",
                           in->path, f->bit_depth, tag);
    return 0;
}

static int parse_y4m_header(struct cli_input *in)
{
    char line[Y4M_HEADER_MAX + 1];
    /* the signature has been consumed by the sniffer */
    int n = read_line(in, line, sizeof(line), "y4m header");
    if (n == -2)
        return input_error(in, "%s: y4m header is empty", in->path);
    if (n < 0)
        return n;

    struct cli_video_format f = { 0, 0, 8, GPUSSIM_CHROMA_420 };
    int have_w = 0, have_h = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        const char tag = tok[0];
        const char *val = tok + 1;
        switch (tag) {
        case 'W':
            if (parse_positive(val, MAX_SIDE, &f.width) < 0)
                return input_error(in, "%s: bad y4m width '%s' (1..%d)", in->path, val, MAX_SIDE);
            have_w = 1;
            break;
        case 'H':
            if (parse_positive(val, MAX_SIDE, &f.height) < 0)
                return input_error(in, "%s: bad y4m height '%s' (1..%d)", in->path, val, MAX_SIDE);
            have_h = 1;
            break;
        case 'I':
            if (!strcmp(val, "p") || !strcmp(val, "?"))
                break; /* progressive, or unknown: scored as progressive like FFmpeg does */
            if (!strcmp(val, "t") || !strcmp(val, "b") || !strcmp(val, "m"))
                return input_error(in,
                                   "%s: interlaced y4m (I%s) is not supported: deinterlace first "
                                   "(the metrics are defined on progressive frames)",
                                   in->path, val);
            return input_error(in, "%s: bad y4m interlacing field 'I%s'", in->path, val);
        case 'C':
            if (parse_y4m_colorspace(in, val, &f) < 0)
                return -1;
            break;
        case 'F': /* frame rate, aspect ratio, comments: not needed for scoring */
        case 'A':
        case 'X':
            break;
        default:
            /* the format reserves other letters for extensions; readers ignore them */
            break;
        }
    }
    if (!have_w || !have_h)
        return input_error(in, "%s: y4m header has no %s field", in->path, !have_w ? "W (width)" : "H (height)");
    in->fmt = f;
    in->has_format = 1;
    return 0;
}

static int has_y4m_name(const char *path)
{
    const size_t n = strlen(path);
    return n >= 4 && !strcasecmp(path + n - 4, ".y4m");
}

int cli_input_open(struct cli_input *in, const char *path)
{
    memset(in, 0, sizeof(*in));
    in->path = path;
    if (!strcmp(path, "-")) {
        in->f = stdin;
        in->path = "stdin";
    } else {
        in->f = fopen(path, "rb");
        if (!in->f)
            return input_error(in, "cannot open %s: %s", path, strerror(errno));
    }

    in->prefix_len = fread(in->prefix, 1, Y4M_SIGNATURE_LEN, in->f);
    if (ferror(in->f))
        return input_error(in, "%s: read error: %s", in->path, strerror(errno));
    if (in->prefix_len == Y4M_SIGNATURE_LEN && !memcmp(in->prefix, Y4M_SIGNATURE, Y4M_SIGNATURE_LEN)) {
        in->kind = CLI_INPUT_Y4M;
        in->prefix_pos = in->prefix_len;
        return parse_y4m_header(in);
    }
    if (has_y4m_name(path))
        return input_error(in, "%s: not a YUV4MPEG2 file (no 'YUV4MPEG2 ' signature)", in->path);
    in->kind = CLI_INPUT_RAW;
    return 0;
}

int cli_input_start(struct cli_input *in, const struct cli_video_format *fmt)
{
    if (!in->has_format) {
        in->fmt = *fmt;
        in->has_format = 1;
    }
    const struct cli_video_format *f = &in->fmt;
    const size_t bps = f->bit_depth > 8 ? 2 : 1;
    const int sx = f->chroma == GPUSSIM_CHROMA_420 || f->chroma == GPUSSIM_CHROMA_422;
    const int sy = f->chroma == GPUSSIM_CHROMA_420;
    /* chroma sizes round up, as in FFmpeg's AV_CEIL_RSHIFT */
    const int cw = (f->width + sx) >> sx, ch = (f->height + sy) >> sy;

    in->nb_planes = f->chroma == GPUSSIM_CHROMA_GRAY ? 1 : 3;
    size_t off = 0;
    for (int p = 0; p < in->nb_planes; p++) {
        const int w = p ? cw : f->width, h = p ? ch : f->height;
        in->plane_offset[p] = off;
        in->stride[p] = (ptrdiff_t)((size_t)w * bps);
        off += (size_t)w * bps * (size_t)h;
    }
    in->frame_size = off;
    in->buf = malloc(in->frame_size);
    if (!in->buf)
        return input_error(in, "%s: cannot allocate a %zu-byte frame buffer", in->path, in->frame_size);
    return 0;
}

static int read_frame_header(struct cli_input *in)
{
    char line[Y4M_FRAME_HEADER_MAX + 1];
    const int n = read_line(in, line, sizeof(line), "FRAME header");
    if (n == -2)
        return 0;
    if (n < 0)
        return -1;
    /* "FRAME" optionally followed by " params" (ignored: per-frame
     * overrides of interlacing/aspect do not change the sample layout) */
    if (strncmp(line, "FRAME", 5) || (line[5] && line[5] != ' '))
        return input_error(in, "%s: frame %llu: expected a y4m FRAME header, found '%.20s'",
                           in->path, (unsigned long long)in->frames_read, line);
    return 1;
}

int cli_input_read_frame(struct cli_input *in)
{
    if (in->kind == CLI_INPUT_Y4M) {
        const int ret = read_frame_header(in);
        if (ret <= 0)
            return ret;
    }
    const size_t got = input_read(in, in->buf, in->frame_size);
    if (got != in->frame_size) {
        if (ferror(in->f))
            return input_error(in, "%s: read error in frame %llu: %s", in->path,
                               (unsigned long long)in->frames_read, strerror(errno));
        if (got == 0 && in->kind == CLI_INPUT_RAW)
            return 0;
        return input_error(in,
                           "%s: truncated input: frame %llu has %zu of %zu bytes (after %llu "
                           "complete frames)",
                           in->path, (unsigned long long)in->frames_read, got, in->frame_size,
                           (unsigned long long)in->frames_read);
    }
    in->frames_read++;
    return 1;
}

void cli_input_picture(const struct cli_input *in, struct gpussim_picture *pic)
{
    memset(pic, 0, sizeof(*pic));
    pic->memory = GPUSSIM_MEMORY_HOST;
    for (int p = 0; p < in->nb_planes; p++) {
        pic->data[p] = in->buf + in->plane_offset[p];
        pic->stride[p] = in->stride[p];
    }
}

void cli_input_close(struct cli_input *in)
{
    if (in->f && in->f != stdin)
        fclose(in->f);
    in->f = NULL;
    free(in->buf);
    in->buf = NULL;
}

const char *cli_format_describe(const struct cli_video_format *f, char *buf, size_t size)
{
    static const char *const chroma[] = { "4:2:0", "4:2:2", "4:4:4", "gray (4:0:0)" };
    snprintf(buf, size, "%dx%d %s %d-bit", f->width, f->height,
             (unsigned)f->chroma <= GPUSSIM_CHROMA_GRAY ? chroma[f->chroma] : "?", f->bit_depth);
    return buf;
}

int cli_format_equal(const struct cli_video_format *a, const struct cli_video_format *b)
{
    return a->width == b->width && a->height == b->height && a->bit_depth == b->bit_depth &&
           a->chroma == b->chroma;
}
