/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Runs a fuzz target over files (a seed corpus) without libFuzzer, so that
 * `make check` builds every target with the normal compiler and replays its
 * seeds: the harnesses cannot rot, and a seed that once crashed stays fixed.
 * Usage: fuzz_TARGET FILE_OR_DIR...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb)
                free(buf);
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) < 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]) < 0)
                return 1;
            files++;
            continue;
        }
        struct dirent **list;
        const int n = scandir(argv[i], &list, NULL, alphasort);
        if (n < 0) {
            perror(argv[i]);
            return 1;
        }
        for (int k = 0; k < n; k++) {
            if (list[k]->d_name[0] != '.') {
                char path[4096];
                snprintf(path, sizeof(path), "%s/%s", argv[i], list[k]->d_name);
                if (run_file(path) < 0)
                    return 1;
                files++;
            }
            free(list[k]);
        }
        free(list);
    }
    printf("%s: %d input(s) ran\n", argv[0], files);
    return files ? 0 : 1;
}
