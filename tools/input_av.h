/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Compressed inputs (MP4, Matroska, WebM, MPEG-TS, MOV, images...) decoded
 * with FFmpeg's libraries: libavformat reads the file (or the pipe: the
 * bytes the sniffer read are replayed first), libavcodec decodes its first
 * video stream, libswscale scales (--scale, bicubic) or converts a pixel
 * format the library does not read.
 *
 * Built only when `make ffmpeg` has built FFmpeg (GPUSSIM_HAVE_LIBAV, see
 * Makefile.am); otherwise cli_av_available() is 0 and cli_av_open() fails.
 *
 * Frames keep the source's format when the library reads it (planar 8, 10,
 * 12, 16-bit little-endian, gray; NV12/NV21/P010-style semi-planar ones are
 * copied to planar: the same samples); any other is converted with
 * libswscale, and the input's `note` says so. A decoded frame is copied into
 * in->buf, like the raw and y4m readers' frames, so the pairing and the
 * pipeline treat every input alike; cli_av_follow() makes an input's reads
 * pick frames by time, as the filter pairs them.
 */
#ifndef GPUSSIM_TOOLS_INPUT_AV_H
#define GPUSSIM_TOOLS_INPUT_AV_H

#include "input.h"

/** 1 when the tool was built with FFmpeg's libraries. */
int cli_av_available(void);

/** "FFmpeg 8.1.2 (libavformat 62.3.100, libavcodec 62.11.100,
 *  libswscale 9.1.100)", or NULL without them. */
const char *cli_av_version(void);

/** Opens in (cli_input_open() has sniffed it) with libavformat and the
 *  decoder of its first video stream: in->kind becomes CLI_INPUT_AV and
 *  in->fmt the decoded format (the source's size; the nearest format the
 *  library reads). @return 0, or -1 with in->err set. */
int cli_av_open(struct cli_input *in);

/** Makes the frames come out in fmt: scaled (bicubic, as FFmpeg's scale
 *  filter with flags=bicubic) when the size differs, converted when the
 *  depth or chroma does; in->note says what happens. Before
 *  cli_input_start(). @return 0, -1 with in->err set. */
int cli_av_set_output(struct cli_input *in, const struct cli_video_format *fmt);

/** Decodes the next frame into in->buf; @return 1, 0 at the end, -1 error
 *  (in->err). */
int cli_av_read_frame(struct cli_input *in);

/** Pairs in's frames with leader's by time, as the FFmpeg filter does: from
 *  the next read on, each cli_input_read_frame() of in gives in's frame
 *  nearest to the leader's frame of the same pair on their timelines (each
 *  from its own first frame from here), repeating or passing over frames;
 *  0 once in ends before that frame. after_leader: in is read after the
 *  leader in each pair (else before: the leader's next frame is decoded
 *  ahead). Both inputs decoded. @return 0, -1 when one is not decoded. */
int cli_av_follow(struct cli_input *in, struct cli_input *leader, int after_leader);

void cli_av_close(struct cli_input *in);

#endif /* GPUSSIM_TOOLS_INPUT_AV_H */
