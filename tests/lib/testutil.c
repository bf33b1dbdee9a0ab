/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

int test_passed, test_failed;
char test_last_error[1024];

void test_check(int ok, const char *file, int line, const char *fmt, ...)
{
    if (ok) {
        test_passed++;
        return;
    }
    test_failed++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int test_summary(void)
{
    printf("%d passed, %d failed\n", test_passed, test_failed);
    return test_failed ? 1 : 0;
}

void test_log_cb(void *opaque, enum gpussim_log_level level, const char *msg)
{
    (void)opaque;
    if (level <= GPUSSIM_LOG_ERROR)
        snprintf(test_last_error, sizeof(test_last_error), "%s", msg);
    if (getenv("GPUSSIM_TEST_VERBOSE"))
        fprintf(stderr, "[gpussim %d] %s\n", (int)level, msg);
}

/* ---- frames --------------------------------------------------------------- */

static void chroma_size(const struct gpussim_format *fmt, int *cw, int *ch)
{
    const int sx = fmt->chroma == GPUSSIM_CHROMA_420 || fmt->chroma == GPUSSIM_CHROMA_422;
    const int sy = fmt->chroma == GPUSSIM_CHROMA_420;
    *cw = (fmt->width + sx) >> sx;
    *ch = (fmt->height + sy) >> sy;
}

int test_frame_alloc(struct test_frame *f, const struct gpussim_format *fmt)
{
    memset(f, 0, sizeof(*f));
    f->w = fmt->width;
    f->h = fmt->height;
    chroma_size(fmt, &f->cw, &f->ch);
    f->nb_comp = fmt->chroma == GPUSSIM_CHROMA_GRAY ? 1 : 3;
    for (int c = 0; c < f->nb_comp; c++) {
        const size_t n = c ? (size_t)f->cw * f->ch : (size_t)f->w * f->h;
        f->comp[c] = calloc(n, sizeof(uint16_t));
        if (!f->comp[c])
            return -ENOMEM;
    }
    return 0;
}

void test_frame_free(struct test_frame *f)
{
    for (int c = 0; c < 3; c++)
        free(f->comp[c]);
    memset(f, 0, sizeof(*f));
}

static void put_sample(uint8_t *row, int idx, int bytes, unsigned v)
{
    if (bytes == 1)
        row[idx] = (uint8_t)v;
    else {
        row[2 * idx] = (uint8_t)(v & 0xff);
        row[2 * idx + 1] = (uint8_t)(v >> 8);
    }
}

int test_pack(const struct test_frame *f, const struct gpussim_format *fmt, struct test_packed *out)
{
    memset(out, 0, sizeof(*out));
    const int bytes = fmt->bit_depth > 8 ? 2 : 1;
    const int shift = fmt->msb_aligned ? 16 - fmt->bit_depth : 0;
    const int semi = fmt->packing != GPUSSIM_PACKING_PLANAR;
    const int nb_planes = f->nb_comp == 1 ? 1 : semi ? 2 : 3;
    for (int p = 0; p < nb_planes; p++) {
        const int w = p ? f->cw * (semi ? 2 : 1) : f->w;
        const int h = p ? f->ch : f->h;
        /* odd padding so strides never equal the row size */
        out->stride[p] = (ptrdiff_t)w * bytes + 3 * bytes + 64;
        out->plane[p] = calloc((size_t)out->stride[p] * h, 1);
        if (!out->plane[p])
            return -ENOMEM;
        out->pic.data[p] = out->plane[p];
        out->pic.stride[p] = out->stride[p];
    }
    for (int y = 0; y < f->h; y++)
        for (int x = 0; x < f->w; x++)
            put_sample(out->plane[0] + y * out->stride[0], x, bytes,
                       (unsigned)f->comp[0][(size_t)y * f->w + x] << shift);
    for (int c = 1; c < f->nb_comp; c++)
        for (int y = 0; y < f->ch; y++)
            for (int x = 0; x < f->cw; x++) {
                const unsigned v = (unsigned)f->comp[c][(size_t)y * f->cw + x] << shift;
                if (!semi)
                    put_sample(out->plane[c] + y * out->stride[c], x, bytes, v);
                else {
                    const int first_is_u = fmt->packing == GPUSSIM_PACKING_SEMIPLANAR_UV;
                    const int slot = (c == 1) == first_is_u ? 0 : 1;
                    put_sample(out->plane[1] + y * out->stride[1], 2 * x + slot, bytes, v);
                }
            }
    return 0;
}

void test_packed_free(struct test_packed *p)
{
    for (int i = 0; i < 3; i++)
        free(p->plane[i]);
    memset(p, 0, sizeof(*p));
}

uint32_t test_rand(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

void test_fill(struct test_frame *f, int bit_depth, enum test_pattern pat, uint64_t seed)
{
    const unsigned max = (1u << bit_depth) - 1;
    uint64_t st = seed;
    for (int c = 0; c < f->nb_comp; c++) {
        const int w = c ? f->cw : f->w, h = c ? f->ch : f->h;
        const unsigned flat = (unsigned)(test_rand(&st) % (max + 1));
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                unsigned v = 0;
                switch (pat) {
                case PATTERN_RANDOM: v = test_rand(&st) % (max + 1); break;
                case PATTERN_FLAT: v = flat; break;
                case PATTERN_MAX: v = max; break;
                case PATTERN_ZERO: v = 0; break;
                case PATTERN_CHECKER: v = ((x / 3) + (y / 3)) & 1 ? max : 0; break;
                case PATTERN_GRADIENT: {
                    const double g = (double)(x + 2 * y) / (double)(w + 2 * h);
                    int n = (int)(g * max) + (int)(test_rand(&st) % 9) - 4;
                    v = n < 0 ? 0 : n > (int)max ? max : (unsigned)n;
                    break;
                }
                }
                f->comp[c][(size_t)y * w + x] = (uint16_t)v;
            }
    }
}

void test_distort(const struct test_frame *ref, struct test_frame *dis, int bit_depth, int amplitude,
                  uint64_t seed)
{
    const int max = (1 << bit_depth) - 1;
    uint64_t st = seed;
    for (int c = 0; c < ref->nb_comp; c++) {
        const size_t n = c ? (size_t)ref->cw * ref->ch : (size_t)ref->w * ref->h;
        for (size_t i = 0; i < n; i++) {
            int v = ref->comp[c][i] + (int)(test_rand(&st) % (2 * amplitude + 1)) - amplitude;
            dis->comp[c][i] = (uint16_t)(v < 0 ? 0 : v > max ? max : v);
        }
    }
}

/* ---- running ---------------------------------------------------------------- */

void test_free_names(char **names, int n)
{
    if (!names)
        return;
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int test_score(const struct gpussim_params *params, const struct gpussim_picture *refs,
               const struct gpussim_picture *dis, int nb, double **values, char ***names)
{
    GpussimContext *ctx = NULL;
    struct gpussim_result res;
    const char *const *nm;
    int err = gpussim_create(&ctx, params);
    if (err < 0)
        return err;
    const int n = gpussim_score_names(ctx, &nm);
    double *v = calloc((size_t)nb * n, sizeof(*v));
    if (!v) {
        gpussim_destroy(&ctx);
        return -ENOMEM;
    }
    int got = 0;
    for (int i = 0; i < nb; i++) {
        int64_t idx;
        while ((idx = gpussim_submit(ctx, &refs[i], &dis[i])) == -EAGAIN) {
            err = gpussim_collect(ctx, &res, 1);
            if (err < 0)
                goto fail;
            memcpy(v + (size_t)res.index * n, res.values, sizeof(*v) * n);
            got++;
        }
        if (idx < 0) {
            err = (int)idx;
            goto fail;
        }
    }
    while (got < nb) {
        err = gpussim_collect(ctx, &res, 1);
        if (err <= 0) {
            err = err ? err : -EIO;
            goto fail;
        }
        memcpy(v + (size_t)res.index * n, res.values, sizeof(*v) * n);
        got++;
    }
    if (names) {
        *names = calloc((size_t)n, sizeof(char *));
        for (int k = 0; k < n && *names; k++)
            (*names)[k] = strdup(nm[k]);
    }
    gpussim_destroy(&ctx);
    *values = v;
    return n;

fail:
    free(v);
    gpussim_destroy(&ctx);
    return err;
}

/* ---- fixtures --------------------------------------------------------------- */

#ifdef GPUSSIM_SRCDIR
#define FIXTURES_DEFAULT GPUSSIM_SRCDIR "/tests/fixtures"
#else
#define FIXTURES_DEFAULT "tests/fixtures" /* relative: run from the source tree */
#endif

const char *test_fixtures_dir(void)
{
    const char *d = getenv("GPUSSIM_FIXTURES");
    const char *src = getenv("GPUSSIM_SRCDIR");
    static char dir[4096], buf[4200];
    if (d && *d)
        snprintf(dir, sizeof(dir), "%s", d);
    else if (src && *src)
        snprintf(dir, sizeof(dir), "%s/tests/fixtures", src);
    else
        snprintf(dir, sizeof(dir), "%s", FIXTURES_DEFAULT);
    d = dir;
    snprintf(buf, sizeof(buf), "%s/src01_576x324_3f/expected_8bit.json", d);
    FILE *f = fopen(buf, "rb");
    CHECK(f, "the fixtures are missing: cannot open %s (tests/fixtures of the checkout, or "
             "GPUSSIM_FIXTURES)", buf);
    if (!f)
        return NULL;
    fclose(f);
    return d;
}

uint8_t *test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *size = (size_t)n;
    }
    return buf;
}

/* The fixture files are flat: "frames": [ { "key": number, ... }, ... ]. */
int test_expected_load(const char *path, struct test_expected *e)
{
    size_t size;
    memset(e, 0, sizeof(*e));
    char *text = (char *)test_read_file(path, &size);
    if (!text)
        return -ENOENT;
    char *p = strstr(text, "\"frames\"");
    if (!p) {
        free(text);
        return -EINVAL;
    }
    int cap_keys = 64, cap_frames = 16;
    e->keys = calloc((size_t)cap_keys, sizeof(*e->keys));
    e->values = calloc((size_t)cap_keys * cap_frames, sizeof(double));
    for (size_t i = 0; i < (size_t)cap_keys * cap_frames; i++)
        e->values[i] = NAN;
    int frame = -1;
    for (; *p; p++) {
        if (*p == '{') {
            frame++;
            if (frame >= cap_frames)
                break;
        } else if (*p == '"' && frame >= 0) {
            char *end = strchr(p + 1, '"');
            if (!end)
                break;
            char key[64];
            snprintf(key, sizeof(key), "%.*s", (int)(end - p - 1), p + 1);
            char *colon = end + 1;
            while (*colon == ' ')
                colon++;
            if (*colon != ':') {
                p = end;
                continue;
            }
            double v = strtod(colon + 1, &p);
            p--;
            int k;
            for (k = 0; k < e->nb_keys; k++)
                if (!strcmp(e->keys[k], key))
                    break;
            if (k == e->nb_keys && k < cap_keys)
                snprintf(e->keys[e->nb_keys++], 64, "%s", key);
            if (k < cap_keys)
                e->values[(size_t)frame * cap_keys + k] = v;
        }
    }
    e->nb_frames = frame + 1 < cap_frames ? frame + 1 : cap_frames;
    /* compact to nb_keys columns */
    for (int f = 0; f < e->nb_frames; f++)
        for (int k = 0; k < e->nb_keys; k++)
            e->values[(size_t)f * e->nb_keys + k] = e->values[(size_t)f * cap_keys + k];
    free(text);
    return 0;
}

void test_expected_free(struct test_expected *e)
{
    free(e->keys);
    free(e->values);
    memset(e, 0, sizeof(*e));
}

double test_expected_get(const struct test_expected *e, int frame, const char *key, int *found)
{
    for (int k = 0; k < e->nb_keys; k++)
        if (!strcmp(e->keys[k], key)) {
            *found = 1;
            return e->values[(size_t)frame * e->nb_keys + k];
        }
    *found = 0;
    return NAN;
}
