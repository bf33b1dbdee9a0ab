/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* The progress line and the end-of-run table (see terminal.h). */
#include <math.h>
#include <string.h>
#include <time.h>

#include "terminal.h"

/* characters of the progress line on the terminal now (0: none shown) */
static int shown_len;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_start(struct cli_progress *p, int enabled, uint64_t total)
{
    p->enabled = enabled;
    p->total = total;
    p->start = now_seconds();
    p->last = -1.0;
}

/* "1:05", "1:02:03" */
static void format_duration(double s, char *buf, size_t size)
{
    const long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

void cli_progress_update(struct cli_progress *p, uint64_t frames)
{
    if (!p->enabled)
        return;
    const double t = now_seconds();
    if (p->last >= 0 && t - p->last < 0.5)
        return;
    p->last = t;
    const double elapsed = t - p->start;
    const double fps = elapsed > 0 ? (double)frames / elapsed : 0.0;
    char line[160];
    int n;
    if (p->total) {
        /* the length is an estimate (a container's count or duration): never
         * claim 100% before the end */
        const uint64_t total = frames < p->total ? p->total : frames + 1;
        const double pct = 100.0 * (double)frames / (double)total;
        char eta[32] = "?";
        if (frames && fps > 0)
            format_duration((double)(total - frames) / fps, eta, sizeof(eta));
        n = snprintf(line, sizeof(line), "gpussim: frame %llu of %llu (%.0f%%), %.1f fps, ETA %s",
                     (unsigned long long)frames, (unsigned long long)total, floor(pct), fps, eta);
    } else {
        char el[32];
        format_duration(elapsed, el, sizeof(el));
        n = snprintf(line, sizeof(line), "gpussim: frame %llu, %.1f fps, %s elapsed",
                     (unsigned long long)frames, fps, el);
    }
    /* pad over a longer previous line; one write per update */
    const int pad = shown_len > n ? shown_len - n : 0;
    fprintf(stderr, "\r%s%*s", line, pad, "");
    fflush(stderr);
    shown_len = n + pad;
}

void cli_progress_erase(void)
{
    if (!shown_len)
        return;
    fprintf(stderr, "\r%*s\r", shown_len, "");
    shown_len = 0;
}

void cli_progress_end(struct cli_progress *p)
{
    if (p->enabled)
        cli_progress_erase();
}

static void print_value(FILE *f, double v)
{
    if (isnan(v))
        fprintf(f, " %14s", "-");
    else
        fprintf(f, " %14.6f", v);
}

void cli_print_table(FILE *f, const GpussimLogWriter *log, const char *const *names, int nb_names,
                     int nb_renditions, const char *const *labels, const char *backend, double seconds)
{
    const uint64_t frames = gpussim_log_frames(log);
    int w = 6;
    for (int i = 0; i < nb_names; i++)
        if ((int)strlen(names[i]) > w)
            w = (int)strlen(names[i]);
    fprintf(f, "gpussim: %llu frame%s in %.1f s (%.1f fps), backend %s\n", (unsigned long long)frames,
            frames == 1 ? "" : "s", seconds, seconds > 0 ? (double)frames / seconds : 0.0, backend);
    for (int k = 0; k < nb_renditions; k++) {
        if (nb_renditions > 1)
            fprintf(f, "rendition %d: %s\n", k, labels[k]);
        fprintf(f, "  %-*s %14s %14s %14s %14s\n", w, "metric", "mean", "min", "max", "harmonic_mean");
        for (int i = 0; i < nb_names; i++) {
            struct gpussim_pool_stats st;
            const GpussimPool *pool = gpussim_log_pool(log, k * nb_names + i);
            if (!pool || gpussim_pool_stats(pool, &st) < 0)
                continue;
            fprintf(f, "  %-*s", w, names[i]);
            print_value(f, st.mean);
            print_value(f, st.min);
            print_value(f, st.max);
            print_value(f, st.harmonic_mean);
            const uint64_t left_out = gpussim_log_frames_left_out(log, k * nb_names + i);
            if (left_out)
                fprintf(f, "  (%llu NaN frame%s left out)", (unsigned long long)left_out, left_out == 1 ? "" : "s");
            fputc('\n', f);
        }
    }
    fflush(f);
}
