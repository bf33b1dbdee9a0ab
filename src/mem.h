/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Every allocation of the library core and the CPU backend goes through
 * these, so that a test can fail the n-th one (and the n-th thread start)
 * and count what is still held afterwards: tests/unit/test_alloc_fail.c walks n
 * over create/submit/collect/destroy and the pools, asserting a clean
 * negative errno and nothing leaked (dav1d's allocation-failure testing).
 * Outside that test they are malloc/calloc/realloc/free plus one relaxed
 * atomic load.
 */
#ifndef GPUSSIM_MEM_H
#define GPUSSIM_MEM_H

#include <pthread.h>
#include <stddef.h>

void *gpussim_malloc(size_t size);
void *gpussim_calloc(size_t n, size_t size);
void *gpussim_realloc(void *p, size_t size);
void gpussim_free(void *p);
/* A copy of s through gpussim_malloc; NULL for NULL (or on failure). */
char *gpussim_strdup(const char *s);
/* Memory whose ownership leaves the library (freed by the caller with
 * free()): can be failed, is not counted as held. */
void *gpussim_malloc_foreign(size_t size);
/* pthread_create(), failable like an allocation (returns EAGAIN). */
int gpussim_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg);

/* Tests only (exported, not in the public header). Process-wide: run the
 * code under test from one thread at a time while these are armed. */
/* Fails the n-th (0-based) allocation or thread start from now on, once;
 * n < 0 disarms. Resets the attempt count. */
void gpussim_internal_alloc_fail_at(long n);
/* Allocations and thread starts attempted since the last fail_at(). */
long gpussim_internal_alloc_attempts(void);
/* Blocks allocated through gpussim_malloc/calloc/realloc and not freed. */
long gpussim_internal_alloc_live(void);

#endif /* GPUSSIM_MEM_H */
