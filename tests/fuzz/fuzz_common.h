/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * What the libFuzzer targets of tests/fuzz/ share. A target defines
 * FUZZ_TARGET (its name, the prefix of its failure messages) before
 * including this header.
 */
#ifndef GPUSSIM_FUZZ_COMMON_H
#define GPUSSIM_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include <gpussim/gpussim.h>

#ifndef FUZZ_TARGET
#error "define FUZZ_TARGET (the target's name) before including fuzz_common.h"
#endif

/* A property that must hold: when it does not, the message goes to stderr
 * and abort() makes libFuzzer (or standalone.c's replay) report the input. */
#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, FUZZ_TARGET ": " __VA_ARGS__);                                         \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* The last error the library logged through log_cb: a target clears it
 * before a call and requires it set when the call refuses its input. */
static char last_error[1024];

static inline void log_cb(void *opaque, enum gpussim_log_level level, const char *msg)
{
    (void)opaque;
    if (level <= GPUSSIM_LOG_ERROR)
        snprintf(last_error, sizeof(last_error), "%s", msg);
}

#endif /* GPUSSIM_FUZZ_COMMON_H */
