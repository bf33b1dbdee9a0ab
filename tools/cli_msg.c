/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Messages of the gpussim tool. */
#include <stdarg.h>
#include <stdio.h>

#include "cli_msg.h"
#include "terminal.h"

void (*cli_msg_sink)(const char *level, const char *msg);

void cli_msg(const char *level, const char *fmt, ...)
{
    va_list ap;
    char msg[1024];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (cli_msg_sink) {
        cli_msg_sink(level, msg);
        return;
    }
    /* one fprintf per message: stderr is locked per call, so lines from the
     * library's worker threads never interleave with ours; a progress line
     * on the terminal is erased first (drawn again at its next update) */
    cli_progress_erase();
    fprintf(stderr, "gpussim: %s: %s\n", level, msg);
}

void cli_log_callback(void *opaque, enum gpussim_log_level level, const char *msg)
{
    (void)opaque;
    const char *name = level <= GPUSSIM_LOG_ERROR     ? "error"
                       : level <= GPUSSIM_LOG_WARNING ? "warning"
                       : level <= GPUSSIM_LOG_INFO    ? "info"
                       : level <= GPUSSIM_LOG_VERBOSE ? "verbose"
                                                      : "debug";
    cli_msg(name, "%s", msg);
}
