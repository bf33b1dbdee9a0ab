/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Pooled statistics over frames. Sums are kept exactly as a non-overlapping
 * expansion of doubles (Shewchuk's algorithm, as Python's math.fsum), so the
 * result does not depend on the order values were added or pools merged:
 * merging the pools of two halves of a run gives exactly the whole run's
 * statistics. Built with -ffp-contract=off (the two-sum steps need it).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/core.h"
#include "mem.h"

/* An exact sum: finite part as an expansion, infinities counted apart. */
struct exact_sum {
    double *p;
    int n, cap;
    uint64_t pos_inf, neg_inf;
};

struct GpussimPool {
    uint64_t count;
    double min, max;
    struct exact_sum sum, inv_sum; /* sum(v), sum(1 / (v + 1)) */
    double *values;
    size_t nb_values, cap_values;
};

/* Makes room for one more component: an addition grows the expansion by at
 * most one, so reserving first lets every update below succeed whole. */
static int exact_reserve(struct exact_sum *s, int extra)
{
    if (s->n + extra <= s->cap)
        return 0;
    if (extra > INT_MAX / 2 - s->n)
        return -ENOMEM;
    int cap = s->cap ? s->cap : 8;
    while (cap < s->n + extra)
        cap *= 2;
    double *p = gpussim_realloc(s->p, sizeof(*p) * (size_t)cap);
    if (!p)
        return -ENOMEM;
    s->p = p;
    s->cap = cap;
    return 0;
}

/* Adds x exactly; the caller has reserved one component. */
static void exact_add(struct exact_sum *s, double x)
{
    if (isinf(x)) {
        if (x > 0)
            s->pos_inf++;
        else
            s->neg_inf++;
        return;
    }
    int i = 0;
    for (int j = 0; j < s->n; j++) {
        double y = s->p[j];
        if (fabs(x) < fabs(y)) {
            const double t = x;
            x = y;
            y = t;
        }
        const double hi = x + y;
        const double lo = y - (hi - x);
        if (lo != 0.0)
            s->p[i++] = lo;
        x = hi;
    }
    s->p[i++] = x;
    s->n = i;
}

/* *out = a + b exactly, in new storage (a and b may be the same sum). */
static int exact_sum_of(struct exact_sum *out, const struct exact_sum *a, const struct exact_sum *b)
{
    memset(out, 0, sizeof(*out));
    int err = exact_reserve(out, a->n + b->n + 1);
    if (err < 0)
        return err;
    if (a->n) /* an empty sum has no storage: memcpy from NULL is undefined */
        memcpy(out->p, a->p, sizeof(*out->p) * (size_t)a->n);
    out->n = a->n;
    /* adding the components of b's expansion adds b's exact value */
    for (int j = 0; j < b->n; j++)
        exact_add(out, b->p[j]);
    out->pos_inf = a->pos_inf + b->pos_inf;
    out->neg_inf = a->neg_inf + b->neg_inf;
    return 0;
}

/* Correctly rounded value of the expansion (math.fsum's final step). */
static double exact_value(const struct exact_sum *s)
{
    if (s->pos_inf && s->neg_inf)
        return NAN;
    if (s->pos_inf)
        return INFINITY;
    if (s->neg_inf)
        return -INFINITY;
    int n = s->n;
    if (!n)
        return 0.0;
    double hi = s->p[--n], lo = 0.0;
    while (n > 0) {
        const double x = hi, y = s->p[--n];
        hi = x + y;
        const double yr = hi - x;
        lo = y - yr;
        if (lo != 0.0)
            break;
    }
    if (n > 0 && ((lo < 0 && s->p[n - 1] < 0) || (lo > 0 && s->p[n - 1] > 0))) {
        const double y = lo * 2;
        const double x = hi + y;
        if (y == x - hi)
            hi = x;
    }
    return hi;
}

int gpussim_pool_create(GpussimPool **pool)
{
    if (!pool)
        return -EINVAL;
    *pool = gpussim_calloc(1, sizeof(**pool));
    if (!*pool)
        return -ENOMEM;
    (*pool)->min = INFINITY;
    (*pool)->max = -INFINITY;
    return 0;
}

void gpussim_pool_destroy(GpussimPool **pool)
{
    if (!pool || !*pool)
        return;
    gpussim_free((*pool)->sum.p);
    gpussim_free((*pool)->inv_sum.p);
    gpussim_free((*pool)->values);
    gpussim_free(*pool);
    *pool = NULL;
}

static int reserve_values(GpussimPool *p, size_t extra)
{
    if (p->nb_values + extra <= p->cap_values)
        return 0;
    if (extra > SIZE_MAX / 2 / sizeof(double) - p->nb_values)
        return -ENOMEM;
    size_t cap = p->cap_values ? p->cap_values : 256;
    while (cap < p->nb_values + extra)
        cap *= 2;
    double *nv = gpussim_realloc(p->values, sizeof(*nv) * cap);
    if (!nv)
        return -ENOMEM;
    p->values = nv;
    p->cap_values = cap;
    return 0;
}

/* Finite values up to 2^900: the exact sums of 2^64 of them stay far from
 * DBL_MAX (an overflowing partial sum would turn the expansion into NaN). */
#define POOL_MAX_FINITE 0x1p900

int gpussim_pool_add(GpussimPool *p, double v)
{
    int err;
    if (!p || isnan(v))
        return -EINVAL;
    if (isfinite(v) && fabs(v) > POOL_MAX_FINITE)
        return -ERANGE;
    /* everything that can fail first: a failed add leaves the pool as it was */
    err = reserve_values(p, 1);
    if (err < 0)
        return err;
    err = exact_reserve(&p->sum, 1);
    if (err < 0)
        return err;
    err = exact_reserve(&p->inv_sum, 1);
    if (err < 0)
        return err;
    exact_add(&p->sum, v);
    exact_add(&p->inv_sum, 1.0 / (v + 1.0));
    p->values[p->nb_values++] = v;
    p->count++;
    if (v < p->min)
        p->min = v;
    if (v > p->max)
        p->max = v;
    return 0;
}

int gpussim_pool_merge(GpussimPool *dst, const GpussimPool *src)
{
    struct exact_sum sum, inv_sum;
    int err;
    if (!dst || !src)
        return -EINVAL;
    /* src may be dst: take what is read from it before dst changes */
    const size_t n = src->nb_values;
    const uint64_t count = src->count;
    const double min = src->min, max = src->max;

    err = exact_sum_of(&sum, &dst->sum, &src->sum);
    if (err < 0)
        return err;
    err = exact_sum_of(&inv_sum, &dst->inv_sum, &src->inv_sum);
    if (err < 0)
        goto fail;
    err = reserve_values(dst, n);
    if (err < 0)
        goto fail;
    /* after the reserve: src->values has moved with dst's when they are one */
    if (n)
        memcpy(dst->values + dst->nb_values, src->values, sizeof(*dst->values) * n);
    dst->nb_values += n;
    dst->count += count;
    if (min < dst->min)
        dst->min = min;
    if (max > dst->max)
        dst->max = max;
    gpussim_free(dst->sum.p);
    gpussim_free(dst->inv_sum.p);
    dst->sum = sum;
    dst->inv_sum = inv_sum;
    return 0;

fail:
    gpussim_free(sum.p);
    gpussim_free(inv_sum.p);
    return err;
}

const double *gpussim_pool_values(const GpussimPool *p, size_t *n)
{
    *n = p->nb_values;
    return p->values;
}

int gpussim_pool_stats(const GpussimPool *p, struct gpussim_pool_stats *st)
{
    if (!p || !st)
        return -EINVAL;
    st->count = p->count;
    if (!p->count) {
        st->mean = st->harmonic_mean = st->min = st->max = NAN;
        return 0;
    }
    st->mean = exact_value(&p->sum) / (double)p->count;
    st->harmonic_mean = (double)p->count / exact_value(&p->inv_sum) - 1.0;
    st->min = p->min;
    st->max = p->max;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int gpussim_pool_percentile(const GpussimPool *p, double q, double *out)
{
    if (!p || !out || !p->nb_values || !(q >= 0.0 && q <= 100.0))
        return -EINVAL;
    double *sorted = gpussim_malloc(sizeof(*sorted) * p->nb_values);
    if (!sorted)
        return -ENOMEM;
    memcpy(sorted, p->values, sizeof(*sorted) * p->nb_values);
    qsort(sorted, p->nb_values, sizeof(*sorted), cmp_double);
    const double rank = q / 100.0 * (double)(p->nb_values - 1);
    const size_t lo = (size_t)floor(rank);
    const size_t hi = lo + 1 < p->nb_values ? lo + 1 : lo;
    const double frac = rank - (double)lo;
    *out = frac == 0.0 ? sorted[lo] : sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
    gpussim_free(sorted);
    return 0;
}

/*
 * Serialised form, version 2 (text, one item per line):
 *
 *   gpussim-pool 2 <count>\n
 *   <16 hex digits: the IEEE-754 bits of one value>\n     (count lines)
 *   crc32 <8 hex digits>\n
 *
 * The length is implied by count and checked exactly, so a truncated or
 * extended blob is refused before any value is read; the CRC-32 (zlib's, over
 * every byte before "crc32") catches corruption. Bit patterns instead of "%a"
 * keep the values exact and the parsing independent of the C locale.
 * Version 1 (no length, no checksum) is refused: it cannot be validated.
 */
#define POOL_MAGIC "gpussim-pool "
#define POOL_VERSION 2
#define POOL_VALUE_LINE 17                  /* 16 hex digits + '\n' */
#define POOL_TRAILER_LEN 15                 /* "crc32 " + 8 hex digits + '\n' */
#define POOL_HEADER_MAX (sizeof(POOL_MAGIC) + 2 + 20 + 1)

static uint32_t crc32_ieee(const unsigned char *p, size_t n)
{
    uint32_t table[256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++)
        crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return crc ^ 0xffffffffu;
}

int gpussim_pool_serialize(const GpussimPool *p, char **buf, size_t *len)
{
    if (!p || !buf || !len)
        return -EINVAL;
    if (p->nb_values > (SIZE_MAX - POOL_HEADER_MAX - POOL_TRAILER_LEN - 1) / POOL_VALUE_LINE)
        return -ENOMEM;
    const size_t cap = POOL_HEADER_MAX + p->nb_values * POOL_VALUE_LINE + POOL_TRAILER_LEN + 1;
    char *s = gpussim_malloc_foreign(cap); /* the caller free()s it */
    if (!s)
        return -ENOMEM;
    size_t n = (size_t)snprintf(s, cap, POOL_MAGIC "%d %" PRIu64 "\n", POOL_VERSION,
                                (uint64_t)p->nb_values);
    for (size_t i = 0; i < p->nb_values; i++) {
        uint64_t bits;
        memcpy(&bits, &p->values[i], sizeof(bits));
        n += (size_t)snprintf(s + n, cap - n, "%016" PRIx64 "\n", bits);
    }
    const uint32_t crc = crc32_ieee((const unsigned char *)s, n);
    n += (size_t)snprintf(s + n, cap - n, "crc32 %08" PRIx32 "\n", crc);
    *buf = s;
    *len = n;
    return 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Exactly `digits` lowercase hex digits. */
static int parse_hex(const char *s, int digits, uint64_t *out)
{
    uint64_t v = 0;
    for (int i = 0; i < digits; i++) {
        const int d = hex_digit(s[i]);
        if (d < 0)
            return -1;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 0;
}

/* A decimal count: digits only, no leading zero unless "0", at most 2^64-1.
 * @return the number of characters used, or -1. */
static int parse_count(const char *s, size_t avail, uint64_t *out)
{
    size_t i = 0;
    uint64_t v = 0;
    while (i < avail && s[i] >= '0' && s[i] <= '9') {
        const unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
        i++;
    }
    if (i == 0 || i > 20 || (s[0] == '0' && i > 1))
        return -1;
    *out = v;
    return (int)i;
}

int gpussim_pool_deserialize2(GpussimPool **pool, const char *buf, size_t len, gpussim_log_fn log_cb,
                              void *log_opaque)
{
    const struct gpussim_logger logger = { log_cb, log_opaque, GPUSSIM_LOG_INFO };
    const struct gpussim_logger *log = &logger;
    const size_t magic_len = strlen(POOL_MAGIC);
    GpussimPool *p = NULL;
    uint64_t version, count, stored_crc;
    int err, used;

    if (!pool)
        return -EINVAL;
    *pool = NULL;
    if (!buf) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "pool blob: no buffer");
        return -EINVAL;
    }
    if (len < magic_len || memcmp(buf, POOL_MAGIC, magic_len)) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "pool blob: no \"gpussim-pool\" signature");
        return -EINVAL;
    }
    size_t pos = magic_len;
    used = parse_count(buf + pos, len - pos, &version);
    if (used < 0 || pos + (size_t)used >= len || buf[pos + (size_t)used] != ' ') {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "pool blob: malformed version field");
        return -EINVAL;
    }
    if (version != POOL_VERSION) {
        gpussim_log(log, GPUSSIM_LOG_ERROR,
                    "pool blob: format version %" PRIu64 " is not supported (this library reads "
                    "version %d%s)",
                    version, POOL_VERSION,
                    version == 1 ? "; version 1 has no length or checksum: serialise the pool again" : "");
        return -EINVAL;
    }
    pos += (size_t)used + 1;
    used = parse_count(buf + pos, len - pos, &count);
    if (used < 0 || pos + (size_t)used >= len || buf[pos + (size_t)used] != '\n') {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "pool blob: malformed header (truncated, or a bad value count)");
        return -EINVAL;
    }
    pos += (size_t)used + 1;
    /* the header's count fixes the length: check it before trusting the
     * count for anything (this also bounds every allocation by len) */
    const size_t body = len - pos;
    if (body < POOL_TRAILER_LEN || (body - POOL_TRAILER_LEN) % POOL_VALUE_LINE ||
        (body - POOL_TRAILER_LEN) / POOL_VALUE_LINE != count) {
        if (count <= (SIZE_MAX - POOL_TRAILER_LEN) / POOL_VALUE_LINE)
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "pool blob: %zu bytes follow the header; %" PRIu64 " values need %zu: the "
                        "blob is truncated or extended",
                        body, count, (size_t)count * POOL_VALUE_LINE + POOL_TRAILER_LEN);
        else
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "pool blob: %zu bytes follow the header; %" PRIu64 " values cannot fit",
                        body, count);
        return -EINVAL;
    }
    const size_t trailer = len - POOL_TRAILER_LEN;
    if (memcmp(buf + trailer, "crc32 ", 6) || buf[len - 1] != '\n' ||
        parse_hex(buf + trailer + 6, 8, &stored_crc) < 0) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "pool blob: malformed checksum line");
        return -EINVAL;
    }
    const uint32_t crc = crc32_ieee((const unsigned char *)buf, trailer);
    if (crc != stored_crc) {
        gpussim_log(log, GPUSSIM_LOG_ERROR,
                    "pool blob: checksum mismatch (stored crc32 %08" PRIx64 ", computed %08" PRIx32
                    "): the blob is corrupted",
                    stored_crc, crc);
        return -EINVAL;
    }

    err = gpussim_pool_create(&p);
    if (err < 0)
        goto fail_nomem;
    err = reserve_values(p, (size_t)count);
    if (err < 0)
        goto fail_nomem;
    for (uint64_t i = 0; i < count; i++, pos += POOL_VALUE_LINE) {
        uint64_t bits;
        double v;
        if (parse_hex(buf + pos, 16, &bits) < 0 || buf[pos + 16] != '\n') {
            gpussim_log(log, GPUSSIM_LOG_ERROR, "pool blob: value %" PRIu64 " is malformed", i);
            err = -EINVAL;
            goto fail;
        }
        memcpy(&v, &bits, sizeof(v));
        if (isnan(v)) {
            gpussim_log(log, GPUSSIM_LOG_ERROR, "pool blob: value %" PRIu64 " is NaN, which no pool holds", i);
            err = -EINVAL;
            goto fail;
        }
        err = gpussim_pool_add(p, v);
        if (err == -ERANGE) {
            gpussim_log(log, GPUSSIM_LOG_ERROR, "pool blob: value %" PRIu64 " (%g) is beyond the "
                        "+-2^900 a pool holds", i, v);
            err = -EINVAL;
            goto fail;
        }
        if (err < 0)
            goto fail_nomem;
    }
    *pool = p;
    return 0;

fail_nomem:
    gpussim_log(log, GPUSSIM_LOG_ERROR, "pool blob: out of memory for %" PRIu64 " values", count);
fail:
    gpussim_pool_destroy(&p);
    return err;
}

int gpussim_pool_deserialize(GpussimPool **pool, const char *buf, size_t len)
{
    return gpussim_pool_deserialize2(pool, buf, len, NULL, NULL);
}
