/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Opening a driver library at run time from a table of its symbols: the
 * CUDA driver API (hwctx/cuda/cuda_loader.c), HIP (hwctx/hip/hip_glue.c) and
 * Level Zero (hwctx/ze/ze.c) load this way, so libgpussim links none of
 * them and runs where they are absent.
 */
#ifndef GPUSSIM_DYNLOAD_H
#define GPUSSIM_DYNLOAD_H

#include <stddef.h>

/* One symbol: where its address goes (a function pointer field), the names
 * tried in order (the versioned one first: cuCtxPushCurrent_v2, the name
 * cuda.h maps cuCtxPushCurrent to), and whether the library is usable
 * without it (then *dst stays NULL and the caller checks). */
struct gpussim_dynsym {
    void *dst;
    const char *name;
    const char *fallback; /* NULL: none */
    int optional;
};

/* A row for a function pointer field f looked up under its own name. */
/* clang-format off */
#define GPUSSIM_DYNSYM(f, name) { &(f), name, NULL, 0 }
/* clang-format on */

/* Opens the first of the NULL-terminated libs that loads, then resolves
 * syms[0..nb_syms). Returns the handle, or NULL when no library opened or
 * a required symbol is missing (the library is closed again); why, when
 * given, then says which ("libcuda.so.1: cannot open ..." or
 * "libze_loader.so.1 lacks zeInit"). */
void *gpussim_dynload(const char *const *libs, const struct gpussim_dynsym *syms, int nb_syms,
                      char *why, size_t why_size);

/* Closes a handle of gpussim_dynload() and sets *lib to NULL; NULL-safe. */
void gpussim_dynunload(void **lib);

#endif /* GPUSSIM_DYNLOAD_H */
