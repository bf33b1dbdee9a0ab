/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Messages of the gpussim tool: "gpussim: <level>: <text>" on stderr. */
#ifndef GPUSSIM_TOOLS_CLI_MSG_H
#define GPUSSIM_TOOLS_CLI_MSG_H

#include <gpussim/gpussim.h>

#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

void cli_msg(const char *level, const char *fmt, ...) CLI_PRINTF(2, 3);
#define cli_error(...) cli_msg("error", __VA_ARGS__)

/** Where messages go; NULL (default): stderr. The fuzz targets silence them. */
extern void (*cli_msg_sink)(const char *level, const char *msg);

/** The library's log callback: its messages as the tool's. */
void cli_log_callback(void *opaque, enum gpussim_log_level level, const char *msg);

#endif /* GPUSSIM_TOOLS_CLI_MSG_H */
