/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* Shared helpers of the C test programs: checks with counts, fixtures,
 * generated frames in every layout, and running a context over frames. */
#ifndef GPUSSIM_TESTUTIL_H
#define GPUSSIM_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "gpussim/gpussim.h"

#define TEST_SKIP 77

extern int test_passed, test_failed;

/* Counts one check; prints the failure with its location. */
#define CHECK(cond, ...) test_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
void test_check(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Prints "N passed, M failed" and returns the exit status. */
int test_summary(void);

/* ---- log capture ---------------------------------------------------------- */
/* A log callback that keeps the last error message (and prints at verbose). */
void test_log_cb(void *opaque, enum gpussim_log_level level, const char *msg);
extern char test_last_error[1024];

/* ---- frames --------------------------------------------------------------- */

/* A frame in true sample values, one plane per component. */
struct test_frame {
    int w, h, cw, ch, nb_comp;
    uint16_t *comp[3];
};

/* Storage in a given layout for the library (host memory). */
struct test_packed {
    uint8_t *plane[3];
    ptrdiff_t stride[3];
    struct gpussim_picture pic;
};

int test_frame_alloc(struct test_frame *f, const struct gpussim_format *fmt);
void test_frame_free(struct test_frame *f);
/* Packs f into the memory layout of fmt (planar/semi-planar, 8/16-bit
 * words, MSB alignment); strides are padded to exercise pitch handling. */
int test_pack(const struct test_frame *f, const struct gpussim_format *fmt, struct test_packed *out);
void test_packed_free(struct test_packed *p);

/* Deterministic generator. */
uint32_t test_rand(uint64_t *state);

enum test_pattern {
    PATTERN_RANDOM,      /* uniform over the depth */
    PATTERN_FLAT,        /* one value */
    PATTERN_MAX,         /* every sample at the maximum */
    PATTERN_ZERO,
    PATTERN_CHECKER,     /* 0 / max checkerboard of 3x3 cells */
    PATTERN_GRADIENT,    /* smooth ramp with a little noise */
};
void test_fill(struct test_frame *f, int bit_depth, enum test_pattern pat, uint64_t seed);
/* dis = ref + bounded noise (clipped), so scores are in a realistic range. */
void test_distort(const struct test_frame *ref, struct test_frame *dis, int bit_depth, int amplitude,
                  uint64_t seed);

/* ---- running ---------------------------------------------------------------- */

/* Scores nb pairs with params; values[frame * nb_scores + k]. Returns the
 * number of scores per frame or a negative error (create/submit/collect). */
int test_score(const struct gpussim_params *params, const struct gpussim_picture *refs,
               const struct gpussim_picture *dis, int nb, double **values, char ***names);
void test_free_names(char **names, int n);

/* ---- fixtures --------------------------------------------------------------- */

/* The libvmaf fixtures folder: GPUSSIM_FIXTURES when set, else tests/fixtures
 * of the source tree (the environment's GPUSSIM_SRCDIR, else the one
 * Makefile.am compiles in, else relative to the working folder). The files
 * are part of every checkout: when they are missing this counts a failed
 * check naming the path, and returns NULL. */
const char *test_fixtures_dir(void);
/* Reads a whole file; NULL on failure. */
uint8_t *test_read_file(const char *path, size_t *size);

/* Expected values of one fixture JSON: frames x keys. */
struct test_expected {
    int nb_frames, nb_keys;
    char (*keys)[64];
    double *values; /* [frame * nb_keys + key] */
};
int test_expected_load(const char *path, struct test_expected *e);
void test_expected_free(struct test_expected *e);
/* Value of key in frame, or NAN with *found = 0. */
double test_expected_get(const struct test_expected *e, int frame, const char *key, int *found);

#endif /* GPUSSIM_TESTUTIL_H */
