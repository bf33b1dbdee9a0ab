/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Which frames of the inputs the gpussim tool scores together: frames of one
 * input dropped before pairing (--skip-ref, --skip-dis), the frame offset
 * found by the library's search (--sync-window, gpussim_sync_*), and what
 * happens when one input ends first (the run ends there, warned, or an
 * error with --strict-length; --repeat-last repeats its last frame instead).
 *
 * The inputs are in[0] (the reference) and in[1..nb_in-1] (the distorted
 * ones, a ladder when there are several). Frames read for the search are
 * kept in a queue per input and served before the file's next frames; every
 * frame served is in the input's buffer (in->buf), where
 * cli_input_picture() points.
 */
#ifndef GPUSSIM_TOOLS_PAIRING_H
#define GPUSSIM_TOOLS_PAIRING_H

#include <signal.h>
#include <stdint.h>

#include <gpussim/gpussim.h>

#include "input.h"

#define CLI_MAX_INPUTS (1 + GPUSSIM_MAX_DISTORTED)

struct cli_frame_queue {
    unsigned char **frames;
    int nb, pos; /* frames held, the next one served */
};

struct cli_pairing {
    struct cli_input **in;
    int nb_in;
    int repeat_last;
    /* a stop signal arrived: a failed read is the interruption, not an error */
    volatile sig_atomic_t *stop;
    struct cli_frame_queue queue[CLI_MAX_INPUTS];
    int ended[CLI_MAX_INPUTS];         /* the input gave its last frame */
    uint64_t served[CLI_MAX_INPUTS];   /* frames paired so far (skips included) */
    uint64_t repeated[CLI_MAX_INPUTS]; /* pairs that reused the last frame (--repeat-last) */
    uint64_t skipped[CLI_MAX_INPUTS];  /* frames dropped before pairing */
    uint64_t pairs;                    /* pairs served */
    /* the run ended with a shorter input (the others had more): the inputs
     * that ended first are flagged in ended[] */
    int short_end;
    /* --sync-window: the offset of each distorted input (sync_offset[k - 1]
     * for in[k]) */
    int has_sync;
    int sync_offset[GPUSSIM_MAX_DISTORTED];
};

/** Zero-initialises p for the inputs (in[0] the reference). */
void cli_pairing_init(struct cli_pairing *p, struct cli_input **in, int nb_in, int repeat_last,
                      volatile sig_atomic_t *stop);

/** Drops n frames of input i before pairing; what names the option in
 *  messages ("--skip-ref 40"). @return 0; -1 the input ended first or an
 *  error (reported); -2 interrupted. */
int cli_pairing_drop(struct cli_pairing *p, int i, uint64_t n, const char *what);

/** --sync-window: reads the first gpussim_sync_frames() frames of every
 *  input (kept for scoring), finds each distorted input's offset against
 *  the reference, reports it (unless quiet; verbose adds the search's line
 *  per offset), and drops the frames that
 *  align the inputs. @return 0, -1 (reported), -2 interrupted. */
int cli_pairing_sync(struct cli_pairing *p, const struct cli_video_format *fmt, int window, int quiet,
                     int verbose);

/** Makes the next pair (every input's frame) current in the inputs' buffers.
 *  @return 1 a pair; 0 the end (every input ended, or one ended and
 *  repeat_last is off: short_end set); -1 an error (reported); -2
 *  interrupted by a stop signal (nothing reported). */
int cli_pairing_next(struct cli_pairing *p);

/** Forgets the repeat counts (after --skip's pairs, which are not scored). */
void cli_pairing_reset_counts(struct cli_pairing *p);

/** The end-of-run messages about input lengths: with short_end a warning
 *  (an error with strict, --strict-length, or when nothing was scored)
 *  naming each input that ended first, its count and the others'; with
 *  repeated frames a warning per input.
 *  @return 1 when short_end makes the run's status an error (strict), else 0. */
int cli_pairing_report_end(const struct cli_pairing *p, uint64_t scored, int strict);

void cli_pairing_free(struct cli_pairing *p);

#endif /* GPUSSIM_TOOLS_PAIRING_H */
