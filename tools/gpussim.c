/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * gpussim: score a distorted video against its reference with libvmaf's
 * float_ssim, float_ms_ssim, float_ansnr/float_anpsnr and integer ssim,
 * on the CPU or a GPU, and print libvmaf-layout JSON or CSV.
 *
 * Flow: parse options, open the inputs (raw, y4m, or any file FFmpeg's
 * libraries decode when the tool is built with them: tools/input_av.c, with
 * --scale and the reference's format applied to the decoded ones) and check
 * they share one format, create the library context (features, options and the default
 * rule are the library's), form the pairs (tools/pairing.c: per-input
 * skips, the sync offset, --skip, and the first pair read before the log is
 * opened, so that nothing to score leaves the output untouched), open the
 * log (the library's writer), then a pipeline: submit frame N, read frame N+1 while the
 * workers compute, collect results in order and write each frame (flushed)
 * as it completes. Whatever goes wrong after scoring began, and on
 * SIGINT/SIGTERM, the frames scored so far are in the output, which is then
 * closed properly (pooled statistics) before the non-zero exit. A person
 * sees a progress line (stderr on a terminal) and the pooled table at the
 * end (tools/terminal.c); the log goes to -o or stdout, never to a terminal
 * unless asked for (-o -).
 *
 * `gpussim merge` merges chunk logs through gpussim_log_merge(); `gpussim
 * plot` draws logs (tools/plot.c).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"

#include <gpussim/gpussim.h>
#include <gpussim/gpussim_log.h>

#include "cli_msg.h"
#include "input.h"
#include "input_av.h"
#include "options.h"
#include "pairing.h"
#include "plot.h"
#include "terminal.h"

/* exit statuses (documented in docs/cli.md, "Exit status"; a stop signal gives 128 + its number) */
#define EXIT_SCORING_ERROR 1 /* failed after scoring began; output has the frames before it */
#define EXIT_SETUP_ERROR 2   /* bad options, inputs or configuration; nothing scored or written */

/* ---- inputs ------------------------------------------------------------------ */

/* y4m inputs bring their format; raw ones take -w -h -p -b, or the other
 * input's y4m format when those are not given. Options given alongside a y4m
 * input must agree with its header. */
static int resolve_format(const struct options *o, struct cli_input **in, int nb_in, struct cli_video_format *out)
{
    const int nb_opts = !!o->width + !!o->height + !!o->pix + !!o->bit_depth;
    struct cli_video_format opt_fmt = { o->width, o->height, o->bit_depth, cli_chroma_from_pix(o->pix) };
    char a[64], b[64];

    for (int i = 0; i < nb_in; i++) {
        if (!in[i]->has_format || !nb_opts)
            continue;
        const struct cli_video_format *h = &in[i]->fmt;
        if ((o->width && o->width != h->width) || (o->height && o->height != h->height) ||
            (o->pix && opt_fmt.chroma != h->chroma) || (o->bit_depth && o->bit_depth != h->bit_depth)) {
            cli_error("%s: the y4m header says %s, which contradicts -w/-h/-p/-b", in[i]->path,
                      cli_format_describe(h, a, sizeof(a)));
            return -1;
        }
    }

    const struct cli_input *y4m = NULL;
    for (int i = 0; i < nb_in && !y4m; i++)
        y4m = in[i]->has_format ? in[i] : NULL;
    for (int i = 0; i < nb_in; i++) {
        if (in[i]->has_format)
            continue;
        if (nb_opts == 4)
            continue;
        if (y4m && !nb_opts)
            continue;
        cli_error("%s is raw YUV: give its format with -w WIDTH -h HEIGHT -p 420|422|444|400 -b "
                  "8|10|12|16 (missing:%s%s%s%s)",
                  in[i]->path, o->width ? "" : " -w", o->height ? "" : " -h", o->pix ? "" : " -p",
                  o->bit_depth ? "" : " -b");
        return -1;
    }
    const struct cli_video_format *fmt[1 + GPUSSIM_MAX_DISTORTED];
    for (int i = 0; i < nb_in; i++)
        fmt[i] = in[i]->has_format ? &in[i]->fmt : nb_opts == 4 ? &opt_fmt : &y4m->fmt;
    for (int i = 1; i < nb_in; i++)
        if (!cli_format_equal(fmt[0], fmt[i])) {
            const int sized = fmt[0]->width != fmt[i]->width || fmt[0]->height != fmt[i]->height;
            cli_error("the inputs differ in format: reference %s is %s, distorted %s is %s%s", in[0]->path,
                      cli_format_describe(fmt[0], a, sizeof(a)), in[i]->path,
                      cli_format_describe(fmt[i], b, sizeof(b)),
                      !sized ? ""
                      : cli_av_available() && (in[i]->kind == CLI_INPUT_AV || in[0]->kind == CLI_INPUT_AV)
                          ? " (--scale auto scales a decoded input to the reference's size)"
                          : "");
            return -1;
        }
    *out = *fmt[0];
    return 0;
}

/* Single quotes for a shell line when a path needs them. */
static const char *shell_word(const char *s, char *buf, size_t size)
{
    if (s[0] && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+,:=@%") ==
                    strlen(s))
        return s;
    size_t o = 0;
    if (size < 3)
        return "''";
    buf[o++] = '\'';
    for (; *s && o + 6 < size; s++) {
        if (*s == '\'') {
            memcpy(buf + o, "'\\''", 4);
            o += 4;
        } else {
            buf[o++] = *s;
        }
    }
    buf[o++] = '\'';
    buf[o] = '\0';
    return buf;
}

/* "compressed video (MP4/QuickTime)", "an image (PNG)" */
static const char *compressed_what(const struct cli_input *in, char *buf, size_t size)
{
    snprintf(buf, size, in->compressed_class == CLI_COMPRESSED_IMAGE ? "an image (%s)"
                                                                      : "compressed video (%s)",
             in->compressed);
    return buf;
}

/* gpussim reads decoded video only: say so, and show the FFmpeg line that
 * decodes a compressed input into y4m for it (audio has no video to decode). */
static int refuse_compressed(struct cli_input **in, int nb_in)
{
    char what[96];
    for (int i = 0; i < nb_in; i++)
        if (in[i]->compressed && in[i]->compressed_class == CLI_COMPRESSED_AUDIO) {
            cli_error("%s is audio (%s), not video: gpussim scores video frames, read from "
                      "YUV4MPEG2 (.y4m) or raw planar YUV; give the video, or decode its video "
                      "stream with FFmpeg (ffmpeg -i FILE -strict -1 -f yuv4mpegpipe -)",
                      in[i]->path, in[i]->compressed);
            return -1;
        }
    if (nb_in > 2) {
        /* a ladder: name the first compressed input and its decode line */
        for (int i = 0; i < nb_in; i++) {
            if (!in[i]->compressed)
                continue;
            char a[512];
            cli_error("%s is %s: gpussim reads only YUV4MPEG2 (.y4m) and raw "
                      "planar YUV. Decode each compressed input with FFmpeg first, e.g.:",
                      in[i]->path, compressed_what(in[i], what, sizeof(what)));
            fprintf(stderr, "    ffmpeg -i %s -strict -1 -f yuv4mpegpipe input%d.y4m\n",
                    shell_word(in[i]->path, a, sizeof(a)), i);
            return -1;
        }
        return 0;
    }
    const int r = in[0]->compressed != NULL, d = in[1]->compressed != NULL;
    if (!r && !d)
        return 0;
    char a[512], b[512];
    const char *rp = shell_word(in[0]->path, a, sizeof(a)), *dp = shell_word(in[1]->path, b, sizeof(b));
    const struct cli_input *c = r ? in[0] : in[1];
    cli_error("%s is %s: gpussim reads only YUV4MPEG2 (.y4m) and raw planar "
              "YUV. Decode it with FFmpeg and pipe y4m into gpussim ('-' reads stdin; -strict -1 "
              "lets FFmpeg write y4m deeper than 8 bits), e.g.:",
              c->path, compressed_what(c, what, sizeof(what)));
    if (r && d)
        fprintf(stderr, "    ffmpeg -i %s -strict -1 -f yuv4mpegpipe ref.y4m &&\n"
                        "    ffmpeg -i %s -strict -1 -f yuv4mpegpipe - | gpussim -r ref.y4m -d -\n",
                rp, dp);
    else if (r)
        fprintf(stderr, "    ffmpeg -i %s -strict -1 -f yuv4mpegpipe - | gpussim -r - -d %s\n", rp, dp);
    else
        fprintf(stderr, "    ffmpeg -i %s -strict -1 -f yuv4mpegpipe - | gpussim -r %s -d -\n", dp, rp);
    fprintf(stderr, "gpussim reads such files itself when built with FFmpeg's libraries: run 'make "
                    "ffmpeg' in the build folder (gpussim --version says which it has)\n");
    return -1;
}

/* Two names of one pipe (-r - -d /dev/stdin, one FIFO twice) would split
 * one stream between the inputs. Two opens of one regular file are fine:
 * each has its own offset (scoring a file against itself). */
static int refuse_shared_stream(struct cli_input **in, int nb_in)
{
    for (int i = 0; i < nb_in; i++)
        for (int j = i + 1; j < nb_in; j++) {
            if (!in[i]->identity_known || !in[j]->identity_known)
                continue;
            if (in[i]->dev != in[j]->dev || in[i]->ino != in[j]->ino || in[i]->is_regular)
                continue;
            cli_error("the %s (%s) and the distorted input (%s) are the same stream (a pipe or "
                      "device): only one input can be read from stdin or a pipe",
                      i ? "distorted input" : "reference", in[i]->path, in[j]->path);
            return -1;
        }
    return 0;
}

/* -o naming an input (the same file through another name, a symbolic or a
 * hard link) would truncate it before a frame is read: refused before
 * anything is opened for writing. Compared by device and inode with what
 * each input is (stdin too, when it is a file); stdout (-o - or none) is the
 * shell's redirection and is not checked. */
static int refuse_output_is_input(const char *out_path, struct cli_input **in, int nb_in)
{
    struct stat st;
    if (!out_path || !strcmp(out_path, "-") || stat(out_path, &st) < 0)
        return 0; /* stdout, or a file that does not exist yet */
    for (int i = 0; i < nb_in; i++) {
        if (!in[i]->identity_known || in[i]->dev != st.st_dev || in[i]->ino != st.st_ino)
            continue;
        cli_error("-o %s is the %s %s (the same file): writing the scores there would destroy "
                  "the input; choose another output",
                  out_path, i == 0 ? "reference" : "distorted input", in[i]->path);
        return -1;
    }
    return 0;
}

/* ---- inputs decoded with FFmpeg's libraries -------------------------------------- */

/* Compressed inputs are decoded with FFmpeg's libraries when the tool has
 * them (audio files stay refused: no video). Without them they stay marked
 * compressed and refuse_compressed() explains. */
static int open_decoded(struct cli_input **in, int nb_in)
{
    for (int i = 0; i < nb_in && cli_av_available(); i++) {
        struct cli_input *c = in[i];
        if (!c->compressed || c->compressed_class == CLI_COMPRESSED_AUDIO)
            continue;
        if (cli_av_open(c) < 0) {
            char what[96];
            cli_error("%s is %s: %s", c->path, compressed_what(c, what, sizeof(what)), c->err);
            return -1;
        }
        c->compressed = NULL;
    }
    return 0;
}

/* --scale and the reference's format for the decoded inputs: --scale WxH
 * scales every input of another size to WxH, --scale auto the distorted
 * ones to the reference's size (a y4m file of another size is then read
 * through FFmpeg's libraries too); a decoded distorted input of another
 * depth or chroma than the reference is converted to the reference's.
 * Each change is a note (unless quiet). */
static int adapt_decoded(const struct options *o, struct cli_input **in, int nb_in)
{
    struct cli_video_format ref = in[0]->fmt;
    const int have_ref = in[0]->has_format;
    int tw = o->scale_width, th = o->scale_height;
    if ((o->scale_auto || o->scale_width) && !cli_av_available()) {
        cli_error("--scale needs FFmpeg's libraries, which this gpussim was built without: run 'make "
                  "ffmpeg' in the build folder");
        return -1;
    }
    if (o->scale_auto) {
        if (!have_ref && !(o->width && o->height)) {
            cli_error("--scale auto: the reference's size is not known (give -w and -h for a raw "
                      "reference)");
            return -1;
        }
        tw = have_ref ? ref.width : o->width;
        th = have_ref ? ref.height : o->height;
    }
    for (int i = 0; i < nb_in; i++) {
        struct cli_input *c = in[i];
        const int scaled = tw && (i > 0 || !o->scale_auto);
        if (scaled && c->kind == CLI_INPUT_Y4M && (c->fmt.width != tw || c->fmt.height != th)) {
            if (!c->is_regular) {
                cli_error("--scale: %s is %dx%d y4m from a pipe, which gpussim cannot scale (give "
                          "it as a file, or scale it with FFmpeg)",
                          c->path, c->fmt.width, c->fmt.height);
                return -1;
            }
            if (cli_av_open(c) < 0) {
                cli_error("%s: %s", c->path, c->err);
                return -1;
            }
        }
        if (c->kind != CLI_INPUT_AV)
            continue;
        struct cli_video_format t = c->fmt;
        if (scaled) {
            t.width = tw;
            t.height = th;
        }
        if (i > 0 && have_ref) {
            t.chroma = ref.chroma;
            t.bit_depth = ref.bit_depth;
        }
        if (cli_av_set_output(c, &t) < 0) {
            cli_error("%s", c->err);
            return -1;
        }
    }
    return 0;
}

/* Decoded inputs are paired by time as the filter pairs them
 * (cli_av_follow(): the first distorted input leads, as the filter's input
 * 0); with --sync-window (an offset in frames) by index, which is the
 * filter's pairing when their frame rates agree: at different rates the
 * pairs would drift apart. */
static int by_time(const struct options *o, struct cli_input **in, int nb_in)
{
    int all = !o->sync_window;
    for (int i = 0; i < nb_in; i++)
        all &= in[i]->kind == CLI_INPUT_AV;
    return all;
}

static int check_frame_rates(struct cli_input **in, int nb_in)
{
    for (int i = 1; i < nb_in; i++) {
        const double r0 = in[0]->frame_rate, ri = in[i]->frame_rate;
        if (in[0]->kind != CLI_INPUT_AV || in[i]->kind != CLI_INPUT_AV || r0 <= 0 || ri <= 0 ||
            fabs(r0 - ri) <= 1e-3 * r0)
            continue;
        cli_error("the reference %s is %.6g fps, %s %.6g fps: with --sync-window frame i is paired "
                  "with frame i (plus the offset), which at different rates pairs frames that do not "
                  "show the same moment; convert it to the reference's rate first (ffmpeg -i %s -vf "
                  "fps=%.6g ...), or leave out --sync-window: frames are then paired by time",
                  in[0]->path, r0, in[i]->path, ri, in[i]->path, r0);
        return -1;
    }
    return 0;
}

/* Pairs the run is expected to score, for the progress line: the inputs'
 * known lengths less what was dropped before pairing, --skip and --frames;
 * 0 unknown. */
static uint64_t expected_pairs(const struct options *o, const struct cli_pairing *p)
{
    uint64_t n = 0;
    /* paired by time: one pair per frame of the first distorted input */
    for (int i = by_time(o, p->in, p->nb_in) ? 1 : 0; i < (by_time(o, p->in, p->nb_in) ? 2 : p->nb_in); i++) {
        uint64_t h = p->in[i]->nb_frames_hint;
        if (!h) {
            n = 0;
            break;
        }
        h = h > p->skipped[i] ? h - p->skipped[i] : 0;
        n = !n ? h : o->repeat_last ? (h > n ? h : n) : (h < n ? h : n);
    }
    n = n > o->skip ? n - o->skip : 0;
    if (o->frames && (!n || o->frames < n))
        n = o->frames;
    return n;
}

/* ---- the scoring pipeline ------------------------------------------------------- */

/* SIGINT/SIGTERM: stop reading, finish the frames in flight, write a
 * complete file and exit with 128 + the signal's number, as shells report.
 * The handler is one-shot: a second signal ends the process at once. */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

static void install_stop_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    /* no SA_RESTART: a read blocked on a pipe returns (EINTR) and the loop
     * sees the request */
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* frames in flight whose timestamps wait for their results (a ring) */
#define TIME_RING 256

/* frames listed per score in the NaN warning */
#define NAN_FRAMES_LISTED 8

struct run {
    GpussimContext *ctx;
    const char *const *names;
    int nb_names;  /* score names of one rendition */
    int nb_values; /* nb_names x renditions */
    GpussimLogWriter *out;
    uint64_t submitted, collected, written;
    int failed;           /* a frame failed in the library, or the log: stop and report */
    uint64_t good_frames; /* frames before the first failed one */
    uint64_t (*nan_frames)[NAN_FRAMES_LISTED]; /* per score: the first NaN frames */
    struct cli_progress progress;
    double start;
    double times[TIME_RING]; /* frame i's timestamp at times[i % TIME_RING] (decoded inputs) */
};

/* Collects one result and writes it. @return 1, 0 nothing ready, -1 failure */
static int collect_one(struct run *run, int wait)
{
    struct gpussim_result res;
    const int ret = gpussim_collect(run->ctx, &res, wait);
    if (ret <= 0) {
        if (ret < 0) {
            /* the library logged which frame and why; keep only frames before it */
            if (!run->failed)
                run->good_frames = run->collected;
            run->collected++;
            run->failed = 1;
            return -1;
        }
        return 0;
    }
    run->collected++;
    if (run->failed) /* after a failed frame: dropped */
        return 1;
    for (int c = 0; c < run->nb_values; c++)
        if (isnan(res.values[c])) {
            const uint64_t n = gpussim_log_frames_left_out(run->out, c);
            if (n < NAN_FRAMES_LISTED)
                run->nan_frames[c][n] = run->written;
        }
    /* the library's writer flushes the frame and names a write error */
    if (gpussim_log_write_frame(run->out, res.values, run->times[run->written % TIME_RING]) < 0) {
        run->good_frames = run->written;
        run->failed = 2;
        return -1;
    }
    run->written++;
    return 1;
}

/* Submits the pair in the input buffers; when the context has max_in_flight
 * frames pending, its oldest result is collected first. */
static int submit_pair(struct run *run, const struct gpussim_picture *ref,
                       const struct gpussim_picture *const *dis, int nb_dis, uint64_t index, double time)
{
    /* room in the timestamp ring */
    while (run->submitted - run->collected >= TIME_RING)
        if (collect_one(run, 1) < 0)
            return -1;
    run->times[run->submitted % TIME_RING] = time;
    for (;;) {
        const int64_t ret = gpussim_submit_multi(run->ctx, ref, dis, nb_dis);
        if (ret >= 0)
            break;
        if (ret != -EAGAIN) {
            cli_error("frame %llu could not be submitted: %s", (unsigned long long)index,
                      gpussim_strerror((int)ret));
            return -1;
        }
        if (collect_one(run, 1) < 0)
            return -1;
    }
    run->submitted++;
    /* take what is ready without waiting, so the file and progress stay current */
    while (run->collected < run->submitted) {
        const int ret = collect_one(run, 0);
        if (ret < 0)
            return -1;
        if (ret == 0)
            break;
    }
    cli_progress_update(&run->progress, run->written);
    return 0;
}

/* Collects everything in flight; after a failure the later frames are dropped. */
static void drain(struct run *run)
{
    while (run->collected < run->submitted)
        collect_one(run, 1);
}

static int create_context(struct run *run, const struct options *o, const struct cli_video_format *fmt)
{
    const int log_level = o->verbose ? GPUSSIM_LOG_VERBOSE : o->quiet ? GPUSSIM_LOG_WARNING : GPUSSIM_LOG_INFO;
    struct gpussim_params p = o->params; /* features and their options */
    p.backend = o->backend;
    p.device = o->device;
    p.threads = o->threads;
    p.planes = o->planes;
    p.format = cli_library_format(fmt);
    p.log_cb = cli_log_callback;
    p.log_level = (enum gpussim_log_level)log_level;
    p.nb_distorted = o->nb_dis;
    const int err = gpussim_create(&run->ctx, &p);
    if (err < 0) {
        cli_error("cannot score this input: %s", gpussim_strerror(err));
        return -1;
    }
    run->nb_names = gpussim_score_names(run->ctx, &run->names);
    run->nb_values = run->nb_names * gpussim_renditions(run->ctx);
    /* auto fell back to the CPU although a GPU index was asked for */
    if (o->device_given && !strcmp(gpussim_backend_name(run->ctx), "cpu"))
        cli_msg("warning", "--device %d is ignored: no GPU backend could use it, so the frames are "
                "scored on the cpu backend (-v says why)",
                o->device);
    run->nan_frames = calloc(run->nb_values ? (size_t)run->nb_values : 1, sizeof(*run->nan_frames));
    if (!run->nan_frames) {
        cli_error("out of memory");
        return -1;
    }
    if (o->verbose)
        cli_msg("verbose", "backend %s: %d scores%s", gpussim_backend_name(run->ctx), run->nb_names,
                o->nb_dis > 1 ? " per rendition" : "");
    return 0;
}

/* libvmaf's arithmetic gives NaN on some valid input (float_ms_ssim when a
 * scale's structure term is negative and raised to a fractional power); the
 * pools leave such frames out, and this says which. */
static void warn_nan_scores(const struct run *run)
{
    for (int c = 0; c < run->nb_values; c++) {
        const uint64_t n = gpussim_log_frames_left_out(run->out, c);
        if (!n)
            continue;
        char list[256];
        size_t o = 0;
        const uint64_t shown = n < NAN_FRAMES_LISTED ? n : NAN_FRAMES_LISTED;
        for (uint64_t i = 0; i < shown; i++)
            o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%llu", i ? ", " : "",
                                  (unsigned long long)run->nan_frames[c][i]);
        char rend[16] = "";
        if (c >= run->nb_names)
            snprintf(rend, sizeof(rend), "r%d.", c / run->nb_names);
        cli_msg("warning", "%s%s is NaN (not a number) on %llu of %llu frames (frame%s %s%s): those "
                "frames are left out of its pooled statistics (pooled_metrics_frames_left_out)",
                rend, run->names[c % run->nb_names], (unsigned long long)n, (unsigned long long)run->written, n > 1 ? "s" : "",
                list, n > shown ? ", ..." : "");
    }
}

/* gpussim merge CHUNK.json... -o WHOLE.json */
static int merge_main(int argc, char **argv)
{
    const char *out = NULL;
    const char **inputs = calloc((size_t)argc, sizeof(*inputs));
    int nb = 0, status = EXIT_SETUP_ERROR, recover = 0;
    struct gpussim_log **logs = calloc((size_t)argc, sizeof(*logs));
    if (!inputs || !logs) {
        cli_error("out of memory");
        goto done;
    }
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
            if (i + 1 >= argc) {
                cli_error("merge: %s needs a file name", argv[i]);
                goto done;
            }
            out = argv[++i];
        } else if (!strcmp(argv[i], "--recover")) {
            recover = 1;
        } else if (!strcmp(argv[i], "--help")) {
            puts("usage: gpussim merge CHUNK.json... -o WHOLE.json ('-o -': stdout)\n"
                 "       gpussim merge --recover CUT.json -o LOG.json (a log cut off by a killed run: its\n"
                 "       complete frames, pooled again, as a complete log)");
            status = EXIT_SUCCESS;
            goto done;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error("merge: unknown option '%s' (usage: gpussim merge CHUNK.json... -o WHOLE.json)", argv[i]);
            goto done;
        } else {
            inputs[nb++] = argv[i];
        }
    }
    if (!nb || !out) {
        cli_error("merge: usage: gpussim merge CHUNK.json... -o WHOLE.json (%s)",
                  !nb ? "no chunk logs given" : "no -o given");
        goto done;
    }
    /* writing over a chunk log would destroy it: refused before anything is
     * opened (the library's check sees open files only; these are closed) */
    struct stat out_st;
    if (strcmp(out, "-") && stat(out, &out_st) == 0)
        for (int i = 0; i < nb; i++) {
            struct stat in_st;
            if (strcmp(inputs[i], "-") && stat(inputs[i], &in_st) == 0 && in_st.st_dev == out_st.st_dev &&
                in_st.st_ino == out_st.st_ino) {
                cli_error("merge: -o %s is the chunk log %s: the merge would overwrite it (name a new file)",
                          out, inputs[i]);
                goto done;
            }
        }
    if (recover && nb != 1) {
        cli_error("merge: --recover rewrites one cut-off log (%d given): a recovered log has no config "
                  "to check other chunks against", nb);
        goto done;
    }
    for (int i = 0; i < nb; i++)
        if ((recover ? gpussim_log_read_recover : gpussim_log_read)(&logs[i], inputs[i], cli_log_callback, NULL) < 0)
            goto done; /* the library named the file and the problem */
    struct gpussim_log_writer_params wp;
    memset(&wp, 0, sizeof(wp));
    if (strcmp(out, "-"))
        wp.path = out;
    else
        wp.file = stdout;
    wp.format = GPUSSIM_LOG_FORMAT_JSON;
    wp.log_cb = cli_log_callback;
    if (gpussim_log_merge((const struct gpussim_log *const *)logs, inputs, nb, &wp) < 0)
        goto done;
    status = EXIT_SUCCESS;
done:
    if (logs)
        for (int i = 0; i < nb; i++)
            gpussim_log_free(&logs[i]);
    free(logs);
    free(inputs);
    return status;
}

int main(int argc, char **argv)
{
    struct options o;
    struct cli_input inputs[1 + GPUSSIM_MAX_DISTORTED];
    struct cli_input *in[1 + GPUSSIM_MAX_DISTORTED];
    struct cli_input *const ref_in = &inputs[0];
    int nb_in = 0;
    struct cli_video_format fmt;
    struct run run;
    struct cli_pairing pairing;
    int status = EXIT_SETUP_ERROR;
    double fps = NAN;
    FILE *no_log = NULL; /* stdout is a terminal and no -o: the log goes nowhere */

    if (argc >= 2 && !strcmp(argv[1], "merge"))
        return merge_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "plot"))
        return plot_main(argc - 1, argv + 1);

    memset(inputs, 0, sizeof(inputs));
    memset(&run, 0, sizeof(run));
    memset(&pairing, 0, sizeof(pairing));
    for (int i = 0; i < 1 + GPUSSIM_MAX_DISTORTED; i++)
        in[i] = &inputs[i];

    int ret = cli_parse_options(argc, argv, &o);
    if (ret != 0)
        return ret > 0 ? EXIT_SUCCESS : EXIT_SETUP_ERROR;

    for (nb_in = 0; nb_in < 1 + o.nb_dis; nb_in++)
        if (cli_input_open(in[nb_in], nb_in ? o.dis_paths[nb_in - 1] : o.ref_path) < 0) {
            cli_error("%s", in[nb_in]->err);
            nb_in++;
            goto fail;
        }
    for (int i = 0; o.force_raw && i < nb_in; i++)
        in[i]->compressed = NULL;
    if (refuse_shared_stream(in, nb_in) < 0 || refuse_output_is_input(o.out_path, in, nb_in) < 0 ||
        open_decoded(in, nb_in) < 0 || refuse_compressed(in, nb_in) < 0)
        goto fail;
    if (adapt_decoded(&o, in, nb_in) < 0 || (!by_time(&o, in, nb_in) && check_frame_rates(in, nb_in) < 0))
        goto fail;
    for (int i = 0; i < nb_in && !o.quiet; i++)
        if (in[i]->note[0])
            cli_msg("note", "%s", in[i]->note);
    if (resolve_format(&o, in, nb_in, &fmt) < 0)
        goto fail;
    for (int i = 0; i < nb_in; i++)
        if (cli_input_start(in[i], &fmt) < 0) {
            cli_error("%s", in[i]->err);
            goto fail;
        }
    for (int i = 0; i < nb_in; i++)
        if (in[i]->warning[0])
            cli_msg("warning", "%s", in[i]->warning);
    if (create_context(&run, &o, &fmt) < 0)
        goto fail;
    /* the pairs (tools/pairing.c): each input's own skips, the sync offset,
     * then --skip's pairs; the first pair is read before the output is
     * opened, so that an input without a frame to score is a setup error
     * that leaves the output untouched */
    cli_pairing_init(&pairing, in, nb_in, o.repeat_last, &stop_signal);
    char what[64];
    snprintf(what, sizeof(what), "--skip-ref %llu", (unsigned long long)o.skip_ref);
    if (cli_pairing_drop(&pairing, 0, o.skip_ref, what) < 0)
        goto fail;
    snprintf(what, sizeof(what), "--skip-dis %llu", (unsigned long long)o.skip_dis);
    for (int i = 1; i < nb_in; i++)
        if (cli_pairing_drop(&pairing, i, o.skip_dis, what) < 0)
            goto fail;
    if (o.sync_window && cli_pairing_sync(&pairing, &fmt, o.sync_window, o.quiet, o.verbose) < 0)
        goto fail;
    /* from the first pair on, a decoded pair is paired by time (the drops
     * before it counted frames) */
    for (int i = 0; i < nb_in && by_time(&o, in, nb_in); i++)
        if (i != 1)
            cli_av_follow(in[i], in[1], i > 1);
    for (uint64_t i = 0; i <= o.skip; i++) {
        ret = cli_pairing_next(&pairing);
        if (ret < 0)
            goto fail;
        if (ret > 0)
            continue;
        if (o.skip) {
            cli_error("--skip %llu: the inputs hold only %llu frames", (unsigned long long)o.skip,
                      (unsigned long long)i);
        } else {
            if (pairing.short_end) /* one of them has frames: name the one without */
                cli_pairing_report_end(&pairing, 0, 1);
            cli_error("no frame to score: the inputs hold no frames%s",
                      o.skip_ref || o.skip_dis || o.sync_window
                          ? " after those dropped before pairing (--skip-ref, --skip-dis, --sync-window)"
                          : "");
        }
        goto fail;
    }
    cli_pairing_reset_counts(&pairing);
    /* the output before any frame is scored: an unwritable path is a setup error */
    struct gpussim_log_writer_params wp;
    memset(&wp, 0, sizeof(wp));
    if (o.out_path && strcmp(o.out_path, "-")) {
        wp.path = o.out_path;
    } else if (!o.out_path && isatty(STDOUT_FILENO)) {
        /* a log is for programs: on a terminal a person gets the table;
         * the writer still pools the scores for it */
        no_log = fopen("/dev/null", "w");
        if (!no_log) {
            cli_error("cannot open /dev/null: %s", strerror(errno));
            goto fail;
        }
        wp.file = no_log;
    } else {
        wp.file = stdout;
    }
    wp.format = o.format;
    /* the CSV's timestamp column: empty cells while the frame rate is unknown */
    wp.timestamps = o.format == GPUSSIM_LOG_FORMAT_CSV;
    wp.pool_stats = o.pool_stats;
    wp.rendition_names = o.dis_paths; /* a ladder's sections are named by their -d */
    wp.first_frame = (int64_t)o.skip;
    wp.sync_offsets = pairing.has_sync ? pairing.sync_offset : NULL;
    wp.log_cb = cli_log_callback;
    /* decoded inputs: each JSON frame carries the distorted frame's time, as
     * the filter's log does (with --sync-window, buffered frames' times are
     * not kept) */
    if (o.format == GPUSSIM_LOG_FORMAT_JSON && in[1]->kind == CLI_INPUT_AV && !o.sync_window)
        wp.timestamps = 1;
    if (gpussim_log_open(&run.out, run.ctx, &wp) < 0)
        goto fail; /* the library named the file and the reason */

    /* scoring has begun: from here on every exit leaves the frames scored */
    status = EXIT_SUCCESS;
    install_stop_handlers();
    run.start = now_seconds();
    cli_progress_start(&run.progress, !o.quiet && isatty(STDERR_FILENO), expected_pairs(&o, &pairing));
    for (int i = 0; i < TIME_RING; i++)
        run.times[i] = NAN;

    struct gpussim_picture ref_pic, dis_pic[GPUSSIM_MAX_DISTORTED];
    const struct gpussim_picture *dis_ptr[GPUSSIM_MAX_DISTORTED];
    cli_input_picture(ref_in, &ref_pic);
    for (int i = 1; i < nb_in; i++) {
        cli_input_picture(in[i], &dis_pic[i - 1]);
        dis_ptr[i - 1] = &dis_pic[i - 1];
    }
    uint64_t index = 0;
    while (!stop_signal && (!o.frames || index < o.frames)) {
        /* while the previous frame computes, this reads the next one: the
         * library copied the host buffers in gpussim_submit(); the first
         * pair was read before the output was opened */
        ret = index ? cli_pairing_next(&pairing) : 1;
        if (ret <= 0) {
            if (ret == -1)
                status = EXIT_SCORING_ERROR;
            break;
        }
        if (stop_signal) /* a whole pair read, but the run is over */
            break;
        /* the distorted frame's time: decoded inputs only (others have none) */
        const double time = in[1]->kind == CLI_INPUT_AV ? in[1]->frame_time : NAN;
        if (submit_pair(&run, &ref_pic, dis_ptr, nb_in - 1, index, time) < 0) {
            status = EXIT_SCORING_ERROR;
            break;
        }
        index++;
    }
    drain(&run);
    const double elapsed = now_seconds() - run.start;
    const uint64_t nb_frames = run.written;
    fps = elapsed > 0 ? (double)nb_frames / elapsed : 0.0;
    if (run.failed == 2) {
        status = EXIT_SCORING_ERROR; /* the log cannot be written: the library said why */
    } else if (run.failed) {
        status = EXIT_SCORING_ERROR;
        cli_error("stopped after frame %llu failed; writing the %llu frames scored before it",
                  (unsigned long long)run.good_frames, (unsigned long long)nb_frames);
    } else if (status != EXIT_SUCCESS) {
        cli_error("writing the %llu frames scored before the error", (unsigned long long)nb_frames);
    } else if (stop_signal) {
        cli_msg("warning", "stopped by %s after %llu frames; the output is complete for them",
                stop_signal == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)nb_frames);
        status = 128 + stop_signal;
    } else if (cli_pairing_report_end(&pairing, nb_frames, o.strict_length)) {
        status = EXIT_SCORING_ERROR; /* --strict-length, the inputs differ in length: named above */
    }
    cli_progress_end(&run.progress);
    warn_nan_scores(&run);
    if (!o.quiet)
        cli_print_table(stderr, run.out, run.names, run.nb_names, o.nb_dis, o.dis_paths,
                        gpussim_backend_name(run.ctx), elapsed);
    if (no_log)
        cli_msg("note", "no log written: stdout is a terminal (-o FILE writes the log to FILE, "
                "-o - to stdout anyway)");

fail:
    if (run.out && gpussim_log_close(&run.out, fps) < 0 && status == EXIT_SUCCESS)
        status = EXIT_SCORING_ERROR;
    if (no_log)
        fclose(no_log);
    gpussim_destroy(&run.ctx);
    free(run.nan_frames);
    cli_pairing_free(&pairing);
    for (int i = 0; i < nb_in; i++)
        cli_input_close(in[i]);
    return status;
}
