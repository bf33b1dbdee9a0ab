/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The library's logger: every message goes through the context's callback
 * (the library never prints). Backends and the core alike log with it.
 */
#ifndef GPUSSIM_LOGGER_H
#define GPUSSIM_LOGGER_H

#include <stdarg.h>

#include "gpussim/gpussim.h"

struct gpussim_logger {
    gpussim_log_fn cb;
    void *opaque;
    enum gpussim_log_level level;
};

#if defined(__GNUC__)
#define GPUSSIM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GPUSSIM_PRINTF(a, b)
#endif

void gpussim_log(const struct gpussim_logger *log, enum gpussim_log_level level, const char *fmt,
                 ...) GPUSSIM_PRINTF(3, 4);
void gpussim_vlog(const struct gpussim_logger *log, enum gpussim_log_level level, const char *fmt,
                  va_list ap);

#endif /* GPUSSIM_LOGGER_H */
