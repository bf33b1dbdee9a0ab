/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* The gpussim tool's command line (see options.h). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include "cli_msg.h"
#include "options.h"

const struct feature_info cli_features[FEAT_COUNT] = {
    [FEAT_FLOAT_SSIM] = { "float_ssim", NULL, GPUSSIM_METRIC_FLOAT_SSIM,
                          "scale, enable_lcs, enable_db, clip_db" },
    [FEAT_FLOAT_MS_SSIM] = { "float_ms_ssim", "ms_ssim", GPUSSIM_METRIC_FLOAT_MS_SSIM,
                             "enable_lcs, enable_db, clip_db" },
    [FEAT_FLOAT_ANSNR] = { "float_ansnr", "ansnr", GPUSSIM_METRIC_FLOAT_ANSNR, "none" },
    [FEAT_SSIM] = { "ssim", NULL, GPUSSIM_METRIC_SSIM, "none" },
};


static int parse_bool(const char *v, int *out)
{
    if (!strcmp(v, "true") || !strcmp(v, "1")) {
        *out = 1;
        return 0;
    }
    if (!strcmp(v, "false") || !strcmp(v, "0")) {
        *out = 0;
        return 0;
    }
    return -1;
}

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

static int parse_feature_option(enum feature_id id, struct feature_request *req, char *opt)
{
    const char *fname = cli_features[id].name;
    char *eq = strchr(opt, '=');
    if (!eq) {
        cli_error("--feature %s: option '%s' has no value (write %s=<value>)", fname, opt, opt);
        return -1;
    }
    *eq = '\0';
    const char *key = opt, *val = eq + 1;
    int *flag = NULL;
    if (id == FEAT_FLOAT_SSIM && !strcmp(key, "scale")) {
        if (parse_int(val, 0, 10, &req->scale) < 0) {
            cli_error("--feature float_ssim: scale must be 0 (auto) to 10, got '%s'", val);
            return -1;
        }
        return 0;
    }
    if (id == FEAT_FLOAT_SSIM || id == FEAT_FLOAT_MS_SSIM) {
        if (!strcmp(key, "enable_lcs"))
            flag = &req->enable_lcs;
        else if (!strcmp(key, "enable_db"))
            flag = &req->enable_db;
        else if (!strcmp(key, "clip_db"))
            flag = &req->clip_db;
    }
    if (!flag) {
        cli_error("--feature %s: unknown option '%s' (options: %s)", fname, key, cli_features[id].options);
        return -1;
    }
    if (parse_bool(val, flag) < 0) {
        cli_error("--feature %s: %s must be true, false, 1 or 0, got '%s'", fname, key, val);
        return -1;
    }
    return 0;
}

/* NAME[=opt=val[:opt=val...]] */
static int parse_feature(const char *arg, struct feature_request req[FEAT_COUNT])
{
    char buf[512];
    if (strlen(arg) >= sizeof(buf)) {
        cli_error("--feature argument is too long");
        return -1;
    }
    strcpy(buf, arg);
    char *opts = strchr(buf, '=');
    if (opts)
        *opts++ = '\0';

    if (!strcmp(buf, "all")) {
        if (opts) {
            cli_error("--feature all takes no options; give the feature by name to set options");
            return -1;
        }
        /* features named elsewhere on the command line keep their options */
        for (int i = 0; i < FEAT_COUNT; i++)
            req[i].requested = 1;
        return 0;
    }

    int id = -1;
    for (int i = 0; i < FEAT_COUNT; i++)
        if (!strcmp(buf, cli_features[i].name) || (cli_features[i].alias && !strcmp(buf, cli_features[i].alias)))
            id = i;
    if (id < 0) {
        cli_error("unknown feature '%s' (features: float_ssim, ssim, float_ms_ssim (ms_ssim), "
                  "float_ansnr (ansnr), all)",
                  buf);
        return -1;
    }
    struct feature_request r = { .requested = 1, .named = 1 };
    if (opts) {
        char *save = NULL;
        for (char *o = strtok_r(opts, ":", &save); o; o = strtok_r(NULL, ":", &save))
            if (parse_feature_option((enum feature_id)id, &r, o) < 0)
                return -1;
    }
    /* a second mention with the same options is harmless; different options
     * would need two instances of one feature, which gpussim does not run */
    if (req[id].named && memcmp(&req[id], &r, sizeof(r))) {
        cli_error("--feature %s is given twice with different options", cli_features[id].name);
        return -1;
    }
    req[id] = r;
    return 0;
}

/* ---- option groups --------------------------------------------------------- */

static int db_key(const struct feature_request *r)
{
    /* clip_db only matters with enable_db */
    return r->enable_db ? 1 + r->clip_db : 0;
}

void cli_plan_groups(const struct feature_request req[FEAT_COUNT], struct cli_group_plan g[CLI_MAX_GROUPS],
                     int *nb_groups)
{
    const struct feature_request *fs = &req[FEAT_FLOAT_SSIM], *ms = &req[FEAT_FLOAT_MS_SSIM];
    int n = 1;
    memset(g, 0, sizeof(*g) * CLI_MAX_GROUPS);
    /* group 0 holds float_ssim; MS-SSIM, ANSNR and ssim go last so the key
     * order stays libvmaf's (float_ssim, float_ms_ssim, float_ansnr, ssim) */
    if (fs->requested && ms->requested && db_key(fs) != db_key(ms))
        n = 2;
    for (int i = 0; i < FEAT_COUNT; i++) {
        if (!req[i].requested)
            continue;
        struct cli_group_plan *gi = (i == FEAT_FLOAT_SSIM) ? &g[0] : &g[n - 1];
        gi->metrics |= cli_features[i].metric;
        gi->enable_lcs |= req[i].enable_lcs;
        if (i == FEAT_FLOAT_SSIM)
            gi->ssim_scale = req[i].scale;
        if (i == FEAT_FLOAT_SSIM || i == FEAT_FLOAT_MS_SSIM) {
            gi->enable_db = req[i].enable_db;
            gi->clip_db = req[i].enable_db && req[i].clip_db;
        }
    }
    *nb_groups = n;
}

/* Is a library score name one of the keys the requested features print in libvmaf? */
int cli_name_is_printed(const char *name, const struct feature_request req[FEAT_COUNT])
{
    char base[64];
    snprintf(base, sizeof(base), "%s", name);
    char *dot = strchr(base, '.'); /* planes=all: ".u" / ".v" suffixes */
    if (dot)
        *dot = '\0';
    if (!strcmp(base, "float_ssim"))
        return req[FEAT_FLOAT_SSIM].requested;
    if (!strncmp(base, "float_ssim_", 11))
        return req[FEAT_FLOAT_SSIM].requested && req[FEAT_FLOAT_SSIM].enable_lcs;
    if (!strcmp(base, "float_ms_ssim"))
        return req[FEAT_FLOAT_MS_SSIM].requested;
    if (!strncmp(base, "float_ms_ssim_", 14))
        return req[FEAT_FLOAT_MS_SSIM].requested && req[FEAT_FLOAT_MS_SSIM].enable_lcs;
    if (!strcmp(base, "float_ansnr") || !strcmp(base, "float_anpsnr"))
        return req[FEAT_FLOAT_ANSNR].requested;
    if (!strcmp(base, "ssim"))
        return req[FEAT_SSIM].requested;
    return 0;
}

/* ---- options ----------------------------------------------------------------- */


static void usage(FILE *f)
{
    fputs("usage: gpussim -r REF -d DIS [options]\n"
          "       gpussim plot LOG.json... -o REPORT.html|REPORT.svg   (gpussim plot --help)\n"
          "\n"
          "Scores DIS against REF with libvmaf's SSIM-family metrics (bit-identical values).\n"
          "Inputs are .y4m (format from the header) or raw planar YUV (needs -w -h -p -b);\n"
          "'-' reads one of them from stdin. Compressed video goes through FFmpeg:\n"
          "  ffmpeg -i dis.mp4 -strict -1 -f yuv4mpegpipe - | gpussim -r ref.y4m -d -\n"
          "\n"
          "  -r, --reference FILE    reference video\n"
          "  -d, --distorted FILE    distorted video\n"
          "  -w, --width N           raw input width\n"
          "  -h, --height N          raw input height\n"
          "  -p, --pixel-format F    raw chroma: 420, 422, 444 or 400 (gray)\n"
          "  -b, --bitdepth N        raw bit depth: 8, 10, 12 or 16 (>8: 16-bit little-endian)\n"
          "      --feature NAME[=opt=val[:opt=val...]]\n"
          "                          float_ssim (scale, enable_lcs, enable_db, clip_db),\n"
          "                          float_ms_ssim|ms_ssim (enable_lcs, enable_db, clip_db),\n"
          "                          float_ansnr|ansnr (also float_anpsnr), ssim, all;\n"
          "                          repeatable; default: all\n"
          "      --backend B         auto (default), cpu, cuda, vulkan, hip, ze\n"
          "      --device N          GPU index (default 0)\n"
          "      --threads N         CPU worker threads (default: number of CPUs)\n"
          "      --planes P          luma (default, as libvmaf) or all (adds .u/.v scores)\n"
          "      --json | --csv      output format (default JSON, libvmaf's layout)\n"
          "  -o, --output FILE       write scores to FILE instead of stdout (as frames complete)\n"
          "  -q, --quiet             no progress, library messages only for warnings and errors\n"
          "  -v, --verbose           more library messages\n"
          "      --help, --version\n",
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
        { "help", no_argument, NULL, OPT_HELP },
        { "version", no_argument, NULL, OPT_VERSION },
        { NULL, 0, NULL, 0 },
    };
    static const char *const backends[] = { "auto", "cpu", "cuda", "vulkan", "hip", "ze" };
    int any_feature = 0, ch;

    memset(o, 0, sizeof(*o));
    opterr = 0; /* our own messages */
    while ((ch = getopt_long(argc, argv, ":r:d:w:h:p:b:o:qv", longopts, NULL)) != -1) {
        switch (ch) {
        case 'r': o->ref_path = optarg; break;
        case 'd': o->dis_path = optarg; break;
        case 'o': o->out_path = optarg; break;
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
            if (parse_feature(optarg, o->feat) < 0)
                return -1;
            any_feature = 1;
            break;
        case OPT_BACKEND: {
            int found = -1;
            for (int i = 0; i < (int)(sizeof(backends) / sizeof(*backends)); i++)
                if (!strcmp(optarg, backends[i]))
                    found = i;
            if (found < 0) {
                cli_error("--backend: unknown backend '%s' (auto, cpu, cuda, vulkan, hip, ze)", optarg);
                return -1;
            }
            /* the names are listed in enum gpussim_backend_type order */
            o->backend = (enum gpussim_backend_type)found;
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
        case OPT_JSON: o->format = CLI_OUTPUT_JSON; break;
        case OPT_CSV: o->format = CLI_OUTPUT_CSV; break;
        case OPT_HELP: usage(stdout); return 1;
        case OPT_VERSION: printf("gpussim %s\n", PACKAGE_VERSION); return 1;
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
    if (!o->ref_path || !o->dis_path) {
        cli_error("both -r REF and -d DIS are required (see --help)");
        return -1;
    }
    if (!strcmp(o->ref_path, "-") && !strcmp(o->dis_path, "-")) {
        cli_error("only one input can be read from stdin");
        return -1;
    }
    if (o->device_given && o->backend == GPUSSIM_BACKEND_CPU) {
        cli_error("--device %d: the cpu backend has no devices (--device picks a GPU for the cuda, "
                  "vulkan, hip and ze backends)",
                  o->device);
        return -1;
    }
    if (!any_feature) {
        o->default_features = 1;
        for (int i = 0; i < FEAT_COUNT; i++)
            o->feat[i].requested = 1;
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


/* Without --feature, every metric the frame size allows (the FFmpeg
 * filter's rule): a metric whose minimum the frame is below is left out with
 * a warning. Named with --feature (or --feature all), it is an error from the
 * library instead. */
void cli_apply_default_features(struct options *o, const struct cli_video_format *fmt)
{
    static const struct {
        enum feature_id id;
        int min_side;
        const char *why;
    } limits[] = {
        /* spec §2.2: an 11x11 window at each of 5 scales (floor halving) */
        { FEAT_FLOAT_MS_SSIM, 176, "MS-SSIM's minimum" },
        /* spec §1.8: an 11x11 window (at auto scale, decimation keeps >= 11) */
        { FEAT_FLOAT_SSIM, 11, "float_ssim's 11x11 window" },
        /* the 5x5 filter reflects two samples into the plane */
        { FEAT_FLOAT_ANSNR, 3, "ANSNR's minimum" },
    };
    if (!o->default_features)
        return;
    int w = fmt->width, h = fmt->height;
    const char *what = "the frame size";
    if (o->planes == GPUSSIM_PLANES_ALL && fmt->chroma != GPUSSIM_CHROMA_GRAY) {
        const int sx = fmt->chroma != GPUSSIM_CHROMA_444, sy = fmt->chroma == GPUSSIM_CHROMA_420;
        w = (w + sx) >> sx;
        h = (h + sy) >> sy;
        if (sx || sy)
            what = "the chroma plane size (--planes all)";
    }
    for (size_t i = 0; i < sizeof(limits) / sizeof(*limits); i++) {
        const int m = limits[i].min_side;
        if (w >= m && h >= m)
            continue;
        o->feat[limits[i].id].requested = 0;
        cli_msg("warning", "%s %dx%d is below %s of %dx%d: %s is not computed (left out of the "
                "default features; --feature %s makes this an error)",
                what, w, h, limits[i].why, m, m, cli_features[limits[i].id].name,
                cli_features[limits[i].id].name);
    }
}

