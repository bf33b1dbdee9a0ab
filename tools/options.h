/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The gpussim tool's command line. Feature strings (NAME[=opt=val[:opt=val...]])
 * go to the library's gpussim_use_feature(), which owns the names, options
 * and defaults. Kept apart from the pipeline so that the fuzz targets
 * (tests/fuzz/) can drive the parser alone.
 */
#ifndef GPUSSIM_TOOLS_OPTIONS_H
#define GPUSSIM_TOOLS_OPTIONS_H

#include <stdio.h>

#include <gpussim/gpussim.h>
#include <gpussim/gpussim_log.h>

#include "input.h"

struct options {
    const char *ref_path, *dis_path, *out_path;
    /* -d given several times: a ladder, every one scored against -r in one
     * library submit (dis_path is dis_paths[0]) */
    const char *dis_paths[GPUSSIM_MAX_DISTORTED];
    int nb_dis;
    int width, height, pix, bit_depth; /* 0 = not given */
    /* features and their options (gpussim_use_feature); metrics = 0 when no
     * --feature was given: the library's default rule */
    struct gpussim_params params;
    enum gpussim_backend_type backend;
    int device, threads;
    int device_given; /* --device on the command line */
    enum gpussim_planes planes;
    enum gpussim_log_format format;
    int format_given;     /* --json/--csv/--xml; else -o's extension, else JSON */
    unsigned pool_stats;  /* --pool: enum gpussim_log_pool_stat bits (0: libvmaf's four) */
    uint64_t skip;   /* --skip: frame pairs left out at the start (a chunk's start) */
    uint64_t frames; /* --frames: at most this many frames scored; 0 = all */
    /* pairing (tools/pairing.c): frames of one input dropped before the
     * pairs are formed, the offset search, and what ends the run */
    uint64_t skip_ref, skip_dis; /* --skip-ref, --skip-dis */
    int sync_window;             /* --sync-window N; 0 = off */
    int repeat_last;             /* --repeat-last: the shorter input's last frame repeated */
    int shortest;                /* --shortest: the default, accepted for compatibility */
    int strict_length;           /* --strict-length: inputs of different length are an error */
    int force_raw;               /* --force-raw: no container/image detection */
    /* --scale WxH or auto (scale_auto: the reference's size): decoded
     * inputs of another size are scaled (bicubic); 0 = off */
    int scale_width, scale_height, scale_auto;
    int quiet, verbose;
};

/** @return 0 to run, 1 to exit successfully (--help/--version), -1 on a usage
 *  error (reported). Uses getopt_long: set optind = 0 before parsing again. */
int cli_parse_options(int argc, char **argv, struct options *o);

/** Raw input chroma from -p (420, 422, 444, 400). */
enum gpussim_chroma cli_chroma_from_pix(int pix);

#endif /* GPUSSIM_TOOLS_OPTIONS_H */
