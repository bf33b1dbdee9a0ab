/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Allocation wrappers with a test-only failure injection (see mem.h). The
 * counters are the library's only process-wide state; they change nothing
 * unless a test arms them.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <string.h>

#include "mem.h"

static atomic_long fail_countdown = -1; /* < 0: never fail */
static atomic_long attempts;
static atomic_long live;

/* Counts one attempt; true when this one is to fail. */
static int inject_failure(void)
{
    if (atomic_load_explicit(&fail_countdown, memory_order_relaxed) < 0)
        return 0;
    atomic_fetch_add_explicit(&attempts, 1, memory_order_relaxed);
    return atomic_fetch_sub_explicit(&fail_countdown, 1, memory_order_relaxed) == 0;
}

void *gpussim_malloc(size_t size)
{
    if (inject_failure())
        return NULL;
    void *p = malloc(size);
    if (p)
        atomic_fetch_add_explicit(&live, 1, memory_order_relaxed);
    return p;
}

void *gpussim_calloc(size_t n, size_t size)
{
    if (inject_failure())
        return NULL;
    void *p = calloc(n, size);
    if (p)
        atomic_fetch_add_explicit(&live, 1, memory_order_relaxed);
    return p;
}

void *gpussim_realloc(void *old, size_t size)
{
    if (inject_failure())
        return NULL;
    void *p = realloc(old, size);
    if (p && !old)
        atomic_fetch_add_explicit(&live, 1, memory_order_relaxed);
    return p;
}

void gpussim_free(void *p)
{
    if (!p)
        return;
    atomic_fetch_sub_explicit(&live, 1, memory_order_relaxed);
    free(p);
}

void *gpussim_malloc_foreign(size_t size)
{
    if (inject_failure())
        return NULL;
    return malloc(size);
}

int gpussim_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg)
{
    if (inject_failure())
        return EAGAIN;
    return pthread_create(thread, NULL, fn, arg);
}

void gpussim_internal_alloc_fail_at(long n)
{
    atomic_store(&attempts, 0);
    /* once disarmed, the countdown never reaches 0 again */
    atomic_store(&fail_countdown, n < 0 ? -1 : n);
}

long gpussim_internal_alloc_attempts(void)
{
    return atomic_load(&attempts);
}

long gpussim_internal_alloc_live(void)
{
    return atomic_load(&live);
}

char *gpussim_strdup(const char *s)
{
    if (!s)
        return NULL;
    const size_t n = strlen(s) + 1;
    char *d = gpussim_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}
