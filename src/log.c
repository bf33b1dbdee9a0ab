/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Logging through the context's callback (the library never prints) and
 * the text of the library's error codes. */
#include <errno.h>
#include <stdio.h>

#include "src/logger.h"

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

const char *gpussim_strerror(int err)
{
    switch (err) {
    case 0: return "success";
    case -EINVAL: return "invalid argument or configuration";
    case -ENOMEM: return "out of memory";
    case -ENODEV: return "backend device unavailable";
    case -ENOSYS: return "backend not built into this library";
    case -ERANGE: return "value out of range";
    case -EAGAIN: return "too many frames in flight; collect results first";
    case -EIO: return "device error";
    default: return "unknown error";
    }
}
