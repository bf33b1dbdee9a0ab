/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* The gpussim tool's command line (see options.h). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include "cli_msg.h"
#include "input_av.h"
#include "options.h"

static int parse_int(const char *s, long min, long max, int *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max)
        return -1;
    *out = (int)v;
    return 0;
}

/* ---- options ----------------------------------------------------------------- */

/* --pool: statistics joined by '+' or ',' (the filter's pool= spelling) */
static int parse_pool(const char *arg, unsigned *stats)
{
    static const struct { const char *name; unsigned flag; } known[] = {
        { "min", GPUSSIM_LOG_POOL_MIN }, { "max", GPUSSIM_LOG_POOL_MAX },
        { "mean", GPUSSIM_LOG_POOL_MEAN }, { "harmonic_mean", GPUSSIM_LOG_POOL_HARMONIC_MEAN },
        { "median", GPUSSIM_LOG_POOL_MEDIAN }, { "p5", GPUSSIM_LOG_POOL_P5 }, { "p1", GPUSSIM_LOG_POOL_P1 },
    };
    const char *p = arg;
    for (;;) {
        const size_t n = strcspn(p, "+,");
        size_t i = 0;
        while (i < sizeof(known) / sizeof(known[0]) && (strlen(known[i].name) != n || strncmp(p, known[i].name, n)))
            i++;
        if (i == sizeof(known) / sizeof(known[0])) {
            cli_error("--pool: unknown statistic '%.*s' in '%s' (min, max, mean, harmonic_mean, median, "
                      "p5, p1)", (int)n, p, arg);
            return -1;
        }
        *stats |= known[i].flag;
        if (!p[n])
            return 0;
        p += n + 1;
    }
}


/* Writes s with each ',' as sep. */
static void put_list(FILE *f, const char *s, const char *sep)
{
    for (size_t n; *s; s += n + (s[n] == ',')) {
        n = strcspn(s, ",");
        fprintf(f, "%.*s%s", (int)n, s, s[n] ? sep : "");
    }
}

/* --feature's lines, from the library's feature and option tables. */
static void usage_features(FILE *f)
{
    static const char pad[] = "                          ";
    for (int i = 0; gpussim_feature_get(i); i++) {
        const struct gpussim_feature_info *fi = gpussim_feature_get(i);
        fprintf(f, "%s%s%s", pad, fi->name, *fi->aliases ? "|" : "");
        put_list(f, fi->aliases, "|");
        if (*fi->options) {
            fputs(" (", f);
            put_list(f, fi->options, ", ");
            fputs(")", f);
        }
        fputs(",\n", f);
    }
    fprintf(f, "%sall; repeatable; default: all the frame size allows.\n", pad);
    /* each option's values, from the library's option table */
#define OPTION_VALUES(name, field, short_name, type, def, min, max, own_bit, help)                 \
    if (!strcmp(#type, "INT"))                                                                     \
        fprintf(f, "%s  %-12s %d..%d (default %d)\n", pad, #name, min, max, def);                  \
    else                                                                                           \
        fprintf(f, "%s  %-12s true, false, 1 or 0 (default %d)\n", pad, #name, def);
    GPUSSIM_FEATURE_OPTIONS(OPTION_VALUES)
#undef OPTION_VALUES
}

static void usage(FILE *f)
{
    fputs("usage: gpussim -r REF -d DIS [options]\n"
          "\n"
          "Scores DIS against REF with libvmaf's SSIM-family metrics (bit-identical values).\n"
          "Inputs are .y4m (format from the header), raw planar YUV (needs -w -h -p -b),\n"
          "or, when built with FFmpeg's libraries (make ffmpeg; gpussim --version says so),\n"
          "any file FFmpeg decodes (MP4, MKV, WebM, TS...: its first video stream; such\n"
          "inputs are paired by time, as the FFmpeg filter pairs them, unless\n"
          "--sync-window); '-' reads one of them from stdin.\n"
          "\n"
          "  -r, --reference FILE    reference video\n"
          "  -d, --distorted FILE    distorted video; repeat (up to 16) to score several\n"
          "                          renditions against one reference (a ladder log)\n"
          "  -w, --width N           raw input width\n"
          "  -h, --height N          raw input height\n"
          "  -p, --pixel-format F    raw chroma: 420, 422, 444 or 400 (gray)\n"
          "  -b, --bitdepth N        raw bit depth: 8, 10, 12 or 16 (>8: 16-bit little-endian)\n"
          "      --scale WxH|auto    scale decoded inputs of another size to WxH; auto: the\n"
          "                          distorted ones to the reference's size (bicubic, as\n"
          "                          FFmpeg's scale filter with flags=bicubic)\n"
          "      --feature NAME[=opt=val[:opt=val...]]\n",
          f);
    usage_features(f);
    fputs("      --backend B         ", f);
    for (int i = 0; gpussim_backend_type_name(i); i++)
        fprintf(f, "%s%s%s", i ? ", " : "", gpussim_backend_type_name(i), i ? "" : " (default)");
    fputs("\n"
          "      --device N          GPU index (default 0)\n"
          "      --threads N         CPU worker threads (default: number of CPUs)\n"
          "      --planes P          luma (default, as libvmaf) or all (adds .u/.v scores)\n"
          "      --json | --csv | --xml\n"
          "                          output format (default: -o's extension .json, .csv or\n"
          "                          .xml, else JSON; JSON and XML in libvmaf's layouts)\n"
          "      --pool LIST         pooled statistics in the output besides libvmaf's min,\n"
          "                          max, mean, harmonic_mean: median, p5, p1 (e.g.\n"
          "                          --pool median+p5; ',' or '+' between them)\n"
          "      --skip N            leave out the first N frame pairs (a chunk's start)\n"
          "      --frames N          score at most N frames (a chunk's length)\n"
          "      --skip-ref N        drop the reference's first N frames before pairing\n"
          "      --skip-dis N        drop each distorted input's first N frames before pairing\n"
          "      --sync-window N     find the frame offset between the inputs (-N..N, 1..240)\n"
          "                          on their first N+5 frames (after --skip-ref/--skip-dis;\n"
          "                          buffered), print it, and score with it; a ladder gets\n"
          "                          one offset per rendition\n"
          "      --repeat-last       when one input ends first, score the other's remaining\n"
          "                          frames against its last frame (warned, exit 0)\n"
          "      --shortest          when one input ends first, end there (warned, exit 0);\n"
          "                          the default, accepted for compatibility\n"
          "      --strict-length     when one input ends first, end there with an error\n"
          "                          (exit 1, the frames scored kept): for QC pipelines\n"
          "      --force-raw         read inputs without a y4m signature as raw YUV even if\n"
          "                          they start like a container, image or audio file\n"
          "  -o, --output FILE       write the log to FILE (as frames complete); never one\n"
          "                          of the inputs. '-o -' or none: stdout, unless stdout\n"
          "                          is a terminal (no -o: the table alone, no log)\n"
          "  -q, --quiet             no progress line or table; library messages only for\n"
          "                          warnings and errors\n"
          "  -v, --verbose           more library messages\n"
          "      --help, --version\n"
          "\n"
          "Pairing: the reference's frame i + skip-ref (+ the sync offset when positive)\n"
          "is scored against the distorted frame i + skip-dis (- the offset when\n"
          "negative); --skip and --frames then select pairs. Inputs of different length:\n"
          "the run ends with the shorter one and warns naming both counts (exit 0);\n"
          "--repeat-last scores to the end of the longer one, --strict-length makes\n"
          "the difference an error (exit 1).\n"
          "\n"
          "Exit status: 0 scored (also when an input ended first: warned); 1 the run\n"
          "began (the output holds every frame scored) and stopped on an error: an input\n"
          "truncated or corrupt after its first frame, inputs of different length with\n"
          "--strict-length, a device or library failure, a write error;\n"
          "2 nothing was scored and the output was not touched: a usage error, an\n"
          "unusable input (unsupported, compressed, empty or no frame left after the\n"
          "skips), -o naming an input, a configuration the library refuses;\n"
          "128+N stopped by signal N (the output is complete for the frames scored).\n"
          "\n"
          "usage: gpussim merge CHUNK.json... -o WHOLE.json | --recover CUT.json -o LOG.json\n"
          "Merges the logs of consecutive chunks (scored with --skip/--frames, or FFmpeg's\n"
          "-ss -copyts/trim/-frames:v) into the log of the whole input: chunks ordered by\n"
          "first frame (or time), overlaps and gaps refused, pooled metrics exactly those of\n"
          "one run over the whole input. --recover CUT.json -o LOG.json rewrites a log cut\n"
          "off by a killed run as a complete log of its complete frames.\n"
          "\n"
          "usage: gpussim plot LOG.json... -o REPORT.html|REPORT.svg\n"
          "Draws logs: per-frame curves, pooled values, worst frames (gpussim plot --help).\n",
          f);
}

enum {
    OPT_FEATURE = 256,
    OPT_BACKEND,
    OPT_DEVICE,
    OPT_THREADS,
    OPT_PLANES,
    OPT_JSON,
    OPT_CSV,
    OPT_XML,
    OPT_POOL,
    OPT_SKIP,
    OPT_FRAMES,
    OPT_SKIP_REF,
    OPT_SKIP_DIS,
    OPT_SYNC_WINDOW,
    OPT_REPEAT_LAST,
    OPT_SHORTEST,
    OPT_STRICT_LENGTH,
    OPT_FORCE_RAW,
    OPT_SCALE,
    OPT_HELP,
    OPT_VERSION,
};

/* @return 0 to run, 1 to exit successfully (--help/--version), -1 on a usage error */
int cli_parse_options(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        { "reference", required_argument, NULL, 'r' },
        { "distorted", required_argument, NULL, 'd' },
        { "width", required_argument, NULL, 'w' },
        { "height", required_argument, NULL, 'h' },
        { "pixel-format", required_argument, NULL, 'p' },
        { "bitdepth", required_argument, NULL, 'b' },
        { "output", required_argument, NULL, 'o' },
        { "quiet", no_argument, NULL, 'q' },
        { "verbose", no_argument, NULL, 'v' },
        { "feature", required_argument, NULL, OPT_FEATURE },
        { "backend", required_argument, NULL, OPT_BACKEND },
        { "device", required_argument, NULL, OPT_DEVICE },
        { "threads", required_argument, NULL, OPT_THREADS },
        { "planes", required_argument, NULL, OPT_PLANES },
        { "json", no_argument, NULL, OPT_JSON },
        { "csv", no_argument, NULL, OPT_CSV },
        { "xml", no_argument, NULL, OPT_XML },
        { "pool", required_argument, NULL, OPT_POOL },
        { "skip", required_argument, NULL, OPT_SKIP },
        { "frames", required_argument, NULL, OPT_FRAMES },
        { "skip-ref", required_argument, NULL, OPT_SKIP_REF },
        { "skip-dis", required_argument, NULL, OPT_SKIP_DIS },
        { "sync-window", required_argument, NULL, OPT_SYNC_WINDOW },
        { "repeat-last", no_argument, NULL, OPT_REPEAT_LAST },
        { "shortest", no_argument, NULL, OPT_SHORTEST },
        { "strict-length", no_argument, NULL, OPT_STRICT_LENGTH },
        { "force-raw", no_argument, NULL, OPT_FORCE_RAW },
        { "scale", required_argument, NULL, OPT_SCALE },
        { "help", no_argument, NULL, OPT_HELP },
        { "version", no_argument, NULL, OPT_VERSION },
        { NULL, 0, NULL, 0 },
    };
    int ch;

    memset(o, 0, sizeof(*o));
    gpussim_default_params(&o->params);
    o->params.log_cb = cli_log_callback;
    opterr = 0; /* our own messages */
    while ((ch = getopt_long(argc, argv, ":r:d:w:h:p:b:o:qv", longopts, NULL)) != -1) {
        switch (ch) {
        case 'r':
            if (o->ref_path) {
                cli_error("-r given twice ('%s' and '%s'): one reference per run (-d repeated "
                          "scores several distorted inputs against it)",
                          o->ref_path, optarg);
                return -1;
            }
            o->ref_path = optarg;
            break;
        case 'd':
            if (o->nb_dis == GPUSSIM_MAX_DISTORTED) {
                cli_error("-d: at most %d distorted inputs per reference", GPUSSIM_MAX_DISTORTED);
                return -1;
            }
            o->dis_paths[o->nb_dis++] = optarg;
            o->dis_path = o->dis_paths[0];
            break;
        case 'o':
            if (o->out_path) {
                cli_error("-o given twice ('%s' and '%s'): one output per run", o->out_path, optarg);
                return -1;
            }
            o->out_path = optarg;
            break;
        case 'q': o->quiet = 1; break;
        case 'v': o->verbose = 1; break;
        case 'w':
            if (parse_int(optarg, 1, 32768, &o->width) < 0) {
                cli_error("-w: width must be 1..32768, got '%s'", optarg);
                return -1;
            }
            break;
        case 'h':
            if (parse_int(optarg, 1, 32768, &o->height) < 0) {
                cli_error("-h: height must be 1..32768, got '%s'", optarg);
                return -1;
            }
            break;
        case 'p':
            if (parse_int(optarg, 0, 999, &o->pix) < 0 ||
                (o->pix != 420 && o->pix != 422 && o->pix != 444 && o->pix != 400)) {
                cli_error("-p: pixel format must be 420, 422, 444 or 400, got '%s'", optarg);
                return -1;
            }
            break;
        case 'b':
            if (parse_int(optarg, 1, 64, &o->bit_depth) < 0 ||
                (o->bit_depth != 8 && o->bit_depth != 10 && o->bit_depth != 12 && o->bit_depth != 16)) {
                cli_error("-b: unsupported bit depth '%s' (8, 10, 12 or 16)", optarg);
                return -1;
            }
            break;
        case OPT_FEATURE:
            /* the library names the problem through cli_log_callback */
            if (gpussim_use_feature(&o->params, optarg) < 0)
                return -1;
            break;
        case OPT_BACKEND:
            if (gpussim_backend_from_name(optarg, &o->backend) < 0) {
                char list[128];
                size_t n = 0;
                list[0] = '\0';
                for (int i = 0; gpussim_backend_type_name((enum gpussim_backend_type)i); i++)
                    n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
                                          gpussim_backend_type_name((enum gpussim_backend_type)i));
                cli_error("--backend: unknown backend '%s' (%s)", optarg, list);
                return -1;
            }
            break;
        case OPT_SKIP:
        case OPT_SKIP_REF:
        case OPT_SKIP_DIS:
        case OPT_FRAMES: {
            const char *name = ch == OPT_SKIP ? "skip" : ch == OPT_SKIP_REF ? "skip-ref"
                             : ch == OPT_SKIP_DIS ? "skip-dis" : "frames";
            char *end;
            errno = 0;
            const unsigned long long v = strtoull(optarg, &end, 10);
            if (errno || end == optarg || *end || optarg[0] == '-' || (ch == OPT_FRAMES && v == 0)) {
                cli_error("--%s: expected a frame count%s, got '%s'", name,
                          ch == OPT_FRAMES ? " >= 1" : " >= 0", optarg);
                return -1;
            }
            *(ch == OPT_SKIP ? &o->skip : ch == OPT_SKIP_REF ? &o->skip_ref
              : ch == OPT_SKIP_DIS ? &o->skip_dis : &o->frames) = v;
            break;
        }
        case OPT_SYNC_WINDOW:
            if (parse_int(optarg, 1, GPUSSIM_SYNC_MAX_WINDOW, &o->sync_window) < 0) {
                cli_error("--sync-window: expected a frame count 1..%d (offsets -N..N are tried), "
                          "got '%s'",
                          GPUSSIM_SYNC_MAX_WINDOW, optarg);
                return -1;
            }
            break;
        case OPT_REPEAT_LAST: o->repeat_last = 1; break;
        case OPT_SHORTEST: o->shortest = 1; break;
        case OPT_STRICT_LENGTH: o->strict_length = 1; break;
        case OPT_FORCE_RAW: o->force_raw = 1; break;
        case OPT_SCALE: {
            char *end;
            long w = 0, h = 0;
            if (!strcmp(optarg, "auto")) {
                o->scale_auto = 1;
                break;
            }
            w = strtol(optarg, &end, 10);
            if (end != optarg && *end == 'x')
                h = strtol(end + 1, &end, 10);
            if (*end || w < 1 || w > 32768 || h < 1 || h > 32768) {
                cli_error("--scale: expected WIDTHxHEIGHT (1..32768 each) or auto, got '%s'", optarg);
                return -1;
            }
            o->scale_width = (int)w;
            o->scale_height = (int)h;
            break;
        }
        case OPT_DEVICE:
            if (parse_int(optarg, 0, 1024, &o->device) < 0) {
                cli_error("--device: expected a device index >= 0, got '%s'", optarg);
                return -1;
            }
            o->device_given = 1;
            break;
        case OPT_THREADS:
            if (parse_int(optarg, 0, 256, &o->threads) < 0) {
                cli_error("--threads: expected 0 (all CPUs) to 256, got '%s'", optarg);
                return -1;
            }
            break;
        case OPT_PLANES:
            if (!strcmp(optarg, "luma"))
                o->planes = GPUSSIM_PLANES_LUMA;
            else if (!strcmp(optarg, "all"))
                o->planes = GPUSSIM_PLANES_ALL;
            else {
                cli_error("--planes: expected luma or all, got '%s'", optarg);
                return -1;
            }
            break;
        case OPT_JSON:
        case OPT_CSV:
        case OPT_XML: {
            const enum gpussim_log_format f = ch == OPT_JSON ? GPUSSIM_LOG_FORMAT_JSON
                                            : ch == OPT_CSV ? GPUSSIM_LOG_FORMAT_CSV : GPUSSIM_LOG_FORMAT_XML;
            if (o->format_given && o->format != f) {
                cli_error("%s: only one of --json, --csv and --xml", argv[optind - 1]);
                return -1;
            }
            o->format = f;
            o->format_given = 1;
            break;
        }
        case OPT_POOL:
            if (parse_pool(optarg, &o->pool_stats) < 0)
                return -1;
            break;
        case OPT_HELP: usage(stdout); return 1;
        case OPT_VERSION:
            if (cli_av_version())
                printf("gpussim %s, decoding with %s\n", PACKAGE_VERSION, cli_av_version());
            else
                printf("gpussim %s, without FFmpeg's libraries (y4m and raw input only)\n", PACKAGE_VERSION);
            return 1;
        case ':':
            cli_error("option %s needs a value", argv[optind - 1]);
            return -1;
        default:
            cli_error("unknown option '%s' (see --help)", argv[optind - 1]);
            return -1;
        }
    }
    if (optind < argc) {
        cli_error("unexpected argument '%s' (inputs are given with -r and -d)", argv[optind]);
        return -1;
    }
    if (!o->format_given && o->out_path)
        gpussim_log_format_from_path(o->out_path, &o->format);
    if (!o->ref_path || !o->dis_path) {
        cli_error("both -r REF and -d DIS are required (see --help)");
        return -1;
    }
    int from_stdin = !strcmp(o->ref_path, "-");
    for (int i = 0; i < o->nb_dis; i++)
        from_stdin += !strcmp(o->dis_paths[i], "-");
    if (from_stdin > 1) {
        cli_error("only one input can be read from stdin");
        return -1;
    }
    if (o->repeat_last + o->shortest + o->strict_length > 1) {
        const char *a = o->repeat_last ? "--repeat-last" : "--shortest";
        const char *b = o->strict_length ? "--strict-length" : "--shortest";
        cli_error("%s and %s contradict each other: when one input ends first, the run %s", a, b,
                  o->repeat_last ? "either goes on with its last frame or ends there"
                                 : "either ends there with a warning or with an error");
        return -1;
    }
    if (o->device_given && o->backend == GPUSSIM_BACKEND_CPU) {
        cli_error("--device %d: the cpu backend has no devices (--device picks a GPU for the cuda, "
                  "vulkan, hip and ze backends)",
                  o->device);
        return -1;
    }
    return 0;
}


enum gpussim_chroma cli_chroma_from_pix(int pix)
{
    switch (pix) {
    case 422: return GPUSSIM_CHROMA_422;
    case 444: return GPUSSIM_CHROMA_444;
    case 400: return GPUSSIM_CHROMA_GRAY;
    default: return GPUSSIM_CHROMA_420;
    }
}
