/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Reading gpussim logs back (gpussim_log.h), and merging chunk logs. The
 * text is untrusted: it is parsed into a tree whose size follows the text,
 * then checked field by field; nothing is allocated from a count the text
 * states, and every refusal names its position.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpussim/gpussim_log.h"
#include "src/core.h"
#include "json.h"
#include "log_internal.h"
#include "mem.h"

struct reader {
    const char *text;
    size_t len;
    struct gpussim_logger log;
    const struct json_value *root; /* the document (a pair log's section) */
};

static int refuse(const struct reader *r, const struct json_value *at, const char *fmt, ...)
    GPUSSIM_PRINTF(3, 4);

static int refuse(const struct reader *r, const struct json_value *at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    size_t line, col;
    const size_t off = at ? at->offset : 0;
    gpussim_json_position(r->text, r->len, off, &line, &col);
    gpussim_log(&r->log, GPUSSIM_LOG_ERROR, "log: %s at line %zu, column %zu (byte %zu)", msg, line, col, off);
    return -EINVAL;
}

void gpussim_log_free(struct gpussim_log **plog)
{
    if (!plog || !*plog)
        return;
    struct gpussim_log *l = *plog;
    gpussim_free((void *)l->version);
    gpussim_free((void *)l->name);
    gpussim_free((void *)l->config.library);
    gpussim_free((void *)l->config.api);
    gpussim_free((void *)l->config.backend);
    gpussim_free((void *)l->config.chroma);
    gpussim_free((void *)l->config.planes);
    gpussim_free((void *)l->config.features);
    if (l->metrics)
        for (int i = 0; i < l->nb_metrics; i++) {
            gpussim_free((void *)l->metrics[i].name);
            gpussim_pool_destroy(&l->metrics[i].pool);
        }
    gpussim_free(l->metrics);
    gpussim_free(l->frame_num);
    gpussim_free(l->timestamps);
    gpussim_free(l->values);
    if (l->renditions)
        for (int k = 0; k + 1 < l->nb_renditions; k++)
            gpussim_log_free(&l->renditions[k]);
    gpussim_free(l->renditions);
    gpussim_free(l);
    *plog = NULL;
}

const struct gpussim_log *gpussim_log_rendition(const struct gpussim_log *l, int k)
{
    if (!l || k < 0 || k >= (l->nb_renditions > 1 ? l->nb_renditions : 1))
        return NULL;
    return k ? l->renditions[k - 1] : l;
}

/* A number, or null (NaN). */
static int get_number(const struct reader *r, const struct json_value *v, const char *what, double *out)
{
    if (v->type == JSON_NULL) {
        *out = NAN;
        return 0;
    }
    if (v->type != JSON_NUMBER)
        return refuse(r, v, "%s is not a number", what);
    *out = v->number;
    return 0;
}

/* A non-negative integer below 2^53 (exact in a double). */
static int get_count(const struct reader *r, const struct json_value *v, const char *what, uint64_t *out)
{
    if (v->type != JSON_NUMBER || v->number < 0 || v->number > 9007199254740992.0 ||
        v->number != floor(v->number))
        return refuse(r, v, "%s is not a non-negative integer", what);
    *out = (uint64_t)v->number;
    return 0;
}

static int get_string(const struct reader *r, const struct json_value *obj, const char *key, const char **out)
{
    const struct json_value *v = gpussim_json_get(obj, key);
    *out = NULL;
    if (!v || v->type == JSON_NULL)
        return 0;
    if (v->type != JSON_STRING)
        return refuse(r, v, "\"%s\" is not a string", key);
    char *s = gpussim_strdup(v->string);
    if (!s)
        return -ENOMEM;
    *out = s;
    return 0;
}

static int get_int(const struct reader *r, const struct json_value *obj, const char *key, int *out)
{
    const struct json_value *v = gpussim_json_get(obj, key);
    uint64_t u = 0;
    *out = 0;
    if (!v || v->type == JSON_NULL)
        return 0;
    if (get_count(r, v, key, &u) < 0 || u > 1u << 20)
        return refuse(r, v, "config \"%s\" is not an integer in 0..%u", key, 1u << 20);
    *out = (int)u;
    return 0;
}

static int read_config(const struct reader *r, const struct json_value *c, struct gpussim_log *l)
{
    int err;
    if (c->type != JSON_OBJECT)
        return refuse(r, c, "\"config\" is not an object");
    l->has_config = 1;
    if ((err = get_string(r, c, "library", &l->config.library)) < 0 ||
        (err = get_string(r, c, "api", &l->config.api)) < 0 ||
        (err = get_string(r, c, "backend", &l->config.backend)) < 0 ||
        (err = get_string(r, c, "chroma", &l->config.chroma)) < 0 ||
        (err = get_string(r, c, "planes", &l->config.planes)) < 0 ||
        (err = get_string(r, c, "features", &l->config.features)) < 0 ||
        (err = get_int(r, c, "width", &l->config.width)) < 0 ||
        (err = get_int(r, c, "height", &l->config.height)) < 0 ||
        (err = get_int(r, c, "bit_depth", &l->config.bit_depth)) < 0)
        return err;
    const struct json_value *ff = gpussim_json_get(c, "first_frame");
    l->config.first_frame = -1;
    if (ff && ff->type != JSON_NULL) {
        uint64_t u = 0;
        if (get_count(r, ff, "config \"first_frame\"", &u) < 0)
            return -EINVAL;
        l->config.first_frame = (int64_t)u;
    }
    return 0;
}

/* Names from an object's keys (the first frame's metrics, or pooled_metrics). */
static int take_names(const struct reader *r, const struct json_value *obj, struct gpussim_log *l)
{
    if (obj->nb_items > GPUSSIM_LOG_MAX_METRICS)
        return refuse(r, obj, "%zu metrics, more than the %d a log may hold", obj->nb_items,
                      GPUSSIM_LOG_MAX_METRICS);
    l->metrics = gpussim_calloc(obj->nb_items ? obj->nb_items : 1, sizeof(*l->metrics));
    if (!l->metrics)
        return -ENOMEM;
    l->nb_metrics = (int)obj->nb_items;
    for (size_t i = 0; i < obj->nb_items; i++) {
        for (size_t k = 0; k < i; k++)
            if (!strcmp(obj->keys[k], obj->keys[i]))
                return refuse(r, &obj->items[i], "metric \"%s\" appears twice", obj->keys[i]);
        l->metrics[i].name = gpussim_strdup(obj->keys[i]);
        if (!l->metrics[i].name)
            return -ENOMEM;
        l->metrics[i].pooled.min = l->metrics[i].pooled.max = NAN;
        l->metrics[i].pooled.mean = l->metrics[i].pooled.harmonic_mean = NAN;
    }
    return 0;
}

/* obj's keys are exactly the log's metric names, in order. */
static int same_names(const struct reader *r, const struct json_value *obj, const struct gpussim_log *l,
                      const char *what)
{
    if (obj->type != JSON_OBJECT)
        return refuse(r, obj, "%s is not an object", what);
    if (obj->nb_items != (size_t)l->nb_metrics)
        return refuse(r, obj, "%s has %zu metrics where the frames have %d", what, obj->nb_items, l->nb_metrics);
    for (size_t i = 0; i < obj->nb_items; i++)
        if (strcmp(obj->keys[i], l->metrics[i].name))
            return refuse(r, &obj->items[i], "%s names \"%s\" where \"%s\" is expected", what, obj->keys[i],
                          l->metrics[i].name);
    return 0;
}

static int read_frames(const struct reader *r, const struct json_value *frames, struct gpussim_log *l)
{
    if (frames->type != JSON_ARRAY)
        return refuse(r, frames, "\"frames\" is not an array");
    const size_t n = frames->nb_items;
    const size_t m = l->nb_metrics ? (size_t)l->nb_metrics : 1;
    l->nb_frames = n;
    /* the tree already holds n frames of m values: these sizes are bounded by the text */
    l->frame_num = gpussim_calloc(n ? n : 1, sizeof(*l->frame_num));
    l->values = gpussim_calloc(n ? n * m : 1, sizeof(*l->values));
    if (!l->frame_num || !l->values)
        return -ENOMEM;
    for (size_t f = 0; f < n; f++) {
        const struct json_value *fr = &frames->items[f];
        char what[64];
        snprintf(what, sizeof(what), "frame %zu", f);
        if (fr->type != JSON_OBJECT)
            return refuse(r, fr, "%s is not an object", what);
        const struct json_value *num = gpussim_json_get(fr, "frameNum");
        const struct json_value *met = gpussim_json_get(fr, "metrics");
        if (!num || !met)
            return refuse(r, fr, "%s has no \"%s\"", what, num ? "metrics" : "frameNum");
        if (get_count(r, num, "frameNum", &l->frame_num[f]) < 0)
            return -EINVAL;
        int err = same_names(r, met, l, what);
        if (err < 0)
            return err;
        for (int c = 0; c < l->nb_metrics; c++)
            if ((err = get_number(r, &met->items[c], l->metrics[c].name, &l->values[f * m + (size_t)c])) < 0)
                return err;
        const struct json_value *ts = gpussim_json_get(fr, "timestamp");
        if (ts) {
            if (!l->timestamps) {
                l->timestamps = gpussim_malloc(n * sizeof(*l->timestamps));
                if (!l->timestamps)
                    return -ENOMEM;
                for (size_t k = 0; k < n; k++)
                    l->timestamps[k] = NAN;
            }
            if ((err = get_number(r, ts, "timestamp", &l->timestamps[f])) < 0)
                return err;
        }
    }
    return 0;
}

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof(a));
}

/* A pool_state entry: the compact form ("gpussim-pool64 <count> <crc32>
 * <base64>", see log_writer.c) is turned back into gpussim_pool_serialize()'s
 * text, whose CRC gpussim_pool_deserialize2() checks; the text itself (older
 * logs) is read as it is. */
static int read_pool_blob(const struct reader *r, const struct json_value *b, GpussimPool **pool)
{
    static const char prefix[] = "gpussim-pool64 ";
    const size_t plen = sizeof(prefix) - 1;
    if (b->len < plen || memcmp(b->string, prefix, plen))
        return gpussim_pool_deserialize2(pool, b->string, b->len, r->log.cb, r->log.opaque);
    /* "<count> <8 hex> <base64>": the count must be what the base64 holds,
     * so nothing is allocated from the count alone */
    const char *p = b->string + plen, *end = b->string + b->len;
    uint64_t count = 0;
    int digits = 0;
    while (p < end && *p >= '0' && *p <= '9' && digits < 19) {
        count = count * 10 + (uint64_t)(*p++ - '0');
        digits++;
    }
    if (!digits || end - p < 10 || *p != ' ' || p[9] != ' ')
        goto bad;
    const char *crc = p + 1;
    for (int i = 0; i < 8; i++)
        if (!((crc[i] >= '0' && crc[i] <= '9') || (crc[i] >= 'a' && crc[i] <= 'f')))
            goto bad;
    p += 10;
    const size_t b64len = (size_t)(end - p);
    if (b64len % 4 || count > b64len / 4 * 3 / 8 || (count * 8 + 2) / 3 * 4 != b64len)
        goto bad;
    const size_t text_len = 16 + 20 + 1 + (size_t)count * 17 + 15;
    char *text = gpussim_malloc(text_len + 1);
    if (!text)
        return -ENOMEM;
    size_t n = (size_t)snprintf(text, text_len + 1, "gpussim-pool 2 %" PRIu64 "\n", count);
    uint64_t bits = 0;
    int nb = 0;
    uint64_t done = 0;
    for (size_t i = 0; i < b64len; i += 4) {
        unsigned v = 0;
        int pad = 0;
        for (int k = 0; k < 4; k++) {
            const char ch = p[i + k];
            int d = ch >= 'A' && ch <= 'Z' ? ch - 'A' : ch >= 'a' && ch <= 'z' ? ch - 'a' + 26
                  : ch >= '0' && ch <= '9' ? ch - '0' + 52 : ch == '+' ? 62 : ch == '/' ? 63 : -1;
            if (ch == '=' && i + 4 == b64len && k >= 2 && (k == 3 || p[i + 3] == '=')) {
                d = 0;
                pad++;
            }
            if (d < 0 || (pad && ch != '=')) {
                gpussim_free(text);
                goto bad;
            }
            v = v << 6 | (unsigned)d;
        }
        for (int k = 0; k < 3 - pad; k++) {
            bits |= (uint64_t)(v >> (16 - 8 * k) & 0xff) << (8 * nb);
            if (++nb == 8) {
                n += (size_t)snprintf(text + n, text_len + 1 - n, "%016" PRIx64 "\n", bits);
                bits = 0;
                nb = 0;
                done++;
            }
        }
    }
    if (done != count || nb) {
        gpussim_free(text);
        goto bad;
    }
    n += (size_t)snprintf(text + n, text_len + 1 - n, "crc32 %.8s\n", crc);
    const int err = gpussim_pool_deserialize2(pool, text, n, r->log.cb, r->log.opaque);
    gpussim_free(text);
    return err;

bad:
    gpussim_log(&r->log, GPUSSIM_LOG_ERROR, "pool blob: malformed compact pool state (\"gpussim-pool64 "
                "<count> <crc32> <base64>\")");
    return -EINVAL;
}

/* The pool must hold the frames' values, in frame order (the writer pools
 * each frame as it writes it; a merge appends the chunks' pools in the
 * order of their frames). A null frame value is a NaN, left out, or an
 * infinity, which JSON cannot write but the pool keeps: nulls are
 * interchangeable, so an infinity in the pool takes the next null. The
 * count was checked against the frames-left-out counts already. */
static int check_pool_frames(const struct reader *r, const struct json_value *at, const struct gpussim_log *l,
                             int c)
{
    const struct gpussim_log_metric *m = &l->metrics[c];
    const size_t stride = l->nb_metrics ? (size_t)l->nb_metrics : 1;
    size_t n, k = 0;
    const double *pv = gpussim_pool_values(m->pool, &n);
    for (uint64_t f = 0; f < l->nb_frames; f++) {
        const double v = l->values[f * stride + (size_t)c];
        if (isnan(v)) {
            if (k < n && isinf(pv[k]))
                k++;
            continue;
        }
        if (k >= n)
            return refuse(r, at, "pool_state \"%s\" does not hold the frames' values: it ends before frame %"
                          PRIu64 " (frameNum %" PRIu64 ", %.17g)", m->name, f, l->frame_num[f], v);
        if (!same_double(v, pv[k]))
            return refuse(r, at, "pool_state \"%s\" does not hold the frames' values: frame %" PRIu64
                          " (frameNum %" PRIu64 ") is %.17g where the pool has %.17g", m->name, f,
                          l->frame_num[f], v, pv[k]);
        k++;
    }
    if (k != n)
        return refuse(r, at, "pool_state \"%s\" holds %zu values the frames do not have", m->name, n - k);
    return 0;
}

static int read_pooled(const struct reader *r, const struct json_value *root, struct gpussim_log *l)
{
    const struct json_value *pm = gpussim_json_get(root, "pooled_metrics");
    int err;
    if (pm) {
        if ((err = same_names(r, pm, l, "\"pooled_metrics\"")) < 0)
            return err;
        for (int c = 0; c < l->nb_metrics; c++) {
            const struct json_value *s = &pm->items[c];
            struct gpussim_pool_stats *st = &l->metrics[c].pooled;
            static const char *const keys[] = { "min", "max", "mean", "harmonic_mean" };
            double *dst[] = { &st->min, &st->max, &st->mean, &st->harmonic_mean };
            if (s->type != JSON_OBJECT)
                return refuse(r, s, "pooled_metrics \"%s\" is not an object", l->metrics[c].name);
            for (int k = 0; k < 4; k++) {
                const struct json_value *v = gpussim_json_get(s, keys[k]);
                if (v && (err = get_number(r, v, keys[k], dst[k])) < 0)
                    return err;
            }
        }
    }
    const struct json_value *lo = gpussim_json_get(root, "pooled_metrics_frames_left_out");
    if (lo) {
        if ((err = same_names(r, lo, l, "\"pooled_metrics_frames_left_out\"")) < 0)
            return err;
        for (int c = 0; c < l->nb_metrics; c++) {
            if (get_count(r, &lo->items[c], "a frames-left-out count", &l->metrics[c].frames_left_out) < 0)
                return -EINVAL;
            if (l->metrics[c].frames_left_out > l->nb_frames)
                return refuse(r, &lo->items[c], "%s: %" PRIu64 " frames left out of %" PRIu64,
                              l->metrics[c].name, l->metrics[c].frames_left_out, l->nb_frames);
        }
    }
    for (int c = 0; c < l->nb_metrics; c++)
        l->metrics[c].pooled.count = l->nb_frames - l->metrics[c].frames_left_out;

    const struct json_value *ps = gpussim_json_get(root, "pool_state");
    if (!ps)
        return 0;
    if ((err = same_names(r, ps, l, "\"pool_state\"")) < 0)
        return err;
    for (int c = 0; c < l->nb_metrics; c++) {
        const struct json_value *b = &ps->items[c];
        struct gpussim_log_metric *m = &l->metrics[c];
        if (b->type != JSON_STRING)
            return refuse(r, b, "pool_state \"%s\" is not a string", m->name);
        err = read_pool_blob(r, b, &m->pool);
        if (err < 0)
            return err == -ENOMEM ? err : refuse(r, b, "pool_state \"%s\" is not a valid pool", m->name);
        struct gpussim_pool_stats st;
        gpussim_pool_stats(m->pool, &st);
        /* the pool must be the frames' (JSON writes infinities as null, so
         * the frames alone cannot rebuild it; the count and statistics
         * must still agree with what the log says) */
        if (st.count != m->pooled.count)
            return refuse(r, b, "pool_state \"%s\" holds %" PRIu64 " values where the log has %" PRIu64
                                " pooled frames", m->name, st.count, m->pooled.count);
        if (pm) {
            const double got[] = { st.min, st.max, st.mean, st.harmonic_mean };
            const double want[] = { m->pooled.min, m->pooled.max, m->pooled.mean, m->pooled.harmonic_mean };
            for (int k = 0; k < 4; k++)
                if (!same_double(isfinite(got[k]) ? got[k] : NAN, want[k]))
                    return refuse(r, b, "pool_state \"%s\" does not match its pooled_metrics", m->name);
        }
        if ((err = check_pool_frames(r, b, l, c)) < 0)
            return err;
    }
    return 0;
}

/* The statistics past libvmaf's four that pooled_metrics hold (median, p5,
 * p1): recorded, and checked against the pool state when there is one. */
static int read_pooled_extra(const struct reader *r, const struct json_value *pm, struct gpussim_log *l)
{
    l->pool_stats = GPUSSIM_LOG_POOL_LIBVMAF;
    if (!pm)
        return 0;
    for (int k = 4; k < GPUSSIM_LOG_NB_POOL_STATS; k++) {
        const char *key = gpussim_log_pool_stat_list[k].name;
        int present = 0;
        for (int c = 0; c < l->nb_metrics; c++) {
            const struct json_value *v = gpussim_json_get(&pm->items[c], key);
            double got = NAN;
            if (!v)
                continue;
            present = 1;
            if (get_number(r, v, key, &got) < 0)
                return -EINVAL;
            if (l->metrics[c].pool) {
                const double want = gpussim_log_pool_stat_value(l->metrics[c].pool, k);
                if (!same_double(got, isfinite(want) ? want : NAN))
                    return refuse(r, v, "pooled_metrics \"%s\" %s does not match its pool_state",
                                  l->metrics[c].name, key);
            }
        }
        if (present)
            l->pool_stats |= gpussim_log_pool_stat_list[k].flag;
    }
    return 0;
}

/* frames, pooled blocks and pool state of one section (the root of a pair log) */
static int read_section(const struct reader *r, const struct json_value *sec, struct gpussim_log *l)
{
    int err;
    const struct json_value *frames = gpussim_json_get(sec, "frames");
    if (!frames)
        return refuse(r, sec, "no \"frames\" array");
    /* the metric names: the first frame's, else pooled_metrics' */
    const struct json_value *names = NULL;
    if (frames->type == JSON_ARRAY && frames->nb_items && frames->items[0].type == JSON_OBJECT)
        names = gpussim_json_get(&frames->items[0], "metrics");
    if (!names)
        names = gpussim_json_get(sec, "pooled_metrics");
    if (names && names->type != JSON_OBJECT)
        return refuse(r, names, "metrics are not an object");
    if (names && (err = take_names(r, names, l)) < 0)
        return err;
    if (!names && !(l->metrics = gpussim_calloc(1, sizeof(*l->metrics))))
        return -ENOMEM;
    if ((err = read_frames(r, frames, l)) < 0 || (err = read_pooled(r, sec, l)) < 0 ||
        (err = read_pooled_extra(r, gpussim_json_get(sec, "pooled_metrics"), l)) < 0)
        return err;
    if (sec != r->root && (err = get_string(r, sec, "name", &l->name)) < 0)
        return err;
    return 0;
}

int gpussim_log_parse(struct gpussim_log **plog, const char *buf, size_t len, gpussim_log_fn log_cb,
                      void *log_opaque)
{
    if (!plog)
        return -EINVAL;
    *plog = NULL;
    struct reader r = { buf, len, { log_cb, log_opaque, GPUSSIM_LOG_INFO }, NULL };
    if (!buf && len)
        return -EINVAL;
    if (len > GPUSSIM_LOG_MAX_BYTES) {
        gpussim_log(&r.log, GPUSSIM_LOG_ERROR, "log: %zu bytes, more than the %llu a log may have", len,
                    (unsigned long long)GPUSSIM_LOG_MAX_BYTES);
        return -EFBIG;
    }
    struct json_value root;
    size_t off = 0;
    char why[128];
    int err = gpussim_json_parse(buf ? buf : "", len, GPUSSIM_LOG_MAX_DEPTH, &root, &off, why, sizeof(why));
    if (err < 0) {
        size_t line, col;
        gpussim_json_position(buf, len, off, &line, &col);
        gpussim_log(&r.log, GPUSSIM_LOG_ERROR, "log: not valid JSON: %s at line %zu, column %zu (byte %zu)", why,
                    line, col, off);
        return err;
    }
    r.root = &root;
    struct gpussim_log *l = gpussim_calloc(1, sizeof(*l));
    if (!l) {
        gpussim_json_free(&root);
        return -ENOMEM;
    }
    l->fps = NAN;
    l->config.first_frame = -1;
    if (root.type != JSON_OBJECT) {
        err = refuse(&r, &root, "the document is not a JSON object");
        goto fail;
    }
    const struct json_value *ver = gpussim_json_get(&root, "version");
    if (!ver || ver->type != JSON_STRING) {
        err = refuse(&r, ver ? ver : &root, "no \"version\" string (not a libvmaf-layout log)");
        goto fail;
    }
    if (!(l->version = gpussim_strdup(ver->string))) {
        err = -ENOMEM;
        goto fail;
    }
    /* a ladder log: one libvmaf-layout section per rendition */
    const struct json_value *rends = gpussim_json_get(&root, "renditions");
    const struct json_value *sec = &root;
    l->nb_renditions = 1;
    if (rends) {
        if (rends->type != JSON_ARRAY || !rends->nb_items || rends->nb_items > GPUSSIM_MAX_DISTORTED) {
            err = refuse(&r, rends, "\"renditions\" is not an array of 1 to %d sections", GPUSSIM_MAX_DISTORTED);
            goto fail;
        }
        l->nb_renditions = (int)rends->nb_items;
        if (l->nb_renditions > 1 &&
            !(l->renditions = gpussim_calloc((size_t)l->nb_renditions - 1, sizeof(*l->renditions)))) {
            err = -ENOMEM;
            goto fail;
        }
    }
    for (int k = 0; k < l->nb_renditions; k++) {
        struct gpussim_log *t = l;
        if (rends) {
            sec = &rends->items[k];
            double idx = -1.0;
            const struct json_value *ri = sec->type == JSON_OBJECT ? gpussim_json_get(sec, "rendition") : NULL;
            if (!ri || get_number(&r, ri, "rendition", &idx) < 0 || idx != k) {
                err = refuse(&r, sec, "rendition section %d is not an object with \"rendition\": %d", k, k);
                goto fail;
            }
        }
        if (k) {
            t = l->renditions[k - 1] = gpussim_calloc(1, sizeof(*t));
            if (!t || !(t->version = gpussim_strdup(l->version))) {
                err = -ENOMEM;
                goto fail;
            }
            t->fps = NAN;
            t->config.first_frame = -1;
            t->nb_renditions = 1;
        }
        if ((err = read_section(&r, sec, t)) < 0)
            goto fail;
        if (k && (t->nb_metrics != l->nb_metrics || t->nb_frames != l->nb_frames)) {
            err = refuse(&r, sec, "rendition %d has %d metrics and %" PRIu64 " frames where rendition 0 has "
                         "%d and %" PRIu64, k, t->nb_metrics, t->nb_frames, l->nb_metrics, l->nb_frames);
            goto fail;
        }
        for (int c = 0; k && c < l->nb_metrics; c++)
            if (strcmp(t->metrics[c].name, l->metrics[c].name)) {
                err = refuse(&r, sec, "rendition %d's metric %d is %s where rendition 0's is %s", k, c,
                             t->metrics[c].name, l->metrics[c].name);
                goto fail;
            }
    }
    const struct json_value *fps = gpussim_json_get(&root, "fps");
    if (fps && (err = get_number(&r, fps, "fps", &l->fps)) < 0)
        goto fail;
    const struct json_value *cfg = gpussim_json_get(&root, "config");
    if (cfg && (err = read_config(&r, cfg, l)) < 0)
        goto fail;
    for (int k = 1; cfg && k < l->nb_renditions; k++) {
        l->renditions[k - 1]->fps = l->fps;
        if ((err = read_config(&r, cfg, l->renditions[k - 1])) < 0)
            goto fail;
    }
    if (cfg && l->nb_renditions > 1) {
        int n = 0;
        if (get_int(&r, cfg, "renditions", &n) < 0 || n != l->nb_renditions) {
            err = refuse(&r, cfg, "config \"renditions\" is not the %d sections of the log", l->nb_renditions);
            goto fail;
        }
    }
    gpussim_json_free(&root);
    *plog = l;
    return 0;

fail:
    if (err == -ENOMEM)
        gpussim_log(&r.log, GPUSSIM_LOG_ERROR, "log: out of memory");
    gpussim_json_free(&root);
    gpussim_log_free(&l);
    return err;
}

/* gpussim_log_read(), or with recover gpussim_log_read_recover() */
static int read_log(struct gpussim_log **plog, const char *path, int recover, gpussim_log_fn log_cb,
                    void *log_opaque)
{
    const struct gpussim_logger log = { log_cb, log_opaque, GPUSSIM_LOG_INFO };
    if (!plog || !path)
        return -EINVAL;
    *plog = NULL;
    const int std_in = !strcmp(path, "-");
    errno = 0;
    FILE *f = std_in ? stdin : fopen(path, "rb");
    if (!f) {
        const int err = errno ? errno : EIO;
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "cannot open log '%s': %s", path, strerror(err));
        return -err;
    }
    /* grown as read, never from a size the file claims */
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int err = 0;
    for (;;) {
        if (len == cap) {
            if (cap > GPUSSIM_LOG_MAX_BYTES) {
                gpussim_log(&log, GPUSSIM_LOG_ERROR, "log '%s' is larger than %llu bytes", path,
                            (unsigned long long)GPUSSIM_LOG_MAX_BYTES);
                err = -EFBIG;
                break;
            }
            /* one byte past the limit tells a too-large file from one at it */
            size_t nc = cap ? cap * 2 : 65536;
            if (nc > GPUSSIM_LOG_MAX_BYTES + 1)
                nc = GPUSSIM_LOG_MAX_BYTES + 1;
            char *nb = gpussim_realloc(buf, nc);
            if (!nb) {
                err = -ENOMEM;
                break;
            }
            buf = nb;
            cap = nc;
        }
        const size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                err = -(errno ? errno : EIO);
                gpussim_log(&log, GPUSSIM_LOG_ERROR, "reading log '%s' failed: %s", path, strerror(-err));
            }
            break;
        }
    }
    if (!std_in)
        fclose(f);
    if (!err) {
        err = recover ? gpussim_log_parse_recover(plog, buf, len, log_cb, log_opaque)
                      : gpussim_log_parse(plog, buf, len, log_cb, log_opaque);
        if (err < 0)
            gpussim_log(&log, GPUSSIM_LOG_ERROR, "'%s' is not a usable gpussim log", path);
        else if (err > 0)
            gpussim_log(&log, GPUSSIM_LOG_WARNING, "'%s' was cut off: recovered its complete frames", path);
    }
    gpussim_free(buf);
    return err;
}

int gpussim_log_read(struct gpussim_log **plog, const char *path, gpussim_log_fn log_cb, void *log_opaque)
{
    return read_log(plog, path, 0, log_cb, log_opaque);
}

int gpussim_log_read_recover(struct gpussim_log **plog, const char *path, gpussim_log_fn log_cb,
                             void *log_opaque)
{
    return read_log(plog, path, 1, log_cb, log_opaque);
}

/* ---- recovery of a cut-off log ---------------------------------------------- */

/* Where the frames of a log cut off by a killed run end. */
struct cut {
    size_t end;        /* after the last complete frame of the first "frames" array */
    char closers[GPUSSIM_LOG_MAX_DEPTH + 1]; /* what closes the brackets open there, innermost first */
    int ladder;        /* the frames were those of a ladder's first section */
};

/*
 * Scans the text's brackets and strings (the JSON parser judges the rest
 * later): 1 with *c filled when the text is a prefix of a log, cut off
 * inside or after its first "frames" array; 0 when it is not cut off (its
 * brackets close: then it is damaged otherwise) or was cut before its frames.
 */
static int find_cut(const char *t, size_t len, struct cut *c)
{
    char stack[GPUSSIM_LOG_MAX_DEPTH + 1];
    int depth = 0, frames_depth = -1, frames_done = 0, in_string = 0, escaped = 0;
    int key_frames = 0;  /* the last token was the string "frames" */
    int frames_next = 0; /* ... and a colon after it: its value comes next */
    size_t str_start = 0;
    for (size_t i = 0; i < len; i++) {
        const char ch = t[i];
        if (in_string) {
            if (escaped) {
                escaped = 0;
            } else if (ch == '\\') {
                escaped = 1;
            } else if (ch == '"') {
                in_string = 0;
                key_frames = i - str_start == 6 && !memcmp(t + str_start, "frames", 6);
            }
            continue;
        }
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t')
            continue;
        const int frames_value = frames_next;
        frames_next = ch == ':' && key_frames;
        key_frames = 0;
        switch (ch) {
        case '"':
            in_string = 1;
            str_start = i + 1;
            break;
        case '{':
        case '[':
            if (depth >= GPUSSIM_LOG_MAX_DEPTH)
                return 0;
            stack[depth++] = ch;
            if (ch == '[' && frames_value && frames_depth < 0) {
                frames_depth = depth;
                c->end = i + 1;
                c->ladder = depth > 2;
                for (int k = 0; k < depth; k++)
                    c->closers[k] = stack[depth - 1 - k] == '{' ? '}' : ']';
                c->closers[depth] = '\0';
            }
            break;
        case '}':
        case ']':
            if (!depth || stack[depth - 1] != (ch == '}' ? '{' : '['))
                return 0;
            depth--;
            if (frames_depth >= 0 && !frames_done) {
                if (depth == frames_depth && ch == '}')
                    c->end = i + 1; /* a frame is complete */
                else if (depth < frames_depth)
                    frames_done = 1; /* every frame is there: the tail was cut */
            }
            break;
        default:
            break;
        }
    }
    return (in_string || depth > 0) && frames_depth >= 0;
}

/* A recovered log's pools, from its frames (the pool state was never written). */
static int pool_frames(struct gpussim_log *l)
{
    const size_t stride = l->nb_metrics ? (size_t)l->nb_metrics : 1;
    for (int c = 0; c < l->nb_metrics; c++) {
        struct gpussim_log_metric *m = &l->metrics[c];
        int err = gpussim_pool_create(&m->pool);
        if (err < 0)
            return err;
        m->frames_left_out = 0;
        for (uint64_t f = 0; f < l->nb_frames; f++) {
            const double v = l->values[f * stride + (size_t)c];
            if (isnan(v))
                m->frames_left_out++;
            else if ((err = gpussim_pool_add(m->pool, v)) < 0)
                return err;
        }
        gpussim_pool_stats(m->pool, &m->pooled);
    }
    return 0;
}

int gpussim_log_parse_recover(struct gpussim_log **plog, const char *buf, size_t len, gpussim_log_fn log_cb,
                              void *log_opaque)
{
    const struct gpussim_logger log = { log_cb, log_opaque, GPUSSIM_LOG_INFO };
    struct cut cut;
    if (!plog)
        return -EINVAL;
    *plog = NULL;
    if (!buf || len > GPUSSIM_LOG_MAX_BYTES || !find_cut(buf, len, &cut))
        return gpussim_log_parse(plog, buf, len, log_cb, log_opaque);
    /* the frames written before the cut, closed as the writer would have */
    const size_t nc = strlen(cut.closers);
    char *text = gpussim_malloc(cut.end + nc + 1);
    if (!text) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "log: out of memory");
        return -ENOMEM;
    }
    memcpy(text, buf, cut.end);
    memcpy(text + cut.end, cut.closers, nc + 1);
    int err = gpussim_log_parse(plog, text, cut.end + nc, log_cb, log_opaque);
    gpussim_free(text);
    if (err < 0)
        return err;
    struct gpussim_log *l = *plog;
    if ((err = pool_frames(l)) < 0) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "log: pooling the recovered frames failed: %s", gpussim_strerror(err));
        gpussim_log_free(plog);
        return err;
    }
    gpussim_log(&log, GPUSSIM_LOG_WARNING,
                "log: cut off at byte %zu (a killed run?): recovered its %" PRIu64 " complete frames%s, pooled "
                "again from them (the pooled statistics, config and pool state come at close and were not "
                "written; a null value, NaN or infinite, is left out)", len, l->nb_frames,
                cut.ladder ? " of rendition 0 (a ladder log's other renditions reach the file only at close: "
                             "they are lost)" : "");
    return 1;
}

/* ---- merge ------------------------------------------------------------------ */

static int str_differs(const char *a, const char *b)
{
    return (!a) != (!b) || (a && strcmp(a, b));
}

static int check_mergeable(const struct gpussim_logger *log, const struct gpussim_log *a, const char *la,
                           const struct gpussim_log *b, const char *lb)
{
    const struct gpussim_log_config *x = &a->config, *y = &b->config;
#define DIFFER(...)                                                                                \
    do {                                                                                           \
        char d_[512];                                                                              \
        snprintf(d_, sizeof(d_), __VA_ARGS__);                                                     \
        gpussim_log(log, GPUSSIM_LOG_ERROR, "cannot merge %s with %s: %s", lb, la, d_);            \
        return -EINVAL;                                                                            \
    } while (0)
    if (str_differs(x->library, y->library) || str_differs(x->api, y->api))
        DIFFER("different library versions (%s, API %s vs %s, API %s)", y->library ? y->library : "?",
               y->api ? y->api : "?", x->library ? x->library : "?", x->api ? x->api : "?");
    if (x->width != y->width || x->height != y->height)
        DIFFER("different frame sizes (%dx%d vs %dx%d)", y->width, y->height, x->width, x->height);
    if (x->bit_depth != y->bit_depth)
        DIFFER("different bit depths (%d vs %d)", y->bit_depth, x->bit_depth);
    if (str_differs(x->chroma, y->chroma))
        DIFFER("different chroma subsampling (%s vs %s)", y->chroma ? y->chroma : "?",
               x->chroma ? x->chroma : "?");
    if (str_differs(x->planes, y->planes))
        DIFFER("different planes (%s vs %s)", y->planes ? y->planes : "?", x->planes ? x->planes : "?");
    if (str_differs(x->features, y->features))
        DIFFER("different features or options (%s vs %s)", y->features ? y->features : "?",
               x->features ? x->features : "?");
    if (a->nb_metrics != b->nb_metrics)
        DIFFER("different metrics (%d vs %d scores)", b->nb_metrics, a->nb_metrics);
    for (int i = 0; i < a->nb_metrics; i++)
        if (strcmp(a->metrics[i].name, b->metrics[i].name))
            DIFFER("different metrics (score %d is %s vs %s)", i, b->metrics[i].name, a->metrics[i].name);
#undef DIFFER
    return 0;
}

static const char *chunk_label(const char *const *labels, int i, char *buf, size_t size)
{
    if (labels && labels[i])
        return labels[i];
    snprintf(buf, size, "log %d", i + 1);
    return buf;
}

/* The widest step between two frames of one chunk (0 when no chunk has two
 * frames). Every frame has a finite timestamp: checked by the caller. */
static double widest_step(const struct gpussim_log *const *logs, int nb_logs)
{
    double step = 0.0;
    for (int i = 0; i < nb_logs; i++)
        for (uint64_t f = 1; f < logs[i]->nb_frames; f++)
            if (logs[i]->timestamps[f] - logs[i]->timestamps[f - 1] > step)
                step = logs[i]->timestamps[f] - logs[i]->timestamps[f - 1];
    return step;
}

static int has_timestamps(const struct gpussim_log *l)
{
    if (!l->timestamps)
        return 0;
    for (uint64_t f = 0; f < l->nb_frames; f++)
        if (!isfinite(l->timestamps[f]))
            return 0;
    return 1;
}

/*
 * The order of the chunks in the merged log, into order[]: by first_frame
 * when every chunk has one (the tool's chunks), else by the first timestamp
 * when every frame has one (the filter's chunks: trim keeps the input's
 * timestamps), else as given. A chunk given out of order is moved, with a
 * note. Chunks must then be contiguous: with frame numbers, an overlap or a
 * gap is refused naming the frames; with timestamps, an overlap is refused
 * (timestamps increase within a stream), and so is a step from one chunk to
 * the next wider than 1.5 times the widest step between two frames of any
 * chunk (a gap: frames are missing; the widest step, not the usual one,
 * leaves room for a variable frame rate).
 */
static int merge_order(const struct gpussim_logger *log, const struct gpussim_log *const *logs,
                       const char *const *labels, int nb_logs, int *order)
{
    char lab[2][32];
    int by_frame = 1, by_time = 1;
    for (int i = 0; i < nb_logs; i++) {
        order[i] = i;
        by_frame &= logs[i]->config.first_frame >= 0;
        /* an empty chunk has no timestamp to order by: only by frame number */
        by_time &= logs[i]->nb_frames > 0 && has_timestamps(logs[i]);
    }
    if (nb_logs < 2)
        return 0;
    if (!by_frame && !by_time) {
        gpussim_log(log, GPUSSIM_LOG_WARNING,
                    "merge: the chunks' frame numbers are unknown (no first_frame) and not every frame has a "
                    "timestamp: merged in the order given, unchecked for overlaps and gaps");
        return 0;
    }
    /* a stable insertion sort: chunks are few */
    for (int i = 1; i < nb_logs; i++) {
        const int x = order[i];
        int j = i;
        for (; j > 0; j--) {
            const struct gpussim_log *a = logs[order[j - 1]], *b = logs[x];
            if (by_frame ? a->config.first_frame <= b->config.first_frame
                         : a->timestamps[0] <= b->timestamps[0])
                break;
            order[j] = order[j - 1];
        }
        order[j] = x;
    }
    for (int i = 0; i < nb_logs; i++)
        if (order[i] != i) {
            /* the first chunk given before one whose frames come earlier */
            const char *la = chunk_label(labels, i, lab[0], sizeof(lab[0]));
            const char *lb = chunk_label(labels, order[i], lab[1], sizeof(lab[1]));
            if (by_frame)
                gpussim_log(log, GPUSSIM_LOG_INFO,
                            "merge: %s (first frame %" PRId64 ") was given before %s (first frame %" PRId64
                            "): the chunks are merged in the order of their first frames", la,
                            logs[i]->config.first_frame, lb, logs[order[i]]->config.first_frame);
            else
                gpussim_log(log, GPUSSIM_LOG_INFO,
                            "merge: %s (first frame at %.6f s) was given before %s (at %.6f s): the chunks "
                            "are merged in the order of their timestamps", la, logs[i]->timestamps[0], lb,
                            logs[order[i]]->timestamps[0]);
            break;
        }
    const double step = by_frame ? 0.0 : widest_step(logs, nb_logs);
    for (int i = 1; i < nb_logs; i++) {
        const struct gpussim_log *p = logs[order[i - 1]], *l = logs[order[i]];
        const char *lp = chunk_label(labels, order[i - 1], lab[0], sizeof(lab[0]));
        const char *ll = chunk_label(labels, order[i], lab[1], sizeof(lab[1]));
        if (by_frame) {
            const uint64_t p_end = (uint64_t)p->config.first_frame + p->nb_frames;
            const uint64_t start = (uint64_t)l->config.first_frame;
            if (start == p_end)
                continue;
            char ends[64];
            if (p->nb_frames)
                snprintf(ends, sizeof(ends), "ends at frame %" PRIu64, p_end - 1);
            else
                snprintf(ends, sizeof(ends), "holds no frames (from frame %" PRIu64 ")", p_end);
            if (start < p_end) {
                const uint64_t l_end = start + l->nb_frames;
                gpussim_log(log, GPUSSIM_LOG_ERROR,
                            "cannot merge: chunk %s starts at frame %" PRIu64 " but %s %s: frames %" PRIu64
                            "..%" PRIu64 " overlap (each frame must be in one chunk)",
                            ll, start, lp, ends, start, (l_end < p_end ? l_end : p_end) - 1);
            } else {
                gpussim_log(log, GPUSSIM_LOG_ERROR,
                            "cannot merge: chunk %s starts at frame %" PRIu64 " but %s %s: frames %" PRIu64
                            "..%" PRIu64 " are in no chunk (a gap)", ll, start, lp, ends, p_end, start - 1);
            }
            return -EINVAL;
        }
        const double p_last = p->timestamps[p->nb_frames - 1], l_first = l->timestamps[0];
        if (l_first <= p_last) {
            uint64_t n = 0;
            while (n < l->nb_frames && l->timestamps[n] <= p_last)
                n++;
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "cannot merge: chunk %s starts at %.6f s but %s ends at %.6f s: the chunks overlap "
                        "(frames 0..%" PRIu64 " of %s are not after the end of %s; each frame must be in "
                        "one chunk, and the filter's chunks cut with -ss need -copyts to keep the input's "
                        "timestamps)", ll, l_first, lp, p_last, n - 1, ll, lp);
            return -EINVAL;
        }
        if (step > 0.0 && l_first - p_last > 1.5 * step) {
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "cannot merge: chunk %s starts at %.6f s but %s ends at %.6f s: a gap of %.6f s where "
                        "the widest step between two frames of a chunk is %.6f s (about %.0f frames are in no "
                        "chunk)", ll, l_first, lp, p_last, l_first - p_last, step,
                        floor((l_first - p_last) / step + 0.5) - 1);
            return -EINVAL;
        }
    }
    return 0;
}

int gpussim_log_merge(const struct gpussim_log *const *logs, const char *const *labels, int nb_logs,
                      const struct gpussim_log_writer_params *params)
{
    if (!logs || nb_logs < 1 || !params)
        return -EINVAL;
    const struct gpussim_logger log = { params->log_cb, params->log_opaque, GPUSSIM_LOG_INFO };
    char lab[2][32];
    const char *name_of[2];
#define LABEL(k, i) (labels && labels[i] ? labels[i] : (snprintf(lab[k], sizeof(lab[k]), "log %d", (i) + 1), lab[k]))
    if (params->format != GPUSSIM_LOG_FORMAT_JSON) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "merge: the merged log is JSON (it carries the pool state)");
        return -EINVAL;
    }
    const int nr = logs[0]->nb_renditions > 1 ? logs[0]->nb_renditions : 1;
    int timestamps = 1;
    for (int i = 0; i < nb_logs; i++) {
        const struct gpussim_log *l = logs[i];
        name_of[1] = LABEL(1, i);
        /* a recovered log (pools from its frames, no config) is written alone:
         * nothing tells whether another log's features and options are its own */
        int pooled = 1;
        for (int c = 0; c < l->nb_metrics; c++)
            pooled &= l->metrics[c].pool != NULL;
        if (!l->has_config && (nb_logs > 1 || !pooled)) {
            gpussim_log(&log, GPUSSIM_LOG_ERROR,
                        "cannot merge %s: it has no config block (written by libvmaf or a gpussim older "
                        "than API 1.2%s)",
                        name_of[1], pooled ? ", or recovered from a cut-off log: such a log is rewritten "
                        "alone, not merged with others" : "");
            return -EINVAL;
        }
        if (l->has_config && !l->config.features && nb_logs > 1) {
            gpussim_log(&log, GPUSSIM_LOG_ERROR,
                        "cannot merge %s: its config does not name its features and options (a log "
                        "recovered from a cut-off run is rewritten alone, not merged with others)", name_of[1]);
            return -EINVAL;
        }
        const int lr = l->nb_renditions > 1 ? l->nb_renditions : 1;
        if (lr != nr) {
            name_of[0] = LABEL(0, 0);
            gpussim_log(&log, GPUSSIM_LOG_ERROR, "cannot merge %s with %s: different numbers of renditions "
                        "(%d vs %d)", name_of[1], name_of[0], lr, nr);
            return -EINVAL;
        }
        for (int k = 0; k < nr; k++) {
            const struct gpussim_log *t = gpussim_log_rendition(l, k);
            for (int c = 0; c < t->nb_metrics; c++)
                if (!t->metrics[c].pool) {
                    char which[32] = "";
                    if (nr > 1)
                        snprintf(which, sizeof(which), " of rendition %d", k);
                    gpussim_log(&log, GPUSSIM_LOG_ERROR, "cannot merge %s: it has no pool_state for %s%s",
                                name_of[1], t->metrics[c].name, which);
                    return -EINVAL;
                }
        }
        if (i) {
            name_of[0] = LABEL(0, 0);
            const int err = check_mergeable(&log, logs[0], name_of[0], l, name_of[1]);
            if (err < 0)
                return err;
        }
        timestamps &= l->timestamps != NULL || !l->nb_frames;
    }
#undef LABEL
    const int m = logs[0]->nb_metrics;
    const size_t mm = m ? (size_t)m : 1;
    const char **names = gpussim_calloc(mm, sizeof(*names));
    GpussimPool **pools = gpussim_calloc(mm * (size_t)nr, sizeof(*pools));
    double *row = gpussim_calloc(mm * (size_t)nr, sizeof(*row));
    int *order = gpussim_calloc((size_t)nb_logs, sizeof(*order));
    const struct gpussim_log **sorted = gpussim_calloc((size_t)nb_logs, sizeof(*sorted));
    GpussimLogWriter *w = NULL;
    int err = -ENOMEM;
    if (!names || !pools || !row || !order || !sorted)
        goto fail;
    if ((err = merge_order(&log, logs, labels, nb_logs, order)) < 0)
        goto fail;
    for (int i = 0; i < nb_logs; i++)
        sorted[i] = logs[order[i]];
    const struct gpussim_log *first = sorted[0];
    for (int c = 0; c < m; c++)
        names[c] = first->metrics[c].name;
    for (int k = 0; k < nr; k++)
        for (int c = 0; c < m; c++) {
            GpussimPool **pc = &pools[(size_t)k * m + c];
            if ((err = gpussim_pool_create(pc)) < 0)
                goto fail;
            for (int i = 0; i < nb_logs; i++)
                if ((err = gpussim_pool_merge(*pc, gpussim_log_rendition(sorted[i], k)->metrics[c].pool)) < 0)
                    goto fail;
        }
    struct gpussim_log_writer_params wp = *params;
    const char *rnames[GPUSSIM_MAX_DISTORTED];
    for (int k = 0; k < nr; k++)
        rnames[k] = gpussim_log_rendition(first, k)->name;
    if (!wp.rendition_names)
        wp.rendition_names = rnames;
    if (!wp.pool_stats)
        wp.pool_stats = first->pool_stats;
    wp.timestamps = timestamps;
    wp.first_frame = first->config.first_frame;
    /* a recovered log keeps its version ("gpussim X") */
    struct gpussim_log_config cfg = first->config;
    if (!first->has_config && first->version && !strncmp(first->version, "gpussim ", 8))
        cfg.library = first->version + 8;
    if ((err = gpussim_log_writer_create(&w, &wp, names, m, &cfg, nr)) < 0)
        goto fail;
    uint64_t frame = 0;
    for (int i = 0; i < nb_logs; i++) {
        const struct gpussim_log *l = sorted[i];
        for (uint64_t f = 0; f < l->nb_frames; f++) {
            const double ts = l->timestamps ? l->timestamps[f] : NAN;
            for (int k = 0; k < nr; k++)
                memcpy(row + (size_t)k * mm, gpussim_log_rendition(l, k)->values + f * mm, sizeof(*row) * mm);
            if ((err = gpussim_log_writer_frame(w, frame++, row, ts, 0)) < 0)
                goto fail;
        }
    }
    for (int k = 0; k < nr; k++)
        for (int c = 0; c < m; c++) {
            uint64_t left_out = 0;
            for (int i = 0; i < nb_logs; i++)
                left_out += gpussim_log_rendition(sorted[i], k)->metrics[c].frames_left_out;
            gpussim_log_writer_set_pool(w, k * m + c, pools[(size_t)k * m + c], left_out);
            pools[(size_t)k * m + c] = NULL;
        }
    err = gpussim_log_close(&w, NAN);

fail:
    if (err == -ENOMEM)
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "merge: out of memory");
    gpussim_log_close(&w, NAN);
    if (pools)
        for (size_t c = 0; c < (size_t)m * nr; c++)
            gpussim_pool_destroy(&pools[c]);
    gpussim_free(pools);
    gpussim_free(sorted);
    gpussim_free(order);
    gpussim_free(row);
    gpussim_free(names);
    return err;
}
