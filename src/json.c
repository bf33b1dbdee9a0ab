/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* JSON text to a tree (see json.h): RFC 8259, UTF-8 passed through. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "mem.h"

struct parser {
    const char *s;
    size_t len, pos;
    int max_depth;
    int nomem;
    size_t err_offset;
    char *err;
    size_t err_size;
};

static int fail(struct parser *p, size_t at, const char *what)
{
    if (!p->err[0]) {
        p->err_offset = at;
        snprintf(p->err, p->err_size, "%s", what);
    }
    return -EINVAL;
}

static int nomem(struct parser *p)
{
    p->nomem = 1;
    return fail(p, p->pos, "out of memory");
}

static void skip_ws(struct parser *p)
{
    while (p->pos < p->len &&
           (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int parse_value(struct parser *p, struct json_value *v, int depth);

static int hex4(struct parser *p, unsigned *out)
{
    unsigned u = 0;
    if (p->len - p->pos < 4)
        return fail(p, p->pos, "truncated \\u escape");
    for (int i = 0; i < 4; i++) {
        const char c = p->s[p->pos++];
        u <<= 4;
        if (c >= '0' && c <= '9')
            u |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            u |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            u |= (unsigned)(c - 'A' + 10);
        else
            return fail(p, p->pos - 1, "bad hex digit in a \\u escape");
    }
    *out = u;
    return 0;
}

static int parse_string(struct parser *p, char **out, size_t *out_len)
{
    const size_t start = p->pos;
    p->pos++; /* the opening quote */
    /* the decoded string is never longer than its source */
    size_t end = p->pos;
    while (end < p->len && p->s[end] != '"') {
        if (p->s[end] == '\\')
            end++;
        end++;
    }
    if (end >= p->len)
        return fail(p, start, "unterminated string");
    char *buf = gpussim_malloc(end - p->pos + 1);
    if (!buf)
        return nomem(p);
    size_t n = 0;
    while (p->s[p->pos] != '"') {
        const unsigned char c = (unsigned char)p->s[p->pos];
        if (c < 0x20) {
            gpussim_free(buf);
            return fail(p, p->pos, "control character inside a string");
        }
        if (c != '\\') {
            buf[n++] = (char)c;
            p->pos++;
            continue;
        }
        p->pos++;
        const char e = p->s[p->pos++];
        unsigned u;
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u':
            if (hex4(p, &u) < 0) {
                gpussim_free(buf);
                return -EINVAL;
            }
            /* the logs hold ASCII names; other code points are refused
             * rather than half-decoded (a \u0000 would cut the string) */
            if (u == 0 || u > 0x7f) {
                gpussim_free(buf);
                return fail(p, p->pos - 6, "\\u escape outside ASCII (or NUL) in a string");
            }
            buf[n++] = (char)u;
            break;
        default:
            gpussim_free(buf);
            return fail(p, p->pos - 2, "unknown escape in a string");
        }
    }
    p->pos++;
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    return 0;
}

static int parse_number(struct parser *p, struct json_value *v)
{
    const size_t start = p->pos;
    size_t i = p->pos;
    if (i < p->len && p->s[i] == '-')
        i++;
    if (i < p->len && p->s[i] == '0')
        i++;
    else if (i < p->len && p->s[i] >= '1' && p->s[i] <= '9')
        while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
            i++;
    else
        return fail(p, start, "malformed number");
    if (i < p->len && p->s[i] == '.') {
        i++;
        if (i >= p->len || p->s[i] < '0' || p->s[i] > '9')
            return fail(p, start, "malformed number (no digit after '.')");
        while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
            i++;
    }
    if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
        i++;
        if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
            i++;
        if (i >= p->len || p->s[i] < '0' || p->s[i] > '9')
            return fail(p, start, "malformed number (no exponent digits)");
        while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
            i++;
    }
    char tmp[64];
    if (i - start >= sizeof(tmp))
        return fail(p, start, "number longer than 63 characters");
    memcpy(tmp, p->s + start, i - start);
    tmp[i - start] = '\0';
    v->type = JSON_NUMBER;
    v->number = strtod(tmp, NULL);
    if (!isfinite(v->number))
        return fail(p, start, "number out of the range of a double");
    p->pos = i;
    return 0;
}

/* Appends an empty item; *out points at it. */
static int grow(struct parser *p, struct json_value *v, size_t *cap, struct json_value **out)
{
    if (v->nb_items == *cap) {
        const size_t nc = *cap ? *cap * 2 : 4;
        struct json_value *items = gpussim_realloc(v->items, nc * sizeof(*items));
        if (!items)
            return nomem(p);
        v->items = items;
        if (v->type == JSON_OBJECT) {
            char **keys = gpussim_realloc(v->keys, nc * sizeof(*keys));
            if (!keys)
                return nomem(p);
            v->keys = keys;
        }
        *cap = nc;
    }
    *out = &v->items[v->nb_items];
    memset(*out, 0, sizeof(**out));
    if (v->type == JSON_OBJECT)
        v->keys[v->nb_items] = NULL;
    v->nb_items++;
    return 0;
}

static int parse_container(struct parser *p, struct json_value *v, int depth)
{
    const int object = p->s[p->pos] == '{';
    const char close = object ? '}' : ']';
    size_t cap = 0;
    if (depth >= p->max_depth)
        return fail(p, p->pos, "nested deeper than the log layout allows");
    v->type = object ? JSON_OBJECT : JSON_ARRAY;
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        return 0;
    }
    for (;;) {
        struct json_value *item;
        int err = grow(p, v, &cap, &item);
        if (err < 0)
            return err;
        if (object) {
            skip_ws(p);
            if (p->pos >= p->len || p->s[p->pos] != '"')
                return fail(p, p->pos, "expected a member name (a string)");
            size_t klen;
            err = parse_string(p, &v->keys[v->nb_items - 1], &klen);
            if (err < 0)
                return err;
            skip_ws(p);
            if (p->pos >= p->len || p->s[p->pos] != ':')
                return fail(p, p->pos, "expected ':' after a member name");
            p->pos++;
        }
        err = parse_value(p, item, depth + 1);
        if (err < 0)
            return err;
        skip_ws(p);
        if (p->pos >= p->len)
            return fail(p, p->pos, object ? "unterminated object (truncated file?)"
                                          : "unterminated array (truncated file?)");
        if (p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->s[p->pos] == close) {
            p->pos++;
            return 0;
        }
        return fail(p, p->pos, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int parse_value(struct parser *p, struct json_value *v, int depth)
{
    skip_ws(p);
    v->offset = p->pos;
    if (p->pos >= p->len)
        return fail(p, p->pos, "unexpected end of the text (truncated file?)");
    const char c = p->s[p->pos];
    if (c == '{' || c == '[')
        return parse_container(p, v, depth);
    if (c == '"') {
        v->type = JSON_STRING;
        return parse_string(p, &v->string, &v->len);
    }
    static const struct { const char *word; enum json_type type; } words[] = {
        { "null", JSON_NULL }, { "true", JSON_TRUE }, { "false", JSON_FALSE },
    };
    for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
        const size_t wl = strlen(words[i].word);
        if (p->len - p->pos >= wl && !memcmp(p->s + p->pos, words[i].word, wl)) {
            v->type = words[i].type;
            p->pos += wl;
            return 0;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9'))
        return parse_number(p, v);
    return fail(p, p->pos, "unexpected character (not a JSON value)");
}

int gpussim_json_parse(const char *text, size_t len, int max_depth, struct json_value *root,
                       size_t *err_offset, char *err, size_t err_size)
{
    struct parser p = { text, len, 0, max_depth, 0, 0, err, err_size };
    memset(root, 0, sizeof(*root));
    err[0] = '\0';
    int ret = parse_value(&p, root, 0);
    if (ret >= 0) {
        skip_ws(&p);
        if (p.pos != len)
            ret = fail(&p, p.pos, "text after the end of the document");
    }
    if (ret < 0) {
        *err_offset = p.err_offset;
        gpussim_json_free(root);
        return p.nomem ? -ENOMEM : ret;
    }
    return 0;
}

void gpussim_json_free(struct json_value *v)
{
    if (!v)
        return;
    gpussim_free(v->string);
    for (size_t i = 0; i < v->nb_items; i++) {
        gpussim_json_free(&v->items[i]);
        if (v->keys)
            gpussim_free(v->keys[i]);
    }
    gpussim_free(v->items);
    gpussim_free(v->keys);
    memset(v, 0, sizeof(*v));
}

const struct json_value *gpussim_json_get(const struct json_value *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->nb_items; i++)
        if (obj->keys[i] && !strcmp(obj->keys[i], key))
            return &obj->items[i];
    return NULL;
}

void gpussim_json_position(const char *text, size_t len, size_t offset, size_t *line, size_t *col)
{
    size_t l = 1, c = 1;
    for (size_t i = 0; i < offset && i < len; i++) {
        if (text[i] == '\n')
            l++, c = 1;
        else
            c++;
    }
    *line = l;
    *col = c;
}
