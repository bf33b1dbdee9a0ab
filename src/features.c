/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The feature table (libvmaf's names, the aliases the front-ends accept, the
 * options each feature takes) and the backend names: the one place the
 * gpussim tool, the FFmpeg filter and the tests look them up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/backends.h"

enum feature_option {
    OPT_SCALE = 1u << 0,
    OPT_LCS = 1u << 1,
    OPT_DB = 1u << 2,
    OPT_CLIP_DB = 1u << 3,
};

static const struct {
    struct gpussim_feature_info info;
    const char *const aliases[3];
    unsigned options; /* enum feature_option */
} features[] = {
    { { "float_ssim", "", GPUSSIM_METRIC_FLOAT_SSIM, "scale,enable_lcs,enable_db,clip_db",
        "float_ssim (+ float_ssim_l, _c, _s with enable_lcs)" },
      { NULL }, OPT_SCALE | OPT_LCS | OPT_DB | OPT_CLIP_DB },
    { { "float_ms_ssim", "ms_ssim", GPUSSIM_METRIC_FLOAT_MS_SSIM, "enable_lcs,enable_db,clip_db",
        "float_ms_ssim (+ float_ms_ssim_{l,c,s}_scale0..4 with enable_lcs)" },
      { "ms_ssim", NULL }, OPT_LCS | OPT_DB | OPT_CLIP_DB },
    { { "float_ansnr", "ansnr,float_anpsnr", GPUSSIM_METRIC_FLOAT_ANSNR, "", "float_ansnr, float_anpsnr" },
      { "ansnr", "float_anpsnr", NULL }, 0 },
    { { "ssim", "", GPUSSIM_METRIC_SSIM, "", "ssim (integer)" }, { NULL }, 0 },
};
#define NB_FEATURES ((int)(sizeof(features) / sizeof(*features)))

const struct gpussim_feature_info *gpussim_feature_get(int i)
{
    return i >= 0 && i < NB_FEATURES ? &features[i].info : NULL;
}

/* The options of one family as a value that can be compared. */
struct feature_opts {
    int scale, lcs, db, clip_db;
};

static int is_ms(int id)
{
    return features[id].info.metric == GPUSSIM_METRIC_FLOAT_MS_SSIM;
}

/* Gives float_ms_ssim its own options, copied from the shared fields, before
 * anything changes them: a zeroed (API 1.1) struct shares them. */
static void own_ms_options(struct gpussim_params *p)
{
    if (p->ms_ssim_options & GPUSSIM_FEATURE_OWN_OPTIONS)
        return;
    p->ms_ssim_options = GPUSSIM_FEATURE_OWN_OPTIONS | (p->enable_lcs ? GPUSSIM_FEATURE_LCS : 0) |
                         (p->enable_db ? GPUSSIM_FEATURE_DB : 0) | (p->clip_db ? GPUSSIM_FEATURE_CLIP_DB : 0);
}

static struct feature_opts get_opts(const struct gpussim_params *p, int id)
{
    struct feature_opts o = { 0 };
    if (is_ms(id)) {
        const unsigned f = p->ms_ssim_options;
        o.lcs = !!(f & GPUSSIM_FEATURE_LCS);
        o.db = !!(f & GPUSSIM_FEATURE_DB);
        o.clip_db = !!(f & GPUSSIM_FEATURE_CLIP_DB);
    } else if (features[id].options) {
        o.scale = p->ssim_scale;
        o.lcs = !!p->enable_lcs;
        o.db = !!p->enable_db;
        o.clip_db = !!p->clip_db;
    }
    return o;
}

static void set_opts(struct gpussim_params *p, int id, const struct feature_opts *o)
{
    if (is_ms(id)) {
        p->ms_ssim_options = GPUSSIM_FEATURE_OWN_OPTIONS | (o->lcs ? GPUSSIM_FEATURE_LCS : 0) |
                             (o->db ? GPUSSIM_FEATURE_DB : 0) | (o->clip_db ? GPUSSIM_FEATURE_CLIP_DB : 0);
    } else if (features[id].options) {
        p->ssim_scale = o->scale;
        p->enable_lcs = o->lcs;
        p->enable_db = o->db;
        p->clip_db = o->clip_db;
    }
}

static int find_feature(const char *name, size_t len)
{
    for (int i = 0; i < NB_FEATURES; i++) {
        if (strlen(features[i].info.name) == len && !memcmp(features[i].info.name, name, len))
            return i;
        for (int k = 0; features[i].aliases[k]; k++)
            if (strlen(features[i].aliases[k]) == len && !memcmp(features[i].aliases[k], name, len))
                return i;
    }
    return -1;
}

static int parse_bool(const char *v, int *out)
{
    if (!strcmp(v, "true") || !strcmp(v, "1"))
        return *out = 1, 0;
    if (!strcmp(v, "false") || !strcmp(v, "0"))
        return *out = 0, 0;
    return -1;
}

/* Sets one option in o; *which is the option's bit (OPT_*). */
static int parse_option(const struct gpussim_logger *log, int id, char *opt, struct feature_opts *o,
                        unsigned *which)
{
    const char *fname = features[id].info.name;
    char *eq = strchr(opt, '=');
    if (!eq) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "feature %s: option '%s' has no value (write %s=<value>)",
                    fname, opt, opt);
        return -EINVAL;
    }
    *eq = '\0';
    const char *key = opt, *val = eq + 1;
    const unsigned allowed = features[id].options;
    int *flag = NULL;
    if ((allowed & OPT_SCALE) && (!strcmp(key, "scale") || !strcmp(key, "ssim_scale"))) {
        char *end;
        const long v = strtol(val, &end, 10);
        if (!*val || *end || v < 0 || v > 10) {
            gpussim_log(log, GPUSSIM_LOG_ERROR, "feature %s: scale must be 0 (auto) to 10, got '%s'",
                        fname, val);
            return -EINVAL;
        }
        o->scale = (int)v;
        *which = OPT_SCALE;
        return 0;
    }
    if ((allowed & OPT_LCS) && !strcmp(key, "enable_lcs"))
        flag = &o->lcs, *which = OPT_LCS;
    else if ((allowed & OPT_DB) && !strcmp(key, "enable_db"))
        flag = &o->db, *which = OPT_DB;
    else if ((allowed & OPT_CLIP_DB) && !strcmp(key, "clip_db"))
        flag = &o->clip_db, *which = OPT_CLIP_DB;
    if (!flag) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "feature %s: unknown option '%s' (options: %s)", fname, key,
                    allowed ? features[id].info.options : "none");
        return -EINVAL;
    }
    if (parse_bool(val, flag) < 0) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "feature %s: %s must be true, false, 1 or 0, got '%s'", fname,
                    key, val);
        return -EINVAL;
    }
    return 0;
}

int gpussim_use_feature(struct gpussim_params *p, const char *spec)
{
    if (!p)
        return -EINVAL;
    const struct gpussim_logger log = { p->log_cb, p->log_opaque,
                                        p->log_level ? p->log_level : GPUSSIM_LOG_INFO };
    char buf[512];
    if (!spec || !*spec) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "empty feature name");
        return -EINVAL;
    }
    if (strlen(spec) >= sizeof(buf)) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "feature string is too long (%zu bytes; at most %zu)",
                    strlen(spec), sizeof(buf) - 1);
        return -EINVAL;
    }
    strcpy(buf, spec);
    /* NAME:opt=val:... (libvmaf) or NAME=opt=val:... (the gpussim tool) */
    const size_t name_len = strcspn(buf, ":=");
    char *opts = buf[name_len] ? buf + name_len + 1 : NULL;
    buf[name_len] = '\0';

    if (!strcmp(buf, "all")) {
        if (opts) {
            gpussim_log(&log, GPUSSIM_LOG_ERROR,
                        "feature all takes no options; name the feature to set its options");
            return -EINVAL;
        }
        own_ms_options(p);
        p->metrics |= GPUSSIM_METRIC_ALL;
        return 0;
    }
    const int id = find_feature(buf, name_len);
    if (id < 0) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR,
                    "unknown feature '%s' (features: float_ssim, ssim, float_ms_ssim (ms_ssim), "
                    "float_ansnr (ansnr), all)",
                    buf);
        return -EINVAL;
    }
    own_ms_options(p);
    const unsigned bit = features[id].info.metric;
    const struct feature_opts cur = get_opts(p, id);
    struct feature_opts o = cur;
    if (opts) {
        char *save = NULL;
        unsigned given = 0;
        for (char *t = strtok_r(opts, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
            const struct feature_opts before = o;
            unsigned which = 0;
            const int err = parse_option(&log, id, t, &o, &which);
            if (err < 0)
                return err;
            /* as for a feature given twice: a repeat may not change the value */
            if ((given & which) && memcmp(&o, &before, sizeof(o))) {
                gpussim_log(&log, GPUSSIM_LOG_ERROR,
                            "feature %s: option %s is given twice with different values",
                            features[id].info.name, t);
                return -EINVAL;
            }
            given |= which;
        }
    }
    /* one instance per feature: a second mention cannot bring other options */
    if ((p->features_named & bit) && memcmp(&o, &cur, sizeof(o))) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "feature %s is given twice with different options",
                    features[id].info.name);
        return -EINVAL;
    }
    set_opts(p, id, &o);
    p->metrics |= bit;
    p->features_named |= bit;
    return 0;
}

int gpussim_features_string(const struct gpussim_params *p, char *buf, size_t size)
{
    if (!p || (!buf && size))
        return -EINVAL;
    struct gpussim_params q = *p;
    own_ms_options(&q);
    size_t n = 0;
    char tmp[128];
#define APPEND(...)                                                                                \
    do {                                                                                           \
        const int len_ = snprintf(tmp, sizeof(tmp), __VA_ARGS__);                                  \
        if (n < size)                                                                              \
            snprintf(buf + n, size - n, "%s", tmp);                                                \
        n += (size_t)len_;                                                                         \
    } while (0)
    if (size)
        buf[0] = '\0';
    if (!q.metrics) {
        APPEND("default");
    }
    for (int i = 0; i < NB_FEATURES; i++) {
        if (!(q.metrics & features[i].info.metric))
            continue;
        APPEND("%s%s", n ? "|" : "", features[i].info.name);
        const struct feature_opts o = get_opts(&q, i);
        if (features[i].options & OPT_SCALE)
            APPEND(":scale=%d", o.scale);
        if (features[i].options & OPT_LCS)
            APPEND(":enable_lcs=%d:enable_db=%d:clip_db=%d", o.lcs, o.db, o.clip_db);
    }
#undef APPEND
    return n > INT32_MAX ? -EINVAL : (int)n;
}

/* ---- backends ------------------------------------------------------------------ */

const char *gpussim_backend_type_name(enum gpussim_backend_type type)
{
    const struct gpussim_backend_info *b = gpussim_backend_info(type);
    return type == GPUSSIM_BACKEND_AUTO ? "auto" : b ? b->name : NULL;
}

int gpussim_backend_from_name(const char *name, enum gpussim_backend_type *type)
{
    if (!name || !type)
        return -EINVAL;
    if (!strcmp(name, "auto")) {
        *type = GPUSSIM_BACKEND_AUTO;
        return 0;
    }
    for (int i = 0; i < GPUSSIM_NB_BACKENDS; i++) {
        const struct gpussim_backend_info *b = &gpussim_backend_table[i];
        for (int k = -1; k < 2; k++) {
            const char *n = k < 0 ? b->name : b->alias[k];
            if (n && !strcmp(name, n)) {
                *type = b->type;
                return 0;
            }
        }
    }
    return -EINVAL;
}
