/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Compressed inputs decoded with FFmpeg's libraries (see input_av.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_msg.h"
#include "input_av.h"
#include "terminal.h"

static int av_input_error(struct cli_input *in, const char *fmt, ...) CLI_PRINTF(2, 3);

static int av_input_error(struct cli_input *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->err, sizeof(in->err), fmt, ap);
    va_end(ap);
    return -1;
}

#if !GPUSSIM_HAVE_LIBAV

int cli_av_available(void)
{
    return 0;
}

const char *cli_av_version(void)
{
    return NULL;
}

int cli_av_open(struct cli_input *in)
{
    return av_input_error(in, "%s: this gpussim was built without FFmpeg's libraries", in->path);
}

int cli_av_set_output(struct cli_input *in, const struct cli_video_format *fmt)
{
    (void)fmt;
    return cli_av_open(in);
}

int cli_av_read_frame(struct cli_input *in)
{
    return cli_av_open(in);
}

int cli_av_follow(struct cli_input *in, struct cli_input *leader, int after_leader)
{
    (void)in;
    (void)leader;
    (void)after_leader;
    return -1;
}

void cli_av_close(struct cli_input *in)
{
    (void)in;
}

#else /* GPUSSIM_HAVE_LIBAV */

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#define IO_BUFFER_SIZE (64 * 1024)

/* How the samples of a format the library reads sit in an AVFrame. */
enum sample_layout {
    LAYOUT_PLANAR = 0,
    LAYOUT_SEMI_UV, /* NV12, P010: U and V interleaved in plane 1 */
    LAYOUT_SEMI_VU, /* NV21 */
};

struct cli_av_reader {
    AVFormatContext *fc;
    AVIOContext *pb;
    AVCodecContext *dec;
    AVPacket *pkt;
    AVFrame *frame; /* the decoder's frame */
    AVFrame *out;   /* libswscale's output, when frames are scaled or converted */
    struct SwsContext *sws;
    int stream;
    AVRational time_base;
    int64_t ts_offset; /* added to the stream's timestamps: ffmpeg's start at 0 */
    /* the frames as decoded (the first one's size and format) */
    int src_width, src_height;
    enum AVPixelFormat src_format;
    enum AVPixelFormat dst_format; /* planar format of in->buf (swscale's output) */
    int pending;  /* frame holds the next frame, decoded ahead (by cli_av_open(), a peek) */
    int flushing; /* the demuxer ended: the decoder gives what it holds */
    uint64_t decode_errors;
    /* times in microseconds on the input's timeline, as the filter counts
     * them (vf_gpussim.c frame_time(), frame_span()): of the frame in frame
     * (when pending) and of the frame in in->buf, with their durations; a
     * frame without a timestamp comes one frame after the previous one */
    int64_t next_us, cur_us, next_dur_us, cur_dur_us;
    int64_t interval_us; /* between the last two frames decoded; 0 unknown */
    int64_t nb_decoded;
    int ended; /* the last read found no frame */
    /* cli_av_follow(): this input's frames are picked by the leader's time;
     * after_leader: read after the leader's frame of the same pair */
    struct cli_input *leader;
    int after_leader, follow_started;
    int64_t base_us, leader_base_us;
};

int cli_av_available(void)
{
    return 1;
}

const char *cli_av_version(void)
{
    static char buf[160];
    const unsigned f = avformat_version(), c = avcodec_version(), s = swscale_version();
    snprintf(buf, sizeof(buf), "FFmpeg %s (libavformat %u.%u.%u, libavcodec %u.%u.%u, libswscale %u.%u.%u)",
             av_version_info(), f >> 16, f >> 8 & 0xff, f & 0xff, c >> 16, c >> 8 & 0xff, c & 0xff,
             s >> 16, s >> 8 & 0xff, s & 0xff);
    return buf;
}

/* The library's view of a software pixel format (as the filter's
 * gpussim_libav_format(), on public API): planar or semi-planar YUV or gray
 * at 8, 10, 12 or 16 bits, little-endian, the value in the low bits or
 * MSB-aligned (P010: *shift 6). @return 0, or -1 when the library does not
 * read it. */
static int readable_format(enum AVPixelFormat pf, struct cli_video_format *f, enum sample_layout *layout,
                           int *shift)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(pf);
    if (!d || (d->flags & (AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_RGB |
                           AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_ALPHA |
                           AV_PIX_FMT_FLAG_BAYER | AV_PIX_FMT_FLAG_FLOAT)))
        return -1;
    if (d->nb_components != 1 && d->nb_components != 3)
        return -1;
    const int depth = d->comp[0].depth;
    if (depth != 8 && depth != 10 && depth != 12 && depth != 16)
        return -1;
    const int bytes = depth > 8 ? 2 : 1;
    if ((d->comp[0].shift && d->comp[0].shift != 8 * bytes - depth) || d->comp[0].plane != 0 ||
        d->comp[0].step != bytes || d->comp[0].offset != 0)
        return -1;
    f->bit_depth = depth;
    *shift = d->comp[0].shift;
    *layout = LAYOUT_PLANAR;
    if (d->nb_components == 1) {
        f->chroma = GPUSSIM_CHROMA_GRAY;
        return 0;
    }
    for (int i = 1; i < 3; i++)
        if (d->comp[i].depth != depth || d->comp[i].shift != d->comp[0].shift)
            return -1;
    if (d->log2_chroma_w == 1 && d->log2_chroma_h == 1)
        f->chroma = GPUSSIM_CHROMA_420;
    else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 0)
        f->chroma = GPUSSIM_CHROMA_422;
    else if (d->log2_chroma_w == 0 && d->log2_chroma_h == 0)
        f->chroma = GPUSSIM_CHROMA_444;
    else
        return -1;
    if (d->comp[1].plane == 1 && d->comp[2].plane == 2 && d->comp[1].step == bytes &&
        d->comp[2].step == bytes && !d->comp[1].offset && !d->comp[2].offset)
        return *shift ? -1 : 0;
    if (d->comp[1].plane == 1 && d->comp[2].plane == 1 && d->comp[1].step == 2 * bytes &&
        d->comp[2].step == 2 * bytes) {
        if (d->comp[1].offset == 0 && d->comp[2].offset == bytes)
            return *layout = LAYOUT_SEMI_UV, 0;
        if (d->comp[2].offset == 0 && d->comp[1].offset == bytes)
            return *layout = LAYOUT_SEMI_VU, 0;
    }
    return -1;
}

/* The format a source the library does not read is converted to: its depth
 * rounded up to 8/10/12/16, its chroma kept where the library has it (RGB
 * becomes 4:4:4, gray with alpha gray). */
static void nearest_format(enum AVPixelFormat pf, struct cli_video_format *f)
{
    const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(pf);
    const int depth = d ? d->comp[0].depth : 8;
    f->bit_depth = depth <= 8 ? 8 : depth <= 10 ? 10 : depth <= 12 ? 12 : 16;
    if (!d || (d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BAYER)))
        f->chroma = GPUSSIM_CHROMA_444;
    else if (d->nb_components < 3)
        f->chroma = GPUSSIM_CHROMA_GRAY;
    else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 1)
        f->chroma = GPUSSIM_CHROMA_420;
    else if (d->log2_chroma_w == 1 && d->log2_chroma_h == 0)
        f->chroma = GPUSSIM_CHROMA_422;
    else
        f->chroma = GPUSSIM_CHROMA_444;
}

/* The planar pixel format of f: yuv420p, yuv422p10le, gray12le... */
static enum AVPixelFormat planar_format(const struct cli_video_format *f)
{
    static const char *const base[] = { "yuv420p", "yuv422p", "yuv444p", "gray" };
    char name[32];
    if ((unsigned)f->chroma > GPUSSIM_CHROMA_GRAY)
        return AV_PIX_FMT_NONE;
    if (f->bit_depth == 8)
        snprintf(name, sizeof(name), "%s", base[f->chroma]);
    else
        snprintf(name, sizeof(name), "%s%dle", base[f->chroma], f->bit_depth);
    return av_get_pix_fmt(name);
}

/* The note saying what libswscale does to the decoded frames (one step from
 * the decoder's format to in->fmt), or none when they are copied as they are. */
static void describe_path(struct cli_input *in)
{
    const struct cli_av_reader *r = in->av;
    struct cli_video_format src = { r->src_width, r->src_height, 0, GPUSSIM_CHROMA_420 };
    enum sample_layout layout;
    int shift;
    const int readable = readable_format(r->src_format, &src, &layout, &shift) == 0;
    const int scaled = src.width != in->fmt.width || src.height != in->fmt.height;
    const int converted = !readable || src.bit_depth != in->fmt.bit_depth || src.chroma != in->fmt.chroma;
    const char *name = av_get_pix_fmt_name(r->src_format);
    char desc[64];
    in->note[0] = '\0';
    if (!scaled && !converted)
        return;
    snprintf(in->note, sizeof(in->note), "%s: its %dx%d %s frames are %s%s%s to %s (%s) with libswscale",
             in->path, r->src_width, r->src_height, name ? name : "?", scaled ? "scaled (bicubic)" : "",
             scaled && converted ? " and " : "", converted ? "converted" : "",
             cli_format_describe(&in->fmt, desc, sizeof(desc)), av_get_pix_fmt_name(r->dst_format));
}

/* ---- I/O: the sniffed bytes first, then the file ----------------------------- */

static int io_read(void *opaque, uint8_t *buf, int size)
{
    struct cli_input *in = opaque;
    size_t got = 0;
    while (got < (size_t)size && in->prefix_pos < in->prefix_len)
        buf[got++] = in->prefix[in->prefix_pos++];
    if (got < (size_t)size)
        got += fread(buf + got, 1, (size_t)size - got, in->f);
    if (!got)
        return ferror(in->f) ? AVERROR(EIO) : AVERROR_EOF;
    return (int)got;
}

/* regular files only: the demuxers of MP4 and others seek */
static int64_t io_seek(void *opaque, int64_t offset, int whence)
{
    struct cli_input *in = opaque;
    if (whence & AVSEEK_SIZE)
        return (int64_t)in->file_size;
    if (fseeko(in->f, (off_t)offset, whence & ~AVSEEK_FORCE) < 0)
        return AVERROR(errno);
    return (int64_t)ftello(in->f);
}

/* ---- decoding ----------------------------------------------------------------- */

/* FFmpeg's own messages (errors only), after the progress line is erased */
static void av_log_to_terminal(void *avcl, int level, const char *fmt, va_list vl)
{
    if (level > av_log_get_level())
        return;
    cli_progress_erase();
    av_log_default_callback(avcl, level, fmt, vl);
}

/* How long the frame in in->buf lasts (us): the longer of its duration and
 * the input's frame interval, as the filter's frame_span(). */
static int64_t frame_span(const struct cli_input *in)
{
    const struct cli_av_reader *r = in->av;
    if (r->cur_dur_us > 0 || r->interval_us > 0)
        return FFMAX(r->cur_dur_us, r->interval_us);
    return 40000;
}

/* Decodes the next frame into r->frame: 1, 0 at the end, -1 error (in->err).
 * Packets the decoder refuses are skipped with a warning, as ffmpeg does
 * (their frames are missing, which the frame count then shows). */
static int decode_next(struct cli_input *in)
{
    struct cli_av_reader *r = in->av;
    for (;;) {
        int ret = avcodec_receive_frame(r->dec, r->frame);
        if (ret >= 0) {
            const AVFrame *f = r->frame;
            const int64_t ts = f->best_effort_timestamp;
            const int64_t last = r->next_us;
            r->next_dur_us = f->duration > 0 ? av_rescale_q(f->duration, r->time_base, AV_TIME_BASE_Q) : 0;
            if (ts != AV_NOPTS_VALUE)
                r->next_us = av_rescale_q(ts + r->ts_offset, r->time_base, AV_TIME_BASE_Q);
            else if (r->nb_decoded)
                r->next_us = last + (r->next_dur_us > 0 ? r->next_dur_us
                                     : r->interval_us > 0 ? r->interval_us : 40000);
            else
                r->next_us = 0;
            if (r->nb_decoded)
                r->interval_us = r->next_us - last;
            r->nb_decoded++;
            return 1;
        }
        if (ret == AVERROR_EOF)
            return 0;
        if (ret != AVERROR(EAGAIN)) {
            if (!r->decode_errors++)
                cli_msg("warning", "%s: a frame could not be decoded (%s): it is left out, as ffmpeg "
                        "does", in->path, av_err2str(ret));
            continue;
        }
        if (r->flushing)
            return 0;
        ret = av_read_frame(r->fc, r->pkt);
        if (ret == AVERROR_EOF) {
            r->flushing = 1;
            avcodec_send_packet(r->dec, NULL);
            continue;
        }
        if (ret < 0)
            return av_input_error(in, "%s: read error after %llu frames: %s", in->path,
                                  (unsigned long long)in->frames_read, av_err2str(ret));
        if (r->pkt->stream_index != r->stream) {
            av_packet_unref(r->pkt);
            continue;
        }
        ret = avcodec_send_packet(r->dec, r->pkt);
        av_packet_unref(r->pkt);
        if (ret < 0 && ret != AVERROR(EAGAIN) && !r->decode_errors++)
            cli_msg("warning", "%s: a packet could not be decoded (%s): its frames are left out, as "
                    "ffmpeg does", in->path, av_err2str(ret));
    }
}

int cli_av_open(struct cli_input *in)
{
    struct cli_av_reader *r = calloc(1, sizeof(*r));
    unsigned char *iobuf = NULL;
    const AVCodec *codec = NULL;
    int ret;

    if (!r)
        return av_input_error(in, "out of memory");
    in->av = r;
    in->kind = CLI_INPUT_AV;
    r->stream = -1;
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(av_log_to_terminal);
    if (in->is_regular) {
        /* read from the start, with seeks */
        if (fseeko(in->f, 0, SEEK_SET) < 0)
            return av_input_error(in, "cannot seek in it: %s", strerror(errno));
        in->prefix_len = in->prefix_pos = 0;
    }
    iobuf = av_malloc(IO_BUFFER_SIZE);
    if (iobuf)
        r->pb = avio_alloc_context(iobuf, IO_BUFFER_SIZE, 0, in, io_read, NULL,
                                   in->is_regular ? io_seek : NULL);
    if (!r->pb) {
        av_free(iobuf);
        return av_input_error(in, "out of memory");
    }
    r->fc = avformat_alloc_context();
    r->pkt = av_packet_alloc();
    r->frame = av_frame_alloc();
    if (!r->fc || !r->pkt || !r->frame)
        return av_input_error(in, "out of memory");
    r->fc->pb = r->pb;
    r->fc->flags |= AVFMT_FLAG_CUSTOM_IO;
    /* the name is a hint for the probe (an extension) */
    ret = avformat_open_input(&r->fc, in->path, NULL, NULL);
    if (ret < 0) /* r->fc was freed */
        return av_input_error(in, "FFmpeg's libraries cannot read it: %s", av_err2str(ret));
    ret = avformat_find_stream_info(r->fc, NULL);
    if (ret < 0)
        return av_input_error(in, "FFmpeg's libraries cannot read its streams: %s", av_err2str(ret));
    /* the first video stream, as ffmpeg binds an unlabeled filter input */
    for (unsigned i = 0; i < r->fc->nb_streams && r->stream < 0; i++) {
        const AVStream *st = r->fc->streams[i];
        if (st->codecpar->codec_type == AVMEDIA_TYPE_VIDEO && !(st->disposition & AV_DISPOSITION_ATTACHED_PIC))
            r->stream = (int)i;
    }
    if (r->stream < 0)
        return av_input_error(in, "it has no video stream (%s, %u stream%s)", r->fc->iformat->name,
                              r->fc->nb_streams, r->fc->nb_streams == 1 ? "" : "s");
    AVStream *st = r->fc->streams[r->stream];
    for (unsigned i = 0; i < r->fc->nb_streams; i++)
        if ((int)i != r->stream)
            r->fc->streams[i]->discard = AVDISCARD_ALL;
    codec = avcodec_find_decoder(st->codecpar->codec_id);
    if (!codec)
        return av_input_error(in, "its video stream is %s, which this FFmpeg build cannot decode",
                              avcodec_get_name(st->codecpar->codec_id));
    r->dec = avcodec_alloc_context3(codec);
    if (!r->dec)
        return av_input_error(in, "out of memory");
    ret = avcodec_parameters_to_context(r->dec, st->codecpar);
    if (ret >= 0) {
        r->dec->pkt_timebase = st->time_base;
        r->dec->thread_count = 0; /* as ffmpeg: threads=auto */
        ret = avcodec_open2(r->dec, codec, NULL);
    }
    if (ret < 0)
        return av_input_error(in, "cannot open the %s decoder: %s", codec->name, av_err2str(ret));
    r->time_base = st->time_base;
    /* ffmpeg (without -copyts) moves the file's start to 0 */
    if (r->fc->start_time != AV_NOPTS_VALUE)
        r->ts_offset = av_rescale_q(-r->fc->start_time, AV_TIME_BASE_Q, st->time_base);
    const AVRational rate = st->avg_frame_rate.num ? st->avg_frame_rate : st->r_frame_rate;
    in->frame_rate = rate.num && rate.den ? av_q2d(rate) : 0.0;
    if (st->nb_frames > 0)
        in->nb_frames_hint = (uint64_t)st->nb_frames;
    else if (in->frame_rate > 0 && st->duration != AV_NOPTS_VALUE && st->duration > 0)
        in->nb_frames_hint = (uint64_t)(st->duration * av_q2d(st->time_base) * in->frame_rate + 0.5);
    else if (in->frame_rate > 0 && r->fc->duration > 0)
        in->nb_frames_hint = (uint64_t)((double)r->fc->duration / AV_TIME_BASE * in->frame_rate + 0.5);

    /* the first frame tells the size and format of the frames */
    ret = decode_next(in);
    if (ret < 0)
        return -1;
    if (!ret)
        return av_input_error(in, "no video frame could be decoded from its %s stream",
                              avcodec_get_name(st->codecpar->codec_id));
    r->pending = 1;
    r->src_width = r->frame->width;
    r->src_height = r->frame->height;
    r->src_format = (enum AVPixelFormat)r->frame->format;
    enum sample_layout layout;
    int shift;
    in->fmt.width = r->src_width;
    in->fmt.height = r->src_height;
    if (readable_format(r->src_format, &in->fmt, &layout, &shift) < 0)
        nearest_format(r->src_format, &in->fmt);
    r->dst_format = planar_format(&in->fmt);
    in->has_format = 1;
    describe_path(in);
    return 0;
}

int cli_av_set_output(struct cli_input *in, const struct cli_video_format *fmt)
{
    struct cli_av_reader *r = in->av;
    char desc[64];
    if (cli_format_equal(&in->fmt, fmt))
        return 0;
    in->fmt = *fmt;
    r->dst_format = planar_format(fmt);
    if (r->dst_format == AV_PIX_FMT_NONE)
        return av_input_error(in, "%s: no pixel format for %s", in->path,
                              cli_format_describe(fmt, desc, sizeof(desc)));
    describe_path(in);
    return 0;
}

/* Copies the frame f (in a format the library reads, at the output size)
 * into in->buf: planar as is; semi-planar U/V split; MSB-aligned samples
 * shifted down. */
static void copy_to_buffer(struct cli_input *in, const AVFrame *f, enum sample_layout layout, int shift)
{
    const int bps = in->fmt.bit_depth > 8 ? 2 : 1;
    const int sx = in->fmt.chroma == GPUSSIM_CHROMA_420 || in->fmt.chroma == GPUSSIM_CHROMA_422;
    const int sy = in->fmt.chroma == GPUSSIM_CHROMA_420;
    const int cw = (in->fmt.width + sx) >> sx, ch = (in->fmt.height + sy) >> sy;
    for (int p = 0; p < in->nb_planes; p++) {
        unsigned char *dst = in->buf + in->plane_offset[p];
        const int w = p ? cw : in->fmt.width, h = p ? ch : in->fmt.height;
        if (layout == LAYOUT_PLANAR) {
            av_image_copy_plane(dst, (int)in->stride[p], f->data[p], f->linesize[p], w * bps, h);
            continue;
        }
        /* semi-planar: Y as is (shifted), U and V from plane 1 */
        const int src_plane = p ? 1 : 0;
        const int step = p ? 2 : 1;
        const int pick = p == 0 ? 0 : (p == 1) == (layout == LAYOUT_SEMI_UV) ? 0 : 1;
        for (int y = 0; y < h; y++) {
            const unsigned char *s = f->data[src_plane] + (ptrdiff_t)y * f->linesize[src_plane];
            unsigned char *d = dst + (ptrdiff_t)y * in->stride[p];
            if (bps == 1) {
                for (int x = 0; x < w; x++)
                    d[x] = s[x * step + pick];
            } else {
                const uint16_t *s16 = (const uint16_t *)(const void *)s;
                uint16_t *d16 = (uint16_t *)(void *)d;
                for (int x = 0; x < w; x++)
                    d16[x] = (uint16_t)(s16[x * step + pick] >> shift);
            }
        }
    }
}

/* The frame through libswscale, as FFmpeg's scale filter with flags=bicubic
 * and its defaults does it (vf_scale.c: unset input chroma location, not
 * interlaced, the input's range and matrix kept). */
static int scale_frame(struct cli_input *in, AVFrame *f)
{
    struct cli_av_reader *r = in->av;
    int ret;
    if (!r->sws) {
        r->sws = sws_alloc_context();
        r->out = av_frame_alloc();
        if (!r->sws || !r->out)
            return av_input_error(in, "out of memory");
        av_opt_set(r->sws, "sws_flags", "bicubic", 0);
        av_opt_set_int(r->sws, "threads", 0, 0);
        r->out->format = r->dst_format;
        r->out->width = in->fmt.width;
        r->out->height = in->fmt.height;
        ret = av_frame_get_buffer(r->out, 0);
        if (ret < 0)
            return av_input_error(in, "%s: cannot allocate a %dx%d frame: %s", in->path, in->fmt.width,
                                  in->fmt.height, av_err2str(ret));
    }
    f->chroma_location = AVCHROMA_LOC_UNSPECIFIED;
    f->flags &= ~AV_FRAME_FLAG_INTERLACED;
    av_frame_copy_props(r->out, f);
    r->out->color_range = f->color_range;
    r->out->colorspace = f->colorspace;
    ret = sws_scale_frame(r->sws, r->out, f);
    if (ret < 0)
        return av_input_error(in, "%s: frame %llu: libswscale failed: %s", in->path,
                              (unsigned long long)in->frames_read, av_err2str(ret));
    copy_to_buffer(in, r->out, LAYOUT_PLANAR, 0);
    return 0;
}

/* The time of the frame the next read_next() gives (decoding it ahead):
 * 1, 0 at the end, -1 error (in->err). */
static int peek_time(struct cli_input *in, int64_t *t)
{
    struct cli_av_reader *r = in->av;
    if (!r->pending) {
        av_frame_unref(r->frame);
        const int ret = decode_next(in);
        if (ret <= 0)
            return ret;
        r->pending = 1;
    }
    *t = r->next_us;
    return 1;
}

/* The input's next frame into in->buf: 1, 0 at the end, -1 error. */
static int read_next(struct cli_input *in)
{
    struct cli_av_reader *r = in->av;
    int ret;
    if (r->pending) {
        r->pending = 0;
    } else {
        av_frame_unref(r->frame);
        ret = decode_next(in);
        if (ret <= 0) {
            r->ended = !ret;
            return ret;
        }
    }
    AVFrame *f = r->frame;
    r->cur_us = r->next_us;
    r->cur_dur_us = r->next_dur_us;
    if (f->width != r->src_width || f->height != r->src_height)
        return av_input_error(in, "%s: frame %llu is %dx%d, but earlier frames were %dx%d: sizes changed "
                              "mid-stream, which gpussim does not follow",
                              in->path, (unsigned long long)in->frames_read, f->width, f->height,
                              r->src_width, r->src_height);
    in->frame_time = f->best_effort_timestamp == AV_NOPTS_VALUE
                   ? NAN : (double)(f->best_effort_timestamp + r->ts_offset) * av_q2d(r->time_base);

    struct cli_video_format ff;
    enum sample_layout layout;
    int shift;
    ff.width = f->width;
    ff.height = f->height;
    if (readable_format((enum AVPixelFormat)f->format, &ff, &layout, &shift) == 0 && cli_format_equal(&ff, &in->fmt))
        copy_to_buffer(in, f, layout, shift);
    else if (scale_frame(in, f) < 0)
        return -1;
    in->frames_read++;
    return 1;
}

/* The time of the leader's frame of this pair: its next one (peeked) for an
 * input read before it, the one it just gave for one read after it.
 * 1, 0 the leader has ended, -1 error. */
static int leader_time(struct cli_input *in, int64_t *t)
{
    const struct cli_av_reader *r = in->av;
    const struct cli_av_reader *l = r->leader->av;
    if (!r->after_leader)
        return peek_time(r->leader, t);
    if (l->ended || !l->nb_decoded)
        return 0;
    *t = l->cur_us;
    return 1;
}

/* The filter's pairing (vf_gpussim.c, "pairing": align=start): each input's
 * time counts from its own first paired frame, and the leader's frame of
 * the pair (at t) takes this input's frame nearest to t (ties: the earlier one),
 * which may be the one already in buf (a repeated frame) or one after
 * frames passed over. Past this input's last frame by more than half a
 * frame, it has ended. When the leader has ended, a frame past what the
 * leader's last frame covered is served as the next one (the pairing then
 * says this input has more), else the end. */
static int follow_leader(struct cli_input *in)
{
    struct cli_av_reader *r = in->av;
    struct cli_input *leader = r->leader;
    int64_t tl, tn;
    int ret = leader_time(in, &tl);
    if (ret < 0)
        return av_input_error(in, "%s", leader->err);
    if (!r->follow_started) {
        /* the first pair: both timelines start here */
        if (ret > 0) {
            r->leader_base_us = tl;
            r->follow_started = 1;
        }
        ret = read_next(in);
        r->base_us = r->cur_us;
        return ret;
    }
    if (ret == 0) {
        const int64_t t_last = leader->av->cur_us - r->leader_base_us;
        for (;;) {
            ret = peek_time(in, &tn);
            if (ret <= 0)
                return ret;
            ret = read_next(in);
            if (ret <= 0 || 2 * (tn - r->base_us - t_last) > frame_span(leader))
                return ret;
        }
    }
    const int64_t t = tl - r->leader_base_us;
    for (;;) {
        ret = peek_time(in, &tn);
        if (ret < 0)
            return -1;
        if (ret == 0) {
            /* past the last frame: nearer to where its successor would be */
            if (2 * (t - (r->cur_us - r->base_us)) > frame_span(in))
                return 0;
            break;
        }
        if (FFABS(tn - r->base_us - t) >= FFABS(r->cur_us - r->base_us - t))
            break;
        ret = read_next(in);
        if (ret <= 0)
            return ret;
    }
    return 1;
}

int cli_av_follow(struct cli_input *in, struct cli_input *leader, int after_leader)
{
    if (in->kind != CLI_INPUT_AV || leader->kind != CLI_INPUT_AV)
        return -1;
    in->av->leader = leader;
    in->av->after_leader = after_leader;
    return 0;
}

int cli_av_read_frame(struct cli_input *in)
{
    return in->av->leader ? follow_leader(in) : read_next(in);
}

void cli_av_close(struct cli_input *in)
{
    struct cli_av_reader *r = in->av;
    if (!r)
        return;
    sws_free_context(&r->sws);
    av_frame_free(&r->out);
    av_frame_free(&r->frame);
    av_packet_free(&r->pkt);
    avcodec_free_context(&r->dec);
    avformat_close_input(&r->fc);
    if (r->pb)
        av_freep(&r->pb->buffer);
    avio_context_free(&r->pb);
    free(r);
    in->av = NULL;
}

#endif /* GPUSSIM_HAVE_LIBAV */
