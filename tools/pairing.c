/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Which frames of the inputs are scored together (see pairing.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_msg.h"
#include "pairing.h"

void cli_pairing_init(struct cli_pairing *p, struct cli_input **in, int nb_in, int repeat_last,
                      volatile sig_atomic_t *stop)
{
    memset(p, 0, sizeof(*p));
    p->in = in;
    p->nb_in = nb_in;
    p->repeat_last = repeat_last;
    p->stop = stop;
}

void cli_pairing_free(struct cli_pairing *p)
{
    for (int i = 0; i < CLI_MAX_INPUTS; i++) {
        struct cli_frame_queue *q = &p->queue[i];
        for (int k = q->pos; k < q->nb; k++)
            free(q->frames[k]);
        free(q->frames);
        memset(q, 0, sizeof(*q));
    }
}

/* "the reference ref.y4m", "the distorted input dis.y4m", "rendition 2 (c.y4m)" */
static const char *input_name(const struct cli_pairing *p, int i, char *buf, size_t size)
{
    if (i == 0)
        snprintf(buf, size, "the reference %s", p->in[0]->path);
    else if (p->nb_in == 2)
        snprintf(buf, size, "the distorted input %s", p->in[i]->path);
    else
        snprintf(buf, size, "rendition %d (%s)", i - 1, p->in[i]->path);
    return buf;
}

static int read_file(struct cli_pairing *p, int i);

/* Reads input i's next frame into its buffer: the queue first, then the file.
 * @return 1, 0 at its end, -1 an error (reported), -2 interrupted */
static int read_one(struct cli_pairing *p, int i)
{
    struct cli_frame_queue *q = &p->queue[i];
    struct cli_input *in = p->in[i];
    if (q->pos < q->nb) {
        memcpy(in->buf, q->frames[q->pos], in->frame_size);
        free(q->frames[q->pos]);
        q->frames[q->pos++] = NULL;
        return 1;
    }
    if (p->ended[i])
        return 0; /* in->buf keeps the last frame: --repeat-last reuses it */
    return read_file(p, i);
}

/* Reads input i's next frame from its file into its buffer; @return as read_one */
static int read_file(struct cli_pairing *p, int i)
{
    struct cli_input *in = p->in[i];
    const int r = cli_input_read_frame(in);
    if (r < 0 && *p->stop)
        return -2;
    if (r < 0) {
        cli_error("%s", in->err);
        return -1;
    }
    if (r == 0)
        p->ended[i] = 1;
    return r;
}

int cli_pairing_drop(struct cli_pairing *p, int i, uint64_t n, const char *what)
{
    for (uint64_t k = 0; k < n; k++) {
        const int r = read_one(p, i);
        if (r < 0)
            return r;
        if (r == 0) {
            char name[600];
            cli_error("%s: %s holds only %llu frames", what, input_name(p, i, name, sizeof(name)),
                      (unsigned long long)p->in[i]->frames_read);
            return -1;
        }
        p->skipped[i]++;
    }
    return 0;
}

int cli_pairing_next(struct cli_pairing *p)
{
    int got[CLI_MAX_INPUTS], any = 0, all = 1;
    for (int i = 0; i < p->nb_in; i++) {
        const int r = read_one(p, i);
        if (r < 0)
            return r;
        got[i] = r;
        any |= r;
        all &= r;
    }
    if (all) {
        for (int i = 0; i < p->nb_in; i++)
            p->served[i]++;
        p->pairs++;
        return 1;
    }
    if (!any)
        return 0; /* ended together */
    /* one input ended first; a repeat needs a frame of it paired before */
    int can_repeat = p->repeat_last;
    for (int i = 0; i < p->nb_in; i++)
        if (!got[i] && !p->served[i])
            can_repeat = 0;
    if (!can_repeat) {
        p->short_end = 1;
        for (int i = 0; i < p->nb_in; i++)
            p->ended[i] = !got[i];
        return 0;
    }
    for (int i = 0; i < p->nb_in; i++) {
        if (got[i])
            p->served[i]++;
        else
            p->repeated[i]++;
    }
    p->pairs++;
    return 1;
}

void cli_pairing_reset_counts(struct cli_pairing *p)
{
    memset(p->repeated, 0, sizeof(p->repeated));
}

/* "(30 frames)" when the input's length is known without reading it: a raw
 * regular file's size; "" otherwise */
static const char *known_length(const struct cli_input *in, char *buf, size_t size)
{
    buf[0] = '\0';
    if (in->kind == CLI_INPUT_RAW && in->is_regular && in->frame_size)
        snprintf(buf, size, " (%llu frames)", (unsigned long long)(in->file_size / in->frame_size));
    return buf;
}

int cli_pairing_report_end(const struct cli_pairing *p, uint64_t scored, int strict)
{
    char a[600], b[600], len[48];
    if (p->short_end) {
        int longer = -1;
        for (int i = 0; i < p->nb_in && longer < 0; i++)
            longer = p->ended[i] ? -1 : i;
        for (int i = 0; i < p->nb_in; i++) {
            if (!p->ended[i] || longer < 0)
                continue;
            cli_msg(strict || !scored ? "error" : "warning",
                    "%s ended after %llu frame%s while %s has more%s; scored %llu",
                    input_name(p, i, a, sizeof(a)), (unsigned long long)p->in[i]->frames_read,
                    p->in[i]->frames_read == 1 ? "" : "s",
                    input_name(p, longer, b, sizeof(b)),
                    known_length(p->in[longer], len, sizeof(len)), (unsigned long long)scored);
        }
        return strict;
    }
    for (int i = 0; i < p->nb_in; i++)
        if (p->repeated[i])
            cli_msg("warning",
                    "%s ended after %llu frame%s: its last frame was scored again for the %llu "
                    "frame(s) the other input%s had left (--repeat-last); scored %llu",
                    input_name(p, i, a, sizeof(a)), (unsigned long long)p->in[i]->frames_read,
                    p->in[i]->frames_read == 1 ? "" : "s",
                    (unsigned long long)p->repeated[i], p->nb_in > 2 ? "s" : "",
                    (unsigned long long)scored);
    return 0;
}

/* ---- --sync-window --------------------------------------------------------------- */

static void report_offset(const struct cli_pairing *p, int k, int d, double psnr, double runner)
{
    char name[600], next[64];
    const int n = d < 0 ? -d : d;
    if (p->nb_in == 2)
        snprintf(name, sizeof(name), "the distorted input");
    else
        snprintf(name, sizeof(name), "rendition %d (%s)", k, p->in[k + 1]->path);
    if (runner == -INFINITY)
        snprintf(next, sizeof(next), "no other offset had a frame pair");
    else
        snprintf(next, sizeof(next), "next best %.1f dB", runner);
    char drop[96] = "";
    if (p->nb_in == 2 && d)
        snprintf(drop, sizeof(drop), ": the %s's first %d frame%s are not scored",
                 d > 0 ? "reference" : "distorted input", n, n == 1 ? "" : "s");
    if (d == 0)
        cli_msg("sync", "%s is aligned with the reference (offset +0, luma PSNR %.1f dB; %s)", name,
                psnr, next);
    else
        cli_msg("sync", "%s starts %d frame%s %s than the reference (offset %+d, luma PSNR %.1f dB; %s)%s",
                name, n, n == 1 ? "" : "s", d > 0 ? "later in the content" : "earlier", d, psnr, next,
                drop);
    if (isfinite(psnr) && isfinite(runner) && psnr - runner < 1.0)
        cli_msg("warning",
                "sync: for %s the best offset is only %.2f dB better than the next: the inputs may "
                "not show the same content, or their first frames hardly change (a larger "
                "--sync-window or --skip-ref/--skip-dis past a static start may help)",
                name, psnr - runner);
}

/* Reads up to nb frames of input i into its queue, adding each to the searches. */
static int fill_queue(struct cli_pairing *p, int i, int nb, GpussimSync **sync)
{
    struct cli_frame_queue *q = &p->queue[i];
    struct cli_input *in = p->in[i];
    q->frames = calloc((size_t)nb, sizeof(*q->frames));
    if (!q->frames) {
        cli_error("out of memory");
        return -1;
    }
    while (q->nb < nb && !p->ended[i]) {
        const int r = read_file(p, i);
        if (r <= 0)
            return r; /* the end (ended[i] set), an error or a stop */
        q->frames[q->nb] = malloc(in->frame_size);
        if (!q->frames[q->nb]) {
            cli_error("--sync-window: cannot buffer %d frames of %zu bytes of %s", nb, in->frame_size,
                      in->path);
            return -1;
        }
        memcpy(q->frames[q->nb++], in->buf, in->frame_size);
        struct gpussim_picture pic;
        cli_input_picture(in, &pic);
        for (int k = 0; k + 1 < p->nb_in; k++) {
            if (i != 0 && k != i - 1)
                continue;
            const int err = gpussim_sync_add(sync[k], i == 0 ? 1 : 0, &pic);
            if (err < 0) {
                cli_error("--sync-window: %s", gpussim_strerror(err));
                return -1;
            }
        }
    }
    return 0;
}

/* The search's messages at the tool's level (its params carry none). */
static void sync_log(void *opaque, enum gpussim_log_level level, const char *msg)
{
    if ((int)level <= *(const int *)opaque)
        cli_log_callback(NULL, level, msg);
}

int cli_pairing_sync(struct cli_pairing *p, const struct cli_video_format *fmt, int window, int quiet,
                     int verbose)
{
    int log_level = verbose ? GPUSSIM_LOG_VERBOSE : quiet ? GPUSSIM_LOG_WARNING : GPUSSIM_LOG_INFO;
    GpussimSync *sync[GPUSSIM_MAX_DISTORTED] = { NULL };
    const int nb_dis = p->nb_in - 1;
    int ret = -1;
    struct gpussim_sync_params sp;
    memset(&sp, 0, sizeof(sp));
    sp.format = cli_library_format(fmt);
    sp.window = window;
    sp.log_cb = sync_log;
    sp.log_opaque = &log_level;
    for (int k = 0; k < nb_dis; k++) {
        const int err = gpussim_sync_create(&sync[k], &sp);
        if (err < 0) {
            cli_error("--sync-window: %s", gpussim_strerror(err));
            goto done;
        }
    }
    const int nb = gpussim_sync_frames(sync[0]);
    for (int i = 0; i < p->nb_in; i++) {
        ret = fill_queue(p, i, nb, sync);
        if (ret < 0)
            goto done;
    }
    ret = -1;
    int ref_drop = 0;
    for (int k = 0; k < nb_dis; k++) {
        double psnr, runner;
        char name[600];
        if (!p->queue[0].nb || !p->queue[k + 1].nb) {
            const int i = p->queue[0].nb ? k + 1 : 0;
            cli_error("--sync-window: %s has no frame to compare%s", input_name(p, i, name, sizeof(name)),
                      p->skipped[i] ? " after --skip-ref/--skip-dis" : "");
            goto done;
        }
        if (gpussim_sync_find(sync[k], &p->sync_offset[k], &psnr, &runner) < 0)
            goto done; /* the library said why */
        if (!quiet)
            report_offset(p, k, p->sync_offset[k], psnr, runner);
        if (p->sync_offset[k] > ref_drop)
            ref_drop = p->sync_offset[k];
    }
    p->has_sync = 1;
    /* distorted frame i shows reference frame i + d: the reference drops the
     * largest d, each distorted input what is left to match it */
    char what[64];
    snprintf(what, sizeof(what), "the sync offset");
    ret = cli_pairing_drop(p, 0, (uint64_t)ref_drop, what);
    for (int k = 0; k < nb_dis && ret == 0; k++)
        ret = cli_pairing_drop(p, k + 1, (uint64_t)(ref_drop - p->sync_offset[k]), what);
    if (ret == 0 && !quiet && nb_dis > 1) {
        char list[512];
        size_t o = 0;
        for (int k = 0; k < nb_dis && o < sizeof(list); k++)
            o += (size_t)snprintf(list + o, sizeof(list) - o, ", rendition %d: %d", k, ref_drop - p->sync_offset[k]);
        cli_msg("sync", "frames dropped before pairing: the reference: %d%s", ref_drop, list);
    }
done:
    for (int k = 0; k < nb_dis; k++)
        gpussim_sync_destroy(&sync[k]);
    return ret;
}
