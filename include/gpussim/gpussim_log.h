/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * gpussim logs: the per-frame scores and pooled statistics of a run, written
 * as frames complete (libvmaf's JSON or XML layout, or CSV), read back, and
 * merged. Every front-end (the gpussim tool, the FFmpeg filter) writes
 * through this writer, so their files have one layout. @since API 1.2
 *
 * JSON layout (keys in this order; the first five are libvmaf's):
 *   "version":   "gpussim <library version>"
 *   "frames":    [ { "frameNum": N, "metrics": { name: value, ... } }, ... ]
 *                (a frame may add "timestamp": seconds, after "metrics")
 *   "pooled_metrics": { name: { "min", "max", "mean", "harmonic_mean"
 *                (libvmaf's four, always), then "median", "p5", "p1" when
 *                asked for (gpussim_log_writer_params.pool_stats, API 1.7) } }
 *   "pooled_metrics_frames_left_out": { name: frames whose value is NaN }
 *   "aggregate_metrics": {}
 *   "fps":       frames per second of the run (null when unknown)
 *   "config":    { "library": "<version>", "api": "MAJOR.MINOR",
 *                  "backend", "width", "height", "bit_depth",
 *                  "chroma" ("420", "422", "444", "400"), "planes" ("luma", "all"),
 *                  "features" (gpussim_features_string()),
 *                  "first_frame" (index in the whole input of frame 0, or null),
 *                  "sync_offset" (only when the writer was given one: see
 *                  gpussim_log_writer_params.sync_offsets; @since API 1.6) }
 *   "pool_state": { name: "gpussim-pool64 <count> <crc32> <base64>" }: the
 *                pool's values as little-endian IEEE-754 doubles in base64,
 *                the count, and the CRC-32 of gpussim_pool_serialize()'s
 *                text of the same pool (API 1.7; 60% of the size of that
 *                text, which older logs hold and the reader still accepts)
 * Values are %.17g (exact doubles); non-finite values are null.
 *
 * Ladder logs (a context with several distorted pictures per reference,
 * gpussim_renditions() > 1; @since API 1.3): "frames", "pooled_metrics",
 * "pooled_metrics_frames_left_out", "aggregate_metrics" and "pool_state"
 * move into one section per rendition, each a libvmaf-layout object:
 *   "version", "renditions": [ { "rendition": 0, "name": "...", "frames": [...],
 *   "pooled_metrics": {...}, "pooled_metrics_frames_left_out": {...},
 *   "aggregate_metrics": {}, "pool_state": {...} }, { "rendition": 1, ... } ],
 *   "fps", "config": { ..., "renditions": N }
 * ("name" only when the writer was given names: API 1.7). A reader of pair
 * logs reads rendition 0 of either kind as (log.get("renditions") or [log])[0].
 * Rendition 0's frames are streamed as for a pair; the other renditions'
 * frames wait in temporary files and are written when the log is closed.
 *
 * CSV (@since API 1.2; layout of API 1.7): a header "Frame[,rendition,name]
 * [,timestamp],<score>,...", one row per frame (and rendition: rendition 0's
 * row first; "name" only when names were given), a timestamp cell empty when
 * unknown; values %.17g, nan/inf/-inf spelled out. When the log is closed,
 * pooled rows follow: the Frame cell names the statistic ("min", "max",
 * "mean", "harmonic_mean", then those asked for), the timestamp cell is
 * empty, the values are the pooled ones. A frame row's Frame cell is a
 * number, a pooled row's is not: a CSV reader takes both as rows.
 *
 * XML (@since API 1.7): libvmaf's layout (vmaf --xml):
 *   <VMAF version="gpussim <library version>">
 *     <params qualityWidth="W" qualityHeight="H" />
 *     <fyi fps="F" />                (%.2f, as libvmaf; "nan" when unknown)
 *     <frames>
 *       <frame frameNum="N" name="value" ... />
 *     </frames>
 *     <pooled_metrics>
 *       <metric name="NAME" min=".." max=".." mean=".." harmonic_mean=".." />
 *     </pooled_metrics>                (and median, p5, p1 when asked for)
 *     <aggregate_metrics />
 *   </VMAF>
 * with values %.17g (nan/inf/-inf spelled out). A ladder log's <frames> and
 * <pooled_metrics> are rendition 0's (<frames rendition="0" name="...">);
 * each other rendition follows as
 *   <rendition index="K" name="..."> <frames>...</frames>
 *   <pooled_metrics>...</pooled_metrics> </rendition>
 * before </VMAF>. CSV and XML carry no pool state: only JSON logs merge.
 *
 * Ownership: a writer owns its FILE unless it was given one; a parsed log is
 * one allocation tree freed by gpussim_log_free(). Thread safety: one writer
 * or log per thread at a time; distinct ones are independent.
 */
#ifndef GPUSSIM_GPUSSIM_LOG_H
#define GPUSSIM_GPUSSIM_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpussim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @since API 1.2 */
enum gpussim_log_format {
    GPUSSIM_LOG_FORMAT_JSON = 0, /**< libvmaf's layout plus "config" and "pool_state" */
    /** "Frame,name,..." then one row per frame ("Frame,timestamp,..." when
     *  timestamps are given), then pooled rows (API 1.7); see above */
    GPUSSIM_LOG_FORMAT_CSV,
    GPUSSIM_LOG_FORMAT_XML, /**< libvmaf's XML layout (see above). @since API 1.7 */
};

/**
 * The format a log file name asks for by its extension: ".json", ".csv" or
 * ".xml" (any case). The front-ends use it when no format is given.
 * @return 1 and *format set, or 0 (another or no extension; *format
 *         unchanged). @since API 1.7
 */
GPUSSIM_API int gpussim_log_format_from_path(const char *path, enum gpussim_log_format *format);

/** Pooled statistics a log writes (gpussim_log_writer_params.pool_stats).
 *  @since API 1.7 */
enum gpussim_log_pool_stat {
    GPUSSIM_LOG_POOL_MIN = 1 << 0,
    GPUSSIM_LOG_POOL_MAX = 1 << 1,
    GPUSSIM_LOG_POOL_MEAN = 1 << 2,
    GPUSSIM_LOG_POOL_HARMONIC_MEAN = 1 << 3,
    /** libvmaf's four: always written (libvmaf's readers expect them) */
    GPUSSIM_LOG_POOL_LIBVMAF = 0xf,
    GPUSSIM_LOG_POOL_MEDIAN = 1 << 4, /**< "median": gpussim_pool_percentile(50) */
    GPUSSIM_LOG_POOL_P5 = 1 << 5,     /**< "p5": gpussim_pool_percentile(5) */
    GPUSSIM_LOG_POOL_P1 = 1 << 6,     /**< "p1": gpussim_pool_percentile(1) */
};

/** What a writer needs besides the scores. Zero-initialise. @since API 1.2 */
struct gpussim_log_writer_params {
    const char *path; /**< file to create (truncated); NULL: write to file */
    FILE *file;       /**< with path NULL: an open stream, flushed but never closed */
    enum gpussim_log_format format;
    /** Whether each frame carries a timestamp (seconds). JSON: a
     *  "timestamp" key in each frame object; CSV: a timestamp column (an
     *  empty cell for NaN); XML: none (libvmaf's layout has no place). */
    int timestamps;
    /** Index in the whole input of the first frame written (a chunk's
     *  offset), -1 when unknown (written as null). */
    int64_t first_frame;
    gpussim_log_fn log_cb; /**< errors go here too (may be NULL) */
    void *log_opaque;
    /** The frame offsets the front-end scored with (gpussim_sync_find()'s
     *  d, one per rendition: gpussim_renditions() ints, read by
     *  gpussim_log_open()), written to the JSON config as "sync_offset": d
     *  (a pair) or "sync_offset": [d0, d1, ...] (a ladder); NULL: the key is
     *  not written. It took one of API 1.5's eight reserved pointers (the
     *  size is unchanged). @since API 1.6 */
    const int *sync_offsets;
    /** One name per rendition (gpussim_renditions() strings, or NULL
     *  entries: unnamed), e.g. the input file names: a ladder log's
     *  sections get "name" (JSON), a name column (CSV), a name attribute
     *  (XML); a pair log does not write it. NULL: no names. Copied by
     *  gpussim_log_open(). @since API 1.7 */
    const char *const *rendition_names;
    /** enum gpussim_log_pool_stat bits: the pooled statistics written
     *  besides libvmaf's four (which are always written); 0: only those.
     *  Took, with rendition_names, two of API 1.6's seven reserved
     *  pointers (the size is unchanged). @since API 1.7 */
    unsigned pool_stats;
    void *reserved[5]; /**< must be zero */
};

typedef struct GpussimLogWriter GpussimLogWriter;

/**
 * Opens the log (creating the file now, so an unwritable path fails before
 * any frame is scored) for the scores of ctx: its score names, backend,
 * format and features go into the log. ctx must outlive the writer.
 * @return 0, -errno of the failed open (logged), -EINVAL, -ENOMEM.
 */
GPUSSIM_API int gpussim_log_open(GpussimLogWriter **w, const GpussimContext *ctx,
                     const struct gpussim_log_writer_params *params);

/**
 * Writes one frame: values in gpussim_score_names() order (as
 * gpussim_result.values: a ladder context's result, every rendition's
 * scores, rendition-major), timestamp in seconds (ignored without
 * params.timestamps; NaN: null). Frames are numbered 0, 1, ... in call order.
 * The frame is flushed to the file before returning; a failed write or flush
 * fails this call (-EIO, -ENOSPC...), logged once, and every later call.
 * NaN values are written (null) and left out of the pools.
 */
GPUSSIM_API int gpussim_log_write_frame(GpussimLogWriter *w, const double *values, double timestamp);

/**
 * Finishes the log (JSON: pooled statistics, fps, config, pool state), closes
 * the file and frees the writer; *w = NULL. NULL-safe. fps: NaN when unknown.
 * After a failed write it only frees (the file keeps the frames before it).
 * @return 0, or the write/close error (logged).
 */
GPUSSIM_API int gpussim_log_close(GpussimLogWriter **w, double fps);

/** Frames written so far. */
GPUSSIM_API uint64_t gpussim_log_frames(const GpussimLogWriter *w);

/** Frames whose score i was NaN (left out of its pool), so far. In a ladder
 *  log i indexes the values of gpussim_log_write_frame() (rendition-major:
 *  rendition k's score j is k x score names + j). */
GPUSSIM_API uint64_t gpussim_log_frames_left_out(const GpussimLogWriter *w, int i);

/** The writer's pool of score i (indexed as in gpussim_log_frames_left_out),
 *  owned by the writer: valid until gpussim_log_close(). A front-end that
 *  logs need not pool the same values again (merge it into its own pool
 *  before closing when it needs the statistics afterwards). NULL when i is
 *  out of range. */
GPUSSIM_API const GpussimPool *gpussim_log_pool(const GpussimLogWriter *w, int i);

/* ---- reading ---------------------------------------------------------------- */

/** A log's config block. Strings are NULL when the key is absent. */
struct gpussim_log_config {
    const char *library;  /**< library version that wrote it */
    const char *api;      /**< "MAJOR.MINOR" */
    const char *backend;
    int width, height, bit_depth;
    const char *chroma;   /**< "420", "422", "444", "400" */
    const char *planes;   /**< "luma", "all" */
    const char *features; /**< gpussim_features_string() */
    int64_t first_frame;  /**< -1 when null or absent */
};

/** One metric of a log. */
struct gpussim_log_metric {
    const char *name;
    struct gpussim_pool_stats pooled; /**< as written in pooled_metrics (NaN when null; count = frames - left_out) */
    uint64_t frames_left_out;         /**< pooled_metrics_frames_left_out */
    GpussimPool *pool;                /**< from pool_state; NULL when the log has none */
};

/** A parsed JSON log. Everything is owned by it. */
struct gpussim_log {
    const char *version; /**< "version" */
    int has_config;      /**< a "config" block was present (gpussim >= API 1.2) */
    struct gpussim_log_config config;
    int nb_metrics;
    struct gpussim_log_metric *metrics;
    uint64_t nb_frames;
    uint64_t *frame_num;   /**< per frame: frameNum */
    double *timestamps;    /**< per frame: seconds (NaN when absent), NULL when no frame has one */
    /** nb_frames x nb_metrics, row-major; NaN where the log has null (a NaN
     *  score, or an infinite one: the pool state keeps infinities) */
    double *values;
    double fps;            /**< NaN when null or absent */
    /** 1 for a pair log; a ladder log's sections (@since API 1.3): this
     *  struct holds rendition 0 (frames, metrics, pools), renditions[k - 1]
     *  rendition k (each a complete struct gpussim_log with the same
     *  version, config and fps). gpussim_log_rendition() picks one. */
    int nb_renditions;
    struct gpussim_log **renditions;
    /** The section's "name" (a ladder's rendition), NULL when absent.
     *  @since API 1.7 */
    const char *name;
    /** enum gpussim_log_pool_stat bits of the statistics the section's
     *  pooled_metrics hold (median, p5, p1 checked against the pool state
     *  when there is one). @since API 1.7 */
    unsigned pool_stats;
};

/** Rendition k of a parsed log (0: the log itself), NULL past the end.
 *  @since API 1.3 */
GPUSSIM_API const struct gpussim_log *gpussim_log_rendition(const struct gpussim_log *log, int k);

/** Limits of the reader: bigger input is refused, not allocated. */
#define GPUSSIM_LOG_MAX_BYTES (1ull << 31)
#define GPUSSIM_LOG_MAX_METRICS 4096
#define GPUSSIM_LOG_MAX_DEPTH 16

/**
 * Parses a gpussim JSON log (len bytes, not necessarily NUL-terminated).
 * Input is untrusted: sizes are bounded by len and the limits above, nothing
 * is allocated from a count read in the input, every frame must carry the
 * same metrics in the same order as the first, pooled_metrics and pool_state
 * must name the same metrics and agree with each other, and each pool_state
 * must hold exactly its frames' values in frame order (a null frame value is
 * a NaN left out of the pool or an infinity the pool keeps). A malformed log is
 * refused with -EINVAL and a message naming the problem and its position
 * (line, column, byte offset) through log_cb. *log is NULL on failure.
 * Logs of libvmaf or older gpussim versions (no config, no pool_state) are
 * read with has_config = 0 and pool = NULL.
 * @return 0, -EINVAL, -ENOMEM, -EFBIG (above GPUSSIM_LOG_MAX_BYTES).
 */
GPUSSIM_API int gpussim_log_parse(struct gpussim_log **log, const char *buf, size_t len, gpussim_log_fn log_cb,
                      void *log_opaque);

/** Reads path ("-": stdin) and parses it; I/O errors are -errno, logged. */
GPUSSIM_API int gpussim_log_read(struct gpussim_log **log, const char *path, gpussim_log_fn log_cb, void *log_opaque);

/**
 * gpussim_log_parse() for a log that a killed run (SIGKILL, power loss) may
 * have cut off: the writer flushes every frame as it is written, but the
 * pooled blocks, config and pool state come when the log is closed. A
 * complete log is parsed as gpussim_log_parse() parses it (returns 0). A
 * cut-off one gives the frames written completely before the cut (of a
 * ladder log rendition 0's, the only ones streamed: the other renditions
 * reach the file at close), nb_renditions = 1, has_config = 0 (version is
 * kept), pools rebuilt from those frames (a null value, NaN or an infinity,
 * left out and counted in frames_left_out) and pooled from them; a warning
 * through log_cb says so, and it returns 1. Text damaged otherwise than by
 * a cut (its brackets close, or a frame before the cut is malformed), or cut
 * before its "frames", is refused as gpussim_log_parse() refuses it.
 * gpussim_log_merge() writes a recovered log alone as a complete log (it
 * cannot be merged with others: nothing tells its features and options).
 * @return 0 (complete), 1 (recovered), -EINVAL, -ENOMEM, -EFBIG. @since API 1.6
 */
GPUSSIM_API int gpussim_log_parse_recover(struct gpussim_log **log, const char *buf, size_t len,
                                          gpussim_log_fn log_cb, void *log_opaque);

/** gpussim_log_read() through gpussim_log_parse_recover(): 0, 1 (recovered,
 *  also logged with the path), or the errors of both. @since API 1.6 */
GPUSSIM_API int gpussim_log_read_recover(struct gpussim_log **log, const char *path, gpussim_log_fn log_cb,
                                         void *log_opaque);

/** Frees a parsed log; *log = NULL. NULL-safe. */
GPUSSIM_API void gpussim_log_free(struct gpussim_log **log);

/**
 * Merges chunk logs into one JSON log at params->path (or params->file):
 * frames renumbered 0..N-1, pooled statistics from the merged pool states
 * (equal to those of one run over the whole input), NaN counts summed, fps
 * null, config of the first chunk with its first_frame. Refused (-EINVAL,
 * with a message naming the difference and the two logs) when the logs
 * differ in library version, metric names, features and options, size,
 * depth, chroma or planes, or when a log has no config or pool state, or a
 * config without features (a recovered log, rewritten: merged only alone).
 * labels[i] names logs[i] in messages (a file name); labels may be NULL
 * ("log 1", "log 2", ...). params->format must be JSON; timestamps are kept
 * when every log has them; the pooled statistics are params->pool_stats', or
 * the first log's when 0, its rendition names params->rendition_names, or the
 * first log's when NULL. Ladder logs merge rendition by rendition into a
 * ladder log; every log must then have the same number of renditions.
 *
 * Order: when every log has a first_frame the
 * chunks are merged in the order of their first frames, and each must start
 * where the one before ends: an overlap or a gap is refused (-EINVAL, naming
 * both chunks and the frames). Without first_frame (the FFmpeg filter's
 * logs) but with a timestamp on every frame, the chunks are ordered by their
 * first timestamps; a chunk starting at or before the previous one's last
 * timestamp is refused (overlap), and so is a step from one chunk to the
 * next wider than 1.5 times the widest step between two frames of any chunk
 * (a gap). Otherwise the chunks are merged in the order given, with a
 * warning that nothing could be checked.
 * Chunks given out of order get an info message naming the first one.
 */
GPUSSIM_API int gpussim_log_merge(const struct gpussim_log *const *logs, const char *const *labels, int nb_logs,
                      const struct gpussim_log_writer_params *params);

#ifdef __cplusplus
}
#endif

#endif /* GPUSSIM_GPUSSIM_LOG_H */
