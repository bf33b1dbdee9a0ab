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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpussim/gpussim.h"

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

static int exact_add(struct exact_sum *s, double x)
{
    if (isinf(x)) {
        if (x > 0)
            s->pos_inf++;
        else
            s->neg_inf++;
        return 0;
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
    if (i >= s->cap) {
        const int cap = s->cap ? 2 * s->cap : 8;
        double *p = realloc(s->p, sizeof(*p) * (size_t)cap);
        if (!p)
            return -ENOMEM;
        s->p = p;
        s->cap = cap;
    }
    s->p[i++] = x;
    s->n = i;
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
    *pool = calloc(1, sizeof(**pool));
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
    free((*pool)->sum.p);
    free((*pool)->inv_sum.p);
    free((*pool)->values);
    free(*pool);
    *pool = NULL;
}

int gpussim_pool_add(GpussimPool *p, double v)
{
    int err;
    if (!p || isnan(v))
        return -EINVAL;
    if (p->nb_values == p->cap_values) {
        const size_t cap = p->cap_values ? 2 * p->cap_values : 256;
        double *nv = realloc(p->values, sizeof(*nv) * cap);
        if (!nv)
            return -ENOMEM;
        p->values = nv;
        p->cap_values = cap;
    }
    err = exact_add(&p->sum, v);
    if (err < 0)
        return err;
    err = exact_add(&p->inv_sum, 1.0 / (v + 1.0));
    if (err < 0)
        return err;
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
    if (!dst || !src)
        return -EINVAL;
    /* re-adding src's values reproduces its sums exactly (they are exact) */
    for (size_t i = 0; i < src->nb_values; i++) {
        int err = gpussim_pool_add(dst, src->values[i]);
        if (err < 0)
            return err;
    }
    return 0;
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
    double *sorted = malloc(sizeof(*sorted) * p->nb_values);
    if (!sorted)
        return -ENOMEM;
    memcpy(sorted, p->values, sizeof(*sorted) * p->nb_values);
    qsort(sorted, p->nb_values, sizeof(*sorted), cmp_double);
    const double rank = q / 100.0 * (double)(p->nb_values - 1);
    const size_t lo = (size_t)floor(rank);
    const size_t hi = lo + 1 < p->nb_values ? lo + 1 : lo;
    const double frac = rank - (double)lo;
    *out = frac == 0.0 ? sorted[lo] : sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
    free(sorted);
    return 0;
}

#define POOL_MAGIC "gpussim-pool 1"

int gpussim_pool_serialize(const GpussimPool *p, char **buf, size_t *len)
{
    if (!p || !buf || !len)
        return -EINVAL;
    /* "%a" of a double is at most 24 characters */
    const size_t cap = 64 + p->nb_values * 26;
    char *s = malloc(cap);
    if (!s)
        return -ENOMEM;
    size_t n = (size_t)snprintf(s, cap, "%s %" PRIu64 "\n", POOL_MAGIC, (uint64_t)p->nb_values);
    for (size_t i = 0; i < p->nb_values; i++)
        n += (size_t)snprintf(s + n, cap - n, "%a\n", p->values[i]);
    *buf = s;
    *len = n;
    return 0;
}

int gpussim_pool_deserialize(GpussimPool **pool, const char *buf, size_t len)
{
    GpussimPool *p = NULL;
    char *copy = NULL, *cur, *end;
    uint64_t count;
    int err;

    if (!pool || !buf)
        return -EINVAL;
    *pool = NULL;
    copy = malloc(len + 1);
    if (!copy)
        return -ENOMEM;
    memcpy(copy, buf, len);
    copy[len] = 0;
    err = -EINVAL;
    if (strncmp(copy, POOL_MAGIC " ", strlen(POOL_MAGIC) + 1))
        goto fail;
    cur = copy + strlen(POOL_MAGIC) + 1;
    count = strtoull(cur, &end, 10);
    if (end == cur)
        goto fail;
    err = gpussim_pool_create(&p);
    if (err < 0)
        goto fail;
    for (uint64_t i = 0; i < count; i++) {
        cur = end;
        const double v = strtod(cur, &end);
        if (end == cur) {
            err = -EINVAL;
            goto fail;
        }
        err = gpussim_pool_add(p, v);
        if (err < 0)
            goto fail;
    }
    free(copy);
    *pool = p;
    return 0;

fail:
    gpussim_pool_destroy(&p);
    free(copy);
    return err;
}
