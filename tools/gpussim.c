/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * gpussim: score a distorted video against its reference with libvmaf's
 * float_ssim, float_ms_ssim, float_ansnr/float_anpsnr and integer ssim,
 * on the CPU or a GPU, and print libvmaf-layout JSON or CSV.
 *
 * Flow: parse options, open both inputs (raw or y4m) and check they share
 * one format, create one library context per option group, open the output,
 * then a pipeline: submit frame N, read frame N+1 while the workers compute,
 * collect results in order and write each frame (flushed) as soon as every
 * context returned it. Whatever goes wrong after scoring began, and on
 * SIGINT/SIGTERM, the frames scored so far are in the output, which is then
 * closed properly (pooled statistics) before the non-zero exit.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"

#include <gpussim/gpussim.h>

#include "cli_msg.h"
#include "input.h"
#include "options.h"
#include "output.h"
#include "plot.h"

/* exit statuses (documented in README.md; a stop signal gives 128 + its number) */
#define EXIT_SCORING_ERROR 1 /* failed after scoring began; output has the frames before it */
#define EXIT_SETUP_ERROR 2   /* bad options, inputs or configuration; nothing scored or written */

/* ---- library contexts ----------------------------------------------------------- */

struct group {
    GpussimContext *ctx;
    struct cli_group_plan plan;
    int nb_values;
    int *column; /* per library score: output column, or -1 when not printed */
    uint64_t submitted, collected;
};

/* ---- inputs ------------------------------------------------------------------ */

/* y4m inputs bring their format; raw ones take -w -h -p -b, or the other
 * input's y4m format when those are not given. Options given alongside a y4m
 * input must agree with its header. */
static int resolve_format(const struct options *o, struct cli_input *in[2], struct cli_video_format *out)
{
    const int nb_opts = !!o->width + !!o->height + !!o->pix + !!o->bit_depth;
    struct cli_video_format opt_fmt = { o->width, o->height, o->bit_depth, cli_chroma_from_pix(o->pix) };
    char a[64], b[64];

    for (int i = 0; i < 2; i++) {
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

    const struct cli_input *y4m = in[0]->has_format ? in[0] : in[1]->has_format ? in[1] : NULL;
    for (int i = 0; i < 2; i++) {
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
    const struct cli_video_format *fmt[2];
    for (int i = 0; i < 2; i++)
        fmt[i] = in[i]->has_format ? &in[i]->fmt : nb_opts == 4 ? &opt_fmt : &y4m->fmt;
    if (!cli_format_equal(fmt[0], fmt[1])) {
        cli_error("the inputs differ in format: reference %s is %s, distorted %s is %s", in[0]->path,
                  cli_format_describe(fmt[0], a, sizeof(a)), in[1]->path,
                  cli_format_describe(fmt[1], b, sizeof(b)));
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

/* gpussim reads decoded video only: say so, and show the FFmpeg line that
 * decodes a compressed input into y4m for it. */
static int refuse_compressed(struct cli_input *in[2])
{
    const int r = in[0]->compressed != NULL, d = in[1]->compressed != NULL;
    if (!r && !d)
        return 0;
    char a[512], b[512];
    const char *rp = shell_word(in[0]->path, a, sizeof(a)), *dp = shell_word(in[1]->path, b, sizeof(b));
    const struct cli_input *c = r ? in[0] : in[1];
    cli_error("%s is compressed video (%s): gpussim reads only YUV4MPEG2 (.y4m) and raw planar "
              "YUV. Decode it with FFmpeg and pipe y4m into gpussim ('-' reads stdin; -strict -1 "
              "lets FFmpeg write y4m deeper than 8 bits), e.g.:",
              c->path, c->compressed);
    if (r && d)
        fprintf(stderr, "    ffmpeg -i %s -strict -1 -f yuv4mpegpipe ref.y4m &&\n"
                        "    ffmpeg -i %s -strict -1 -f yuv4mpegpipe - | gpussim -r ref.y4m -d -\n",
                rp, dp);
    else if (r)
        fprintf(stderr, "    ffmpeg -i %s -strict -1 -f yuv4mpegpipe - | gpussim -r - -d %s\n", rp, dp);
    else
        fprintf(stderr, "    ffmpeg -i %s -strict -1 -f yuv4mpegpipe - | gpussim -r %s -d -\n", dp, rp);
    return -1;
}

/* Two names of one pipe (-r - -d /dev/stdin, one FIFO twice) would split
 * one stream between the inputs. Two opens of one regular file are fine:
 * each has its own offset (scoring a file against itself). */
static int refuse_shared_stream(struct cli_input *in[2])
{
    if (!in[0]->identity_known || !in[1]->identity_known)
        return 0;
    if (in[0]->dev != in[1]->dev || in[0]->ino != in[1]->ino || in[0]->is_regular)
        return 0;
    cli_error("the reference (%s) and the distorted input (%s) are the same stream (a pipe or "
              "device): only one input can be read from stdin or a pipe",
              in[0]->path, in[1]->path);
    return -1;
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

/* Reads the next (reference, distorted) pair.
 * @return 1 pair read, 0 both ended together, -1 error (reported), -2
 *         interrupted by a stop signal (nothing reported) */
static int read_pair(struct cli_input *ref, struct cli_input *dis)
{
    const int r = cli_input_read_frame(ref);
    if (r < 0 && stop_signal)
        return -2;
    if (r < 0) {
        cli_error("%s", ref->err);
        return -1;
    }
    const int d = cli_input_read_frame(dis);
    if (d < 0 && stop_signal)
        return -2;
    if (d < 0) {
        cli_error("%s", dis->err);
        return -1;
    }
    if (r != d) {
        const struct cli_input *ended = r ? dis : ref, *longer = r ? ref : dis;
        cli_error("the inputs have different frame counts: at frame %llu, the %s %s ended (after "
                  "%llu frames) while the %s %s has more",
                  (unsigned long long)ended->frames_read, ended == ref ? "reference" : "distorted",
                  ended->path, (unsigned long long)ended->frames_read,
                  longer == ref ? "reference" : "distorted", longer->path);
        return -1;
    }
    return r;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct run {
    struct group groups[CLI_MAX_GROUPS];
    int nb_groups;
    const char **columns; /* printed score names (the contexts' strings) */
    int nb_columns;
    struct cli_scores scores; /* rows of the frames in flight */
    struct cli_writer out;
    int failed;           /* a frame failed in the library: stop and report */
    uint64_t good_frames; /* frames before the first failed one */
    int progress;
    double start, last_progress;
};

/* Stores one collected result into its row. @return 1, 0 nothing ready, -1 failure */
static int collect_one(struct run *run, struct group *g, int wait)
{
    struct gpussim_result res;
    const int ret = gpussim_collect(g->ctx, &res, wait);
    if (ret <= 0) {
        if (ret < 0) {
            /* the library logged which frame and why; keep only frames before it */
            const uint64_t index = g->collected;
            g->collected++;
            if (!run->failed || index < run->good_frames)
                run->good_frames = index;
            run->failed = 1;
            return -1;
        }
        return 0;
    }
    g->collected++;
    /* the row exists: it was made before this frame was submitted */
    double *row = cli_scores_row(&run->scores, res.index);
    for (int k = 0; k < res.nb_values && k < g->nb_values; k++)
        if (g->column[k] >= 0)
            row[g->column[k]] = res.values[k];
    return 1;
}

static uint64_t frames_complete(const struct run *run)
{
    uint64_t n = run->groups[0].collected;
    for (int i = 1; i < run->nb_groups; i++)
        if (run->groups[i].collected < n)
            n = run->groups[i].collected;
    if (run->failed && run->good_frames < n)
        n = run->good_frames;
    return n;
}

/* Writes every frame that all contexts have returned, in order. */
static int write_complete_frames(struct run *run)
{
    const uint64_t n = frames_complete(run);
    while (run->scores.base < n) {
        if (cli_writer_frame(&run->out, run->scores.rows) < 0) {
            cli_error("%s", run->out.err);
            return -1;
        }
        cli_scores_pop(&run->scores);
    }
    return 0;
}

static void show_progress(struct run *run, int final)
{
    if (!run->progress)
        return;
    const double t = now_seconds();
    if (!final && t - run->last_progress < 0.5)
        return;
    run->last_progress = t;
    const uint64_t n = frames_complete(run);
    const double el = t - run->start;
    fprintf(stderr, "\rgpussim: %llu frames, %.1f fps   %s", (unsigned long long)n, el > 0 ? (double)n / el : 0.0,
            final ? "\n" : "");
}

/* Submits the pair in the input buffers to every group; when a context has
 * max_in_flight frames pending, its oldest result is collected first. */
static int submit_pair(struct run *run, const struct gpussim_picture *ref, const struct gpussim_picture *dis,
                       uint64_t index)
{
    double *row = cli_scores_row(&run->scores, index);
    if (!row) {
        cli_error("out of memory storing the scores of frame %llu", (unsigned long long)index);
        return -1;
    }
    for (int c = 0; c < run->nb_columns; c++)
        row[c] = NAN;
    for (int i = 0; i < run->nb_groups; i++) {
        struct group *g = &run->groups[i];
        for (;;) {
            const int64_t ret = gpussim_submit(g->ctx, ref, dis);
            if (ret >= 0)
                break;
            if (ret != -EAGAIN) {
                cli_error("frame %llu could not be submitted: %s", (unsigned long long)index,
                          gpussim_strerror((int)ret));
                return -1;
            }
            if (collect_one(run, g, 1) < 0)
                return -1;
        }
        g->submitted++;
    }
    /* take what is ready without waiting, so the file and progress stay current */
    for (int i = 0; i < run->nb_groups; i++)
        while (run->groups[i].collected < run->groups[i].submitted) {
            const int ret = collect_one(run, &run->groups[i], 0);
            if (ret < 0)
                return -1;
            if (ret == 0)
                break;
        }
    if (write_complete_frames(run) < 0)
        return -1;
    show_progress(run, 0);
    return 0;
}

/* Collects everything in flight; after a failure the later frames are dropped. */
static void drain(struct run *run)
{
    for (int i = 0; i < run->nb_groups; i++) {
        struct group *g = &run->groups[i];
        while (g->collected < g->submitted)
            collect_one(run, g, 1);
    }
}

static int create_groups(struct run *run, const struct options *o, const struct cli_video_format *fmt)
{
    const int log_level = o->verbose ? GPUSSIM_LOG_VERBOSE : o->quiet ? GPUSSIM_LOG_WARNING : GPUSSIM_LOG_INFO;
    int nb_columns = 0, max_columns = 0;

    struct cli_group_plan plans[CLI_MAX_GROUPS];
    cli_plan_groups(o->feat, plans, &run->nb_groups);
    for (int i = 0; i < run->nb_groups; i++) {
        struct group *g = &run->groups[i];
        g->plan = plans[i];
        struct gpussim_params p;
        gpussim_default_params(&p);
        p.backend = o->backend;
        p.device = o->device;
        p.threads = o->threads;
        p.planes = o->planes;
        p.metrics = g->plan.metrics;
        p.ssim_scale = g->plan.ssim_scale;
        p.enable_lcs = g->plan.enable_lcs;
        p.enable_db = g->plan.enable_db;
        p.clip_db = g->plan.clip_db;
        p.format.width = fmt->width;
        p.format.height = fmt->height;
        p.format.bit_depth = fmt->bit_depth;
        p.format.chroma = fmt->chroma;
        p.format.packing = GPUSSIM_PACKING_PLANAR;
        p.log_cb = cli_log_callback;
        p.log_level = (enum gpussim_log_level)log_level;
        const int err = gpussim_create(&g->ctx, &p);
        if (err < 0) {
            cli_error("cannot score this input: %s", gpussim_strerror(err));
            return -1;
        }
        const char *const *names;
        g->nb_values = gpussim_score_names(g->ctx, &names);
        max_columns += g->nb_values;
    }
    /* auto fell back to the CPU although a GPU index was asked for */
    if (o->device_given && !strcmp(gpussim_backend_name(run->groups[0].ctx), "cpu"))
        cli_msg("warning", "--device %d is ignored: no GPU backend could use it, so the frames are "
                "scored on the cpu backend (-v says why)",
                o->device);

    /* the printed columns, pointing at the contexts' names (alive until exit) */
    const char **columns = calloc((size_t)max_columns + 1, sizeof(*columns));
    if (!columns) {
        cli_error("out of memory");
        return -1;
    }
    run->columns = columns;
    for (int i = 0; i < run->nb_groups; i++) {
        struct group *g = &run->groups[i];
        const char *const *names;
        gpussim_score_names(g->ctx, &names);
        g->column = malloc(sizeof(*g->column) * (size_t)(g->nb_values ? g->nb_values : 1));
        if (!g->column) {
            cli_error("out of memory");
            return -1;
        }
        for (int k = 0; k < g->nb_values; k++) {
            g->column[k] = cli_name_is_printed(names[k], o->feat) ? nb_columns : -1;
            if (g->column[k] >= 0)
                columns[nb_columns++] = names[k];
        }
        if (o->verbose)
            cli_msg("verbose", "context %d on backend %s: %d scores", i, gpussim_backend_name(g->ctx),
                    g->nb_values);
    }
    run->nb_columns = nb_columns;
    run->scores.nb_columns = nb_columns;
    return 0;
}

static void destroy_groups(struct run *run)
{
    free(run->columns);
    run->columns = NULL;
    for (int i = 0; i < run->nb_groups; i++) {
        gpussim_destroy(&run->groups[i].ctx);
        free(run->groups[i].column);
        run->groups[i].column = NULL;
    }
    cli_scores_free(&run->scores);
}

/* libvmaf's arithmetic gives NaN on some valid input (float_ms_ssim when a
 * scale's structure term is negative and raised to a fractional power); the
 * pools leave such frames out, and this says which. */
static void warn_nan_scores(const struct run *run)
{
    const struct cli_writer *w = &run->out;
    for (int c = 0; c < w->nb_columns; c++) {
        const uint64_t n = w->nan_count[c];
        if (!n)
            continue;
        char list[256];
        size_t o = 0;
        const uint64_t shown = n < CLI_NAN_FRAMES_LISTED ? n : CLI_NAN_FRAMES_LISTED;
        for (uint64_t i = 0; i < shown; i++)
            o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%llu", i ? ", " : "",
                                  (unsigned long long)w->nan_frames[c][i]);
        cli_msg("warning", "%s is NaN (not a number) on %llu of %llu frames (frame%s %s%s): those "
                "frames are left out of its pooled statistics (pooled_metrics_frames_left_out)",
                w->names[c], (unsigned long long)n, (unsigned long long)w->frames, n > 1 ? "s" : "",
                list, n > shown ? ", ..." : "");
    }
}

int main(int argc, char **argv)
{
    struct options o;
    struct cli_input ref_in, dis_in;
    struct cli_input *in[2] = { &ref_in, &dis_in };
    struct cli_video_format fmt;
    struct run run;
    int status = EXIT_SETUP_ERROR;
    int out_open = 0;

    memset(&ref_in, 0, sizeof(ref_in));
    memset(&dis_in, 0, sizeof(dis_in));
    memset(&run, 0, sizeof(run));

    /* subcommands: gpussim plot ... */
    if (argc > 1 && !strcmp(argv[1], "plot"))
        return plot_main(argc - 1, argv + 1);

    int ret = cli_parse_options(argc, argv, &o);
    if (ret != 0)
        return ret > 0 ? EXIT_SUCCESS : EXIT_SETUP_ERROR;

    if (cli_input_open(&ref_in, o.ref_path) < 0 || cli_input_open(&dis_in, o.dis_path) < 0) {
        cli_error("%s", ref_in.err[0] ? ref_in.err : dis_in.err);
        goto fail;
    }
    if (refuse_compressed(in) < 0 || refuse_shared_stream(in) < 0)
        goto fail;
    if (resolve_format(&o, in, &fmt) < 0)
        goto fail;
    if (cli_input_start(&ref_in, &fmt) < 0 || cli_input_start(&dis_in, &fmt) < 0) {
        cli_error("%s", ref_in.err[0] ? ref_in.err : dis_in.err);
        goto fail;
    }
    for (int i = 0; i < 2; i++)
        if (in[i]->warning[0])
            cli_msg("warning", "%s", in[i]->warning);
    cli_apply_default_features(&o, &fmt);
    if (create_groups(&run, &o, &fmt) < 0)
        goto fail;
    /* the output before any frame is read: an unwritable path is a setup error */
    if (cli_writer_open(&run.out, o.out_path, o.format) < 0) {
        cli_error("%s", run.out.err);
        goto fail;
    }
    out_open = 1;

    /* scoring has begun: from here on every exit leaves the frames scored */
    status = EXIT_SUCCESS;
    install_stop_handlers();
    if (cli_writer_begin(&run.out, run.columns, run.nb_columns, "gpussim " PACKAGE_VERSION) < 0) {
        cli_error("%s", run.out.err);
        status = EXIT_SCORING_ERROR;
        goto fail;
    }
    run.progress = !o.quiet && isatty(STDERR_FILENO);
    run.start = run.last_progress = now_seconds();

    struct gpussim_picture ref_pic, dis_pic;
    cli_input_picture(&ref_in, &ref_pic);
    cli_input_picture(&dis_in, &dis_pic);
    uint64_t index = 0;
    while (!stop_signal) {
        /* while the previous frame computes, this reads the next one: the
         * library copied the host buffers in gpussim_submit() */
        ret = read_pair(&ref_in, &dis_in);
        if (ret <= 0) {
            if (ret == -1)
                status = EXIT_SCORING_ERROR;
            break;
        }
        if (stop_signal) /* a whole pair read, but the run is over */
            break;
        if (submit_pair(&run, &ref_pic, &dis_pic, index) < 0) {
            status = EXIT_SCORING_ERROR;
            break;
        }
        index++;
    }
    drain(&run);
    if (write_complete_frames(&run) < 0)
        status = EXIT_SCORING_ERROR;
    const double elapsed = now_seconds() - run.start;
    const uint64_t nb_frames = run.out.frames;
    if (run.failed) {
        status = EXIT_SCORING_ERROR;
        cli_error("stopped after frame %llu failed; writing the %llu frames scored before it",
                  (unsigned long long)run.good_frames, (unsigned long long)nb_frames);
    } else if (status != EXIT_SUCCESS) {
        cli_error("writing the %llu frames scored before the error", (unsigned long long)nb_frames);
    } else if (stop_signal) {
        cli_msg("warning", "stopped by %s after %llu frames; the output is complete for them",
                stop_signal == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)nb_frames);
        status = 128 + stop_signal;
    } else if (nb_frames == 0) {
        cli_error("the inputs hold no frames");
        status = EXIT_SCORING_ERROR;
    }
    show_progress(&run, 1);
    warn_nan_scores(&run);
    if (!run.out.failed && cli_writer_finish(&run.out, elapsed > 0 ? (double)nb_frames / elapsed : 0.0) < 0) {
        cli_error("%s", run.out.err);
        status = EXIT_SCORING_ERROR;
    }

fail:
    if (out_open && cli_writer_close(&run.out) < 0) {
        cli_error("%s", run.out.err);
        if (status == EXIT_SUCCESS)
            status = EXIT_SCORING_ERROR;
    }
    destroy_groups(&run);
    cli_input_close(&ref_in);
    cli_input_close(&dis_in);
    return status;
}
