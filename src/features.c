/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The feature table (libvmaf's names, the aliases the front-ends accept, the
 * options each feature takes) and the backend names: the one place the
 * gpussim tool, the FFmpeg filter and the tests look them up.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/backends.h"

/* One row per option of GPUSSIM_FEATURE_OPTIONS (the public table): the
 * value range, where float_ssim's (the shared) value lives in the params,
 * float_ms_ssim's own bit, where the resolved value lands. */
enum option_type {
    OPTION_BOOL,
    OPTION_INT
};
static const struct feature_option {
    const char *name, *field_name;
    enum option_type type;
    int min, max;
    size_t field;     /* offsetof(struct gpussim_params, the shared value) */
    unsigned own_bit; /* in ms_ssim_options; 0: float_ms_ssim does not take it */
    size_t value;     /* offsetof(struct gpussim_feature_values, ...) */
    const char *help;
} options[] = {
/* clang-format off */
#define OPTION_ROW(name, field, short_name, type, def, min, max, own_bit, help)                    \
    { #name, #field, OPTION_##type, min, max, offsetof(struct gpussim_params, field), own_bit,     \
      offsetof(struct gpussim_feature_values, name), help },
    /* clang-format on */
    GPUSSIM_FEATURE_OPTIONS(OPTION_ROW)
#undef OPTION_ROW
};
#define NB_OPTIONS ((int)(sizeof(options) / sizeof(*options)))

/* The features; info.options names the rows of options[] each one takes
 * (the one place that says so). own: the feature's values live in
 * ms_ssim_options once it has GPUSSIM_FEATURE_OWN_OPTIONS. */
static const struct {
    struct gpussim_feature_info info;
    int own;
} features[] = {
    { { "float_ssim", "", GPUSSIM_METRIC_FLOAT_SSIM, "scale,enable_lcs,enable_db,clip_db",
        "float_ssim (+ float_ssim_l, _c, _s with enable_lcs)" },
      0 },
    { { "float_ms_ssim", "ms_ssim", GPUSSIM_METRIC_FLOAT_MS_SSIM, "enable_lcs,enable_db,clip_db",
        "float_ms_ssim (+ float_ms_ssim_{l,c,s}_scale0..4 with enable_lcs)" },
      1 },
    { { "float_ansnr", "ansnr,float_anpsnr", GPUSSIM_METRIC_FLOAT_ANSNR, "",
        "float_ansnr, float_anpsnr" },
      0 },
    { { "ssim", "", GPUSSIM_METRIC_SSIM, "", "ssim (integer)" }, 0 },
};
#define NB_FEATURES ((int)(sizeof(features) / sizeof(*features)))

const struct gpussim_feature_info *gpussim_feature_get(int i)
{
    return i >= 0 && i < NB_FEATURES ? &features[i].info : NULL;
}

/* Whether the comma-separated list holds name[0..len). */
static int in_list(const char *list, const char *name, size_t len)
{
    for (const char *t = list; *t; t += strcspn(t, ","), t += *t == ',')
        if (strcspn(t, ",") == len && !memcmp(t, name, len))
            return 1;
    return 0;
}

/* Whether feature id takes option o. */
static int takes(int id, int o)
{
    return in_list(features[id].info.options, options[o].name, strlen(options[o].name));
}

static int *param(struct gpussim_params *p, int o)
{
    return (int *)((char *)p + options[o].field);
}

static int *value(struct gpussim_feature_values *v, int o)
{
    return (int *)((char *)v + options[o].value);
}

/* Feature id's values in p: its own bits, or the shared fields. */
static void get_values(const struct gpussim_params *p, int id, struct gpussim_feature_values *v)
{
    const int own = features[id].own && (p->ms_ssim_options & GPUSSIM_FEATURE_OWN_OPTIONS);
    memset(v, 0, sizeof(*v));
    for (int o = 0; o < NB_OPTIONS; o++) {
        if (!takes(id, o))
            continue;
        const int x = own ? !!(p->ms_ssim_options & options[o].own_bit)
                          : *param((struct gpussim_params *)p, o);
        *value(v, o) = options[o].type == OPTION_BOOL ? !!x : x;
    }
}

static void set_values(struct gpussim_params *p, int id, const struct gpussim_feature_values *v)
{
    if (features[id].own)
        p->ms_ssim_options = GPUSSIM_FEATURE_OWN_OPTIONS;
    for (int o = 0; o < NB_OPTIONS; o++) {
        const int x = *value((struct gpussim_feature_values *)v, o);
        if (!takes(id, o))
            continue;
        if (!features[id].own)
            *param(p, o) = x;
        else if (x)
            p->ms_ssim_options |= options[o].own_bit;
    }
}

static int find_by_metric(unsigned metric)
{
    for (int i = 0; i < NB_FEATURES; i++)
        if (features[i].info.metric == metric)
            return i;
    return -1;
}

void gpussim_feature_values(const struct gpussim_params *p, unsigned metric,
                            struct gpussim_feature_values *v)
{
    get_values(p, find_by_metric(metric), v);
}

int gpussim_feature_values_check(const struct gpussim_logger *log, const struct gpussim_params *p)
{
    unsigned known = GPUSSIM_FEATURE_OWN_OPTIONS;
    for (int o = 0; o < NB_OPTIONS; o++)
        known |= options[o].own_bit;
    if (p->ms_ssim_options & ~known) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "unknown ms_ssim_options bits 0x%x",
                    p->ms_ssim_options & ~known);
        return -EINVAL;
    }
    /* booleans take any int (non-zero: true); a number must be in range */
    for (int id = 0; id < NB_FEATURES; id++)
        for (int o = 0; o < NB_OPTIONS; o++) {
            const int x = *param((struct gpussim_params *)p, o);
            if (options[o].type != OPTION_INT || features[id].own || !takes(id, o) ||
                (x >= options[o].min && x <= options[o].max))
                continue;
            gpussim_log(log, GPUSSIM_LOG_ERROR, "%s %s %d is out of range (%d to %d: %s)",
                        features[id].info.name, options[o].name, x, options[o].min, options[o].max,
                        options[o].help);
            return -EINVAL;
        }
    return 0;
}

/* Gives float_ms_ssim its own options, copied from the shared fields, before
 * anything changes them: a zeroed (API 1.1) struct shares them. */
static void own_options(struct gpussim_params *p)
{
    for (int id = 0; id < NB_FEATURES; id++) {
        struct gpussim_feature_values v;
        if (!features[id].own || (p->ms_ssim_options & GPUSSIM_FEATURE_OWN_OPTIONS))
            continue;
        get_values(p, id, &v);
        set_values(p, id, &v);
    }
}

static int find_feature(const char *name, size_t len)
{
    for (int i = 0; i < NB_FEATURES; i++) {
        if ((strlen(features[i].info.name) == len && !memcmp(features[i].info.name, name, len)) ||
            in_list(features[i].info.aliases, name, len))
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

/* Sets one option in v; *which is its row. */
static int parse_option(const struct gpussim_logger *log, int id, char *opt,
                        struct gpussim_feature_values *v, int *which)
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
    int o = 0;
    /* the option's name, or its struct gpussim_params field's (ssim_scale) */
    while (o < NB_OPTIONS && !(takes(id, o) && (!strcmp(key, options[o].name) ||
                                                !strcmp(key, options[o].field_name))))
        o++;
    if (o == NB_OPTIONS) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "feature %s: unknown option '%s' (options: %s)", fname,
                    key, *features[id].info.options ? features[id].info.options : "none");
        return -EINVAL;
    }
    *which = o;
    if (options[o].type == OPTION_BOOL) {
        if (parse_bool(val, value(v, o)) < 0) {
            gpussim_log(log, GPUSSIM_LOG_ERROR,
                        "feature %s: %s must be true, false, 1 or 0, got '%s'", fname, key, val);
            return -EINVAL;
        }
        return 0;
    }
    char *end;
    const long x = strtol(val, &end, 10);
    if (!*val || *end || x < options[o].min || x > options[o].max) {
        gpussim_log(log, GPUSSIM_LOG_ERROR, "feature %s: %s must be %d to %d (%s), got '%s'", fname,
                    key, options[o].min, options[o].max, options[o].help, val);
        return -EINVAL;
    }
    *value(v, o) = (int)x;
    return 0;
}

static void list_features(char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < NB_FEATURES && n < size; i++) {
        const struct gpussim_feature_info *f = &features[i].info;
        n += (size_t)snprintf(buf + n, size - n, *f->aliases ? "%s (%s), " : "%s, ", f->name,
                              f->aliases);
    }
    if (n < size)
        snprintf(buf + n, size - n, "all");
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
        own_options(p);
        p->metrics |= GPUSSIM_METRIC_ALL;
        return 0;
    }
    const int id = find_feature(buf, name_len);
    if (id < 0) {
        char names[256];
        list_features(names, sizeof(names));
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "unknown feature '%s' (features: %s)", buf, names);
        return -EINVAL;
    }
    own_options(p);
    const unsigned bit = features[id].info.metric;
    struct gpussim_feature_values cur, v;
    get_values(p, id, &cur);
    v = cur;
    if (opts) {
        char *save = NULL;
        unsigned given = 0;
        for (char *t = strtok_r(opts, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
            const struct gpussim_feature_values before = v;
            int which = 0;
            const int err = parse_option(&log, id, t, &v, &which);
            if (err < 0)
                return err;
            /* as for a feature given twice: a repeat may not change the value */
            if ((given & (1u << which)) && memcmp(&v, &before, sizeof(v))) {
                gpussim_log(&log, GPUSSIM_LOG_ERROR,
                            "feature %s: option %s is given twice with different values",
                            features[id].info.name, t);
                return -EINVAL;
            }
            given |= 1u << which;
        }
    }
    /* one instance per feature: a second mention cannot bring other options */
    if ((p->features_named & bit) && memcmp(&v, &cur, sizeof(v))) {
        gpussim_log(&log, GPUSSIM_LOG_ERROR, "feature %s is given twice with different options",
                    features[id].info.name);
        return -EINVAL;
    }
    set_values(p, id, &v);
    p->metrics |= bit;
    p->features_named |= bit;
    return 0;
}

int gpussim_features_string(const struct gpussim_params *p, char *buf, size_t size)
{
    if (!p || (!buf && size))
        return -EINVAL;
    struct gpussim_params q = *p;
    own_options(&q);
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
        struct gpussim_feature_values v;
        APPEND("%s%s", n ? "|" : "", features[i].info.name);
        get_values(&q, i, &v);
        for (int o = 0; o < NB_OPTIONS; o++)
            if (takes(i, o))
                APPEND(":%s=%d", options[o].name, *value(&v, o));
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
