/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * A small JSON reader for the log files: the whole text into a tree, input
 * treated as hostile (bounded depth, growth only as the text goes, every
 * error with its byte offset). Not part of the ABI.
 */
#ifndef GPUSSIM_JSON_H
#define GPUSSIM_JSON_H

#include <stddef.h>

enum json_type {
    JSON_NULL = 0,
    JSON_FALSE,
    JSON_TRUE,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT,
};

struct json_value {
    enum json_type type;
    size_t offset;  /* of its first byte in the text */
    double number;  /* JSON_NUMBER */
    char *string;   /* JSON_STRING: decoded, NUL-terminated (no NUL inside) */
    size_t len;     /* JSON_STRING: bytes */
    struct json_value *items; /* JSON_ARRAY, JSON_OBJECT */
    char **keys;              /* JSON_OBJECT */
    size_t nb_items;
};

/* Parses text (len bytes) into *root. On failure returns -EINVAL or
 * -ENOMEM, with *err_offset the byte where it went wrong and err the reason. */
int gpussim_json_parse(const char *text, size_t len, int max_depth, struct json_value *root,
                       size_t *err_offset, char *err, size_t err_size);
void gpussim_json_free(struct json_value *v);
/* The member key of an object, or NULL. */
const struct json_value *gpussim_json_get(const struct json_value *obj, const char *key);
/* Line and column (from 1) of a byte offset. */
void gpussim_json_position(const char *text, size_t len, size_t offset, size_t *line, size_t *col);

#endif /* GPUSSIM_JSON_H */
