/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Table-driven dlopen (see dynload.h). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "src/dynload.h"

void *gpussim_dynload(const char *const *libs, const struct gpussim_dynsym *syms, int nb_syms,
                      char *why, size_t why_size)
{
    void *lib = NULL;
    const char *name = NULL;
    char tmp[1];

    if (!why) {
        why = tmp;
        why_size = sizeof(tmp);
    }
    why[0] = '\0';
    for (int i = 0; libs[i] && !lib; i++) {
        lib = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
        name = libs[i];
        if (!lib) {
            const char *e = dlerror();
            snprintf(why, why_size, "%s", e ? e : "cannot open it");
        }
    }
    if (!lib)
        return NULL;
    for (int i = 0; i < nb_syms; i++) {
        const struct gpussim_dynsym *s = &syms[i];
        void *p = dlsym(lib, s->name);
        if (!p && s->fallback)
            p = dlsym(lib, s->fallback);
        /* POSIX: a data pointer from dlsym holds a function's address */
        memcpy(s->dst, &p, sizeof(p));
        if (!p && !s->optional) {
            snprintf(why, why_size, "%s lacks %s", name, s->name);
            /* no field keeps an address into the closed library */
            for (int k = 0; k < i; k++)
                memset(syms[k].dst, 0, sizeof(void *));
            dlclose(lib);
            return NULL;
        }
    }
    return lib;
}

void gpussim_dynunload(void **lib)
{
    if (*lib)
        dlclose(*lib);
    *lib = NULL;
}
