/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * libFuzzer target: the log reader (gpussim_log_parse, _recover), on hostile JSON.
 * What must hold: no crash, no leak; a refusal is -EINVAL (or -ENOMEM /
 * -EFBIG) with a message and no log; an accepted log is consistent (every
 * frame has every metric; with a pool state, its count is the frames minus
 * those left out). An accepted log with config and pool state is merged
 * alone (the writer) into a temporary file, which must parse back with the
 * same frames and pooled statistics to the bit. Ladder logs: every
 * rendition's section is checked the same way. The same text through
 * gpussim_log_parse_recover(): a complete log is read the same, a cut-off
 * one (1) as one section without config whose pools are its frames', which
 * merges alone and parses back the same.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpussim/gpussim.h>
#include <gpussim/gpussim_log.h>

#define FUZZ_TARGET "fuzz_log"
#include "fuzz_common.h"

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof(a));
}

/* An accepted log is consistent; one with pools and a config (or recovered:
 * pools from its frames, written alone) merges alone into a log that parses
 * back the same. */
static void check_log(struct gpussim_log *log, int recovered)
{
    struct gpussim_log *back = NULL;
    REQUIRE(log && log->version && log->nb_metrics >= 0 && log->nb_metrics <= GPUSSIM_LOG_MAX_METRICS,
            "accepted log");
    const int nr = log->nb_renditions > 1 ? log->nb_renditions : 1;
    REQUIRE(nr <= GPUSSIM_MAX_DISTORTED && !gpussim_log_rendition(log, nr), "renditions %d", nr);
    int pools = log->nb_metrics > 0;
    for (int k = 0; k < nr; k++) {
        const struct gpussim_log *r = gpussim_log_rendition(log, k);
        REQUIRE(r && r->nb_metrics == log->nb_metrics && r->nb_frames == log->nb_frames, "rendition %d", k);
        for (int c = 0; c < r->nb_metrics; c++) {
            const struct gpussim_log_metric *m = &r->metrics[c];
            REQUIRE(m->name && !strcmp(m->name, log->metrics[c].name) && m->frames_left_out <= r->nb_frames,
                    "metric %d", c);
            if (!m->pool) {
                pools = 0;
                continue;
            }
            struct gpussim_pool_stats st;
            REQUIRE(gpussim_pool_stats(m->pool, &st) == 0 && st.count == r->nb_frames - m->frames_left_out,
                    "pool of %s", m->name);
        }
        /* every value is readable */
        double sum = 0;
        for (uint64_t i = 0; i < r->nb_frames * (uint64_t)r->nb_metrics; i++)
            sum += isnan(r->values[i]) ? 0 : 1;
        (void)sum;
    }

    if ((log->has_config || recovered) && pools) {
        FILE *f = tmpfile();
        REQUIRE(f, "tmpfile");
        struct gpussim_log_writer_params wp;
        memset(&wp, 0, sizeof(wp));
        wp.file = f;
        wp.log_cb = log_cb;
        const struct gpussim_log *one[1] = { log };
        const int merged = gpussim_log_merge(one, NULL, 1, &wp);
        REQUIRE(merged == 0 || merged == -ENOMEM, "merge of one log: %d '%s'", merged, last_error);
        if (merged == 0) {
            const long len = ftell(f);
            REQUIRE(len > 0, "merged length");
            char *text = malloc((size_t)len);
            rewind(f);
            REQUIRE(text && fread(text, 1, (size_t)len, f) == (size_t)len, "read back");
            const int again = gpussim_log_parse(&back, text, (size_t)len, log_cb, NULL);
            free(text);
            REQUIRE(again == 0, "the merged log does not parse: '%s'", last_error);
            REQUIRE(back->nb_frames == log->nb_frames && back->nb_metrics == log->nb_metrics &&
                        (back->nb_renditions > 1 ? back->nb_renditions : 1) == nr, "shape");
            for (int k = 0; k < nr; k++) {
                const struct gpussim_log *r = gpussim_log_rendition(log, k), *rb = gpussim_log_rendition(back, k);
                for (uint64_t i = 0; i < r->nb_frames * (uint64_t)r->nb_metrics; i++)
                    REQUIRE(same(rb->values[i], r->values[i]), "value %llu", (unsigned long long)i);
                for (int c = 0; c < r->nb_metrics; c++) {
                    struct gpussim_pool_stats a, b;
                    gpussim_pool_stats(r->metrics[c].pool, &a);
                    gpussim_pool_stats(rb->metrics[c].pool, &b);
                    REQUIRE(a.count == b.count && same(a.mean, b.mean) && same(a.min, b.min) && same(a.max, b.max) &&
                                same(a.harmonic_mean, b.harmonic_mean),
                            "pool of %s changed", r->metrics[c].name);
                }
            }
        }
        fclose(f);
    }
    gpussim_log_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gpussim_log *log = NULL, *rec = NULL;
    last_error[0] = 0;
    const int err = gpussim_log_parse(&log, (const char *)data, size, log_cb, NULL);
    if (err < 0)
        REQUIRE((err == -EINVAL || err == -ENOMEM || err == -EFBIG) && !log && last_error[0],
                "refusal %d with '%s'", err, last_error);
    else
        check_log(log, 0);
    /* the recovering reader: a complete log reads the same; a cut-off one
     * gives one section without config, pooled from its frames */
    last_error[0] = 0;
    const int rerr = gpussim_log_parse_recover(&rec, (const char *)data, size, log_cb, NULL);
    if (rerr < 0) {
        REQUIRE((rerr == -EINVAL || rerr == -ENOMEM || rerr == -EFBIG) && !rec && last_error[0],
                "recover: refusal %d with '%s'", rerr, last_error);
        REQUIRE(err < 0 || rerr == -ENOMEM, "recover refused (%d) a log the reader accepts", rerr);
    } else if (rerr == 0) {
        REQUIRE(err == 0 && rec->nb_frames == log->nb_frames && rec->nb_metrics == log->nb_metrics,
                "recover: a complete log read otherwise");
        check_log(rec, 0);
    } else {
        REQUIRE(rerr == 1 && err < 0 && rec && rec->nb_renditions == 1 && !rec->has_config,
                "recover: %d, a recovered log of %d sections", rerr, rec ? rec->nb_renditions : -1);
        for (int c = 0; c < rec->nb_metrics; c++)
            REQUIRE(rec->metrics[c].pool, "recover: no pool for %s", rec->metrics[c].name);
        check_log(rec, 1);
    }
    gpussim_log_free(&rec);
    gpussim_log_free(&log);
    return 0;
}
