/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Logging through the context's callback; the library never prints. */
#include <stdio.h>

#include "internal.h"

void gpussim_vlog(const struct gpussim_logger *log, enum gpussim_log_level level,
                  const char *fmt, va_list ap)
{
    if (!log || !log->cb || level > log->level)
        return;
    char msg[1024];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    log->cb(log->opaque, level, msg);
}

void gpussim_log(const struct gpussim_logger *log, enum gpussim_log_level level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gpussim_vlog(log, level, fmt, ap);
    va_end(ap);
}
