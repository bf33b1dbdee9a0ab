/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * What the gpussim tool shows a person, on stderr: a progress line while it
 * scores (on a terminal only: frames, percentage and ETA when the length is
 * known) and the pooled table at the end. The log itself goes to -o or
 * stdout and never holds any of this.
 */
#ifndef GPUSSIM_TOOLS_TERMINAL_H
#define GPUSSIM_TOOLS_TERMINAL_H

#include <stdint.h>
#include <stdio.h>

#include <gpussim/gpussim_log.h>

struct cli_progress {
    int enabled;
    uint64_t total; /* pairs expected (an estimate), 0 unknown */
    double start, last;
};

/** Starts the clock; enabled: stderr is a terminal and not -q. */
void cli_progress_start(struct cli_progress *p, int enabled, uint64_t total);

/** Redraws the line (at most twice a second). */
void cli_progress_update(struct cli_progress *p, uint64_t frames);

/** Erases the line (before the table or a message). */
void cli_progress_end(struct cli_progress *p);

/** Erases a shown progress line before a message (cli_msg calls it). */
void cli_progress_erase(void);

/** The pooled table: one row per score (mean, min, max, harmonic mean), a
 *  block per rendition of a ladder, labelled with its file; the first line
 *  says frames, time, fps and backend. */
void cli_print_table(FILE *f, const GpussimLogWriter *log, const char *const *names, int nb_names,
                     int nb_renditions, const char *const *labels, const char *backend, double seconds);

#endif /* GPUSSIM_TOOLS_TERMINAL_H */
