/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Frame readers for the gpussim command line tool: raw planar YUV and
 * YUV4MPEG2 (.y4m), from a file or stdin ("-").
 *
 * One reader owns one frame buffer, allocated once by cli_input_start();
 * every frame is read into it, so the caller submits it and reads the next
 * frame while the library computes (host pictures are copied by
 * gpussim_submit() before it returns).
 *
 * Errors are returned as -1 with a complete message in in->err; the caller
 * decides how to report it.
 */
#ifndef GPUSSIM_TOOLS_INPUT_H
#define GPUSSIM_TOOLS_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <gpussim/gpussim.h>

/** What both inputs of a run must agree on. */
struct cli_video_format {
    int width, height;
    int bit_depth;              /**< 8, 10, 12 or 16 */
    enum gpussim_chroma chroma; /**< 420, 422, 444, GRAY (y4m Cmono, -p 400) */
};

/** The library's description of frames of this format: the readers hand
 *  the library planar frames (decoded semi-planar ones are copied to planar). */
static inline struct gpussim_format cli_library_format(const struct cli_video_format *fmt)
{
    struct gpussim_format f = { 0 };
    f.width = fmt->width;
    f.height = fmt->height;
    f.bit_depth = fmt->bit_depth;
    f.chroma = fmt->chroma;
    f.packing = GPUSSIM_PACKING_PLANAR;
    return f;
}

enum cli_input_kind {
    CLI_INPUT_RAW = 0,
    CLI_INPUT_Y4M,
    CLI_INPUT_AV, /**< decoded with FFmpeg's libraries (input_av.h) */
};

struct cli_av_reader;

struct cli_input {
    const char *path; /**< as given, for messages */
    FILE *f;
    enum cli_input_kind kind;
    int has_format;   /**< y4m: from the header; raw: after cli_input_start() */
    struct cli_video_format fmt;

    /** non-NULL for a file that is not YUV (by signature or name): "MP4/QuickTime",
     *  "NUT", "PNG", "WAV"...; compressed_class says what it holds */
    const char *compressed;
    enum cli_compressed_class {
        CLI_COMPRESSED_VIDEO = 0, /**< a video container or elementary stream */
        CLI_COMPRESSED_IMAGE,     /**< a still image (FFmpeg decodes it to y4m too) */
        CLI_COMPRESSED_AUDIO,     /**< audio: no video to score */
    } compressed_class;
    /** what the file is, to tell two names of one pipe apart (fstat) */
    int identity_known, is_regular;
    dev_t dev;
    ino_t ino;
    uint64_t file_size; /**< regular files only */
    /** a warning for the caller to print (raw file size not a whole number of frames) */
    char warning[320];
    /** a note for the caller to print unless quiet (a decoded input converted or scaled) */
    char note[320];

    /** frames in the input as far as known before reading it (a raw or y4m
     *  file's size, a container's frame count or duration), 0 unknown; for
     *  the progress line's percentage only */
    uint64_t nb_frames_hint;
    /** CLI_INPUT_AV: the decoder, the stream's frame rate (0 unknown), and
     *  the time of the frame in buf on FFmpeg's timeline (seconds from the
     *  file's start, as ffmpeg without -copyts: the filter's timestamps) */
    struct cli_av_reader *av;
    double frame_rate;
    double frame_time;

    /* bytes read while sniffing the file type, replayed before the file */
#define CLI_SNIFF_LEN 1024 /* an MPEG-TS sync byte every 188 bytes: 5 packets */
    unsigned char prefix[CLI_SNIFF_LEN];
    size_t prefix_len, prefix_pos;

    int nb_planes;
    size_t plane_offset[3];
    ptrdiff_t stride[3];
    size_t frame_size; /**< payload bytes of one frame (no FRAME header) */
    unsigned char *buf;
    uint64_t frames_read;

    char err[512];
};

/** Opens path ("-" = stdin) and detects raw vs y4m by content (a .y4m name
 *  without the YUV4MPEG2 signature is an error). For y4m the header is parsed
 *  (a field given twice is an error naming it) and has_format is set.
 *  Compressed video (MP4, Matroska, NUT, MPEG-TS...), images (PNG, JPEG...)
 *  and audio (WAV, FLAC...) are opened as raw with `compressed` set: the
 *  caller refuses them with advice (or clears it: --force-raw). */
int cli_input_open(struct cli_input *in, const char *path);
/** The same on an open stream, which in then owns (closed unless stdin);
 *  path names it in messages and for the file-name checks. */
int cli_input_open_stream(struct cli_input *in, FILE *f, const char *path);

/** Fixes the format (raw inputs take fmt; y4m inputs must already have one),
 *  computes the plane layout and allocates the frame buffer. */
int cli_input_start(struct cli_input *in, const struct cli_video_format *fmt);

/** Reads the next frame into in->buf.
 *  @return 1 frame read, 0 clean end of input, -1 error (truncated frame,
 *          bad FRAME header, read error). */
int cli_input_read_frame(struct cli_input *in);

/** Describes in->buf as a host picture. */
void cli_input_picture(const struct cli_input *in, struct gpussim_picture *pic);

void cli_input_close(struct cli_input *in);

/** Copies n bytes of untrusted input into out (size bytes) as visible text:
 *  printable ASCII as is, \r \n \t \\ and \xNN escapes, "..." when cut. */
const char *cli_escape(const char *s, size_t n, char *out, size_t size);

/** "576x324 4:2:0 10-bit" */
const char *cli_format_describe(const struct cli_video_format *f, char *buf, size_t size);

int cli_format_equal(const struct cli_video_format *a, const struct cli_video_format *b);

#endif /* GPUSSIM_TOOLS_INPUT_H */
