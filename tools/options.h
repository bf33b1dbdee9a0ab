/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The gpussim tool's command line: options, libvmaf-style feature strings
 * (NAME[=opt=val[:opt=val...]]), and how the requested features map onto
 * library contexts. Kept apart from the pipeline so that the fuzz targets
 * (tests/fuzz/) can drive the parser alone.
 */
#ifndef GPUSSIM_TOOLS_OPTIONS_H
#define GPUSSIM_TOOLS_OPTIONS_H

#include <stdio.h>

#include <gpussim/gpussim.h>

#include "input.h"
#include "output.h"

enum feature_id {
    FEAT_FLOAT_SSIM = 0,
    FEAT_FLOAT_MS_SSIM,
    FEAT_FLOAT_ANSNR,
    FEAT_SSIM,
    FEAT_COUNT,
};

struct feature_info {
    const char *name;
    const char *alias;
    unsigned metric;
    const char *options; /* for messages */
};
extern const struct feature_info cli_features[FEAT_COUNT];

struct feature_request {
    int requested;
    int named; /* given by name (with its options), not only through "all" */
    int enable_lcs, enable_db, clip_db;
    int scale; /* float_ssim only; 0 = auto */
};

/* ---- option groups: one library context each -------------------------------- */

/*
 * The library has one option set per context. enable_lcs only adds keys, so
 * a shared context computes them when any feature asks and the tool prints
 * each feature's keys only where that feature asked for them. enable_db and
 * clip_db change float_ssim's and float_ms_ssim's main values, so when the two
 * features disagree on them they run in two contexts on the same frames.
 */
struct cli_group_plan {
    unsigned metrics;
    int enable_lcs, enable_db, clip_db, ssim_scale;
};

#define CLI_MAX_GROUPS 2

void cli_plan_groups(const struct feature_request req[FEAT_COUNT], struct cli_group_plan g[CLI_MAX_GROUPS],
                     int *nb_groups);

/** Is a library score name one of the keys the requested features print in libvmaf? */
int cli_name_is_printed(const char *name, const struct feature_request req[FEAT_COUNT]);

struct options {
    const char *ref_path, *dis_path, *out_path;
    int width, height, pix, bit_depth; /* 0 = not given */
    struct feature_request feat[FEAT_COUNT];
    enum gpussim_backend_type backend;
    int device, threads;
    int device_given; /* --device on the command line */
    int default_features; /* no --feature: every metric the frame size allows */
    enum gpussim_planes planes;
    enum cli_output_format format;
    int quiet, verbose;
};

/** @return 0 to run, 1 to exit successfully (--help/--version), -1 on a usage
 *  error (reported). Uses getopt_long: set optind = 0 before parsing again. */
int cli_parse_options(int argc, char **argv, struct options *o);

/** Raw input chroma from -p (420, 422, 444, 400). */
enum gpussim_chroma cli_chroma_from_pix(int pix);

/** Without --feature: leaves out (with a warning) what the frame size does not allow. */
void cli_apply_default_features(struct options *o, const struct cli_video_format *fmt);

#endif /* GPUSSIM_TOOLS_OPTIONS_H */
