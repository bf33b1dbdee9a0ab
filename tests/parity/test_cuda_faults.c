/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Device failures injected into the CUDA backend through its driver table
 * (hwctx/cuda/cuda_loader.c's test hook): the driver's entry points are wrapped,
 * and the n-th call of a chosen one fails with a chosen CUDA error.
 *
 *   - every cuMemAlloc and every cuMemAllocHost along gpussim_create, in
 *     turn, fails with CUDA_ERROR_OUT_OF_MEMORY: create returns -ENOMEM,
 *     leaves no handle, logs a message naming the call and the error;
 *   - at frame 3, with frames 0..2 still in flight: the frame's launch
 *     (cuGraphLaunch, or cuLaunchKernel without graphs) fails with
 *     CUDA_ERROR_LAUNCH_FAILED; its first and its last host-to-device copy
 *     (cuMemcpyHtoDAsync: picture planes, frame descriptor) fail with
 *     CUDA_ERROR_ILLEGAL_ADDRESS; the device-to-host copy of the results
 *     (cuMemcpyDtoHAsync) too where it is a call of its own (not in the
 *     frame's graph); the lazily allocated pinned staging at frame 0 fails
 *     with out of memory: submit returns -EIO / -ENOMEM and logs the call,
 *     and frames 0..2 are then collected with the values of a run without a
 *     fault, bit for bit; frame 3 submitted again on the same context then
 *     scores like the fault-free run (the fault was transient);
 *   - the wait for frame 3 (cuEventQuery / cuEventSynchronize) fails, as an
 *     asynchronous fault is reported: collect returns -EIO for that frame
 *     and logs the call; frames 0..2 were collected before with their values.
 * After each: gpussim_destroy works, every device allocation, pinned
 * allocation, stream, event and graph the backend made is released (counted
 * in the wrappers), and a new context on the same device scores like the
 * first run. The fault-free CUDA run itself agrees with the CPU backend
 * within the spec's tolerances (5e-5 float metrics, 1e-9 integer ssim).
 * Exit 77 without a CUDA device.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwctx/cuda/cuda_loader.h"
#include "tests/lib/testutil.h"

#define W 320
#define H 240
#define NB 6       /* frames per run */
#define AT 3       /* the frame that fails; 0..AT-1 are in flight */
#define MAX_SCORES 64

#define CU_OUT_OF_MEMORY 2
#define CU_ILLEGAL_ADDRESS 700
#define CU_LAUNCH_FAILED 719

/* ---- the wrapped driver table ------------------------------------------------ */

enum entry {
    E_LAUNCH, E_GRAPH_LAUNCH, E_HTOD_ASYNC, E_DTOH_ASYNC, E_EVENT_QUERY, E_EVENT_SYNC,
    E_MEM_ALLOC, E_MEM_ALLOC_HOST, E_N
};
static const char *const entry_name[E_N] = {
    "cuLaunchKernel", "cuGraphLaunch", "cuMemcpyHtoDAsync", "cuMemcpyDtoHAsync", "cuEventQuery",
    "cuEventSynchronize", "cuMemAlloc", "cuMemAllocHost",
};

static const struct gpussim_cuda_api *real;
static struct gpussim_cuda_api fake;
static atomic_long calls[E_N];
static atomic_long fail_at[E_N]; /* the call number that fails; 0: none */
static CUresult fail_code[E_N];
/* live objects the backend holds */
static atomic_long live_dev, live_host, live_streams, live_events, live_graphs;

static int hit(enum entry e)
{
    const long n = atomic_fetch_add(&calls[e], 1) + 1;
    return atomic_load(&fail_at[e]) == n;
}

/* fails the n-th call of e from now on (n >= 1) */
static void arm(enum entry e, long n, CUresult code)
{
    fail_code[e] = code;
    atomic_store(&fail_at[e], atomic_load(&calls[e]) + n);
}

static void disarm(void)
{
    for (int e = 0; e < E_N; e++)
        atomic_store(&fail_at[e], 0);
}

static CUresult w_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                 unsigned by, unsigned bz, unsigned shmem, CUstream s, void **params,
                                 void **extra)
{
    if (hit(E_LAUNCH))
        return fail_code[E_LAUNCH];
    return real->cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, s, params, extra);
}

static CUresult w_cuGraphLaunch(CUgraphExec e, CUstream s)
{
    if (hit(E_GRAPH_LAUNCH))
        return fail_code[E_GRAPH_LAUNCH];
    return real->cuGraphLaunch(e, s);
}

static CUresult w_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes, CUstream s)
{
    if (hit(E_HTOD_ASYNC))
        return fail_code[E_HTOD_ASYNC];
    return real->cuMemcpyHtoDAsync(dst, src, bytes, s);
}

static CUresult w_cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes, CUstream s)
{
    if (hit(E_DTOH_ASYNC))
        return fail_code[E_DTOH_ASYNC];
    return real->cuMemcpyDtoHAsync(dst, src, bytes, s);
}

static CUresult w_cuEventQuery(CUevent e)
{
    if (hit(E_EVENT_QUERY))
        return fail_code[E_EVENT_QUERY];
    return real->cuEventQuery(e);
}

static CUresult w_cuEventSynchronize(CUevent e)
{
    if (hit(E_EVENT_SYNC))
        return fail_code[E_EVENT_SYNC];
    return real->cuEventSynchronize(e);
}

static CUresult w_cuMemAlloc(CUdeviceptr *p, size_t bytes)
{
    if (hit(E_MEM_ALLOC))
        return fail_code[E_MEM_ALLOC];
    const CUresult r = real->cuMemAlloc(p, bytes);
    if (r == CUDA_SUCCESS)
        atomic_fetch_add(&live_dev, 1);
    return r;
}

static CUresult w_cuMemFree(CUdeviceptr p)
{
    const CUresult r = real->cuMemFree(p);
    if (r == CUDA_SUCCESS && p)
        atomic_fetch_sub(&live_dev, 1);
    return r;
}

static CUresult w_cuMemAllocHost(void **p, size_t bytes)
{
    if (hit(E_MEM_ALLOC_HOST))
        return fail_code[E_MEM_ALLOC_HOST];
    const CUresult r = real->cuMemAllocHost(p, bytes);
    if (r == CUDA_SUCCESS)
        atomic_fetch_add(&live_host, 1);
    return r;
}

static CUresult w_cuMemFreeHost(void *p)
{
    const CUresult r = real->cuMemFreeHost(p);
    if (r == CUDA_SUCCESS && p)
        atomic_fetch_sub(&live_host, 1);
    return r;
}

static CUresult w_cuStreamCreate(CUstream *s, unsigned flags)
{
    const CUresult r = real->cuStreamCreate(s, flags);
    if (r == CUDA_SUCCESS)
        atomic_fetch_add(&live_streams, 1);
    return r;
}

static CUresult w_cuStreamCreateWithPriority(CUstream *s, unsigned flags, int priority)
{
    const CUresult r = real->cuStreamCreateWithPriority(s, flags, priority);
    if (r == CUDA_SUCCESS)
        atomic_fetch_add(&live_streams, 1);
    return r;
}

static CUresult w_cuStreamDestroy(CUstream s)
{
    const CUresult r = real->cuStreamDestroy(s);
    if (r == CUDA_SUCCESS)
        atomic_fetch_sub(&live_streams, 1);
    return r;
}

static CUresult w_cuEventCreate(CUevent *e, unsigned flags)
{
    const CUresult r = real->cuEventCreate(e, flags);
    if (r == CUDA_SUCCESS)
        atomic_fetch_add(&live_events, 1);
    return r;
}

static CUresult w_cuEventDestroy(CUevent e)
{
    const CUresult r = real->cuEventDestroy(e);
    if (r == CUDA_SUCCESS)
        atomic_fetch_sub(&live_events, 1);
    return r;
}

static CUresult w_cuGraphInstantiateWithFlags(CUgraphExec *e, CUgraph g, unsigned long long flags)
{
    const CUresult r = real->cuGraphInstantiateWithFlags(e, g, flags);
    if (r == CUDA_SUCCESS)
        atomic_fetch_add(&live_graphs, 1);
    return r;
}

static CUresult w_cuGraphExecDestroy(CUgraphExec e)
{
    const CUresult r = real->cuGraphExecDestroy(e);
    if (r == CUDA_SUCCESS)
        atomic_fetch_sub(&live_graphs, 1);
    return r;
}

/* 1: the table handed to the backend has no graph entry points, as with a
 * driver without graphs: the backend launches kernel by kernel */
static int graphs_off;

static void install_wrappers(void)
{
    fake = *real;
    fake.cuLaunchKernel = w_cuLaunchKernel;
    if (graphs_off) {
        fake.cuGraphLaunch = NULL;
    } else if (real->cuGraphLaunch) {
        fake.cuGraphLaunch = w_cuGraphLaunch;
        fake.cuGraphInstantiateWithFlags = w_cuGraphInstantiateWithFlags;
        fake.cuGraphExecDestroy = w_cuGraphExecDestroy;
    }
    fake.cuMemcpyHtoDAsync = w_cuMemcpyHtoDAsync;
    fake.cuMemcpyDtoHAsync = w_cuMemcpyDtoHAsync;
    fake.cuEventQuery = w_cuEventQuery;
    fake.cuEventSynchronize = w_cuEventSynchronize;
    fake.cuMemAlloc = w_cuMemAlloc;
    fake.cuMemFree = w_cuMemFree;
    fake.cuMemAllocHost = w_cuMemAllocHost;
    fake.cuMemFreeHost = w_cuMemFreeHost;
    fake.cuStreamCreate = w_cuStreamCreate;
    if (real->cuStreamCreateWithPriority) /* the graph's high-priority branches */
        fake.cuStreamCreateWithPriority = w_cuStreamCreateWithPriority;
    fake.cuStreamDestroy = w_cuStreamDestroy;
    fake.cuEventCreate = w_cuEventCreate;
    fake.cuEventDestroy = w_cuEventDestroy;
    gpussim_cuda_set_api_for_tests(&fake);
}

/* ---- log: every error message of a scenario --------------------------------- */

static char errors[8192];

static void log_cb(void *opaque, enum gpussim_log_level level, const char *msg)
{
    (void)opaque;
    if (level <= GPUSSIM_LOG_ERROR) {
        const size_t n = strlen(errors);
        snprintf(errors + n, sizeof(errors) - n, "%s\n", msg);
    }
    if (getenv("GPUSSIM_TEST_VERBOSE"))
        fprintf(stderr, "[gpussim %d] %s\n", (int)level, msg);
}

static const char *cu_name(CUresult r)
{
    const char *name = NULL;
    if (real->cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
        name = "?";
    return name;
}

/* the log names the call and the CUDA error */
static void check_logged(const char *what, enum entry e, enum entry alt, CUresult code)
{
    const int named = strstr(errors, entry_name[e]) || (alt != E_N && strstr(errors, entry_name[alt]));
    CHECK(named && strstr(errors, cu_name(code)), "%s: the log does not name %s and %s: \"%s\"", what,
          entry_name[e], cu_name(code), errors);
}

static void check_released(const char *what)
{
    CHECK(!live_dev && !live_host && !live_streams && !live_events && !live_graphs,
          "%s: after destroy %ld device allocations, %ld pinned allocations, %ld streams, %ld events,"
          " %ld graphs are still live", what, (long)live_dev, (long)live_host, (long)live_streams,
          (long)live_events, (long)live_graphs);
}

/* ---- frames -------------------------------------------------------------------- */

static struct gpussim_params params;
static struct test_packed ref_pk[NB], dis_pk[NB];
static double base[NB][MAX_SCORES]; /* the fault-free CUDA run */
static int nb_scores;
static char **score_names;
/* calls of each entry made by submit(f) in the fault-free run */
static long per_submit[NB][E_N];

static void make_frames(void)
{
    for (int f = 0; f < NB; f++) {
        struct test_frame r, d;
        test_frame_alloc(&r, &params.format);
        test_frame_alloc(&d, &params.format);
        test_fill(&r, 8, f & 1 ? PATTERN_GRADIENT : PATTERN_RANDOM, 1000 + f);
        test_distort(&r, &d, 8, 6 + 3 * f, 2000 + f);
        test_pack(&r, &params.format, &ref_pk[f]);
        test_pack(&d, &params.format, &dis_pk[f]);
        test_frame_free(&r);
        test_frame_free(&d);
    }
}

static int same_values(const double *a, const double *b)
{
    return !memcmp(a, b, sizeof(double) * (size_t)nb_scores);
}

static long snapshot[E_N];
static void take_snapshot(void)
{
    for (int e = 0; e < E_N; e++)
        snapshot[e] = atomic_load(&calls[e]);
}

/* The fault-free run, frame by frame, recording the calls each submit makes. */
static int baseline(void)
{
    GpussimContext *ctx = NULL;
    struct gpussim_result res;
    const char *const *names;
    int err = gpussim_create(&ctx, &params);
    if (err < 0)
        return err;
    nb_scores = gpussim_score_names(ctx, &names);
    CHECK(nb_scores > 0 && nb_scores <= MAX_SCORES, "%d scores", nb_scores);
    score_names = calloc((size_t)nb_scores, sizeof(char *));
    for (int k = 0; k < nb_scores && score_names; k++)
        score_names[k] = strdup(names[k]);
    for (int f = 0; f < NB && !err; f++) {
        take_snapshot();
        const int64_t idx = gpussim_submit(ctx, &ref_pk[f].pic, &dis_pk[f].pic);
        for (int e = 0; e < E_N; e++)
            per_submit[f][e] = atomic_load(&calls[e]) - snapshot[e];
        CHECK(idx == f, "fault-free submit %d returned %lld", f, (long long)idx);
        if (idx != f) {
            err = -EIO;
            break;
        }
        CHECK(gpussim_collect(ctx, &res, 1) == 1 && res.index == (uint64_t)f,
              "fault-free collect of frame %d", f);
        memcpy(base[f], res.values, sizeof(double) * (size_t)nb_scores);
    }
    gpussim_destroy(&ctx);
    check_released("fault-free run");
    return err;
}

static void check_against_cpu(void)
{
    struct gpussim_params p = params;
    struct gpussim_picture refs[NB], diss[NB];
    double *cpu = NULL;
    p.backend = GPUSSIM_BACKEND_CPU;
    for (int f = 0; f < NB; f++) {
        refs[f] = ref_pk[f].pic;
        diss[f] = dis_pk[f].pic;
    }
    const int n = test_score(&p, refs, diss, NB, &cpu, NULL);
    CHECK(n == nb_scores, "CPU run: %d scores, CUDA %d", n, nb_scores);
    if (n != nb_scores) {
        free(cpu);
        return;
    }
    double maxdiff = 0;
    for (int f = 0; f < NB; f++)
        for (int k = 0; k < n; k++) {
            const double tol = !strcmp(score_names[k], "ssim") ? 1e-9 : 5e-5;
            const double d = fabs(cpu[f * n + k] - base[f][k]);
            CHECK(d <= tol, "frame %d %s: CUDA %.17g, CPU %.17g", f, score_names[k], base[f][k],
                  cpu[f * n + k]);
            if (d > maxdiff)
                maxdiff = d;
        }
    printf("fault-free CUDA run vs CPU: %d frames x %d scores, largest difference %.3g\n", NB, n,
           maxdiff);
    free(cpu);
}

/* A new context on the same device scores frame 0 as the fault-free run did. */
static void check_fresh_context(const char *what)
{
    GpussimContext *ctx = NULL;
    struct gpussim_result res;
    int err = gpussim_create(&ctx, &params);
    CHECK(err == 0, "%s: a new context after the fault: %d (%s)", what, err, errors);
    if (err == 0) {
        const int64_t idx = gpussim_submit(ctx, &ref_pk[0].pic, &dis_pk[0].pic);
        CHECK(idx == 0 && gpussim_collect(ctx, &res, 1) == 1 && same_values(res.values, base[0]),
              "%s: a new context after the fault scores differently", what);
    }
    gpussim_destroy(&ctx);
    check_released(what);
}

/* ---- scenarios ------------------------------------------------------------------ */

/* Fails each call of e along gpussim_create in turn. */
static void create_walk(enum entry e)
{
    GpussimContext *ctx = NULL;
    disarm();
    take_snapshot();
    CHECK(gpussim_create(&ctx, &params) == 0, "create");
    const long n_calls = atomic_load(&calls[e]) - snapshot[e];
    gpussim_destroy(&ctx);
    for (long n = 1; n <= n_calls; n++) {
        char what[64];
        snprintf(what, sizeof(what), "%s #%ld of create", entry_name[e], n);
        errors[0] = 0;
        arm(e, n, CU_OUT_OF_MEMORY);
        const int err = gpussim_create(&ctx, &params);
        disarm();
        CHECK(err == -ENOMEM && !ctx, "%s: create returned %d (%s), expected -ENOMEM", what, err,
              gpussim_strerror(err));
        check_logged(what, e, E_N, CU_OUT_OF_MEMORY);
        gpussim_destroy(&ctx);
        check_released(what);
    }
    printf("%s fails at each of its %ld calls along create: -ENOMEM, logged, nothing left\n",
           entry_name[e], n_calls);
}

/* Frames 0..at-1 in flight, then the n-th call of e during submit(at) fails. */
static void submit_fault(enum entry e, long n, CUresult code, int expect, int at)
{
    GpussimContext *ctx = NULL;
    struct gpussim_result res;
    char what[96];
    snprintf(what, sizeof(what), "%s #%ld of frame %d's submit", entry_name[e], n, at);
    if (n < 1 || per_submit[at][e] < n) {
        printf("%s: not made (%ld call(s) of %s per submit here): skipped\n", what,
               per_submit[at][e], entry_name[e]);
        return;
    }
    errors[0] = 0;
    disarm();
    int err = gpussim_create(&ctx, &params);
    CHECK(err == 0, "%s: create: %d", what, err);
    if (err < 0)
        return;
    for (int f = 0; f < at; f++)
        CHECK(gpussim_submit(ctx, &ref_pk[f].pic, &dis_pk[f].pic) == f, "%s: submit %d", what, f);
    arm(e, n, code);
    const int64_t idx = gpussim_submit(ctx, &ref_pk[at].pic, &dis_pk[at].pic);
    disarm();
    CHECK(idx == expect, "%s: submit returned %lld, expected %d", what, (long long)idx, expect);
    check_logged(what, e, E_N, code);
    /* the frames in flight before it are scored, with their values */
    int got = 0;
    while ((err = gpussim_collect(ctx, &res, 1)) == 1) {
        CHECK(res.index == (uint64_t)got && same_values(res.values, base[got]),
              "%s: frame %llu (of those before the fault) differs from the fault-free run", what,
              (unsigned long long)res.index);
        got++;
    }
    CHECK(err == 0 && got == at, "%s: %d of the %d frames before it collected (last: %d)", what, got,
          at, err);
    /* the fault was transient: the same context scores the frame when it
     * is submitted again, and what the failed submit allocated is not
     * allocated twice (the release check after destroy) */
    const int64_t again = gpussim_submit(ctx, &ref_pk[at].pic, &dis_pk[at].pic);
    CHECK(again == at && gpussim_collect(ctx, &res, 1) == 1 && same_values(res.values, base[at]),
          "%s: frame %d submitted again: %lld, or its values differ", what, at, (long long)again);
    gpussim_destroy(&ctx);
    check_released(what);
    check_fresh_context(what);
    printf("%s fails (%s): submit %d, logged; the %d frames in flight before it keep their values;"
           " submitted again it scores\n", what, cu_name(code), expect, got);
}

/* Frames 0..at-1 collected, then waiting for frame at fails. */
static void wait_fault(int at)
{
    GpussimContext *ctx = NULL;
    struct gpussim_result res;
    char what[96];
    snprintf(what, sizeof(what), "the wait for frame %d", at);
    errors[0] = 0;
    disarm();
    int err = gpussim_create(&ctx, &params);
    CHECK(err == 0, "%s: create: %d", what, err);
    if (err < 0)
        return;
    for (int f = 0; f < at; f++) {
        CHECK(gpussim_submit(ctx, &ref_pk[f].pic, &dis_pk[f].pic) == f, "%s: submit %d", what, f);
        CHECK(gpussim_collect(ctx, &res, 1) == 1 && res.index == (uint64_t)f &&
                  same_values(res.values, base[f]),
              "%s: frame %d differs from the fault-free run", what, f);
    }
    CHECK(gpussim_submit(ctx, &ref_pk[at].pic, &dis_pk[at].pic) == at, "%s: submit %d", what, at);
    /* whichever the backend asks first reports the fault */
    arm(E_EVENT_QUERY, 1, CU_LAUNCH_FAILED);
    arm(E_EVENT_SYNC, 1, CU_LAUNCH_FAILED);
    err = gpussim_collect(ctx, &res, 1);
    disarm();
    CHECK(err == -EIO, "%s: collect returned %d, expected -EIO", what, err);
    check_logged(what, E_EVENT_QUERY, E_EVENT_SYNC, CU_LAUNCH_FAILED);
    char frame_failed[32];
    snprintf(frame_failed, sizeof(frame_failed), "frame %d failed", at);
    CHECK(strstr(errors, frame_failed) != NULL, "%s: the log does not name frame %d: %s", what, at,
          errors);
    gpussim_destroy(&ctx);
    check_released(what);
    check_fresh_context(what);
    printf("%s fails (%s): collect -EIO, logged; the %d frames before it kept their values\n", what,
           cu_name(CU_LAUNCH_FAILED), at);
}

enum { LADDER_R = 6 };

/* Collects one frame of the ladder context (waiting): 1 when one came; counts
 * it in *got, and in *bad when rendition 0 differs from the pair run. */
static int ladder_collect(GpussimContext *ctx, int *got, int *bad)
{
    struct gpussim_result res;
    if (gpussim_collect(ctx, &res, 1) != 1)
        return 0;
    (*got)++;
    CHECK(res.nb_values == LADDER_R * nb_scores, "ladder: %d values", res.nb_values);
    *bad += memcmp(res.values, base[res.index], sizeof(double) * (size_t)nb_scores) != 0;
    return 1;
}

/* A ladder of 6 renditions (the backend's native ladder: 4 frames in
 * flight, one slot each): each rendition scores like the pair, and destroy
 * releases every slot. */
static void ladder_released(void)
{
    enum { R = LADDER_R };
    struct gpussim_params p = params;
    GpussimContext *ctx = NULL;
    p.nb_distorted = R;
    p.max_in_flight = 0; /* the backend's depth: its 4 slots hold 4 ladder frames */
    int err = gpussim_create(&ctx, &p);
    CHECK(err == 0, "ladder context: %d (%s)", err, errors);
    if (err < 0)
        return;
    int bad = 0, got = 0, full = 0;
    /* rendition k of frame f is the pair (ref f, dis (f + k) % NB): equal
     * to the fault-free pair run where that pair was scored (k == 0) */
    for (int f = 0; f < NB; f++) {
        const struct gpussim_picture *dis[R];
        for (int k = 0; k < R; k++)
            dis[k] = &dis_pk[(f + k) % NB].pic;
        int64_t idx;
        /* every slot is taken (4 frames of 6 renditions): -EAGAIN, then
         * collecting one frame frees its slot */
        while ((idx = gpussim_submit_multi(ctx, &ref_pk[f].pic, dis, R)) == -EAGAIN) {
            full++;
            if (!ladder_collect(ctx, &got, &bad))
                break;
        }
        CHECK(idx == f, "ladder submit %d returned %lld", f, (long long)idx);
    }
    /* the queue holds 4 ladder frames: the 5th and 6th submits found it full */
    CHECK(full == NB - 4, "ladder: the queue was full %d times, expected %d", full, NB - 4);
    while (ladder_collect(ctx, &got, &bad))
        ;
    CHECK(got == NB && !bad, "ladder: %d frames collected, %d differ from the pair run", got, bad);
    gpussim_destroy(&ctx);
    check_released("a 6-rendition ladder context");
    printf("a 6-rendition ladder: %d frames, 4 in flight at most, rendition 0 == the pair run, "
           "every slot released\n", got);
}

/* The whole fault set on the current table (with or without graphs). */
static void fault_set(void)
{
    if (score_names) {
        test_free_names(score_names, nb_scores);
        score_names = NULL;
    }
    install_wrappers();
    int err = baseline();
    CHECK(err == 0, "fault-free CUDA run failed: %d (%s)", err, errors);
    if (err < 0)
        return;
    printf("CUDA graphs: %s; per submit: %ld cuGraphLaunch, %ld cuLaunchKernel, %ld cuMemcpyHtoDAsync,"
           " %ld cuMemcpyDtoHAsync\n", fake.cuGraphLaunch ? "yes" : "no (kernel by kernel)",
           per_submit[AT][E_GRAPH_LAUNCH], per_submit[AT][E_LAUNCH], per_submit[AT][E_HTOD_ASYNC],
           per_submit[AT][E_DTOH_ASYNC]);
    check_against_cpu();

    /* out of memory at create */
    create_walk(E_MEM_ALLOC);
    create_walk(E_MEM_ALLOC_HOST);
    /* the pinned staging of host pictures, allocated by the first submit */
    submit_fault(E_MEM_ALLOC_HOST, 1, CU_OUT_OF_MEMORY, -ENOMEM, 0);
    /* a failing launch */
    if (per_submit[AT][E_GRAPH_LAUNCH])
        submit_fault(E_GRAPH_LAUNCH, 1, CU_LAUNCH_FAILED, -EIO, AT);
    else
        CHECK(per_submit[AT][E_LAUNCH] > 0, "a submit launches nothing");
    submit_fault(E_LAUNCH, 1, CU_LAUNCH_FAILED, -EIO, AT);
    submit_fault(E_LAUNCH, per_submit[AT][E_LAUNCH], CU_LAUNCH_FAILED, -EIO, AT);
    /* failing copies */
    CHECK(per_submit[AT][E_HTOD_ASYNC] > 0, "host pictures are not copied");
    submit_fault(E_HTOD_ASYNC, 1, CU_ILLEGAL_ADDRESS, -EIO, AT);
    submit_fault(E_HTOD_ASYNC, per_submit[AT][E_HTOD_ASYNC], CU_ILLEGAL_ADDRESS, -EIO, AT);
    submit_fault(E_DTOH_ASYNC, 1, CU_ILLEGAL_ADDRESS, -EIO, AT);
    /* a fault reported when waiting */
    wait_fault(AT);
}

int main(void)
{
    real = gpussim_cuda_load();
    int count = 0;
    if (!real || real->cuInit(0) != CUDA_SUCCESS || real->cuDeviceGetCount(&count) != CUDA_SUCCESS ||
        count < 1) {
        printf("SKIP: no CUDA device\n");
        return TEST_SKIP;
    }
    install_wrappers();

    gpussim_default_params(&params);
    params.backend = GPUSSIM_BACKEND_CUDA;
    params.format = (struct gpussim_format){ .width = W, .height = H, .bit_depth = 8 };
    params.max_in_flight = AT + 1;
    params.log_cb = log_cb;
    make_frames();

    {
        GpussimContext *probe = NULL;
        const int err = gpussim_create(&probe, &params);
        gpussim_destroy(&probe);
        if (err == -ENODEV || err == -ENOSYS) {
            printf("SKIP: the CUDA backend has no device (%d)\n", err);
            return TEST_SKIP;
        }
    }
    fault_set();
    /* and the kernel-by-kernel path a driver without graphs takes */
    if (real->cuGraphLaunch) {
        graphs_off = 1;
        fault_set();
        graphs_off = 0;
        install_wrappers();
    }
    ladder_released();

    gpussim_cuda_set_api_for_tests(NULL);
    for (int f = 0; f < NB; f++) {
        test_packed_free(&ref_pk[f]);
        test_packed_free(&dis_pk[f]);
    }
    test_free_names(score_names, nb_scores);
    return test_summary();
}
