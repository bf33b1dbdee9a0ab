/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The log writer (gpussim_log.h): libvmaf's JSON or XML layout, or CSV,
 * streamed as frames complete. Every frame is flushed when written, so a
 * killed run leaves every frame scored before it; %.17g makes every double
 * round-trip.
 *
 * A ladder log (several distorted pictures per reference) holds one section
 * per rendition. The writer of rendition 0 writes the file; renditions 1..
 * are section writers that keep their own pools and, in JSON, stream their
 * frames into a temporary file copied into the log at close (their frames
 * reach the log only then); XML does the same. CSV rows carry the rendition
 * in a column.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpussim/gpussim_log.h"
#include "src/core.h"
#include "log_internal.h"
#include "mem.h"

/* XML: "  <fyi fps="nan" " and the spaces after it, overwritten at close */
#define XML_FYI_PAD 24
#define XML_FYI_LEN (int)(sizeof("  <fyi fps=\"nan\" ") - 1 + XML_FYI_PAD)

struct GpussimLogWriter {
    FILE *f;
    int own_file;
    char *path; /* for messages */
    enum gpussim_log_format format;
    int timestamps;
    struct gpussim_logger log;
    int nb_metrics;
    char **names;
    GpussimPool **pools;
    uint64_t *left_out;
    uint64_t frames;
    int error; /* the first write error: every later call returns it */
    unsigned pool_stats; /* GPUSSIM_LOG_POOL_* written: libvmaf's four and those asked for */
    char *name;          /* the section's rendition name, or NULL */
    int has_names;       /* a ladder with names: CSV gets a name column */
    long fyi_pos;        /* XML: where <fyi fps> is, patched at close; -1: not seekable */
    /* the config block */
    char *library, *api, *backend, *chroma, *planes, *features;
    int width, height, bit_depth;
    int64_t first_frame;
    int has_sync_offsets; /* sync_offsets[] holds one offset per rendition */
    int sync_offsets[GPUSSIM_MAX_DISTORTED];
    /* ladder: nb_renditions > 1; sections[k - 1] is rendition k's writer */
    int nb_renditions;
    GpussimLogWriter **sections;
};

static void writer_free(GpussimLogWriter *w)
{
    if (!w)
        return;
    if (w->sections)
        for (int k = 0; k + 1 < w->nb_renditions; k++)
            writer_free(w->sections[k]);
    gpussim_free(w->sections);
    if (w->f && w->own_file)
        fclose(w->f);
    for (int i = 0; i < w->nb_metrics; i++) {
        if (w->names)
            gpussim_free(w->names[i]);
        if (w->pools)
            gpussim_pool_destroy(&w->pools[i]);
    }
    gpussim_free(w->names);
    gpussim_free(w->pools);
    gpussim_free(w->left_out);
    gpussim_free(w->path);
    gpussim_free(w->library);
    gpussim_free(w->api);
    gpussim_free(w->backend);
    gpussim_free(w->chroma);
    gpussim_free(w->planes);
    gpussim_free(w->features);
    gpussim_free(w->name);
    gpussim_free(w);
}

/* Records the first write error (errno of the failed call). */
static int write_error(GpussimLogWriter *w, int err)
{
    if (!w->error) {
        w->error = err > 0 ? -err : -EIO;
        gpussim_log(&w->log, GPUSSIM_LOG_ERROR, "cannot write log file '%s': %s", w->path,
                    strerror(-w->error));
    }
    return w->error;
}

/* Flushes and checks: every frame reaches the file when it is written. */
static int flush_checked(GpussimLogWriter *w)
{
    errno = 0;
    if (fflush(w->f) != 0 || ferror(w->f))
        return write_error(w, errno);
    return 0;
}

/* JSON has no NaN or infinity: null keeps the document valid. */
static void json_number(FILE *out, double v)
{
    if (isfinite(v))
        fprintf(out, "%.17g", v);
    else
        fputs("null", out);
}

/* The characters of a JSON string, escaped, without the quotes. Brackets
 * and braces too (\u005b...): a string in the log (a rendition's name, a
 * file name) then never looks like structure to a reader that counts them
 * to close a log cut off by a killed run (docs/cli.md's Python reader). */
static void json_chars(FILE *out, const char *s)
{
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch < 0x20 || ch == '[' || ch == ']' || ch == '{' || ch == '}')
            fprintf(out, "\\u%04x", ch);
        else
            putc(ch, out);
    }
}

static void json_string(FILE *out, const char *s)
{
    putc('"', out);
    json_chars(out, s);
    putc('"', out);
}

static void json_string_or_null(FILE *out, const char *s)
{
    if (s)
        json_string(out, s);
    else
        fputs("null", out);
}

/* The characters of an XML attribute value (or a metric name used as an
 * attribute name, which the score names allow), escaped. */
static void xml_chars(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '"': fputs("&quot;", out); break;
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        default:
            if ((unsigned char)*s < 0x20)
                fprintf(out, "&#%d;", (unsigned char)*s);
            else
                putc(*s, out);
        }
    }
}

/* CSV cells: a name with a comma, a quote or a line break is quoted. */
static void csv_cell(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    putc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', out);
        putc(*s, out);
    }
    putc('"', out);
}

const struct gpussim_log_pool_stat_info gpussim_log_pool_stat_list[GPUSSIM_LOG_NB_POOL_STATS] = {
    { GPUSSIM_LOG_POOL_MIN, "min", -1.0 },
    { GPUSSIM_LOG_POOL_MAX, "max", -1.0 },
    { GPUSSIM_LOG_POOL_MEAN, "mean", -1.0 },
    { GPUSSIM_LOG_POOL_HARMONIC_MEAN, "harmonic_mean", -1.0 },
    { GPUSSIM_LOG_POOL_MEDIAN, "median", 50.0 },
    { GPUSSIM_LOG_POOL_P5, "p5", 5.0 },
    { GPUSSIM_LOG_POOL_P1, "p1", 1.0 },
};

double gpussim_log_pool_stat_value(const GpussimPool *pool, int k)
{
    struct gpussim_pool_stats st;
    double v = NAN;
    const double q = gpussim_log_pool_stat_list[k].percentile;
    if (q >= 0.0)
        return gpussim_pool_percentile(pool, q, &v) < 0 ? NAN : v;
    if (gpussim_pool_stats(pool, &st) < 0)
        return NAN;
    const double all[] = { st.min, st.max, st.mean, st.harmonic_mean };
    return all[k];
}

int gpussim_log_format_from_path(const char *path, enum gpussim_log_format *format)
{
    static const struct { const char *ext; enum gpussim_log_format format; } exts[] = {
        { ".json", GPUSSIM_LOG_FORMAT_JSON },
        { ".csv", GPUSSIM_LOG_FORMAT_CSV },
        { ".xml", GPUSSIM_LOG_FORMAT_XML },
    };
    if (!path || !format)
        return 0;
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return 0;
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
        const char *a = dot, *b = exts[i].ext;
        while (*a && *b && (*a | 0x20) == *b) /* ASCII case folding: the extensions are lowercase */
            a++, b++;
        if (!*a && !*b) {
            *format = exts[i].format;
            return 1;
        }
    }
    return 0;
}

static void write_json_name(const GpussimLogWriter *s, FILE *out)
{
    if (!s->name)
        return;
    fputs(",\n  \"name\": ", out);
    json_string(out, s->name);
}

/* Rendition k's section writer: its own names and pools; in JSON its frames
 * go to a temporary file until the log is closed. */
static int section_create(GpussimLogWriter *parent, int k, GpussimLogWriter **ps)
{
    GpussimLogWriter *w = gpussim_calloc(1, sizeof(*w));
    *ps = w;
    if (!w)
        return -ENOMEM;
    w->log = parent->log;
    w->format = parent->format;
    w->timestamps = parent->timestamps;
    w->pool_stats = parent->pool_stats;
    w->nb_renditions = 1;
    w->path = gpussim_strdup(parent->path);
    const size_t n = parent->nb_metrics ? (size_t)parent->nb_metrics : 1;
    w->names = gpussim_calloc(n, sizeof(*w->names));
    w->pools = gpussim_calloc(n, sizeof(*w->pools));
    w->left_out = gpussim_calloc(n, sizeof(*w->left_out));
    if (!w->path || !w->names || !w->pools || !w->left_out)
        return -ENOMEM;
    w->nb_metrics = parent->nb_metrics;
    for (int i = 0; i < w->nb_metrics; i++) {
        w->names[i] = gpussim_strdup(parent->names[i]);
        if (!w->names[i] || gpussim_pool_create(&w->pools[i]) < 0)
            return -ENOMEM;
    }
    if (w->format != GPUSSIM_LOG_FORMAT_CSV) {
        errno = 0;
        w->f = tmpfile();
        if (!w->f) {
            const int err = errno ? errno : EIO;
            gpussim_log(&w->log, GPUSSIM_LOG_ERROR,
                        "cannot create a temporary file for rendition %d of log '%s': %s", k, w->path,
                        strerror(err));
            return -err;
        }
        w->own_file = 1;
    }
    return 0;
}

/* Whether path is a regular file this process has open: for reading (an
 * input: ffmpeg's, when the filter's log_path names it, or the tool's), or
 * for writing on a descriptor other than stdin/stdout/stderr (ffmpeg's
 * output, another log). Opening it for writing would truncate it, so the
 * writer refuses before it opens anything. stdout redirected to the log
 * (`-o /dev/stdout > log.json`) is allowed, and so is a path under /dev/.
 * The open files are those of /proc/self/fd; where that is absent the check
 * is skipped. *fd and *reading tell which descriptor matched. */
static int is_open_file(const char *path, int *which_fd, int *reading)
{
    struct stat target;
    if (!strncmp(path, "/dev/", 5) || stat(path, &target) != 0 || !S_ISREG(target.st_mode))
        return 0; /* a new file, or a device or pipe: nothing to destroy */
    DIR *dir = opendir("/proc/self/fd");
    if (!dir)
        return 0;
    int found = 0;
    const struct dirent *e;
    while (!found && (e = readdir(dir))) {
        char *end;
        const long fd = strtol(e->d_name, &end, 10);
        struct stat st;
        if (*end || end == e->d_name || fd < 0 || fd > INT_MAX || fd == dirfd(dir) || fstat((int)fd, &st) != 0 ||
            !S_ISREG(st.st_mode) || st.st_dev != target.st_dev || st.st_ino != target.st_ino)
            continue;
        const int mode = fcntl((int)fd, F_GETFL);
        if (mode < 0)
            continue;
        const int read = (mode & O_ACCMODE) != O_WRONLY;
        if (read || fd > 2) {
            found = 1;
            *which_fd = (int)fd;
            *reading = read;
        }
    }
    closedir(dir);
    return found;
}

int gpussim_log_writer_create(GpussimLogWriter **pw, const struct gpussim_log_writer_params *params,
                              const char *const *names, int nb_metrics, const struct gpussim_log_config *cfg,
                              int nb_renditions)
{
    *pw = NULL;
    const struct gpussim_logger log = { params->log_cb, params->log_opaque, GPUSSIM_LOG_INFO };
    if ((unsigned)params->format > GPUSSIM_LOG_FORMAT_XML || (!params->path && !params->file) ||
        nb_metrics < 0 || nb_metrics > GPUSSIM_LOG_MAX_METRICS || nb_renditions < 1 ||
        nb_renditions > GPUSSIM_MAX_DISTORTED) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "log writer: bad parameters (format %d, %s, %d metrics)",
                    (int)params->format, params->path || params->file ? "a file" : "no file", nb_metrics);
        return -EINVAL;
    }
    int fd = -1, reading = 0;
    if (params->path && is_open_file(params->path, &fd, &reading)) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR,
                    "log file '%s' is a file this process has open for %s (fd %d: %s); refusing to "
                    "overwrite it: name a new file for the log", params->path, reading ? "reading" : "writing",
                    fd, reading ? "an input?" : "an output or another log?");
        return -EINVAL;
    }
    GpussimLogWriter *w = gpussim_calloc(1, sizeof(*w));
    if (!w)
        return -ENOMEM;
    w->log = log;
    w->format = params->format;
    w->timestamps = !!params->timestamps;
    w->pool_stats = GPUSSIM_LOG_POOL_LIBVMAF | (params->pool_stats & GPUSSIM_LOG_POOL_ALL);
    w->fyi_pos = -1;
    w->first_frame = params->first_frame < 0 ? -1 : params->first_frame;
    if (params->sync_offsets) {
        w->has_sync_offsets = 1;
        memcpy(w->sync_offsets, params->sync_offsets, sizeof(*w->sync_offsets) * (size_t)nb_renditions);
    }
    w->path = gpussim_strdup(params->path ? params->path : "(stream)");
    const size_t n = nb_metrics ? (size_t)nb_metrics : 1;
    w->names = gpussim_calloc(n, sizeof(*w->names));
    w->pools = gpussim_calloc(n, sizeof(*w->pools));
    w->left_out = gpussim_calloc(n, sizeof(*w->left_out));
    if (!w->path || !w->names || !w->pools || !w->left_out)
        goto nomem;
    w->nb_metrics = nb_metrics;
    for (int i = 0; i < nb_metrics; i++) {
        w->names[i] = gpussim_strdup(names[i]);
        if (!w->names[i] || gpussim_pool_create(&w->pools[i]) < 0)
            goto nomem;
    }
    w->library = gpussim_strdup(cfg->library);
    w->api = gpussim_strdup(cfg->api);
    w->backend = gpussim_strdup(cfg->backend);
    w->chroma = gpussim_strdup(cfg->chroma);
    w->planes = gpussim_strdup(cfg->planes);
    w->features = gpussim_strdup(cfg->features);
    if ((cfg->library && !w->library) || (cfg->api && !w->api) || (cfg->backend && !w->backend) ||
        (cfg->chroma && !w->chroma) || (cfg->planes && !w->planes) || (cfg->features && !w->features))
        goto nomem;
    w->width = cfg->width;
    w->height = cfg->height;
    w->bit_depth = cfg->bit_depth;
    w->nb_renditions = nb_renditions;
    if (nb_renditions > 1) {
        w->sections = gpussim_calloc((size_t)nb_renditions - 1, sizeof(*w->sections));
        if (!w->sections)
            goto nomem;
        for (int k = 1; k < nb_renditions; k++) {
            const int err = section_create(w, k, &w->sections[k - 1]);
            if (err < 0) {
                if (err == -ENOMEM)
                    goto nomem;
                writer_free(w);
                return err;
            }
        }
    }
    for (int k = 0; nb_renditions > 1 && params->rendition_names && k < nb_renditions; k++) {
        const char *nm = params->rendition_names[k];
        GpussimLogWriter *sw = k ? w->sections[k - 1] : w;
        if (nm && !(sw->name = gpussim_strdup(nm)))
            goto nomem;
        w->has_names |= !!nm;
    }

    if (params->path) {
        errno = 0;
        w->f = fopen(params->path, "w");
        if (!w->f) {
            const int err = errno ? errno : EIO;
            gpussim_log(&log, GPUSSIM_LOG_ERROR, "cannot write log file '%s': %s", params->path, strerror(err));
            writer_free(w);
            return -err;
        }
        w->own_file = 1;
    } else {
        w->f = params->file;
    }

    if (w->format == GPUSSIM_LOG_FORMAT_CSV) {
        fputs("Frame", w->f);
        if (nb_renditions > 1)
            fputs(",rendition", w->f);
        if (w->has_names)
            fputs(",name", w->f);
        if (w->timestamps)
            fputs(",timestamp", w->f);
        for (int i = 0; i < nb_metrics; i++) {
            putc(',', w->f);
            csv_cell(w->f, names[i]);
        }
        putc('\n', w->f);
    } else if (w->format == GPUSSIM_LOG_FORMAT_XML) {
        fputs("<VMAF version=\"gpussim ", w->f);
        xml_chars(w->f, w->library ? w->library : "unknown");
        fprintf(w->f, "\">\n  <params qualityWidth=\"%d\" qualityHeight=\"%d\" />\n", w->width, w->height);
        /* the run's fps is known at close: room to patch it in place when
         * the file is seekable and not appended to (libvmaf writes it
         * before the frames) */
        const int flags = fcntl(fileno(w->f), F_GETFL);
        w->fyi_pos = flags < 0 || (flags & O_APPEND) ? -1 : ftell(w->f);
        fprintf(w->f, "  <fyi fps=\"nan\" %*s/>\n", XML_FYI_PAD, "");
        fputs("  <frames", w->f);
        /* a ladder's top-level frames are rendition 0's (libvmaf's readers read them) */
        if (nb_renditions > 1)
            fputs(" rendition=\"0\"", w->f);
        if (w->name) {
            fputs(" name=\"", w->f);
            xml_chars(w->f, w->name);
            putc('"', w->f);
        }
        fputs(">\n", w->f);
    } else {
        fputs("{\n  \"version\": ", w->f);
        /* the library string may come from a merged log: escaped like any string */
        fputs("\"gpussim ", w->f);
        json_chars(w->f, w->library ? w->library : "unknown");
        putc('"', w->f);
        if (nb_renditions > 1) {
            fputs(",\n  \"renditions\": [\n  {\n  \"rendition\": 0", w->f);
            write_json_name(w, w->f);
        }
        fputs(",\n  \"frames\": [", w->f);
    }
    const int err = flush_checked(w);
    if (err < 0) {
        writer_free(w);
        return err;
    }
    *pw = w;
    return 0;

nomem:
    writer_free(w);
    return -ENOMEM;
}

static const char *chroma_name(enum gpussim_chroma c)
{
    switch (c) {
    case GPUSSIM_CHROMA_420: return "420";
    case GPUSSIM_CHROMA_422: return "422";
    case GPUSSIM_CHROMA_444: return "444";
    case GPUSSIM_CHROMA_GRAY: return "400";
    }
    return "unknown";
}

int gpussim_log_open(GpussimLogWriter **w, const GpussimContext *ctx,
                     const struct gpussim_log_writer_params *params)
{
    if (!w)
        return -EINVAL;
    *w = NULL;
    if (!ctx || !params)
        return -EINVAL;
    const struct gpussim_config *cfg = gpussim_internal_config(ctx);
    const char *const *names;
    const int n = gpussim_score_names(ctx, &names);
    if (n < 0)
        return n;
    char features[512], api[32];
    const int fl = gpussim_features_string(&cfg->params, features, sizeof(features));
    if (fl < 0 || (size_t)fl >= sizeof(features))
        return -EINVAL;
    snprintf(api, sizeof(api), "%d.%d", GPUSSIM_API_VERSION_MAJOR, GPUSSIM_API_VERSION_MINOR);
    const struct gpussim_log_config lc = {
        .library = gpussim_library_version(),
        .api = api,
        .backend = gpussim_backend_name(ctx),
        .width = cfg->params.format.width,
        .height = cfg->params.format.height,
        .bit_depth = cfg->params.format.bit_depth,
        .chroma = chroma_name(cfg->params.format.chroma),
        .planes = cfg->nb_planes > 1 ? "all" : "luma",
        .features = features,
        .first_frame = params->first_frame,
    };
    const int nb_renditions = gpussim_renditions(ctx);
    return gpussim_log_writer_create(w, params, names, n, &lc, nb_renditions);
}

static int writer_frame_one(GpussimLogWriter *w, uint64_t frame_num, const double *values, double timestamp,
                            int pool, int csv_rendition);

/* A CSV row's first cells: Frame (a number, or a pooled statistic's name),
 * then in a ladder the rendition and its name. */
static void csv_row_start(const GpussimLogWriter *w, FILE *f, const char *frame, int csv_rendition)
{
    fputs(frame, f);
    if (csv_rendition < 0)
        return;
    fprintf(f, ",%d", csv_rendition);
    if (w->has_names) {
        putc(',', f);
        if (w->name)
            csv_cell(f, w->name);
    }
}

int gpussim_log_writer_frame(GpussimLogWriter *w, uint64_t frame_num, const double *values, double timestamp,
                             int pool)
{
    if (w->error)
        return w->error;
    if (w->nb_renditions == 1)
        return writer_frame_one(w, frame_num, values, timestamp, pool, -1);
    int err = writer_frame_one(w, frame_num, values, timestamp, pool, 0);
    for (int k = 1; k < w->nb_renditions && err >= 0; k++) {
        GpussimLogWriter *s = w->sections[k - 1];
        const double *v = values + (size_t)k * w->nb_metrics;
        /* CSV: the rows of every rendition go to the one file */
        if (w->format == GPUSSIM_LOG_FORMAT_CSV)
            s->f = w->f;
        s->has_names = w->has_names;
        err = writer_frame_one(s, frame_num, v, timestamp, pool, k);
        if (w->format == GPUSSIM_LOG_FORMAT_CSV)
            s->f = NULL;
        if (err < 0)
            w->error = err;
    }
    return err;
}

static int writer_frame_one(GpussimLogWriter *w, uint64_t frame_num, const double *values, double timestamp,
                            int pool, int csv_rendition)
{
    if (w->error)
        return w->error;
    for (int c = 0; pool && c < w->nb_metrics; c++) {
        /* a NaN score has no place in a mean: the frame shows it (null in
         * JSON), the pool leaves it out and the count says so */
        if (isnan(values[c])) {
            w->left_out[c]++;
            continue;
        }
        const int ret = gpussim_pool_add(w->pools[c], values[c]);
        if (ret < 0) {
            gpussim_log(&w->log, GPUSSIM_LOG_ERROR, "log: pooling %s of frame %llu failed: %s", w->names[c],
                        (unsigned long long)frame_num, gpussim_strerror(ret));
            w->error = ret;
            return ret;
        }
    }
    FILE *f = w->f;
    if (w->format == GPUSSIM_LOG_FORMAT_CSV) {
        char num[24];
        snprintf(num, sizeof(num), "%llu", (unsigned long long)frame_num);
        csv_row_start(w, f, num, csv_rendition);
        if (w->timestamps) {
            putc(',', f);
            if (!isnan(timestamp)) /* unknown: an empty cell */
                fprintf(f, "%.17g", timestamp);
        }
        /* printf spells non-finite values nan/inf/-inf, which float() parsers accept */
        for (int c = 0; c < w->nb_metrics; c++)
            fprintf(f, ",%.17g", values[c]);
        putc('\n', f);
    } else if (w->format == GPUSSIM_LOG_FORMAT_XML) {
        fprintf(f, "    <frame frameNum=\"%llu\" ", (unsigned long long)frame_num);
        for (int c = 0; c < w->nb_metrics; c++) {
            xml_chars(f, w->names[c]);
            fprintf(f, "=\"%.17g\" ", values[c]);
        }
        fputs("/>\n", f);
    } else {
        fprintf(f, "%s\n    {\n      \"frameNum\": %llu,\n      \"metrics\": {", w->frames ? "," : "",
                (unsigned long long)frame_num);
        for (int c = 0; c < w->nb_metrics; c++) {
            fputs(c ? ",\n        " : "\n        ", f);
            json_string(f, w->names[c]);
            fputs(": ", f);
            json_number(f, values[c]);
        }
        fputs("\n      }", f);
        if (w->timestamps) {
            fputs(",\n      \"timestamp\": ", f);
            json_number(f, timestamp);
        }
        fputs("\n    }", f);
    }
    w->frames++;
    return flush_checked(w);
}

int gpussim_log_write_frame(GpussimLogWriter *w, const double *values, double timestamp)
{
    if (!w || (!values && w->nb_metrics))
        return -EINVAL;
    return gpussim_log_writer_frame(w, w->frames, values, timestamp, 1);
}

uint64_t gpussim_log_frames(const GpussimLogWriter *w)
{
    return w ? w->frames : 0;
}

uint64_t gpussim_log_frames_left_out(const GpussimLogWriter *w, int i)
{
    if (!w || i < 0 || i >= w->nb_metrics * w->nb_renditions)
        return 0;
    if (i >= w->nb_metrics)
        return w->sections[i / w->nb_metrics - 1]->left_out[i % w->nb_metrics];
    return w->left_out[i];
}

const GpussimPool *gpussim_log_pool(const GpussimLogWriter *w, int i)
{
    if (!w || i < 0 || i >= w->nb_metrics * w->nb_renditions)
        return NULL;
    if (i >= w->nb_metrics) {
        w = w->sections[i / w->nb_metrics - 1];
        i %= w->nb_metrics;
    }
    return w->pools[i];
}

int gpussim_log_writer_set_pool(GpussimLogWriter *w, int i, GpussimPool *pool, uint64_t left_out)
{
    if (i >= w->nb_metrics) {
        w = w->sections[i / w->nb_metrics - 1];
        i %= w->nb_metrics;
    }
    gpussim_pool_destroy(&w->pools[i]);
    w->pools[i] = pool;
    w->left_out[i] = left_out;
    return 0;
}

/* A section's pooled blocks (libvmaf's keys), after its frames. */
static void write_pooled(GpussimLogWriter *w, FILE *out)
{
    fputs(w->frames ? "\n  ],\n" : "],\n", out);
    fputs("  \"pooled_metrics\": {", out);
    for (int c = 0; c < w->nb_metrics; c++) {
        fputs(c ? ",\n    " : "\n    ", out);
        json_string(out, w->names[c]);
        fputs(": {", out);
        for (int k = 0, n = 0; k < GPUSSIM_LOG_NB_POOL_STATS; k++) {
            if (!(w->pool_stats & gpussim_log_pool_stat_list[k].flag))
                continue;
            fprintf(out, "%s\n      \"%s\": ", n++ ? "," : "", gpussim_log_pool_stat_list[k].name);
            json_number(out, gpussim_log_pool_stat_value(w->pools[c], k));
        }
        fputs("\n    }", out);
    }
    fputs(w->nb_metrics ? "\n  },\n" : "},\n", out);
    fputs("  \"pooled_metrics_frames_left_out\": {", out);
    for (int c = 0; c < w->nb_metrics; c++) {
        fputs(c ? ",\n    " : "\n    ", out);
        json_string(out, w->names[c]);
        fprintf(out, ": %llu", (unsigned long long)w->left_out[c]);
    }
    fputs(w->nb_metrics ? "\n  },\n" : "},\n", out);
    fputs("  \"aggregate_metrics\": {}", out);
}

/* gpussim_pool_serialize()'s text (version 2: a header with the count,
 * one line of 16 hex digits per value, a CRC-32 line) written as the log's
 * compact form: "gpussim-pool64 <count> <crc32> <base64 of the values as
 * little-endian doubles>". The reader rebuilds the text and checks the CRC
 * with gpussim_pool_deserialize2(). */
static int write_pool_compact(FILE *out, const char *blob, size_t len)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint64_t count = 0;
    const char *p = memchr(blob, '\n', len);
    if (!p || sscanf(blob, "gpussim-pool 2 %" SCNu64, &count) != 1 || len < 15 ||
        (size_t)(blob + len - 15 - (p + 1)) != count * 17)
        return -EINVAL;
    p++;
    fprintf(out, "\"gpussim-pool64 %" PRIu64 " %.8s ", count, blob + len - 9);
    unsigned char in[3];
    int have = 0;
    for (uint64_t i = 0; i < count; i++, p += 17) {
        uint64_t bits = strtoull(p, NULL, 16);
        for (int b = 0; b < 8; b++, bits >>= 8) {
            in[have++] = (unsigned char)(bits & 0xff);
            if (have == 3) {
                const unsigned v = (unsigned)in[0] << 16 | (unsigned)in[1] << 8 | in[2];
                fprintf(out, "%c%c%c%c", b64[v >> 18], b64[v >> 12 & 63], b64[v >> 6 & 63], b64[v & 63]);
                have = 0;
            }
        }
    }
    if (have) {
        const unsigned v = (unsigned)in[0] << 16 | (have > 1 ? (unsigned)in[1] << 8 : 0);
        fprintf(out, "%c%c%c=", b64[v >> 18], b64[v >> 12 & 63], have > 1 ? b64[v >> 6 & 63] : '=');
    }
    putc('"', out);
    return 0;
}

static int write_pool_state(GpussimLogWriter *w, GpussimLogWriter *section, FILE *out)
{
    fputs(",\n  \"pool_state\": {", out);
    for (int c = 0; c < section->nb_metrics; c++) {
        char *blob = NULL;
        size_t len = 0;
        const int err = gpussim_pool_serialize(section->pools[c], &blob, &len);
        if (err < 0) {
            gpussim_log(&w->log, GPUSSIM_LOG_ERROR, "log: serialising the pool of %s failed: %s",
                        section->names[c], gpussim_strerror(err));
            return w->error = err;
        }
        fputs(c ? ",\n    " : "\n    ", out);
        json_string(out, section->names[c]);
        fputs(": ", out);
        const int bad = write_pool_compact(out, blob, len);
        free(blob);
        if (bad < 0) {
            gpussim_log(&w->log, GPUSSIM_LOG_ERROR, "log: the pool of %s serialised unexpectedly",
                        section->names[c]);
            return w->error = -EINVAL;
        }
    }
    fputs(section->nb_metrics ? "\n  }" : "}", out);
    return 0;
}

/* Copies a section's frames from its temporary file. */
static int copy_section_frames(GpussimLogWriter *w, GpussimLogWriter *s, FILE *out)
{
    char buf[65536];
    size_t n;
    errno = 0;
    if (fflush(s->f) != 0 || fseek(s->f, 0, SEEK_SET) != 0)
        return write_error(w, errno);
    while ((n = fread(buf, 1, sizeof(buf), s->f)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            return write_error(w, errno);
    if (ferror(s->f))
        return write_error(w, errno);
    return 0;
}

/* CSV: the pooled rows of a section, one per statistic, after every frame. */
static void write_csv_pooled(GpussimLogWriter *w, FILE *out, int csv_rendition)
{
    for (int k = 0; k < GPUSSIM_LOG_NB_POOL_STATS; k++) {
        if (!(w->pool_stats & gpussim_log_pool_stat_list[k].flag))
            continue;
        csv_row_start(w, out, gpussim_log_pool_stat_list[k].name, csv_rendition);
        if (w->timestamps)
            putc(',', out);
        for (int c = 0; c < w->nb_metrics; c++)
            fprintf(out, ",%.17g", gpussim_log_pool_stat_value(w->pools[c], k));
        putc('\n', out);
    }
}

/* XML: a section's </frames> and pooled metrics (libvmaf's <metric> attributes). */
static void write_xml_pooled(GpussimLogWriter *w, FILE *out, const char *indent)
{
    fprintf(out, "%s</frames>\n%s<pooled_metrics>\n", indent, indent);
    for (int c = 0; c < w->nb_metrics; c++) {
        fprintf(out, "%s  <metric name=\"", indent);
        xml_chars(out, w->names[c]);
        fputs("\" ", out);
        for (int k = 0; k < GPUSSIM_LOG_NB_POOL_STATS; k++)
            if (w->pool_stats & gpussim_log_pool_stat_list[k].flag)
                fprintf(out, "%s=\"%.17g\" ", gpussim_log_pool_stat_list[k].name,
                        gpussim_log_pool_stat_value(w->pools[c], k));
        fputs("/>\n", out);
    }
    fprintf(out, "%s</pooled_metrics>\n", indent);
}

static int write_tail_xml(GpussimLogWriter *w, double fps)
{
    FILE *out = w->f;
    int err;
    write_xml_pooled(w, out, "  ");
    fputs("  <aggregate_metrics />\n", out);
    for (int k = 1; k < w->nb_renditions; k++) {
        GpussimLogWriter *s = w->sections[k - 1];
        if (s->error)
            return w->error = s->error;
        fprintf(out, "  <rendition index=\"%d\"", k);
        if (s->name) {
            fputs(" name=\"", out);
            xml_chars(out, s->name);
            putc('"', out);
        }
        fputs(">\n    <frames>\n", out);
        if ((err = copy_section_frames(w, s, out)) < 0)
            return err;
        write_xml_pooled(s, out, "    ");
        fputs("  </rendition>\n", out);
    }
    fputs("</VMAF>\n", out);
    if ((err = flush_checked(w)) < 0)
        return err;
    /* the fps in libvmaf's place, over the room left for it (a pipe keeps "nan") */
    char fyi[64];
    const int n = snprintf(fyi, sizeof(fyi), "  <fyi fps=\"%.2f\" ", fps);
    if (w->fyi_pos >= 0 && n > 0 && n <= XML_FYI_LEN && fseek(out, w->fyi_pos, SEEK_SET) == 0) {
        fputs(fyi, out);
        if (fseek(out, 0, SEEK_END) != 0)
            return write_error(w, errno);
    }
    return flush_checked(w);
}

static int write_tail(GpussimLogWriter *w, double fps)
{
    FILE *out = w->f;
    int err;
    write_pooled(w, out);
    if (w->nb_renditions > 1) {
        /* rendition 0's section ends; then every other one's */
        if ((err = write_pool_state(w, w, out)) < 0)
            return err;
        for (int k = 1; k < w->nb_renditions; k++) {
            GpussimLogWriter *s = w->sections[k - 1];
            if (s->error)
                return w->error = s->error;
            fprintf(out, "\n  },\n  {\n  \"rendition\": %d", k);
            write_json_name(s, out);
            fputs(",\n  \"frames\": [", out);
            if ((err = copy_section_frames(w, s, out)) < 0)
                return err;
            write_pooled(s, out);
            if ((err = write_pool_state(w, s, out)) < 0)
                return err;
        }
        fputs("\n  }\n  ]", out);
    }
    fputs(",\n  \"fps\": ", out);
    json_number(out, fps);
    fputs(",\n  \"config\": {\n    \"library\": ", out);
    json_string_or_null(out, w->library);
    fputs(",\n    \"api\": ", out);
    json_string_or_null(out, w->api);
    fputs(",\n    \"backend\": ", out);
    json_string_or_null(out, w->backend);
    fprintf(out, ",\n    \"width\": %d,\n    \"height\": %d,\n    \"bit_depth\": %d,\n    \"chroma\": ",
            w->width, w->height, w->bit_depth);
    json_string_or_null(out, w->chroma);
    fputs(",\n    \"planes\": ", out);
    json_string_or_null(out, w->planes);
    fputs(",\n    \"features\": ", out);
    json_string_or_null(out, w->features);
    fputs(",\n    \"first_frame\": ", out);
    if (w->first_frame >= 0)
        fprintf(out, "%lld", (long long)w->first_frame);
    else
        fputs("null", out);
    if (w->has_sync_offsets) {
        fputs(",\n    \"sync_offset\": ", out);
        for (int k = 0; k < w->nb_renditions; k++)
            fprintf(out, "%s%d", k ? ", " : w->nb_renditions > 1 ? "[" : "", w->sync_offsets[k]);
        if (w->nb_renditions > 1)
            fputs("]", out);
    }
    if (w->nb_renditions > 1)
        fprintf(out, ",\n    \"renditions\": %d", w->nb_renditions);
    fputs("\n  }", out);
    if (w->nb_renditions == 1 && (err = write_pool_state(w, w, out)) < 0)
        return err;
    fputs("\n}\n", out);
    return flush_checked(w);
}

int gpussim_log_close(GpussimLogWriter **pw, double fps)
{
    if (!pw || !*pw)
        return 0;
    GpussimLogWriter *w = *pw;
    *pw = NULL;
    int ret = w->error;
    if (!ret && w->format == GPUSSIM_LOG_FORMAT_JSON) {
        ret = write_tail(w, fps);
    } else if (!ret && w->format == GPUSSIM_LOG_FORMAT_XML) {
        ret = write_tail_xml(w, fps);
    } else if (!ret) {
        write_csv_pooled(w, w->f, w->nb_renditions > 1 ? 0 : -1);
        for (int k = 1; k < w->nb_renditions; k++) {
            w->sections[k - 1]->has_names = w->has_names;
            write_csv_pooled(w->sections[k - 1], w->f, k);
        }
        ret = flush_checked(w);
    }
    if (w->own_file) {
        errno = 0;
        const int closed = fclose(w->f);
        w->f = NULL;
        if (closed != 0 && !ret)
            ret = write_error(w, errno);
    }
    writer_free(w);
    return ret;
}
