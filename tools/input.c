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
#include <sys/stat.h>

#include "input.h"
#include "input_av.h"

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

/* Copies n bytes of untrusted input into out as visible text for a message:
 * printable ASCII as is, \r \n \t and other bytes escaped (\xNN), cut
 * with "..." to fit. Never echoes raw control bytes to a terminal. */
const char *cli_escape(const char *s, size_t n, char *out, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char ch = (unsigned char)s[i];
        char tmp[8];
        if (ch == '\\')
            snprintf(tmp, sizeof(tmp), "\\\\");
        else if (ch == '\r')
            snprintf(tmp, sizeof(tmp), "\\r");
        else if (ch == '\n')
            snprintf(tmp, sizeof(tmp), "\\n");
        else if (ch == '\t')
            snprintf(tmp, sizeof(tmp), "\\t");
        else if (ch < 0x20 || ch > 0x7e)
            snprintf(tmp, sizeof(tmp), "\\x%02x", ch);
        else
            snprintf(tmp, sizeof(tmp), "%c", ch);
        const size_t t = strlen(tmp);
        /* keep room for "..." and the NUL after every piece */
        if (o + t + 4 > size) {
            if (size >= 4)
                memcpy(out + o, "...", 4);
            else if (size)
                out[0] = '\0';
            return out;
        }
        memcpy(out + o, tmp, t);
        o += t;
    }
    if (size)
        out[o] = '\0';
    return out;
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
static int parse_y4m_colorspace(struct cli_input *in, const char *raw_tag, struct cli_video_format *f)
{
    char tag[96];
    const char *rest;
    cli_escape(raw_tag, strlen(raw_tag), tag, sizeof(tag));
    raw_tag = tag; /* only printable bytes from here on: what is parsed is what is echoed */
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
    if (n > 0 && line[n - 1] == '\r')
        return input_error(in,
                           "%s: the y4m header line ends with CR LF (\\r\\n), not LF: the file went "
                           "through a text-mode (DOS line ending) conversion, which also corrupts "
                           "its binary frame data; write it again without conversion",
                           in->path);
    for (int i = 0; i < n; i++) {
        const unsigned char ch = (unsigned char)line[i];
        if (ch < 0x20 || ch == 0x7f) {
            char shown[96];
            return input_error(in, "%s: the y4m header holds a control byte 0x%02x at offset %d: '%s'",
                               in->path, ch, Y4M_SIGNATURE_LEN + i,
                               cli_escape(line, (size_t)n, shown, sizeof(shown)));
        }
    }

    struct cli_video_format f = { 0, 0, 8, GPUSSIM_CHROMA_420 };
    int have_w = 0, have_h = 0;
    char *save = NULL;
    /* the fields that set one value: a second one is refused, not "last wins"
     * (X comments may repeat) */
    static const char single[] = "WHFIAC";
    const char *seen[sizeof(single) - 1] = { NULL };
    for (char *tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        const char tag = tok[0];
        const char *val = tok + 1;
        char shown[64], shown2[64];
        const char *slot = tag ? strchr(single, tag) : NULL;
        if (slot) {
            const char **first = &seen[slot - single];
            if (*first)
                return input_error(in,
                                   "%s: the y4m header gives the %c field twice ('%c%s' and '%c%s'): "
                                   "which one holds is undefined, so the header is refused",
                                   in->path, tag, tag,
                                   cli_escape(*first, strlen(*first), shown, sizeof(shown)), tag,
                                   cli_escape(val, strlen(val), shown2, sizeof(shown2)));
            *first = val;
        }
        switch (tag) {
        case 'W':
            if (parse_positive(val, MAX_SIDE, &f.width) < 0)
                return input_error(in, "%s: bad y4m width '%s' (1..%d)", in->path,
                                   cli_escape(val, strlen(val), shown, sizeof(shown)), MAX_SIDE);
            have_w = 1;
            break;
        case 'H':
            if (parse_positive(val, MAX_SIDE, &f.height) < 0)
                return input_error(in, "%s: bad y4m height '%s' (1..%d)", in->path,
                                   cli_escape(val, strlen(val), shown, sizeof(shown)), MAX_SIDE);
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
            return input_error(in, "%s: bad y4m interlacing field 'I%s'", in->path,
                               cli_escape(val, strlen(val), shown, sizeof(shown)));
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

/* Files that are not YUV: gpussim reads decoded frames only. A strong
 * signature (four or more fixed bytes, or a structure: MPEG-TS sync bytes)
 * or a video file name; --force-raw reads such a file as raw YUV anyway. */
static const char *compressed_kind(const unsigned char *b, size_t n, const char *path,
                                   enum cli_compressed_class *cls)
{
    static const struct { const char *ext, *name; } exts[] = {
        { ".mp4", "MP4" }, { ".m4v", "MP4" }, { ".mov", "QuickTime" }, { ".mkv", "Matroska" },
        { ".webm", "WebM" }, { ".avi", "AVI" }, { ".ts", "MPEG-TS" }, { ".m2ts", "MPEG-TS" },
        { ".mts", "MPEG-TS" }, { ".mxf", "MXF" }, { ".flv", "FLV" }, { ".ivf", "IVF" },
        { ".264", "H.264" }, { ".h264", "H.264" }, { ".265", "HEVC" }, { ".h265", "HEVC" },
        { ".hevc", "HEVC" }, { ".av1", "AV1" }, { ".obu", "AV1" }, { ".mpg", "MPEG" },
        { ".mpeg", "MPEG" }, { ".vob", "MPEG" }, { ".ogv", "Ogg" }, { ".wmv", "ASF/WMV" },
        { ".3gp", "3GP" }, { ".vvc", "VVC" }, { ".266", "VVC" }, { ".nut", "NUT" },
    };
    static const struct {
        size_t at, len;
        const char *magic, *name;
        enum cli_compressed_class cls;
    } sigs[] = {
        { 4, 4, "ftyp", "MP4/QuickTime", CLI_COMPRESSED_VIDEO },
        { 4, 4, "moov", "MP4/QuickTime", CLI_COMPRESSED_VIDEO },
        { 4, 4, "mdat", "MP4/QuickTime", CLI_COMPRESSED_VIDEO },
        { 4, 4, "wide", "MP4/QuickTime", CLI_COMPRESSED_VIDEO },
        { 0, 4, "\x1a\x45\xdf\xa3", "Matroska/WebM", CLI_COMPRESSED_VIDEO },
        { 0, 4, "\x00\x00\x01\xba", "MPEG program stream", CLI_COMPRESSED_VIDEO },
        { 0, 4, "FLV\x01", "FLV", CLI_COMPRESSED_VIDEO },
        { 0, 4, "OggS", "Ogg", CLI_COMPRESSED_VIDEO },
        { 0, 4, "DKIF", "IVF", CLI_COMPRESSED_VIDEO },
        { 0, 4, "\x06\x0e\x2b\x34", "MXF", CLI_COMPRESSED_VIDEO },
        { 0, 8, "\x30\x26\xb2\x75\x8e\x66\xcf\x11", "ASF/WMV", CLI_COMPRESSED_VIDEO },
        { 0, 25, "nut/multimedia container\0", "NUT", CLI_COMPRESSED_VIDEO },
        { 0, 8, "\x89PNG\r\n\x1a\n", "PNG", CLI_COMPRESSED_IMAGE },
        { 0, 3, "\xff\xd8\xff", "JPEG", CLI_COMPRESSED_IMAGE },
        { 0, 6, "GIF87a", "GIF", CLI_COMPRESSED_IMAGE },
        { 0, 6, "GIF89a", "GIF", CLI_COMPRESSED_IMAGE },
        { 0, 4, "II*\0", "TIFF", CLI_COMPRESSED_IMAGE },
        { 0, 4, "MM\0*", "TIFF", CLI_COMPRESSED_IMAGE },
        { 0, 4, "fLaC", "FLAC", CLI_COMPRESSED_AUDIO },
        { 0, 3, "ID3", "MP3", CLI_COMPRESSED_AUDIO },
        { 0, 4, "caff", "Core Audio", CLI_COMPRESSED_AUDIO },
    };
    *cls = CLI_COMPRESSED_VIDEO;
    for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
        if (n >= sigs[i].at + sigs[i].len && !memcmp(b + sigs[i].at, sigs[i].magic, sigs[i].len)) {
            *cls = sigs[i].cls;
            return sigs[i].name;
        }
    /* RIFF and IFF: the form type names the content */
    if (n >= 12 && !memcmp(b, "RIFF", 4)) {
        if (!memcmp(b + 8, "AVI ", 4))
            return "AVI";
        if (!memcmp(b + 8, "WAVE", 4))
            return *cls = CLI_COMPRESSED_AUDIO, "WAV";
        if (!memcmp(b + 8, "WEBP", 4))
            return *cls = CLI_COMPRESSED_IMAGE, "WebP";
    }
    if (n >= 12 && !memcmp(b, "FORM", 4) && (!memcmp(b + 8, "AIFF", 4) || !memcmp(b + 8, "AIFC", 4)))
        return *cls = CLI_COMPRESSED_AUDIO, "AIFF";
    /* MPEG-TS: a 0x47 sync byte at the start of five 188-byte packets. A flat
     * raw frame of luma 0x47 has it too, so the bytes after the first sync
     * must not all be 0x47 (a packet's header bytes never are). */
    if (n >= 4 * 188 + 1) {
        int ts = 1;
        for (int k = 0; k <= 4 && ts; k++)
            ts = b[188 * k] == 0x47;
        if (ts && !(b[1] == 0x47 && b[2] == 0x47 && b[3] == 0x47))
            return "MPEG-TS";
    }
    const size_t len = strlen(path);
    for (size_t i = 0; i < sizeof(exts) / sizeof(*exts); i++) {
        const size_t e = strlen(exts[i].ext);
        if (len > e && !strcasecmp(path + len - e, exts[i].ext))
            return exts[i].name;
    }
    return NULL;
}

int cli_input_open(struct cli_input *in, const char *path)
{
    if (!strcmp(path, "-"))
        return cli_input_open_stream(in, stdin, path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        memset(in, 0, sizeof(*in));
        in->path = path;
        return input_error(in, "cannot open %s: %s", path, strerror(errno));
    }
    return cli_input_open_stream(in, f, path);
}

int cli_input_open_stream(struct cli_input *in, FILE *f, const char *path)
{
    memset(in, 0, sizeof(*in));
    in->f = f;
    in->path = f == stdin ? "stdin" : path;

    struct stat st;
    if (fstat(fileno(in->f), &st) == 0) {
        in->dev = st.st_dev;
        in->ino = st.st_ino;
        in->is_regular = S_ISREG(st.st_mode);
        in->file_size = in->is_regular ? (uint64_t)st.st_size : 0;
        in->identity_known = 1;
    }

    in->prefix_len = fread(in->prefix, 1, CLI_SNIFF_LEN, in->f);
    if (ferror(in->f))
        return input_error(in, "%s: read error: %s", in->path, strerror(errno));
    if (in->prefix_len >= Y4M_SIGNATURE_LEN && !memcmp(in->prefix, Y4M_SIGNATURE, Y4M_SIGNATURE_LEN)) {
        in->kind = CLI_INPUT_Y4M;
        in->prefix_pos = Y4M_SIGNATURE_LEN;
        return parse_y4m_header(in);
    }
    in->compressed = compressed_kind(in->prefix, in->prefix_len, path, &in->compressed_class);
    if (has_y4m_name(path) && !in->compressed)
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
    if (in->kind == CLI_INPUT_RAW && in->is_regular && in->file_size % in->frame_size) {
        char desc[64];
        snprintf(in->warning, sizeof(in->warning),
                 "%s: its %llu bytes are not a whole number of %zu-byte frames (%s): frame %llu "
                 "will be truncated (%llu bytes); are -w/-h/-p/-b right?",
                 in->path, (unsigned long long)in->file_size, in->frame_size,
                 cli_format_describe(f, desc, sizeof(desc)),
                 (unsigned long long)(in->file_size / in->frame_size),
                 (unsigned long long)(in->file_size % in->frame_size));
    }
    /* The frame size comes from a header (up to 32768x32768 16-bit 4:4:4:
     * 6 GiB): a regular file too short for one frame is refused before the
     * buffer is allocated, so a few bytes of header never reserve gigabytes.
     * (From a pipe, the buffer's pages are only touched as data arrives; a
     * failed allocation is an error naming the size.) */
    if (in->kind != CLI_INPUT_AV && in->is_regular) {
        const long pos = ftell(in->f);
        const uint64_t used = pos < 0 ? 0 : (uint64_t)pos - (in->prefix_len - in->prefix_pos);
        const uint64_t avail = in->file_size > used ? in->file_size - used : 0;
        const uint64_t need = in->frame_size + (in->kind == CLI_INPUT_Y4M ? 6 : 0); /* "FRAME\n" */
        char desc[64];
        in->nb_frames_hint = avail / need;
        if (avail > 0 && avail < need)
            return input_error(in,
                               "%s: truncated input: its %llu bytes%s cannot hold one %s frame "
                               "(%llu bytes)%s",
                               in->path, (unsigned long long)avail,
                               in->kind == CLI_INPUT_Y4M ? " after the header" : "",
                               cli_format_describe(f, desc, sizeof(desc)), (unsigned long long)need,
                               in->kind == CLI_INPUT_Y4M ? ": is the y4m header's size right?"
                                                         : ": are -w/-h/-p/-b right?");
    }
    in->buf = malloc(in->frame_size);
    if (!in->buf)
        return input_error(in, "%s: cannot allocate a %zu-byte frame buffer", in->path, in->frame_size);
    return 0;
}

/* 10- and 12-bit samples are 16-bit little-endian words whose upper bits
 * must be zero. A word above the maximum means the input is not what -b or
 * the y4m C tag says (a 12/16-bit or big-endian file): libvmaf would score
 * the raw words, the library masks them; neither number means anything, so
 * the frame is refused, naming the first such sample and the count. */
static int check_sample_range(struct cli_input *in)
{
    const unsigned max = (1u << in->fmt.bit_depth) - 1;
    const unsigned char *b = in->buf;
    const size_t nb_words = in->frame_size / 2;
    unsigned any = 0;
    for (size_t i = 0; i < nb_words; i++)
        any |= (unsigned)b[2 * i] | (unsigned)b[2 * i + 1] << 8;
    if (!(any & ~max))
        return 0;

    uint64_t count = 0;
    size_t first = 0;
    for (size_t i = nb_words; i-- > 0;)
        if (((unsigned)b[2 * i] | (unsigned)b[2 * i + 1] << 8) > max) {
            count++;
            first = i;
        }
    static const char *const plane_names[] = { "Y", "U", "V" };
    int p = 0;
    while (p + 1 < in->nb_planes && first * 2 >= in->plane_offset[p + 1])
        p++;
    const size_t in_plane = (first * 2 - in->plane_offset[p]) / 2;
    const size_t w = (size_t)in->stride[p] / 2;
    const unsigned v = (unsigned)b[2 * first] | (unsigned)b[2 * first + 1] << 8;
    return input_error(in,
                       "%s: frame %llu: %llu sample(s) above the %d-bit maximum %u (the first: %u "
                       "in plane %s at x=%zu y=%zu): this is not %d-bit little-endian video (is -b "
                       "or the y4m C tag right?); libvmaf would score the raw 16-bit words and "
                       "gpussim would mask them, so the frame is refused",
                       in->path, (unsigned long long)in->frames_read, (unsigned long long)count,
                       in->fmt.bit_depth, max, v, plane_names[p], in_plane % w, in_plane / w,
                       in->fmt.bit_depth);
}

static int read_frame_header(struct cli_input *in)
{
    char line[Y4M_FRAME_HEADER_MAX + 1];
    const int n = read_line(in, line, sizeof(line), "FRAME header");
    if (n == -2)
        return 0;
    if (n < 0)
        return -1;
    char shown[96], fmt[64];
    const unsigned long long frame = (unsigned long long)in->frames_read;
    /* a second stream appended to the first (cat a.y4m b.y4m): the format
     * may change there, which one run cannot follow */
    if ((size_t)n >= Y4M_SIGNATURE_LEN && !memcmp(line, Y4M_SIGNATURE, Y4M_SIGNATURE_LEN))
        return input_error(in,
                           "%s: frame %llu: a new y4m stream header ('%s') where a FRAME header "
                           "was expected: concatenated y4m streams (a format or size change "
                           "mid-stream) are not supported; the stream so far is %s",
                           in->path, frame, cli_escape(line, (size_t)n, shown, sizeof(shown)),
                           cli_format_describe(&in->fmt, fmt, sizeof(fmt)));
    if (n == 6 && !memcmp(line, "FRAME\r", 6))
        return input_error(in,
                           "%s: frame %llu: the FRAME header ends with CR LF (\\r\\n): the file "
                           "went through a text-mode (DOS line ending) conversion, which also "
                           "corrupts the frame data",
                           in->path, frame);
    /* "FRAME" optionally followed by " params" (ignored: per-frame
     * overrides of interlacing/aspect do not change the sample layout) */
    if (n < 5 || memcmp(line, "FRAME", 5) || (n > 5 && line[5] != ' '))
        return input_error(in, "%s: frame %llu: expected a y4m FRAME header, found '%s'", in->path,
                           frame, cli_escape(line, (size_t)n < 24 ? (size_t)n : 24, shown, sizeof(shown)));
    return 1;
}

int cli_input_read_frame(struct cli_input *in)
{
    if (in->kind == CLI_INPUT_AV)
        return cli_av_read_frame(in);
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
    if (in->fmt.bit_depth == 10 || in->fmt.bit_depth == 12) {
        const int ret = check_sample_range(in);
        if (ret < 0)
            return ret;
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
    cli_av_close(in);
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
