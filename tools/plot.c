/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * `gpussim plot LOG.json... -o report.html|report.svg`: one chart per score
 * (per-frame values over the frame number, one line per log), the pooled
 * values per log, and each log's worst frames marked on its line and listed
 * with their numbers and timestamps.
 *
 * The drawing is plain SVG, so the page needs no network and no script; the
 * HTML page adds a few lines of inline script for a hover cursor only.
 * Lines longer than max_points are drawn from the minimum and maximum of each
 * bucket of frames, so a one-frame dip stays visible at any length; the worst
 * frames and the tables always use every frame.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gpussim/gpussim.h>

#include "cli_msg.h"
#include "plot.h"

/* chart geometry, in SVG user units (pixels at 100% zoom) */
#define CHART_W 960
#define PLOT_H 260
#define MARGIN_L 76
#define MARGIN_R 20
#define MARGIN_T 14
#define AXIS_H 54    /* tick labels, timestamps, axis title */
#define LEGEND_ROW 20

static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
    "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
};
#define NB_COLOURS (int)(sizeof(palette) / sizeof(palette[0]))
/* after the palette is used up, the same colours come back dashed */
static const char *const dashes[] = { "", "6 3", "2 3", "8 3 2 3" };

static const char *colour_of(int log)
{
    return palette[log % NB_COLOURS];
}

static const char *dash_of(int log)
{
    return dashes[(log / NB_COLOURS) % 4];
}

static double value_at(const struct plot_metric *m, uint64_t i)
{
    return m->values[i * m->stride];
}

/* ---- output helpers ----------------------------------------------------------------- */

static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            /* XML 1.0 has no place for other control characters */
            putc((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? '?' : *s, f);
        }
    }
}

static void format_value(char *buf, size_t size, double v)
{
    if (isnan(v))
        snprintf(buf, size, "null");
    else
        snprintf(buf, size, "%.7g", v);
}

/* Seconds as [H:]MM:SS.mmm, or "-" when unknown. */
static void format_time(char *buf, size_t size, double t)
{
    if (!isfinite(t)) {
        snprintf(buf, size, "-");
        return;
    }
    const char *sign = t < 0 ? "-" : "";
    t = fabs(t);
    const long long ms = llround(t * 1000.0);
    const long long h = ms / 3600000, m = ms / 60000 % 60, s = ms / 1000 % 60, frac = ms % 1000;
    if (h)
        snprintf(buf, size, "%s%lld:%02lld:%02lld.%03lld", sign, h, m, s, frac);
    else
        snprintf(buf, size, "%s%lld:%02lld.%03lld", sign, m, s, frac);
}

/* ---- axes ------------------------------------------------------------------------------ */

/* A 1, 2 or 5 times a power of ten near range / target. */
static double nice_step(double range, int target)
{
    const double raw = range / target;
    const double p = pow(10.0, floor(log10(raw)));
    const double r = raw / p;
    return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * p;
}

static int decimals_for(double step)
{
    const int d = (int)-floor(log10(step) + 1e-9);
    return d < 0 ? 0 : d > 12 ? 12 : d;
}

/* ---- one chart ------------------------------------------------------------------------ */

/* What a chart shows of one log. */
struct series {
    const struct plot_log *log;
    const struct plot_metric *m; /* NULL: this log lacks the score */
    uint64_t nan_frames;
    uint64_t *worst; /* frame indices, worst first */
    int nb_worst;
    struct gpussim_pool_stats pooled;
    int pooled_from_frames; /* the log had no pooled values: computed from its frames */
};

struct chart {
    const char *name;
    struct series *s;
    int nb;
    double f_lo, f_hi; /* frame axis */
    double y_lo, y_hi, y_step;
    int has_values;
    const struct plot_log *timed; /* a log with timestamps, for the time row */
};

static double px_of_frame(const struct chart *c, double f)
{
    return MARGIN_L + (f - c->f_lo) / (c->f_hi - c->f_lo) * (CHART_W - MARGIN_L - MARGIN_R);
}

static double py_of_value(const struct chart *c, double v)
{
    return MARGIN_T + (c->y_hi - v) / (c->y_hi - c->y_lo) * PLOT_H;
}

/* Worst = lowest: every score drawn here grows with quality. Ties go to
 * the earlier frame. nb is small: an insertion into a sorted list. */
static int find_worst(struct series *s, int n)
{
    const struct plot_metric *m = s->m;
    s->worst = malloc(sizeof(*s->worst) * (size_t)(n > 0 ? n : 1));
    if (!s->worst)
        return -1;
    s->nb_worst = 0;
    for (uint64_t i = 0; i < s->log->nb_frames; i++) {
        const double v = value_at(m, i);
        if (isnan(v))
            continue;
        int k = s->nb_worst;
        while (k > 0 && v < value_at(m, s->worst[k - 1]))
            k--;
        if (k >= n)
            continue;
        const int last = s->nb_worst < n ? s->nb_worst : n - 1;
        memmove(s->worst + k + 1, s->worst + k, sizeof(*s->worst) * (size_t)(last - k));
        s->worst[k] = i;
        if (s->nb_worst < n)
            s->nb_worst++;
    }
    return 0;
}

/* The log's pooled values, or the library's pool over its frames when the
 * log has none (a stopped run), so the table never guesses. */
static int pool_series(struct series *s)
{
    const struct plot_metric *m = s->m;
    s->nan_frames = 0;
    for (uint64_t i = 0; i < s->log->nb_frames; i++)
        s->nan_frames += isnan(value_at(m, i));
    if (m->has_pooled) {
        s->pooled.count = s->log->nb_frames - s->nan_frames;
        s->pooled.mean = m->pooled_mean;
        s->pooled.harmonic_mean = m->pooled_harmonic_mean;
        s->pooled.min = m->pooled_min;
        s->pooled.max = m->pooled_max;
        return 0;
    }
    GpussimPool *pool = NULL;
    int err = gpussim_pool_create(&pool);
    for (uint64_t i = 0; err >= 0 && i < s->log->nb_frames; i++)
        if (!isnan(value_at(m, i)))
            err = gpussim_pool_add(pool, value_at(m, i));
    if (err >= 0)
        err = gpussim_pool_stats(pool, &s->pooled);
    gpussim_pool_destroy(&pool);
    s->pooled_from_frames = 1;
    return err < 0 ? -1 : 0;
}

static void chart_free(struct chart *c)
{
    if (c->s)
        for (int i = 0; i < c->nb; i++)
            free(c->s[i].worst);
    free(c->s);
    c->s = NULL;
}

static int chart_init(struct chart *c, const char *name, const struct plot_log *logs, int nb_logs,
                      int worst)
{
    memset(c, 0, sizeof(*c));
    c->name = name;
    c->nb = nb_logs;
    c->s = calloc((size_t)nb_logs, sizeof(*c->s));
    if (!c->s)
        return -1;
    double f_lo = INFINITY, f_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
    for (int l = 0; l < nb_logs; l++) {
        struct series *s = &c->s[l];
        s->log = &logs[l];
        for (int k = 0; k < logs[l].nb_metrics; k++)
            if (!strcmp(logs[l].metrics[k].name, name))
                s->m = &logs[l].metrics[k];
        if (!s->m)
            continue;
        if (pool_series(s) < 0 || find_worst(s, worst) < 0)
            return -1;
        if (logs[l].timestamp && !c->timed)
            c->timed = &logs[l];
        for (uint64_t i = 0; i < logs[l].nb_frames; i++) {
            const double f = (double)logs[l].frame_num[i], v = value_at(s->m, i);
            f_lo = fmin(f_lo, f);
            f_hi = fmax(f_hi, f);
            if (isfinite(v)) {
                y_lo = fmin(y_lo, v);
                y_hi = fmax(y_hi, v);
            }
        }
    }
    if (!(f_lo <= f_hi))
        f_lo = 0, f_hi = 1;
    if (f_lo == f_hi) /* one frame: centred */
        f_lo -= 0.5, f_hi += 0.5;
    c->f_lo = f_lo;
    c->f_hi = f_hi;
    c->has_values = y_lo <= y_hi;
    if (!c->has_values)
        y_lo = 0, y_hi = 1;
    if (y_lo == y_hi) {
        const double pad = y_lo ? fabs(y_lo) * 1e-3 : 1e-3;
        y_lo -= pad, y_hi += pad;
    }
    /* the axis ends on ticks, which are round numbers */
    c->y_step = nice_step(y_hi - y_lo, 5);
    c->y_lo = floor(y_lo / c->y_step) * c->y_step;
    c->y_hi = ceil(y_hi / c->y_step) * c->y_step;
    if (c->y_hi <= c->y_lo)
        c->y_hi = c->y_lo + c->y_step;
    return 0;
}

/* The timestamp of frame number f in log l, NaN when it has none. */
static double time_of_frame(const struct plot_log *l, double f)
{
    if (!l || !l->timestamp || f < 0)
        return NAN;
    const uint64_t n = (uint64_t)f;
    if (n < l->nb_frames && l->frame_num[n] == n)
        return l->timestamp[n];
    for (uint64_t i = 0; i < l->nb_frames; i++)
        if (l->frame_num[i] == n)
            return l->timestamp[i];
    return NAN;
}

static void draw_axes(FILE *f, const struct chart *c)
{
    const double x0 = MARGIN_L, x1 = CHART_W - MARGIN_R, y0 = MARGIN_T, y1 = MARGIN_T + PLOT_H;
    char buf[64];

    fprintf(f,
            "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%d\" fill=\"#fff\" stroke=\"#999\"/>\n",
            x0, y0, x1 - x0, PLOT_H);
    /* value ticks with grid lines */
    const int yd = decimals_for(c->y_step);
    for (int k = 0;; k++) {
        const double v = c->y_lo + k * c->y_step;
        if (v > c->y_hi + c->y_step * 1e-6)
            break;
        const double y = py_of_value(c, v);
        fprintf(f,
                "<line class=\"grid\" x1=\"%g\" x2=\"%g\" y1=\"%.2f\" y2=\"%.2f\" "
                "stroke=\"#e4e4e4\"/>\n",
                x0, x1, y, y);
        fprintf(f, "<text x=\"%g\" y=\"%.2f\" text-anchor=\"end\" class=\"tick\">%.*f</text>\n",
                x0 - 6, y + 4, yd, v);
    }
    /* frame ticks: whole frames only */
    double step = nice_step(c->f_hi - c->f_lo, 8);
    if (step < 1)
        step = 1;
    for (double fr = ceil(c->f_lo / step) * step; fr <= c->f_hi; fr += step) {
        const double x = px_of_frame(c, fr);
        fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%g\" y2=\"%g\" stroke=\"#999\"/>\n", x, x,
                y1, y1 + 5);
        fprintf(f, "<text x=\"%.2f\" y=\"%g\" text-anchor=\"middle\" class=\"tick\">%.0f</text>\n",
                x, y1 + 18, fr);
        format_time(buf, sizeof(buf), time_of_frame(c->timed, fr));
        const size_t len = strlen(buf);
        if (len > 4 && !strcmp(buf + len - 4, ".000")) /* whole seconds: shorter ticks */
            buf[len - 4] = '\0';
        if (c->timed)
            fprintf(
                f,
                "<text x=\"%.2f\" y=\"%g\" text-anchor=\"middle\" class=\"tick time\">%s</text>\n",
                x, y1 + 31, buf);
    }
    fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\" class=\"axis\">frame%s</text>\n",
            (x0 + x1) / 2, y1 + AXIS_H - 6, c->timed ? " (time below)" : "");
    fprintf(
        f,
        "<text transform=\"translate(14 %g) rotate(-90)\" text-anchor=\"middle\" class=\"axis\">",
        (y0 + y1) / 2);
    put_escaped(f, c->name);
    fputs("</text>\n", f);
}

/* One path per log: "M x,y L x,y x,y ..." with a new M after each gap (NaN);
 * a point alone between gaps is "M x,y h0", which round caps draw as a dot. */
struct path_pen {
    FILE *f;
    int in_segment;   /* points drawn since the last M */
};

static void pen_point(struct path_pen *p, double x, double y)
{
    if (!p->in_segment)
        fprintf(p->f, " M%.2f,%.2f", x, y);
    else
        fprintf(p->f, "%s%.2f,%.2f", p->in_segment == 1 ? " L" : " ", x, y);
    p->in_segment++;
}

static void pen_gap(struct path_pen *p)
{
    if (p->in_segment == 1)
        fputs(" h0", p->f);
    p->in_segment = 0;
}

static void draw_series(FILE *f, const struct chart *c, int l, int max_points)
{
    const struct series *s = &c->s[l];
    const uint64_t n = s->log->nb_frames;
    struct path_pen pen = { f, 0 };

    fprintf(f, "<path class=\"series\" data-log=\"%d\" data-points=\"", l);
    const uint64_t buckets = (uint64_t)(max_points > 1 ? max_points / 2 : 1);
    const int decimated = n > (uint64_t)max_points;
    /* the path's point count, for checks: every frame, or 2 per bucket */
    uint64_t points = 0;
    if (!decimated) {
        for (uint64_t i = 0; i < n; i++)
            points += !isnan(value_at(s->m, i));
        fprintf(f, "%llu\" data-decimated=\"0\"", (unsigned long long)points);
    } else {
        fprintf(f, "min-max\" data-decimated=\"1\"");
    }
    fprintf(f, " fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" stroke-linejoin=\"round\" "
               "stroke-linecap=\"round\"",
            colour_of(l));
    if (*dash_of(l))
        fprintf(f, " stroke-dasharray=\"%s\"", dash_of(l));
    fputs(" d=\"", f);
    if (!decimated) {
        for (uint64_t i = 0; i < n; i++) {
            const double v = value_at(s->m, i);
            if (isnan(v))
                pen_gap(&pen);
            else
                pen_point(&pen, px_of_frame(c, (double)s->log->frame_num[i]), py_of_value(c, v));
        }
    } else {
        /* per bucket its lowest and highest frame, in frame order: the line
         * passes through every extreme, so dips and spikes stay visible */
        for (uint64_t b = 0; b < buckets; b++) {
            const uint64_t i0 = b * n / buckets, i1 = (b + 1) * n / buckets;
            uint64_t lo = UINT64_MAX, hi = UINT64_MAX;
            for (uint64_t i = i0; i < i1; i++) {
                const double v = value_at(s->m, i);
                if (isnan(v))
                    continue;
                if (lo == UINT64_MAX || v < value_at(s->m, lo))
                    lo = i;
                if (hi == UINT64_MAX || v > value_at(s->m, hi))
                    hi = i;
            }
            if (lo == UINT64_MAX) { /* only NaN frames: a gap */
                pen_gap(&pen);
                continue;
            }
            const uint64_t first = lo < hi ? lo : hi, second = lo < hi ? hi : lo;
            pen_point(&pen, px_of_frame(c, (double)s->log->frame_num[first]),
                      py_of_value(c, value_at(s->m, first)));
            if (second != first)
                pen_point(&pen, px_of_frame(c, (double)s->log->frame_num[second]),
                          py_of_value(c, value_at(s->m, second)));
        }
    }
    pen_gap(&pen);
    fputs("\"><title>", f);
    put_escaped(f, s->log->label);
    fputs("</title></path>\n", f);

    /* NaN frames: ticks along the bottom, one per pixel column at most */
    if (s->nan_frames) {
        fprintf(f,
                "<path class=\"nan-marks\" data-log=\"%d\" stroke=\"%s\" stroke-width=\"1\" d=\"",
                l, colour_of(l));
        long last = -1;
        const double y = MARGIN_T + PLOT_H - 8 - 3 * (l % 4);
        for (uint64_t i = 0; i < n; i++) {
            if (!isnan(value_at(s->m, i)))
                continue;
            const double x = px_of_frame(c, (double)s->log->frame_num[i]);
            if ((long)x == last)
                continue;
            last = (long)x;
            fprintf(f, " M%.2f,%.2f v6", x, y);
        }
        fprintf(f, "\"><title>%llu frames without a value (null)</title></path>\n",
                (unsigned long long)s->nan_frames);
    }
}

static void draw_worst(FILE *f, const struct chart *c, int l)
{
    const struct series *s = &c->s[l];
    char tbuf[64], vbuf[64];
    for (int k = 0; k < s->nb_worst; k++) {
        const uint64_t i = s->worst[k];
        const double v = value_at(s->m, i);
        const unsigned long long fn = (unsigned long long)s->log->frame_num[i];
        const double x = px_of_frame(c, (double)fn), y = py_of_value(c, v);
        format_time(tbuf, sizeof(tbuf), s->log->timestamp ? s->log->timestamp[i] : NAN);
        format_value(vbuf, sizeof(vbuf), v);
        fprintf(f, "<g class=\"worst\" data-log=\"%d\" data-rank=\"%d\" data-frame=\"%llu\">", l,
                k + 1, fn);
        fprintf(f,
                "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"#fff\" stroke=\"%s\" "
                "stroke-width=\"2\"/>",
                x, y, colour_of(l));
        /* labels below the point (the worst are at the bottom of the curve),
         * above it near the lower edge; staggered by log, so that logs
         * marking the same frame keep readable labels */
        const double stagger = 11.0 * (l % 3);
        const double ly =
            y + 16 + stagger > MARGIN_T + PLOT_H - 2 ? y - 8 - stagger : y + 16 + stagger;
        fprintf(f,
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" class=\"worst-label\" "
                "data-log=\"%d\" "
                "fill=\"%s\">%llu</text>",
                x, ly, l, colour_of(l), fn);
        fputs("<title>", f);
        put_escaped(f, s->log->label);
        fprintf(f, ": worst #%d, frame %llu, time %s, %s = %s</title></g>\n", k + 1, fn, tbuf,
                c->name, vbuf);
    }
}

/* Below the axes, one row per log: a swatch and the file name. */
static void draw_legend(FILE *f, const struct chart *c, double y)
{
    for (int l = 0; l < c->nb; l++) {
        const double ly = y + l * LEGEND_ROW;
        fprintf(
            f,
            "<g class=\"legend\" data-log=\"%d\"><line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"%s\" "
            "stroke-width=\"3\"",
            l, MARGIN_L, MARGIN_L + 28, ly - 4, ly - 4, colour_of(l));
        if (*dash_of(l))
            fprintf(f, " stroke-dasharray=\"%s\"", dash_of(l));
        fprintf(f, "/><text x=\"%d\" y=\"%.1f\" class=\"legend-label\">", MARGIN_L + 36, ly);
        put_escaped(f, c->s[l].log->label);
        if (!c->s[l].m)
            fputs(" (no such score in this log)", f);
        fputs("</text></g>\n", f);
    }
}

static int chart_height(int nb_logs)
{
    return MARGIN_T + PLOT_H + AXIS_H + nb_logs * LEGEND_ROW + 6;
}

/* The chart as an <svg> element (HTML) or a group at y (SVG document). */
static void draw_chart(FILE *f, const struct chart *c, int max_points, enum plot_format format,
                       double y)
{
    const int h = chart_height(c->nb);
    if (format == PLOT_HTML)
        fprintf(
            f,
            "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" data-metric=\"",
            CHART_W, h, CHART_W, h);
    else
        fprintf(f, "<g class=\"chart\" transform=\"translate(0 %.0f)\" data-metric=\"", y);
    put_escaped(f, c->name);
    fprintf(
        f,
        "\" data-x0=\"%d\" data-x1=\"%d\" data-f0=\"%.17g\" data-f1=\"%.17g\" data-width=\"%d\">\n",
        MARGIN_L, CHART_W - MARGIN_R, c->f_lo, c->f_hi, CHART_W);
    draw_axes(f, c);
    if (!c->has_values)
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"axis\">no frame has a "
                "value</text>\n",
                (MARGIN_L + CHART_W - MARGIN_R) / 2, MARGIN_T + PLOT_H / 2);
    for (int l = 0; l < c->nb; l++)
        if (c->s[l].m)
            draw_series(f, c, l, max_points);
    for (int l = 0; l < c->nb; l++)
        if (c->s[l].m)
            draw_worst(f, c, l);
    if (format == PLOT_HTML)
        fprintf(
            f,
            "<line class=\"cursor\" y1=\"%d\" y2=\"%d\" stroke=\"#555\" stroke-dasharray=\"3 3\" "
            "visibility=\"hidden\"/><text class=\"cursor-label tick\" x=\"%d\" y=\"%d\" "
            "text-anchor=\"end\"></text>\n",
            MARGIN_T, MARGIN_T + PLOT_H, CHART_W - MARGIN_R - 4, MARGIN_T + 12);
    draw_legend(f, c, MARGIN_T + PLOT_H + AXIS_H + 14);
    fputs(format == PLOT_HTML ? "</svg>\n" : "</g>\n", f);
}

/* ---- tables -------------------------------------------------------------------------- */

static void html_tables(FILE *f, const struct chart *c)
{
    char a[64], b[64], d[64], e[64];
    fputs("<table class=\"pooled\"><caption>pooled over the frames</caption>\n<tr><th>log</th><th>"
          "frames</th>"
          "<th>null frames</th><th>mean</th><th>harmonic mean</th><th>min</th><th>max</th></tr>\n",
          f);
    int any_computed = 0;
    for (int l = 0; l < c->nb; l++) {
        const struct series *s = &c->s[l];
        fprintf(f, "<tr data-log=\"%d\"><td><span class=\"swatch\" style=\"background:%s\"></span>",
                l, colour_of(l));
        put_escaped(f, s->log->label);
        if (!s->m) {
            fprintf(f, "</td><td>%llu</td><td colspan=\"5\">no %s in this log</td></tr>\n",
                    (unsigned long long)s->log->nb_frames, c->name);
            continue;
        }
        format_value(a, sizeof(a), s->pooled.mean);
        format_value(b, sizeof(b), s->pooled.harmonic_mean);
        format_value(d, sizeof(d), s->pooled.min);
        format_value(e, sizeof(e), s->pooled.max);
        any_computed |= s->pooled_from_frames;
        fprintf(
            f,
            "</td><td>%llu</td><td>%llu</td><td>%s%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
            (unsigned long long)s->log->nb_frames, (unsigned long long)s->nan_frames, a,
            s->pooled_from_frames ? "*" : "", b, d, e);
    }
    fputs("</table>\n", f);
    if (any_computed)
        fputs(
            "<p class=\"note\">* the log has no pooled values (a stopped run?): computed here from "
            "its "
            "frames</p>\n",
            f);

    fprintf(
        f,
        "<table class=\"worst\"><caption>worst frames (lowest values)</caption>\n<tr><th>log</th>"
        "<th>rank</th><th>frame</th>%s<th>value</th></tr>\n",
        c->timed ? "<th>time</th>" : "");
    for (int l = 0; l < c->nb; l++) {
        const struct series *s = &c->s[l];
        if (!s->m)
            continue;
        for (int k = 0; k < s->nb_worst; k++) {
            const uint64_t i = s->worst[k];
            format_time(a, sizeof(a), s->log->timestamp ? s->log->timestamp[i] : NAN);
            format_value(b, sizeof(b), value_at(s->m, i));
            fprintf(
                f, "<tr data-log=\"%d\"><td><span class=\"swatch\" style=\"background:%s\"></span>",
                l, colour_of(l));
            put_escaped(f, s->log->label);
            fprintf(f, "</td><td>%d</td><td>%llu</td>", k + 1,
                    (unsigned long long)s->log->frame_num[i]);
            if (c->timed)
                fprintf(f, "<td>%s</td>", a);
            fprintf(f, "<td>%s</td></tr>\n", b);
        }
    }
    fputs("</table>\n", f);
}

/* The same tables as SVG text, below the chart: one line per log. */
static int svg_tables_height(const struct chart *c)
{
    return 22 + 16 * c->nb + 22 + 16 * c->nb + 10;
}

static void svg_tables(FILE *f, const struct chart *c, double y)
{
    char a[64], b[64], d[64], e[64];
    fprintf(f, "<g class=\"tables\" transform=\"translate(0 %.0f)\">\n", y);
    fprintf(
        f,
        "<text x=\"%d\" y=\"14\" class=\"axis\">pooled: frames, null frames, mean, harmonic mean, "
        "min, "
        "max</text>\n",
        MARGIN_L);
    for (int l = 0; l < c->nb; l++) {
        const struct series *s = &c->s[l];
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"row\" data-log=\"%d\" fill=\"%s\">", MARGIN_L,
                30 + 16 * l, l, colour_of(l));
        put_escaped(f, s->log->label);
        if (!s->m) {
            fprintf(f, ": no %s in this log</text>\n", c->name);
            continue;
        }
        format_value(a, sizeof(a), s->pooled.mean);
        format_value(b, sizeof(b), s->pooled.harmonic_mean);
        format_value(d, sizeof(d), s->pooled.min);
        format_value(e, sizeof(e), s->pooled.max);
        fprintf(f, ": %llu, %llu, %s%s, %s, %s, %s</text>\n", (unsigned long long)s->log->nb_frames,
                (unsigned long long)s->nan_frames, a,
                s->pooled_from_frames ? " (from the frames)" : "", b, d, e);
    }
    const int y2 = 30 + 16 * c->nb + 8;
    fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis\">worst frames: frame%s value</text>\n",
            MARGIN_L, y2, c->timed ? " (time)" : "");
    for (int l = 0; l < c->nb; l++) {
        const struct series *s = &c->s[l];
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"row\" fill=\"%s\">", MARGIN_L, y2 + 16 + 16 * l,
                colour_of(l));
        put_escaped(f, s->log->label);
        fputs(":", f);
        for (int k = 0; s->m && k < s->nb_worst; k++) {
            const uint64_t i = s->worst[k];
            format_time(a, sizeof(a), s->log->timestamp ? s->log->timestamp[i] : NAN);
            format_value(b, sizeof(b), value_at(s->m, i));
            fprintf(f, "%s %llu", k ? "," : "", (unsigned long long)s->log->frame_num[i]);
            if (c->timed)
                fprintf(f, " (%s)", a);
            fprintf(f, " %s", b);
        }
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
}

/* ---- the document --------------------------------------------------------------------- */

static const char css[] =
    "body{font:14px/1.4 sans-serif;margin:16px 24px;color:#222;background:#fff}"
    "h1{font-size:20px}h2{font-size:17px;margin:28px 0 6px}"
    "table{border-collapse:collapse;margin:8px 0 4px}caption{text-align:left;font-weight:bold;"
    "padding:4px 0}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child,"
    "th:first-child{text-align:left}"
    ".swatch{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:-1px}"
    ".note{color:#666}";
static const char svg_css[] =
    ".tick{font:11px sans-serif;fill:#444}.time{fill:#888}.axis{font:12px sans-serif;fill:#222}"
    ".legend-label,.row{font:12px sans-serif}.worst-label{font:bold 10px sans-serif}"
    ".title{font:bold 16px sans-serif}";

/* Hover: a vertical cursor and the frame number under the pointer. */
static const char hover_js[] =
    "document.querySelectorAll('svg.chart').forEach(function(svg){\n"
    "  var d=svg.dataset,cur=svg.querySelector('.cursor'),lab=svg.querySelector('.cursor-label');\n"
    "  svg.addEventListener('mousemove',function(e){\n"
    "    var r=svg.getBoundingClientRect(),x=(e.clientX-r.left)*(+d.width/r.width);\n"
    "    if(x<+d.x0||x>+d.x1){cur.setAttribute('visibility','hidden');lab.textContent='';return;}\n"
    "    var f=Math.round(+d.f0+(x-d.x0)/(d.x1-d.x0)*(d.f1-d.f0));\n"
    "    var px=+d.x0+(f-d.f0)/(d.f1-d.f0)*(d.x1-d.x0);\n"
    "    cur.setAttribute('x1',px);cur.setAttribute('x2',px);cur.setAttribute('visibility',"
    "'visible');\n"
    "    lab.textContent='frame '+f;\n"
    "  });\n"
    "});\n"
    "document.body.setAttribute('data-ready','1');\n";

int plot_render(FILE *out, const struct plot_log *logs, int nb_logs, const struct plot_options *opt,
                char *err, size_t err_size)
{
    const char **names = NULL;
    int nb_names = 0, ret = -1;
    struct chart *charts = NULL;

    /* the charts: the names asked for, or every main score in order of appearance */
    if (opt->nb_metrics) {
        names = malloc(sizeof(*names) * (size_t)opt->nb_metrics);
        if (!names)
            goto nomem;
        for (int k = 0; k < opt->nb_metrics; k++) {
            int found = 0;
            for (int l = 0; l < nb_logs && !found; l++)
                for (int i = 0; i < logs[l].nb_metrics && !found; i++)
                    found = !strcmp(logs[l].metrics[i].name, opt->metrics[k]);
            if (!found) {
                size_t o =
                    (size_t)snprintf(err, err_size,
                                     "no log has the score '%s'; they have:", opt->metrics[k]);
                for (int l = 0; l < nb_logs; l++)
                    for (int i = 0; i < logs[l].nb_metrics && o < err_size; i++) {
                        const char *n = logs[l].metrics[i].name;
                        int listed = 0; /* by an earlier log */
                        for (int e = 0; e < l && !listed; e++)
                            for (int j = 0; j < logs[e].nb_metrics && !listed; j++)
                                listed = !strcmp(logs[e].metrics[j].name, n);
                        if (!listed)
                            o += (size_t)snprintf(err + o, err_size - o, " %s", n);
                    }
                goto fail;
            }
            names[nb_names++] = opt->metrics[k];
        }
    } else {
        int total = 0;
        for (int l = 0; l < nb_logs; l++)
            total += logs[l].nb_metrics;
        names = malloc(sizeof(*names) * (size_t)(total ? total : 1));
        if (!names)
            goto nomem;
        for (int l = 0; l < nb_logs; l++)
            for (int i = 0; i < logs[l].nb_metrics; i++) {
                const char *n = logs[l].metrics[i].name;
                int seen = gpussim_score_is_term(n);
                for (int k = 0; k < nb_names && !seen; k++)
                    seen = !strcmp(names[k], n);
                if (!seen)
                    names[nb_names++] = n;
            }
        if (!nb_names) {
            snprintf(err, err_size, "the logs hold no scores to draw");
            goto fail;
        }
    }
    charts = calloc((size_t)nb_names, sizeof(*charts));
    if (!charts)
        goto nomem;
    for (int k = 0; k < nb_names; k++)
        if (chart_init(&charts[k], names[k], logs, nb_logs, opt->worst) < 0)
            goto nomem;

    const char *title = opt->title ? opt->title : "gpussim scores";
    if (opt->format == PLOT_HTML) {
        fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
              out);
        put_escaped(out, title);
        fprintf(out, "</title>\n<style>%s%s</style>\n</head>\n<body>\n<h1>", css, svg_css);
        put_escaped(out, title);
        fputs("</h1>\n<p>", out);
        for (int l = 0; l < nb_logs; l++) {
            fprintf(out, "%s<span class=\"swatch\" style=\"background:%s\"></span>",
                    l ? " &nbsp; " : "", colour_of(l));
            put_escaped(out, logs[l].label);
            fprintf(out, " (%llu frames)", (unsigned long long)logs[l].nb_frames);
        }
        fputs("</p>\n", out);
        for (int k = 0; k < nb_names; k++) {
            fputs("<section class=\"metric\" data-metric=\"", out);
            put_escaped(out, names[k]);
            fputs("\">\n<h2>", out);
            put_escaped(out, names[k]);
            fputs("</h2>\n", out);
            draw_chart(out, &charts[k], opt->max_points, PLOT_HTML, 0);
            html_tables(out, &charts[k]);
            fputs("</section>\n", out);
        }
        fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", hover_js);
    } else {
        double h = 40;
        for (int k = 0; k < nb_names; k++)
            h += 24 + chart_height(nb_logs) + svg_tables_height(&charts[k]);
        fprintf(
            out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
            "width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\">\n<style>%s</style>\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n<text x=\"%d\" y=\"26\" "
            "class=\"title\">",
            CHART_W, h, CHART_W, h, svg_css, MARGIN_L);
        put_escaped(out, title);
        fputs("</text>\n", out);
        double y = 40;
        for (int k = 0; k < nb_names; k++) {
            fprintf(out, "<text x=\"%d\" y=\"%.0f\" class=\"title\">", MARGIN_L, y + 18);
            put_escaped(out, names[k]);
            fputs("</text>\n", out);
            y += 24;
            draw_chart(out, &charts[k], opt->max_points, PLOT_SVG, y);
            y += chart_height(nb_logs);
            svg_tables(out, &charts[k], y);
            y += svg_tables_height(&charts[k]);
        }
        fputs("</svg>\n", out);
    }
    ret = 0;
    goto fail;

nomem:
    snprintf(err, err_size, "out of memory");
fail:
    if (charts)
        for (int k = 0; k < nb_names; k++)
            chart_free(&charts[k]);
    free(charts);
    free(names);
    return ret;
}

/* ---- the subcommand ------------------------------------------------------------------ */

static void plot_usage(FILE *f)
{
    fputs(
        "usage: gpussim plot LOG.json... -o REPORT.html|REPORT.svg [options]\n"
        "\n"
        "Draws JSON score logs (of gpussim, its FFmpeg filter, or libvmaf): per score, the\n"
        "per-frame values of each log over the frame number (one line per log), the pooled\n"
        "values, and the worst frames marked and listed. The page is self-contained.\n"
        "\n"
        "  -o, --output FILE     .html (page with inline SVG) or .svg; '-' writes HTML to stdout\n"
        "      --format F        html or svg (default: from the file name)\n"
        "  -m, --metric NAME     draw this score (repeatable); default: the main scores\n"
        "                        (not the _l/_c/_s or per-scale terms)\n"
        "      --worst N         worst frames marked per log (default 5, 0: none)\n"
        "      --max-points N    points per line before min/max decimation (default 4000)\n"
        "      --title TEXT      page title\n"
        "      --help\n",
        f);
}

static int ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcasecmp(s + n - m, suffix);
}

static int parse_count(const char *opt, const char *arg, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    const long v = strtol(arg, &end, 10);
    if (errno || end == arg || *end || v < lo || v > hi) {
        cli_error("%s needs a whole number from %d to %d, not '%s'", opt, lo, hi, arg);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int plot_main(int argc, char **argv)
{
    enum { OPT_FORMAT = 256, OPT_WORST, OPT_MAX_POINTS, OPT_TITLE, OPT_HELP };
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "metric", required_argument, NULL, 'm' },
        { "format", required_argument, NULL, OPT_FORMAT },
        { "worst", required_argument, NULL, OPT_WORST },
        { "max-points", required_argument, NULL, OPT_MAX_POINTS },
        { "title", required_argument, NULL, OPT_TITLE },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    struct plot_options opt = { PLOT_HTML, NULL, 0, 5, 4000, NULL };
    const char *out_path = NULL, *format = NULL;
    const char **metrics = calloc((size_t)argc + 1, sizeof(*metrics));
    struct plot_log *logs = NULL;
    int nb_logs = 0, status = 2, ch;
    FILE *out = NULL;
    char err[1024];

    if (!metrics) {
        cli_error("out of memory");
        return 2;
    }
    opt.metrics = metrics;
    optind = 0;
    while ((ch = getopt_long(argc, argv, ":o:m:", longopts, NULL)) != -1) {
        switch (ch) {
        case 'o': out_path = optarg; break;
        case 'm': metrics[opt.nb_metrics++] = optarg; break;
        case OPT_FORMAT: format = optarg; break;
        case OPT_WORST:
            if (parse_count("--worst", optarg, 0, 1000, &opt.worst) < 0)
                goto done;
            break;
        case OPT_MAX_POINTS:
            if (parse_count("--max-points", optarg, 2, 10000000, &opt.max_points) < 0)
                goto done;
            break;
        case OPT_TITLE: opt.title = optarg; break;
        case OPT_HELP:
            plot_usage(stdout);
            status = 0;
            goto done;
        case ':': cli_error("%s needs a value (gpussim plot --help)", argv[optind - 1]); goto done;
        default: cli_error("unknown option %s (gpussim plot --help)", argv[optind - 1]); goto done;
        }
    }
    if (optind >= argc) {
        cli_error("plot needs at least one JSON log (gpussim plot --help)");
        goto done;
    }
    if (!out_path) {
        cli_error("plot needs -o REPORT.html or -o REPORT.svg");
        goto done;
    }
    if (format) {
        if (!strcmp(format, "html"))
            opt.format = PLOT_HTML;
        else if (!strcmp(format, "svg"))
            opt.format = PLOT_SVG;
        else {
            cli_error("--format is html or svg, not '%s'", format);
            goto done;
        }
    } else if (ends_with(out_path, ".svg")) {
        opt.format = PLOT_SVG;
    } else if (!ends_with(out_path, ".html") && !ends_with(out_path, ".htm") &&
               strcmp(out_path, "-")) {
        cli_error("%s: say which format with a .html or .svg name, or --format html|svg", out_path);
        goto done;
    }

    /* a ladder log brings one line per rendition */
    const int cap = (argc - optind) * GPUSSIM_MAX_DISTORTED;
    logs = calloc((size_t)cap, sizeof(*logs));
    if (!logs) {
        cli_error("out of memory");
        goto done;
    }
    for (int i = optind; i < argc; i++) {
        const int n = plot_log_load(&logs[nb_logs], cap - nb_logs, argv[i]);
        if (n < 0)
            goto done;
        nb_logs += n;
    }

    /* the whole report is made before the file is created, so a failure
     * leaves no half-written report behind */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        cli_error("out of memory");
        goto done;
    }
    const int ret = plot_render(mem, logs, nb_logs, &opt, err, sizeof(err));
    const int mem_failed = fclose(mem) != 0;
    if (ret < 0 || mem_failed) {
        cli_error("%s", ret < 0 ? err : "out of memory");
        free(buf);
        goto done;
    }
    out = strcmp(out_path, "-") ? fopen(out_path, "w") : stdout;
    if (!out) {
        cli_error("cannot write %s: %s", out_path, strerror(errno));
        free(buf);
        goto done;
    }
    errno = 0;
    int write_failed = fwrite(buf, 1, len, out) != len || fflush(out) != 0;
    free(buf);
    if (out != stdout)
        write_failed |= fclose(out) != 0;
    if (write_failed) {
        cli_error("writing %s failed: %s", out_path, strerror(errno ? errno : EIO));
        goto done;
    }
    status = 0;

done:
    /* renditions point into their rendition 0's storage: free them first */
    for (int i = nb_logs - 1; i >= 0; i--)
        plot_log_free(&logs[i]);
    free(logs);
    free(metrics);
    return status;
}
