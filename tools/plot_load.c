/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Loads a libvmaf-layout JSON score log into the plot model: "frames"
 * [{"frameNum", "metrics": {name: number|null}, optional "timestamp"
 * (seconds)}] and "pooled_metrics" {name: {min, max, mean, harmonic_mean}};
 * every other member is skipped. A log cut short inside "frames" (a killed
 * run) keeps its complete frames.
 *
 * This is a stand-in: a pull parser for this one layout, until the library
 * has a log reader; then plot_log_load() reads through it and this file goes.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define MAX_DEPTH 64

struct parser {
    const char *start, *p, *end;
    const char *path;
    char *err;
    size_t err_size;
    int failed;
    int hit_end; /* the failure was the end of the file */
};

static int fail(struct parser *ps, const char *fmt, ...)
{
    if (ps->failed)
        return -1;
    ps->failed = 1;
    ps->hit_end = ps->p >= ps->end;
    int line = 1;
    for (const char *c = ps->start; c < ps->p && c < ps->end; c++)
        line += *c == '\n';
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    snprintf(ps->err, ps->err_size, "%s: line %d: %s", ps->path, line,
             ps->hit_end ? "the file ends early (not a complete JSON document)" : what);
    return -1;
}

static void skip_ws(struct parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t'))
        ps->p++;
}

/* Consumes c after white space. @return 0, or -1 when the next character is not c */
static int expect(struct parser *ps, char c)
{
    skip_ws(ps);
    if (ps->p >= ps->end || *ps->p != c)
        return fail(ps, "expected '%c'", c);
    ps->p++;
    return 0;
}

/* Consumes c after white space if it is there. @return 1 consumed, 0 not */
static int accept(struct parser *ps, char c)
{
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == c) {
        ps->p++;
        return 1;
    }
    return 0;
}

/* A JSON string into buf (NULL: skipped); \u escapes outside ASCII become '?'
 * (score names are ASCII). @return 0, or -1 */
static int parse_string(struct parser *ps, char *buf, size_t size)
{
    size_t n = 0;
    if (expect(ps, '"') < 0)
        return -1;
    while (ps->p < ps->end && *ps->p != '"') {
        char c = *ps->p++;
        if ((unsigned char)c < 0x20)
            return fail(ps, "a control character inside a string");
        if (c == '\\') {
            if (ps->p >= ps->end)
                break;
            const char e = *ps->p++;
            const char *plain = strchr("\"\\/bfnrt", e);
            if (!plain && e != 'u')
                return fail(ps, "bad escape '\\%c' in a string", e);
            c = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
            if (e == 'u') {
                if (ps->end - ps->p < 4)
                    break;
                char hex[5] = { ps->p[0], ps->p[1], ps->p[2], ps->p[3], 0 };
                char *hex_end;
                const long u = strtol(hex, &hex_end, 16);
                if (hex_end != hex + 4)
                    return fail(ps, "bad \\u escape in a string");
                ps->p += 4;
                c = u > 0 && u < 0x80 ? (char)u : '?';
            }
        }
        if (buf) {
            if (n + 1 >= size)
                return fail(ps, "a name longer than %zu bytes", size - 1);
            buf[n++] = c;
        }
    }
    if (ps->p >= ps->end)
        return fail(ps, "unterminated string");
    ps->p++;
    if (buf)
        buf[n] = '\0';
    return 0;
}

/* A number, or null (NaN: the writers spell NaN and infinities null). */
static int parse_number(struct parser *ps, double *v)
{
    skip_ws(ps);
    if (ps->end - ps->p >= 4 && !memcmp(ps->p, "null", 4)) {
        ps->p += 4;
        *v = NAN;
        return 0;
    }
    /* strtod accepts more than JSON (hex, inf): check the first character, and
     * parse a copy so that it cannot read past the buffer */
    char tmp[64];
    size_t n = 0;
    while (ps->p + n < ps->end && n + 1 < sizeof(tmp) && strchr("+-0123456789.eE", ps->p[n]) && ps->p[n])
        n++;
    if (!n || !strchr("-0123456789", ps->p[0]))
        return fail(ps, "expected a number or null");
    memcpy(tmp, ps->p, n);
    tmp[n] = '\0';
    char *num_end;
    errno = 0;
    *v = strtod(tmp, &num_end);
    if (num_end != tmp + n)
        return fail(ps, "malformed number '%s'", tmp);
    ps->p += n;
    return 0;
}

static int skip_value(struct parser *ps, int depth)
{
    skip_ws(ps);
    if (ps->p >= ps->end)
        return fail(ps, "expected a value");
    if (depth > MAX_DEPTH)
        return fail(ps, "values nested deeper than %d levels", MAX_DEPTH);
    const char c = *ps->p;
    if (c == '"')
        return parse_string(ps, NULL, 0);
    if (c == '{' || c == '[') {
        const char close = c == '{' ? '}' : ']';
        ps->p++;
        if (accept(ps, close))
            return 0;
        do {
            if (c == '{' && (parse_string(ps, NULL, 0) < 0 || expect(ps, ':') < 0))
                return -1;
            if (skip_value(ps, depth + 1) < 0)
                return -1;
        } while (accept(ps, ','));
        return expect(ps, close);
    }
    static const char *const words[] = { "true", "false", "null" };
    for (int i = 0; i < 3; i++) {
        const size_t n = strlen(words[i]);
        if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, words[i], n)) {
            ps->p += n;
            return 0;
        }
    }
    double v;
    return parse_number(ps, &v);
}

/* ---- the model -------------------------------------------------------------------- */

/* What the loader allocates; the plot_log points into it. */
struct loaded {
    char *label;
    uint64_t *frame_num;
    double *timestamp;
    int nb_metrics;
    char **names;
    double **values;
    struct plot_metric *pooled; /* per metric: has_pooled and the stats */
};

struct loader {
    struct loaded *d;
    uint64_t nb_frames;
    uint64_t capacity; /* frames allocated in every per-frame array */
};

static int find_metric(struct loader *ld, const char *name, int hint)
{
    const struct loaded *d = ld->d;
    /* the keys come in the same order in every frame */
    if (hint < d->nb_metrics && !strcmp(d->names[hint], name))
        return hint;
    for (int i = 0; i < d->nb_metrics; i++)
        if (!strcmp(d->names[i], name))
            return i;
    return -1;
}

static int add_metric(struct loader *ld, const char *name)
{
    struct loaded *d = ld->d;
    const size_t n = (size_t)d->nb_metrics + 1;
    char **names = realloc(d->names, sizeof(*names) * n);
    if (names)
        d->names = names;
    double **values = realloc(d->values, sizeof(*values) * n);
    if (values)
        d->values = values;
    struct plot_metric *pooled = realloc(d->pooled, sizeof(*pooled) * n);
    if (pooled)
        d->pooled = pooled;
    if (!names || !values || !pooled)
        return -1;
    char *name_copy = strdup(name);
    double *v = malloc(sizeof(double) * (size_t)(ld->capacity ? ld->capacity : 1));
    if (!name_copy || !v) {
        free(name_copy);
        free(v);
        return -1;
    }
    for (uint64_t i = 0; i < ld->nb_frames; i++)
        v[i] = NAN;
    const int i = d->nb_metrics++;
    d->names[i] = name_copy;
    d->values[i] = v;
    memset(&d->pooled[i], 0, sizeof(d->pooled[i]));
    return i;
}

/* Appends a frame whose values are all NaN until its members fill them. */
static int add_frame(struct loader *ld)
{
    struct loaded *d = ld->d;
    if (ld->nb_frames == ld->capacity) {
        const uint64_t cap = ld->capacity ? ld->capacity * 2 : 256;
        if (cap > SIZE_MAX / sizeof(double))
            return -1;
        uint64_t *fn = realloc(d->frame_num, sizeof(*fn) * cap);
        if (!fn)
            return -1;
        d->frame_num = fn;
        if (d->timestamp) {
            double *ts = realloc(d->timestamp, sizeof(*ts) * cap);
            if (!ts)
                return -1;
            d->timestamp = ts;
        }
        for (int i = 0; i < d->nb_metrics; i++) {
            double *v = realloc(d->values[i], sizeof(*v) * cap);
            if (!v)
                return -1;
            d->values[i] = v;
        }
        ld->capacity = cap;
    }
    const uint64_t f = ld->nb_frames++;
    d->frame_num[f] = f;
    if (d->timestamp)
        d->timestamp[f] = NAN;
    for (int i = 0; i < d->nb_metrics; i++)
        d->values[i][f] = NAN;
    return 0;
}

static int parse_frame(struct parser *ps, struct loader *ld)
{
    struct loaded *d = ld->d;
    char key[256];
    if (expect(ps, '{') < 0)
        return -1;
    if (add_frame(ld) < 0)
        return fail(ps, "out of memory at frame %llu", (unsigned long long)ld->nb_frames);
    const uint64_t f = ld->nb_frames - 1;
    if (accept(ps, '}'))
        return 0;
    do {
        double v;
        if (parse_string(ps, key, sizeof(key)) < 0 || expect(ps, ':') < 0)
            return -1;
        if (!strcmp(key, "frameNum")) {
            if (parse_number(ps, &v) < 0)
                return -1;
            if (!(v >= 0 && v < 1e18) || v != floor(v))
                return fail(ps, "frameNum is not a frame number");
            d->frame_num[f] = (uint64_t)v;
        } else if (!strcmp(key, "timestamp")) {
            if (parse_number(ps, &v) < 0)
                return -1;
            if (!d->timestamp) {
                d->timestamp = malloc(sizeof(double) * ld->capacity);
                if (!d->timestamp)
                    return fail(ps, "out of memory");
                for (uint64_t i = 0; i < ld->capacity; i++)
                    d->timestamp[i] = NAN;
            }
            d->timestamp[f] = v;
        } else if (!strcmp(key, "metrics")) {
            if (expect(ps, '{') < 0)
                return -1;
            if (accept(ps, '}'))
                continue;
            int k = 0;
            do {
                if (parse_string(ps, key, sizeof(key)) < 0 || expect(ps, ':') < 0 || parse_number(ps, &v) < 0)
                    return -1;
                int i = find_metric(ld, key, k++);
                if (i < 0 && (i = add_metric(ld, key)) < 0)
                    return fail(ps, "out of memory");
                d->values[i][f] = v;
            } while (accept(ps, ','));
            if (expect(ps, '}') < 0)
                return -1;
        } else if (skip_value(ps, 2) < 0) {
            return -1;
        }
    } while (accept(ps, ','));
    return expect(ps, '}');
}

static int parse_pooled(struct parser *ps, struct loader *ld)
{
    char key[256], stat[64];
    if (expect(ps, '{') < 0)
        return -1;
    if (accept(ps, '}'))
        return 0;
    do {
        if (parse_string(ps, key, sizeof(key)) < 0 || expect(ps, ':') < 0 || expect(ps, '{') < 0)
            return -1;
        int i = find_metric(ld, key, 0);
        if (i < 0 && (i = add_metric(ld, key)) < 0)
            return fail(ps, "out of memory");
        struct plot_metric *m = &ld->d->pooled[i];
        m->has_pooled = 1;
        m->pooled_min = m->pooled_max = m->pooled_mean = m->pooled_harmonic_mean = NAN;
        if (accept(ps, '}'))
            continue;
        do {
            if (parse_string(ps, stat, sizeof(stat)) < 0 || expect(ps, ':') < 0)
                return -1;
            double *dst = !strcmp(stat, "min")             ? &m->pooled_min
                          : !strcmp(stat, "max")           ? &m->pooled_max
                          : !strcmp(stat, "mean")          ? &m->pooled_mean
                          : !strcmp(stat, "harmonic_mean") ? &m->pooled_harmonic_mean
                                                           : NULL;
            if (dst ? parse_number(ps, dst) < 0 : skip_value(ps, 3) < 0)
                return -1;
        } while (accept(ps, ','));
        if (expect(ps, '}') < 0)
            return -1;
    } while (accept(ps, ','));
    return expect(ps, '}');
}

/* @return 0, 1 when the file ends inside "frames" after complete frames, -1 */
static int parse_log(struct parser *ps, struct loader *ld)
{
    char key[256];
    int have_frames = 0;
    if (expect(ps, '{') < 0)
        return -1;
    if (accept(ps, '}'))
        return fail(ps, "an empty object, not a score log");
    do {
        if (parse_string(ps, key, sizeof(key)) < 0 || expect(ps, ':') < 0)
            return -1;
        if (!strcmp(key, "frames")) {
            have_frames = 1;
            if (expect(ps, '[') < 0)
                return -1;
            if (accept(ps, ']'))
                continue;
            do {
                const uint64_t before = ld->nb_frames;
                if (parse_frame(ps, ld) < 0) {
                    if (!ps->hit_end)
                        return -1;
                    ld->nb_frames = before; /* drop the partial frame */
                    return 1;
                }
            } while (accept(ps, ','));
            if (expect(ps, ']') < 0)
                return ps->hit_end ? 1 : -1;
        } else if (!strcmp(key, "pooled_metrics")) {
            if (parse_pooled(ps, ld) < 0)
                return -1;
        } else if (skip_value(ps, 1) < 0) {
            return -1;
        }
    } while (accept(ps, ','));
    if (expect(ps, '}') < 0)
        return -1;
    skip_ws(ps);
    if (ps->p != ps->end)
        return fail(ps, "text after the end of the JSON document");
    if (!have_frames) {
        snprintf(ps->err, ps->err_size, "%s: no \"frames\" array: not a gpussim or libvmaf JSON score log",
                 ps->path);
        return -1;
    }
    return 0;
}

static char *read_file(const char *path, size_t *size, char *err, size_t err_size)
{
    FILE *f = !strcmp(path, "-") ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *grown = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!grown) {
            free(buf);
            buf = NULL;
        }
        buf = grown;
        cap *= 2;
    }
    const int read_error = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf) {
        snprintf(err, err_size, "%s: out of memory reading it", path);
        return NULL;
    }
    if (read_error) {
        snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
        free(buf);
        return NULL;
    }
    *size = n;
    return buf;
}

static void loaded_free(struct loaded *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->nb_metrics; i++) {
        free(d->names[i]);
        free(d->values[i]);
    }
    free(d->names);
    free(d->values);
    free(d->pooled);
    free(d->frame_num);
    free(d->timestamp);
    free(d->label);
    free(d);
}

int plot_log_load(struct plot_log *log, const char *path, char *err, size_t err_size)
{
    memset(log, 0, sizeof(*log));
    err[0] = '\0';
    size_t size;
    char *text = read_file(path, &size, err, err_size);
    if (!text)
        return -1;
    struct parser ps = { text, text, text + size, path, err, err_size, 0, 0 };
    struct loader ld = { calloc(1, sizeof(struct loaded)), 0, 0 };
    int ret = -1;
    if (!ld.d || !(ld.d->label = strdup(path)))
        snprintf(err, err_size, "out of memory");
    else
        ret = parse_log(&ps, &ld);
    free(text);
    if (ret < 0) {
        loaded_free(ld.d);
        return -1;
    }
    struct loaded *d = ld.d;
    log->metrics = calloc((size_t)d->nb_metrics + 1, sizeof(*log->metrics));
    if (!log->metrics) {
        loaded_free(d);
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    log->storage = d;
    log->label = d->label;
    log->nb_frames = ld.nb_frames;
    log->frame_num = d->frame_num;
    log->timestamp = d->timestamp;
    log->nb_metrics = d->nb_metrics;
    for (int i = 0; i < d->nb_metrics; i++) {
        log->metrics[i] = d->pooled[i];
        log->metrics[i].name = d->names[i];
        log->metrics[i].values = d->values[i];
        log->metrics[i].stride = 1;
        if (ret == 1)
            log->metrics[i].has_pooled = 0;
    }
    if (ret == 1)
        /* a warning, not an error: the caller draws what is there */
        snprintf(err, err_size,
                 "%s ends inside its frames (a run that was stopped?): drawing its %llu complete frames",
                 path, (unsigned long long)ld.nb_frames);
    return 0;
}

void plot_log_free(struct plot_log *log)
{
    loaded_free(log->storage);
    free(log->metrics);
    memset(log, 0, sizeof(*log));
}
