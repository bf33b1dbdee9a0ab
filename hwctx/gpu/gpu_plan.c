/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The GPU frame plan shared by the CUDA and HIP backends: device glue
 * around kernels/cuda/kernels.cu, written against a
 * CUDA-driver-API table (hwctx/cuda/cuda_loader.h). A backend is this plan plus
 * a struct gpu_plan_target (hwctx/gpu/gpu_plan.h): its table, module image and
 * name, and how it adopts a device and reads pictures in device memory
 * (hwctx/cuda/cuda.c, hwctx/hip/hip.c).
 *
 * Context: an adopted one (the target's adopt_device, e.g. FFmpeg's
 * AVCUDADeviceContext: its CUcontext and CUstream) or the primary context of
 * params.device. Every entry point pushes the context and pops it on every
 * path.
 *
 * Stream: always a non-blocking stream of our own. An adopted stream is only
 * where the pictures' producer wrote them: a frame whose pictures were
 * written there records an event on it and our stream waits for that event,
 * so the metric runs after the frame is ready and concurrently with whatever
 * the producer queues next. Working on the producer's stream instead would
 * queue everything the producer does next behind the metric: FFmpeg's is the
 * legacy default stream (NULL), on which NVDEC maps and copies out every
 * decoded frame.
 *
 * A frame is a sequence of launches on our stream and returns at once:
 *   [host pictures: rows copied into the slot's pinned staging, then one
 *    async host->device copy per plane]
 *   frame descriptor (where the pictures are) -> metric kernels, which read
 *   the pictures in place (in a CUDA graph, one parallel branch per metric
 *   family) -> reduce_partials -> one small device->host copy of the
 *   frame's result block -> event.
 * wait() queries/synchronises that event and turns the exact fixed-point
 * sums into the doubles the shared recipe expects (see resolve_sum()).
 * Everything is allocated at init (host staging at the first host picture);
 * nothing is allocated, loaded or synchronised per frame. Intermediate
 * device buffers are shared by the slots: the stream orders the frames.
 *
 * A ladder (cfg->nb_distorted = n > 1, submit_multi/wait_multi) is one
 * frame in one slot: the reference and its n distorted pictures in the
 * frame descriptor, n result blocks. Every stage is one launch for all the
 * pictures, the reference's share computed once: the decimations run one
 * picture per blockIdx.z (the reference's pyramid once); the window
 * kernels (SSIM, integer SSIM) compute a tile's reference moments once per
 * block and then score a group of distorted pictures against them
 * (ladder_group()); ANSNR filters the reference once, then each distorted
 * picture against that plane, the kernel of the distorted pictures summing
 * the reference's signal rows beside their noise rows. Every per-picture
 * operation is the pair kernels', in the same order, so each distorted
 * picture's sums are its pair's, bit for bit (tests/parity/test_ladder.c). A
 * ladder costs per distorted picture its decimated planes, partial sums,
 * result blocks and reduction scratch (log_ladder_memory()), and once
 * ANSNR's filtered reference (w x h floats).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/backend.h"
#include "hwctx/cuda/cuda_loader.h"
#include "hwctx/gpu/gpu_plan.h"
#include "kernels/cuda/cuda_shared.h"

/* frames in flight, pairs and ladder frames alike (a ladder frame is one
 * slot: the reference and its distorted pictures) */
#define CUDA_SLOTS 4
#define SSIM_WINDOW GPUSSIM_GAUSSIAN11_LEN

/* the plan's window quantities are the kernels' bits 1 << GPUSSIM_WSUM_q */
_Static_assert(GPUSSIM_SUM_TERM == 1 << GPUSSIM_WSUM_TERM && GPUSSIM_SUM_L == 1 << GPUSSIM_WSUM_L &&
                   GPUSSIM_SUM_C == 1 << GPUSSIM_WSUM_C && GPUSSIM_SUM_S == 1 << GPUSSIM_WSUM_S,
               "plan.h's GPUSSIM_SUM_* and cuda_shared.h's GPUSSIM_WSUM_* disagree");

#if GPUSSIM_CUDA_MAX_PICTURES != 1 + GPUSSIM_MAX_DISTORTED
#error "kernels/cuda/cuda_shared.h: GPUSSIM_CUDA_MAX_PICTURES must be 1 + GPUSSIM_MAX_DISTORTED"
#endif

/* the kernels' tile and block sizes are kernels/cuda/cuda_shared.h's */

/* Every kernel but the final reduction comes in twos: a pair's, then a
 * ladder's (the kernel's index + 1). A ladder's decimations (_one) run one
 * picture per blockIdx.z, the reference once; its window kernels
 * (_ladder) compute a tile's reference moments once and then score a
 * group of distorted pictures against them, a group per blockIdx.z. ANSNR
 * comes in four: a pair's, a ladder's reference (ansnr_ref_filter: its
 * filtered plane, once), then its distorted pictures against it and the
 * reference's signal rows (_dis2, _dis4). */
enum cuda_kernel {
    K_DECIMATE_BOX,
    K_LPF_RAW = K_DECIMATE_BOX + 2,
    K_LPF_F32 = K_LPF_RAW + 2,
    /* the window kernels: all four sums, then the term's (_T), or c and s (_CS) */
    K_WIN_RAW_T32 = K_LPF_F32 + 2,
    K_WIN_RAW_T32_T = K_WIN_RAW_T32 + 2,
    K_WIN_RAW_T32_CS = K_WIN_RAW_T32_T + 2,
    K_WIN_RAW_T8 = K_WIN_RAW_T32_CS + 2,
    K_WIN_RAW_T8_T = K_WIN_RAW_T8 + 2,
    K_WIN_RAW_T8_CS = K_WIN_RAW_T8_T + 2,
    K_WIN_F32_T32 = K_WIN_RAW_T8_CS + 2,
    K_WIN_F32_T32_CS = K_WIN_F32_T32 + 2,
    K_WIN_F32_T8 = K_WIN_F32_T32_CS + 2,
    K_WIN_F32_T8_CS = K_WIN_F32_T8 + 2,
    K_WIN_DEC_T32 = K_WIN_F32_T8_CS + 2,
    K_WIN_DEC_T32_T = K_WIN_DEC_T32 + 2,
    K_WIN_DEC_T8 = K_WIN_DEC_T32_T + 2,
    K_WIN_DEC_T8_T = K_WIN_DEC_T8 + 2,
    K_ANSNR = K_WIN_DEC_T8_T + 2,
    K_ISSIM_U32 = K_ANSNR + 4,
    K_ISSIM_U32_8BIT = K_ISSIM_U32 + 2,
    K_ISSIM_U64 = K_ISSIM_U32_8BIT + 2,
    K_REDUCE = K_ISSIM_U64 + 2,
    K_COUNT,
};

#define PAIR_LADDER(n, suffix) n, n suffix
static const char *const kernel_names[K_COUNT] = {
    PAIR_LADDER("ssim_decimate_box", "_one"),
    PAIR_LADDER("msssim_decimate_lpf_raw", "_two"),
    PAIR_LADDER("msssim_decimate_lpf_f32", "_one"),
    PAIR_LADDER("ssim_windows_raw_t32", "_ladder"),
    PAIR_LADDER("ssim_windows_raw_t32_t", "_ladder"),
    PAIR_LADDER("ssim_windows_raw_t32_cs", "_ladder"),
    PAIR_LADDER("ssim_windows_raw_t8", "_ladder"),
    PAIR_LADDER("ssim_windows_raw_t8_t", "_ladder"),
    PAIR_LADDER("ssim_windows_raw_t8_cs", "_ladder"),
    PAIR_LADDER("ssim_windows_f32_t32", "_ladder"),
    PAIR_LADDER("ssim_windows_f32_t32_cs", "_ladder"),
    PAIR_LADDER("ssim_windows_f32_t8", "_ladder"),
    PAIR_LADDER("ssim_windows_f32_t8_cs", "_ladder"),
    PAIR_LADDER("ssim_windows_dec_t32", "_ladder"),
    PAIR_LADDER("ssim_windows_dec_t32_t", "_ladder"),
    PAIR_LADDER("ssim_windows_dec_t8", "_ladder"),
    PAIR_LADDER("ssim_windows_dec_t8_t", "_ladder"),
    "ansnr_rows",
    "ansnr_ref_filter",
    "ansnr_rows_dis2",
    "ansnr_rows_dis4",
    PAIR_LADDER("issim_windows_u32", "_ladder"),
    PAIR_LADDER("issim_windows_u32_8bit", "_ladder"),
    PAIR_LADDER("issim_windows_u64", "_ladder"),
    "reduce_partials",
};
#undef PAIR_LADDER

/* One scored plane's device buffers and partial-sum locations. A
 * decimated plane is one allocation of the frame's pictures' planes
 * (reference first), `stride` floats apart. */
struct cuda_plane {
    struct gpussim_cuda_plane_fmt fmt; /* where its samples are in the picture */
    CUdeviceptr ssim_dec;              /* float_ssim decimated planes (scale > 1) */
    long long ssim_dec_stride;
    CUdeviceptr ms_level[GPUSSIM_MSSSIM_SCALES]; /* levels 1..4 */
    long long ms_stride[GPUSSIM_MSSSIM_SCALES];
    unsigned ssim_gx, ssim_gy, ssim_th;
    unsigned ms_gx[GPUSSIM_MSSSIM_SCALES], ms_gy[GPUSSIM_MSSSIM_SCALES], ms_th[GPUSSIM_MSSSIM_SCALES];
    unsigned issim_gx, issim_gy;
    double issim_weight; /* integer SSIM's weights' sum: the plane's size decides it */
    /* ladder: distorted pictures per block of each window stage */
    int ssim_group, ms_group[GPUSSIM_MSSSIM_SCALES], issim_group;
    size_t ssim_part, ms_part[GPUSSIM_MSSSIM_SCALES], issim_part; /* byte offsets */
    size_t ansnr_sig, ansnr_noise;
};

struct cuda_slot {
    uint8_t *staging; /* pinned: the host pictures' planes, ref then dis */
    struct gpussim_cuda_frame_out *host_out;   /* pinned, one per distorted picture */
    struct gpussim_cuda_frame_desc *host_desc; /* pinned, after host_out */
    CUdeviceptr dev_out, dev_desc; /* one allocation, same layout */
    CUevent start, done;
    CUevent ready; /* recorded on the producer's stream: the pictures are written */
    CUgraphExec graph; /* the whole frame, captured once; NULL: direct launches */
    void *imports; /* the target's imported pictures of the slot's frame */
};

struct cuda_backend {
    struct gpussim_config cfg;
    const struct gpu_plan_target *t;
    const struct gpussim_cuda_api *cu;
    CUdevice device;
    int sm_count;
    CUcontext ctx;
    CUstream stream;        /* ours, non-blocking: every frame's work */
    CUstream producer;      /* adopted: where CUDA-memory pictures were written */
    CUstream launch_stream; /* where launch() enqueues: stream, or a capture stream */
    int own_ctx, adopted;
    CUmodule module;
    CUfunction fn[K_COUNT];

    /* distorted pictures per frame (a pair: 1) and pictures per frame */
    int nb_dis, nb_pics;
    struct cuda_plane plane[GPUSSIM_MAX_SCORE_PLANES];
    /* partial sums: one layout per distorted picture, part_stride bytes apart */
    CUdeviceptr partials;
    size_t part_stride;
    /* ladder: ANSNR's filtered reference plane (its planes one after the other) */
    CUdeviceptr ansnr_ref;
    size_t ansnr_ref_bytes;
    CUdeviceptr jobs;
    CUdeviceptr reduce_scratch; /* the final reduction's job counters and chain totals */
    int nb_jobs;                /* of all distorted pictures */

    /* host pictures: packed plane sizes and their device copies */
    int nb_src_planes;
    size_t src_row_bytes[GPUSSIM_MAX_PLANES], src_rows[GPUSSIM_MAX_PLANES];
    size_t staging_size;
    CUdeviceptr src_dev[GPUSSIM_CUDA_MAX_PICTURES][GPUSSIM_MAX_PLANES];

    struct cuda_slot slots[CUDA_SLOTS];
    int nb_slots;

    /* float means whose reference rounding could not be proven (spec §5) */
    unsigned long long means_checked, means_unproven;
};

/* ---- error handling ---------------------------------------------------------- */

/* the log prefix: "cuda", "hip" */
static const char *tname(const struct gpu_plan_target *t)
{
    return gpussim_backend_type_name(t->type);
}

static int cu_check(const struct cuda_backend *be, CUresult r, const char *what)
{
    if (r == CUDA_SUCCESS)
        return 0;
    const char *name = NULL;
    if (be->cu->cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
        name = "unknown CUDA error";
    gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR, "%s: %s failed: %s (%d)", tname(be->t), what,
                name, r);
    switch (r) {
    case 2: /* CUDA_ERROR_OUT_OF_MEMORY */
        return -ENOMEM;
    case 100: /* CUDA_ERROR_NO_DEVICE */
    case 101: /* CUDA_ERROR_INVALID_DEVICE */
        return -ENODEV;
    default:
        return -EIO;
    }
}

#define CHECK_CU(call) cu_check(be, be->cu->call, #call)

static int push_ctx(struct cuda_backend *be)
{
    return CHECK_CU(cuCtxPushCurrent(be->ctx));
}

static void pop_ctx(struct cuda_backend *be)
{
    CUcontext dummy;
    CHECK_CU(cuCtxPopCurrent(&dummy));
}

/* ---- geometry -------------------------------------------------------------- */

static unsigned div_up(int a, int b)
{
    return (unsigned)((a + b - 1) / b);
}

/* Tile height of the SSIM window kernel for a w x h plane: 32 rows keep the
 * horizontal pass's overlap small; when that leaves fewer than 4 blocks per
 * multiprocessor, 8-row tiles spread the plane over more of them. A
 * ladder's tile holds every distorted picture's windows (spread over
 * blockIdx.z where needed, ladder_group()): it keeps the tall tiles, whose
 * overlap each picture pays again, as long as all its pictures' tiles fill
 * 4 blocks per multiprocessor. */
static void window_grid(const struct cuda_backend *be, int w, int h, unsigned *gx, unsigned *gy,
                        unsigned *th)
{
    const int ow = w - (SSIM_WINDOW - 1), oh = h - (SSIM_WINDOW - 1);
    const unsigned tall = div_up(ow, WIN_TW) * div_up(oh, WIN_TH_TALL);
    *th = WIN_TH_TALL;
    if (tall * (unsigned)be->nb_dis < 4u * (unsigned)be->sm_count)
        *th = WIN_TH_SHORT;
    *gx = div_up(ow, WIN_TW);
    *gy = div_up(oh, (int)*th);
}

/*
 * How many distorted pictures a block of a ladder's window stage scores
 * (`blocks` blocks per picture): all of them where the stage alone fills
 * the GPU (four blocks per multiprocessor), so that a tile's reference
 * moments are computed once; on smaller stages fewer, so that the groups
 * run side by side, each computing the tile's reference moments itself.
 * MS-SSIM's levels 2-4 (`beside`) score all of them however small: they
 * run beside the level-0 windows, which fill the GPU, so the reference's
 * moments computed once count for more than the levels' own latency
 * (H200, 8-bit, all four metrics, ladders of 4 / 8 / 16 renditions: 2160p
 * 2262 -> 2247, 4150 -> 4128, 7895 -> 7878 us; 1080p 611 -> 602, 1097 ->
 * 1085, 2059 -> 2046 us; every window stage so: 2252, 4147, 7915 and 598,
 * 1096, 2079 us).
 * GPUSSIM_TEST_LADDER_GROUP=all|N forces all of them or N (tests).
 */
static int ladder_group(const struct cuda_backend *be, unsigned blocks, int beside)
{
    const int n = be->nb_dis;
    const char *force = getenv("GPUSSIM_TEST_LADDER_GROUP");
    if (n == 1)
        return 1;
    if (force && !strcmp(force, "all"))
        return n;
    if (force && atoi(force) >= 1)
        return atoi(force) < n ? atoi(force) : n;
    if (beside)
        return n;
    const unsigned want = 4u * (unsigned)be->sm_count;
    const int groups = blocks >= want ? 1 : (int)((want + blocks - 1) / blocks);
    return groups >= n ? 1 : (n + groups - 1) / groups;
}

/* Integer SSIM's kernel for a depth (uint32 vertical sums at 8 bits,
 * uint32 horizontal moments up to 12, 64-bit above) and its tile's rows
 * (kernels/cuda/issim.cu: the 64-bit kernel's tile is shorter, for shared
 * memory). */
static enum cuda_kernel issim_kernel(int bit_depth)
{
    return bit_depth <= 8 ? K_ISSIM_U32_8BIT : bit_depth <= 12 ? K_ISSIM_U32 : K_ISSIM_U64;
}

static unsigned issim_rows(int bit_depth)
{
    return issim_kernel(bit_depth) == K_ISSIM_U64 ? ISSIM_TH_U64 : ISSIM_TH;
}

/* Where each plane reads its samples, the window kernels' grids, the
 * layout of one distorted picture's partial sums (byte offsets,
 * 256-aligned) and, for a ladder, the window stages' groups, from the
 * plan's stages. */
static int plan_planes(struct cuda_backend *be, size_t *partial_bytes)
{
    const struct gpussim_plan *plan = &be->cfg.plan;
    size_t off = 0;
#define TAKE(var, bytes) (var = off, off += ((bytes) + 255) & ~(size_t)255)

    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        struct cuda_plane *pl = &be->plane[st->plane];
        switch (st->kind) {
        case GPUSSIM_STAGE_UNPACK:
            pl->fmt.src_plane = st->src.src_plane;
            pl->fmt.first = st->src.first;
            pl->fmt.step = st->src.step;
            pl->fmt.bytes_per_sample = st->src.bytes_per_sample;
            pl->fmt.shift = st->src.shift;
            pl->fmt.mask = st->src.mask;
            break;
        case GPUSSIM_STAGE_SSIM_WINDOWS:
            if (st->slot == GPUSSIM_RESULT_SSIM) {
                window_grid(be, st->in_w, st->in_h, &pl->ssim_gx, &pl->ssim_gy, &pl->ssim_th);
                TAKE(pl->ssim_part,
                     (size_t)pl->ssim_gx * pl->ssim_gy * sizeof(struct gpussim_cuda_wsums));
                pl->ssim_group = ladder_group(be, pl->ssim_gx * pl->ssim_gy, 0);
            } else {
                const int sc = st->scale;
                window_grid(be, st->in_w, st->in_h, &pl->ms_gx[sc], &pl->ms_gy[sc], &pl->ms_th[sc]);
                TAKE(pl->ms_part[sc],
                     (size_t)pl->ms_gx[sc] * pl->ms_gy[sc] * sizeof(struct gpussim_cuda_wsums));
                pl->ms_group[sc] = ladder_group(be, pl->ms_gx[sc] * pl->ms_gy[sc], sc >= 2);
            }
            break;
        case GPUSSIM_STAGE_ISSIM:
            pl->issim_gx = div_up(st->in_w, ISSIM_TW);
            pl->issim_gy = div_up(st->in_h, issim_rows(st->bit_depth));
            pl->issim_weight = gpussim_issim_weight_sum(st->in_w, st->in_h);
            TAKE(pl->issim_part,
                 (size_t)pl->issim_gx * pl->issim_gy * sizeof(struct gpussim_cuda_wsums));
            pl->issim_group = ladder_group(be, pl->issim_gx * pl->issim_gy, 0);
            break;
        case GPUSSIM_STAGE_ANSNR: {
            TAKE(pl->ansnr_sig, (size_t)st->in_h * sizeof(float));
            TAKE(pl->ansnr_noise, (size_t)st->in_h * sizeof(float));
            const size_t bytes = (size_t)st->in_w * (size_t)st->in_h * sizeof(float);
            if (be->nb_dis > 1 && bytes > be->ansnr_ref_bytes)
                be->ansnr_ref_bytes = bytes;
            break;
        }
        default:
            break;
        }
    }
#undef TAKE
    *partial_bytes = off;
    return 0;
}

/* *p is set only on success: uninit frees what is non-zero */
static int alloc_dev(struct cuda_backend *be, CUdeviceptr *p, size_t bytes)
{
    CUdeviceptr d = 0;
    const int err = CHECK_CU(cuMemAlloc(&d, bytes ? bytes : 1));
    if (err >= 0)
        *p = d;
    return err;
}

/* The decimated planes of the plan (every picture of a frame): float_ssim's
 * box output and MS-SSIM levels 1..4; a ladder's filtered ANSNR reference. */
static int alloc_planes(struct cuda_backend *be)
{
    const struct gpussim_plan *plan = &be->cfg.plan;
    int err = 0;
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        struct cuda_plane *pl = &be->plane[st->plane];
        /* planes 256-byte aligned: the stride in floats is a multiple of 64 */
        const long long stride = ((long long)st->out_w * st->out_h + 63) & ~63ll;
        const size_t bytes = (size_t)stride * sizeof(float) * (size_t)be->nb_pics;
        if (st->kind == GPUSSIM_STAGE_DECIMATE_BOX) {
            pl->ssim_dec_stride = stride;
            err = alloc_dev(be, &pl->ssim_dec, bytes);
        } else if (st->kind == GPUSSIM_STAGE_DECIMATE_LPF) {
            pl->ms_stride[st->out_level] = stride;
            err = alloc_dev(be, &pl->ms_level[st->out_level], bytes);
        }
        if (err < 0)
            return err;
    }
    if (be->ansnr_ref_bytes)
        err = alloc_dev(be, &be->ansnr_ref, be->ansnr_ref_bytes);
    return err;
}

/* The final reduction's jobs: one per REDUCE stage of the plan and
 * distorted picture (picture r's partials and result block r). */
static int upload_jobs(struct cuda_backend *be)
{
    const struct gpussim_plan *plan = &be->cfg.plan;
    struct gpussim_cuda_reduce_job jobs[GPUSSIM_CUDA_MAX_JOBS * (GPUSSIM_CUDA_MAX_PICTURES - 1)];
    int n = 0;
    memset(jobs, 0, sizeof(jobs));
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *r = &plan->stage[i];
        if (r->kind != GPUSSIM_STAGE_REDUCE)
            continue;
        const struct cuda_plane *pl = &be->plane[r->plane];
        const size_t po = offsetof(struct gpussim_cuda_frame_out, plane) +
                          (size_t)r->plane * sizeof(struct gpussim_cuda_plane_out);
        switch (r->slot) {
        case GPUSSIM_RESULT_SSIM:
            jobs[n++] = (struct gpussim_cuda_reduce_job){
                GPUSSIM_REDUCE_WSUMS, pl->ssim_gx * pl->ssim_gy, pl->ssim_part, 0,
                po + offsetof(struct gpussim_cuda_plane_out, ssim) };
            break;
        case GPUSSIM_RESULT_MSSSIM:
            jobs[n++] = (struct gpussim_cuda_reduce_job){
                GPUSSIM_REDUCE_WSUMS, pl->ms_gx[r->scale] * pl->ms_gy[r->scale],
                pl->ms_part[r->scale], 0,
                po + offsetof(struct gpussim_cuda_plane_out, ms) +
                    (size_t)r->scale * sizeof(struct gpussim_cuda_wsums) };
            break;
        case GPUSSIM_RESULT_ISSIM:
            jobs[n++] = (struct gpussim_cuda_reduce_job){
                GPUSSIM_REDUCE_WSUMS, pl->issim_gx * pl->issim_gy, pl->issim_part, 0,
                po + offsetof(struct gpussim_cuda_plane_out, issim) };
            break;
        case GPUSSIM_RESULT_ANSNR:
            jobs[n++] = (struct gpussim_cuda_reduce_job){
                GPUSSIM_REDUCE_ANSNR_ROWS, (uint32_t)r->out_h, pl->ansnr_sig,
                pl->ansnr_noise, po + offsetof(struct gpussim_cuda_plane_out, ansnr_sig) };
            break;
        case GPUSSIM_RESULT_NONE:
            break;
        }
    }
    /* the same jobs for distorted pictures 1.. (ANSNR's signal rows are
     * the reference's: computed once, in picture 0's place) */
    for (int r = 1; r < be->nb_dis; r++)
        for (int j = 0; j < n; j++) {
            struct gpussim_cuda_reduce_job *job = &jobs[r * n + j];
            *job = jobs[j];
            if (job->kind == GPUSSIM_REDUCE_ANSNR_ROWS)
                job->src2_offset += (uint64_t)r * be->part_stride;
            else
                job->src_offset += (uint64_t)r * be->part_stride;
            job->dst_offset += (uint64_t)r * sizeof(struct gpussim_cuda_frame_out);
        }
    n *= be->nb_dis;
    be->nb_jobs = n;
    int err = alloc_dev(be, &be->jobs, sizeof(jobs[0]) * (size_t)n);
    if (err < 0)
        return err;
    err = CHECK_CU(cuMemcpyHtoD(be->jobs, jobs, sizeof(jobs[0]) * (size_t)n));
    if (err < 0)
        return err;
    /* the counters start at 0; the last block of each job resets its own */
    err = alloc_dev(be, &be->reduce_scratch, REDUCE_SCRATCH_HEAD + REDUCE_SCRATCH_JOB * (size_t)n);
    if (err < 0)
        return err;
    static const uint8_t zero[REDUCE_SCRATCH_HEAD];
    return CHECK_CU(cuMemcpyHtoD(be->reduce_scratch, zero, sizeof(zero)));
}

/* Bytes per row and rows of each picture plane the scored planes read
 * (host pictures are packed tightly into the staging buffer). */
static void plan_host_planes(struct cuda_backend *be)
{
    const struct gpussim_plan *plan = &be->cfg.plan;
    be->nb_src_planes = plan->nb_pic_planes;
    be->staging_size = 0;
    for (int sp = 0; sp < plan->nb_pic_planes; sp++) {
        be->src_row_bytes[sp] = (size_t)plan->pic_row_samples[sp] * (size_t)be->cfg.bytes_per_sample;
        be->src_rows[sp] = (size_t)plan->pic_rows[sp];
        be->staging_size += be->src_row_bytes[sp] * be->src_rows[sp];
    }
}

/* Host pictures need pinned staging per slot and device copies; made at
 * the first host picture so that CUDA-frame users never pay for them. */
static int alloc_host_staging(struct cuda_backend *be)
{
    int err;
    /* after a failure here, the next submit comes back: what was allocated
     * then is kept (and freed at uninit), not allocated twice */
    for (int sp = 0; sp < be->nb_src_planes; sp++)
        for (int k = 0; k < be->nb_pics; k++) {
            if (be->src_dev[k][sp])
                continue;
            err = alloc_dev(be, &be->src_dev[k][sp], be->src_row_bytes[sp] * be->src_rows[sp]);
            if (err < 0)
                return err;
        }
    for (int i = 0; i < be->nb_slots; i++) {
        if (be->slots[i].staging)
            continue;
        void *staging = NULL;
        err = CHECK_CU(cuMemAllocHost(&staging, (size_t)be->nb_pics * be->staging_size));
        if (err < 0)
            return err;
        be->slots[i].staging = staging;
    }
    return 0;
}

/* ---- frame submission ---------------------------------------------------------- */

static int launch(struct cuda_backend *be, enum cuda_kernel k, unsigned gx, unsigned gy,
                  unsigned gz, unsigned bx, unsigned by, void **args)
{
    const CUresult r = be->cu->cuLaunchKernel(be->fn[k], gx, gy, gz, bx, by, 1, 0,
                                              be->launch_stream, args, NULL);
    if (r == CUDA_SUCCESS)
        return 0;
    /* the message names the driver call and the kernel */
    char what[96];
    snprintf(what, sizeof(what), "cuLaunchKernel(%s)", kernel_names[k]);
    return cu_check(be, r, what);
}

/* A window stage: a pair's kernel, or a ladder's with `group` distorted
 * pictures per block (args: the pair's, then room for the ladder's
 * part_stride, group and nb_dis, filled here). */
static int launch_windows(struct cuda_backend *be, enum cuda_kernel k, int group, unsigned gx,
                          unsigned gy, unsigned bx, unsigned by, void **args, int nb_args)
{
    if (be->nb_dis == 1)
        return launch(be, k, gx, gy, 1, bx, by, args);
    long long part_words = (long long)(be->part_stride / sizeof(uint64_t));
    int nb_dis = be->nb_dis;
    args[nb_args] = &part_words;
    args[nb_args + 1] = &group;
    args[nb_args + 2] = &nb_dis;
    return launch(be, k + 1, gx, gy, (unsigned)((nb_dis + group - 1) / group), bx, by, args);
}

/* The window kernel of input `in` that sums what `sums` asks (GPUSSIM_SUM_*):
 * a variant that leaves the other quantities out, where one exists, else
 * the kernel of all four. */
static enum cuda_kernel window_kernel(enum gpussim_plan_buf in, int t32, unsigned sums)
{
    const int term = sums == GPUSSIM_SUM_TERM, cs = sums == (GPUSSIM_SUM_C | GPUSSIM_SUM_S);
    switch (in) {
    case GPUSSIM_BUF_BOX: /* float_ssim's decimated planes */
        return t32 ? (term ? K_WIN_DEC_T32_T : K_WIN_DEC_T32)
                   : (term ? K_WIN_DEC_T8_T : K_WIN_DEC_T8);
    case GPUSSIM_BUF_LEVEL: /* MS-SSIM's levels 1-4 */
        return t32 ? (cs ? K_WIN_F32_T32_CS : K_WIN_F32_T32)
                   : (cs ? K_WIN_F32_T8_CS : K_WIN_F32_T8);
    default: /* level 0: the picture itself */
        if (t32)
            return term ? K_WIN_RAW_T32_T : cs ? K_WIN_RAW_T32_CS : K_WIN_RAW_T32;
        return term ? K_WIN_RAW_T8_T : cs ? K_WIN_RAW_T8_CS : K_WIN_RAW_T8;
    }
}

/* One stage of the plan. The kernels fuse stages: those that read the
 * picture (window sums and decimations of level 0, ANSNR, integer SSIM)
 * unpack and convert its samples in place through the slot's frame
 * descriptor, so UNPACK and CONVERT launch nothing; REDUCE stages are the
 * jobs of the frame's one reduce_partials launch. A ladder frame runs each
 * stage once for all its pictures: the decimations one layer per picture
 * (the reference once), the windows in groups of distorted pictures
 * (launch_windows), ANSNR's reference once, then its distorted pictures. */
static int run_stage(struct cuda_backend *be, const struct gpussim_plan_stage *st,
                     struct cuda_slot *slot)
{
    struct cuda_plane *pl = &be->plane[st->plane];
    /* 1 / scaler, exact: the kernels multiply by it (spec §0) */
    float scaler = st->inv_scaler;
    int w = st->in_w, h = st->in_h, nw = st->out_w, nh = st->out_h;
    CUdeviceptr *desc = &slot->dev_desc;
    struct gpussim_cuda_plane_fmt *fmt = &pl->fmt;
    const int ladder = be->nb_dis > 1;
    /* a decimation: a pair's both pictures in one layer, a ladder's one per layer (level 0 of
     * MS-SSIM's pyramid: two) */
    const unsigned dec_layers = ladder ? (unsigned)be->nb_pics : 1;

    switch (st->kind) {
    case GPUSSIM_STAGE_DECIMATE_BOX: {
        int factor = st->factor;
        void *dargs[] = { desc, fmt, &w, &h, &scaler, &factor, &pl->ssim_dec, &pl->ssim_dec_stride,
                          &nw,  &nh };
        return launch(be, K_DECIMATE_BOX + ladder, div_up(nw, DECIMATE_BX), div_up(nh, DECIMATE_BY),
                      dec_layers, DECIMATE_BX, DECIMATE_BY, dargs);
    }
    case GPUSSIM_STAGE_SSIM_WINDOWS: {
        const int ms = st->slot == GPUSSIM_RESULT_MSSSIM, sc = st->scale;
        CUdeviceptr part = be->partials + (ms ? pl->ms_part[sc] : pl->ssim_part);
        const unsigned gx = ms ? pl->ms_gx[sc] : pl->ssim_gx, gy = ms ? pl->ms_gy[sc] : pl->ssim_gy;
        const int t32 = (ms ? pl->ms_th[sc] : pl->ssim_th) == WIN_TH_TALL;
        const int group = ms ? pl->ms_group[sc] : pl->ssim_group;
        const enum cuda_kernel k = window_kernel(st->in, t32, st->sums);
        if (st->in == GPUSSIM_BUF_BOX) {
            void *wargs[9] = { &pl->ssim_dec, &pl->ssim_dec_stride, &w, &h, &scaler, &part };
            return launch_windows(be, k, group, gx, gy, WIN_BX, WIN_BY, wargs, 6);
        }
        if (st->in == GPUSSIM_BUF_LEVEL) {
            void *wargs[9] = {
                &pl->ms_level[st->in_level], &pl->ms_stride[st->in_level], &w, &h, &scaler, &part
            };
            return launch_windows(be, k, group, gx, gy, WIN_BX, WIN_BY, wargs, 6);
        }
        /* level 0 is the picture itself */
        void *wargs[9] = { desc, fmt, &w, &h, &scaler, &part };
        return launch_windows(be, k, group, gx, gy, WIN_BX, WIN_BY, wargs, 6);
    }
    case GPUSSIM_STAGE_DECIMATE_LPF: {
        CUdeviceptr *out = &pl->ms_level[st->out_level];
        long long *out_stride = &pl->ms_stride[st->out_level];
        if (st->in == GPUSSIM_BUF_LEVEL) {
            void *dargs[] = { &pl->ms_level[st->in_level],
                              &pl->ms_stride[st->in_level],
                              &w,
                              &h,
                              &scaler,
                              out,
                              out_stride,
                              &nw,
                              &nh };
            return launch(be, K_LPF_F32 + ladder, div_up(nw, LPF_BX), div_up(nh, LPF_BY),
                          dec_layers, LPF_BX, LPF_BY, dargs);
        }
        /* level 0: a ladder's pictures two per layer (msssim_decimate_lpf_raw_two) */
        int nb_pics = be->nb_pics;
        void *dargs[] = { desc, fmt, &w, &h, &scaler, out, out_stride, &nw, &nh, &nb_pics };
        return launch(be, K_LPF_RAW + ladder, div_up(nw, LPF_BX), div_up(nh, LPF_BY),
                      ladder ? (unsigned)(be->nb_pics + 1) / 2 : 1, LPF_BX, LPF_BY, dargs);
    }
    case GPUSSIM_STAGE_ANSNR: {
        CUdeviceptr sig = be->partials + pl->ansnr_sig, noise = be->partials + pl->ansnr_noise;
        if (!ladder) {
            void *args[] = { desc, fmt, &w, &h, &scaler, &sig, &noise };
            return launch(be, K_ANSNR, div_up(h, ANSNR_ROWS), 1, 1, ANSNR_THREADS, 1, args);
        }
        /* the reference's filtered plane once; then the distorted pictures
         * 4 per block, or 2 where that leaves fewer of the last block's
         * filter threads idle, and (blockIdx.z 0) the reference's signal
         * rows */
        long long rows_stride = (long long)(be->part_stride / sizeof(float));
        void *rargs[] = { desc, fmt, &w, &h, &scaler, &be->ansnr_ref };
        const unsigned rf_gy = div_up(h, ANSNR_RF_BY * ANSNR_RF_FR);
        const int err = launch(be, K_ANSNR + 1, div_up(w, ANSNR_RF_BX), rf_gy, 1, ANSNR_RF_BX,
                               ANSNR_RF_BY, rargs);
        if (err < 0)
            return err;
        int nb_dis = be->nb_dis;
        const int group = nb_dis % 4 == 0 || nb_dis % 4 == 3 ? 4 : 2;
        CUdeviceptr *ref = &be->ansnr_ref;
        void *dargs[] = { desc, fmt, &w, &h, &scaler, &sig, &noise, &rows_stride, ref, &nb_dis };
        return launch(be, group == 4 ? K_ANSNR + 3 : K_ANSNR + 2, div_up(h, ANSNR_LAD_ROWS), 1,
                      (unsigned)div_up(nb_dis, group), ANSNR_LAD_THREADS(group), 1, dargs);
    }
    case GPUSSIM_STAGE_ISSIM: {
        double c1base = st->c1base, c2base = st->c2base;
        CUdeviceptr part = be->partials + pl->issim_part;
        void *args[10] = { desc, fmt, &w, &h, &c1base, &c2base, &part };
        return launch_windows(be, issim_kernel(st->bit_depth), pl->issim_group, pl->issim_gx,
                              pl->issim_gy, ISSIM_BX, ISSIM_BY, args, 7);
    }
    case GPUSSIM_STAGE_UNPACK:
    case GPUSSIM_STAGE_CONVERT:
    case GPUSSIM_STAGE_REDUCE:
        break;
    }
    return 0;
}

/* A branch of a frame: the stages of metric family `metric`, all of them
 * or (MS-SSIM) its level-0 windows or the rest, its pyramid. */
enum branch_part {
    PART_ALL,
    PART_MS_LEVEL0,
    PART_MS_PYRAMID
};

static int in_part(const struct gpussim_plan_stage *st, enum branch_part part)
{
    const int level0 = st->kind == GPUSSIM_STAGE_SSIM_WINDOWS && st->scale == 0;
    return part == PART_ALL || level0 == (part == PART_MS_LEVEL0);
}

/* Copies the host picture's planes into the slot's pinned staging and
 * queues their upload; returns the device addresses and pitches. */
static int upload_host_picture(struct cuda_backend *be, struct cuda_slot *slot, int k,
                               const struct gpussim_picture *pic)
{
    uint8_t *dst = slot->staging + (size_t)k * be->staging_size;
    for (int sp = 0; sp < be->nb_src_planes; sp++) {
        const size_t rb = be->src_row_bytes[sp], rows = be->src_rows[sp];
        const uint8_t *src = pic->data[sp];
        for (size_t y = 0; y < rows; y++)
            memcpy(dst + y * rb, src + (ptrdiff_t)y * pic->stride[sp], rb);
        int err = CHECK_CU(cuMemcpyHtoDAsync(be->src_dev[k][sp], dst, rb * rows, be->stream));
        if (err < 0)
            return err;
        dst += rb * rows;
    }
    return 0;
}

/*
 * The branches of a frame's graph, in the order they start. The metric
 * families are independent until the final reduction (each writes its own
 * partial sums and intermediate planes); MS-SSIM is two branches, its
 * level-0 windows and its pyramid (the decimations and the windows of
 * levels 1-4: a chain of eight kernels, most too small to fill the GPU).
 * The pyramid and ANSNR (whose row kernels hold few blocks) run at the
 * context's highest stream priority: their blocks go to the
 * multiprocessors ahead of the waiting blocks of the wide window kernels,
 * so that the chain runs beside those instead of alone at the frame's end
 * (H200, 1080p 8-bit, all four metrics: 260 -> 232 us; BENCHMARKS.md).
 */
struct branch {
    unsigned metric;
    enum branch_part part;
    int high_priority;
};

static const struct branch branches[] = {
    { GPUSSIM_METRIC_FLOAT_MS_SSIM, PART_MS_PYRAMID, 1 },
    { GPUSSIM_METRIC_FLOAT_MS_SSIM, PART_MS_LEVEL0, 0 },
    { GPUSSIM_METRIC_SSIM, PART_ALL, 0 },
    { GPUSSIM_METRIC_FLOAT_ANSNR, PART_ALL, 1 },
    { GPUSSIM_METRIC_FLOAT_SSIM, PART_ALL, 0 },
};
#define NB_BRANCHES (int)(sizeof(branches) / sizeof(branches[0]))

/*
 * Streams of a graph capture, one per branch: the graph runs the branches
 * concurrently, filling the GPU where one alone would not. MS-SSIM's
 * pyramid forks the windows of each level 1-4 onto a stream of its own
 * (level[l - 1]) once the level's decimation is queued: a level's windows
 * wait for that decimation only, and the next decimation for nothing but
 * its input level, so that the branch's longest path is the decimations
 * and one level's windows instead of all of them in a row.
 */
#define NB_LEVEL_STREAMS (GPUSSIM_MSSSIM_SCALES - 1)
struct capture_branches {
    CUstream stream[NB_BRANCHES];
    CUevent fork, join[NB_BRANCHES];
    CUstream level[NB_LEVEL_STREAMS];
    CUevent level_ready, level_join[NB_LEVEL_STREAMS];
    unsigned levels_used; /* bit l - 1: level l's stream joined the capture */
};

/* waiter's later work waits for what src has queued so far (ev, recorded
 * on src) */
static int stream_after(struct cuda_backend *be, CUstream waiter, CUstream src, CUevent ev)
{
    const int err = CHECK_CU(cuEventRecord(ev, src));
    return err < 0 ? err : CHECK_CU(cuStreamWaitEvent(waiter, ev, 0));
}

/* A pyramid level's windows stage on the level's own stream, after what
 * be->launch_stream has queued (its decimation). */
static int run_level_windows(struct cuda_backend *be, const struct gpussim_plan_stage *st,
                             struct cuda_slot *slot, struct capture_branches *br)
{
    const CUstream main = be->launch_stream;
    const int l = st->scale - 1;
    int err = stream_after(be, br->level[l], main, br->level_ready);
    if (err < 0)
        return err;
    br->levels_used |= 1u << l;
    be->launch_stream = br->level[l];
    err = run_stage(be, st, slot);
    be->launch_stream = main;
    return err;
}

/* The stages of `part` of the metric families in `metrics` for one scored
 * plane, in the plan's order (br: while capturing a graph). */
static int run_plane(struct cuda_backend *be, int p, struct cuda_slot *slot, unsigned metrics,
                     enum branch_part part, struct capture_branches *br)
{
    const struct gpussim_plan *plan = &be->cfg.plan;
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        if (st->plane != p || !(st->metrics & metrics) || !in_part(st, part))
            continue;
        const int fork = br && part == PART_MS_PYRAMID && st->kind == GPUSSIM_STAGE_SSIM_WINDOWS &&
                         st->scale > 0;
        const int err = fork ? run_level_windows(be, st, slot, br) : run_stage(be, st, slot);
        if (err < 0)
            return err;
    }
    return 0;
}

/* Everything a frame runs after its pictures are in place, on
 * be->launch_stream (with br: forked onto br's streams and joined back):
 * per plane unpack + metrics, the final reduction and the one device->host
 * copy of the result block. Captured once per slot into a CUDA graph when
 * the driver has graphs. */
static int enqueue_frame(struct cuda_backend *be, struct cuda_slot *slot,
                         struct capture_branches *br)
{
    const CUstream origin = be->launch_stream;
    int err = 0;
    if (br) {
        err = CHECK_CU(cuEventRecord(br->fork, origin));
        if (err < 0)
            return err;
    }
    for (int m = 0; m < NB_BRANCHES; m++) {
        if (!(be->cfg.metrics & branches[m].metric))
            continue;
        if (br) {
            err = CHECK_CU(cuStreamWaitEvent(br->stream[m], br->fork, 0));
            if (err < 0)
                break;
            be->launch_stream = br->stream[m];
        }
        for (int p = 0; p < be->cfg.nb_planes && err >= 0; p++)
            err = run_plane(be, p, slot, branches[m].metric, branches[m].part, br);
        if (br) {
            be->launch_stream = origin;
            if (err >= 0)
                err = stream_after(be, origin, br->stream[m], br->join[m]);
            for (int l = 0; l < NB_LEVEL_STREAMS && err >= 0; l++) {
                if (!(br->levels_used >> l & 1))
                    continue;
                br->levels_used &= ~(1u << l);
                err = stream_after(be, origin, br->level[l], br->level_join[l]);
            }
        }
        if (err < 0)
            break;
    }
    be->launch_stream = origin;
    if (err < 0)
        return err;
    void *args[] = { &be->jobs, &be->partials, &slot->dev_out, &be->reduce_scratch };
    err = launch(be, K_REDUCE, REDUCE_BLOCKS, (unsigned)be->nb_jobs, 1, REDUCE_THREADS, 1, args);
    if (err < 0)
        return err;
    /* a pair: the scored planes' results; a ladder: every picture's block */
    const size_t bytes = be->nb_dis == 1
                             ? (size_t)be->cfg.nb_planes * sizeof(struct gpussim_cuda_plane_out)
                             : (size_t)be->nb_dis * sizeof(struct gpussim_cuda_frame_out);
    return CHECK_CU(cuMemcpyDtoHAsync(slot->host_out, slot->dev_out, bytes, be->launch_stream));
}

/* A stream of a capture, at the context's highest priority `greatest`
 * where `high`, and the event that joins it back. */
static int capture_stream(struct cuda_backend *be, CUstream *s, CUevent *join, int high,
                          int greatest)
{
    int err = high ? CHECK_CU(cuStreamCreateWithPriority(s, CU_STREAM_NON_BLOCKING, greatest))
                   : CHECK_CU(cuStreamCreate(s, CU_STREAM_NON_BLOCKING));
    if (err >= 0)
        err = CHECK_CU(cuEventCreate(join, CU_EVENT_DISABLE_TIMING));
    return err;
}

/* capture_stream()'s undoing: the join event, then the stream (either may
 * be unset, where the setup stopped early). */
static void release_capture_stream(struct cuda_backend *be, CUstream s, CUevent join)
{
    if (join)
        CHECK_CU(cuEventDestroy(join));
    if (s)
        CHECK_CU(cuStreamDestroy(s));
}

/* Captures slot's frame into a graph on private streams (never on an
 * adopted one, which other threads may be using). */
static int capture_slot_graph(struct cuda_backend *be, struct cuda_slot *slot)
{
    const struct gpussim_cuda_api *cu = be->cu;
    struct capture_branches br;
    CUstream cs = NULL;
    CUgraph graph = NULL;
    memset(&br, 0, sizeof(br));
    int err = CHECK_CU(cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING));
    if (err < 0)
        return err;
    err = CHECK_CU(cuEventCreate(&br.fork, CU_EVENT_DISABLE_TIMING));
    /* priorities where the driver has them (not HIP's table); without
     * them every branch runs at the default priority */
    int least = 0, greatest = 0, prio = 0;
    if (cu->cuCtxGetStreamPriorityRange && cu->cuStreamCreateWithPriority &&
        cu->cuCtxGetStreamPriorityRange(&least, &greatest) == CUDA_SUCCESS && greatest < least)
        prio = 1;
    for (int m = 0; m < NB_BRANCHES && err >= 0; m++)
        err = capture_stream(be, &br.stream[m], &br.join[m], prio && branches[m].high_priority,
                             greatest);
    if (err >= 0)
        err = CHECK_CU(cuEventCreate(&br.level_ready, CU_EVENT_DISABLE_TIMING));
    /* the levels' windows: the pyramid's priority */
    for (int l = 0; l < NB_LEVEL_STREAMS && err >= 0; l++)
        err = capture_stream(be, &br.level[l], &br.level_join[l], prio, greatest);
    if (err < 0)
        goto fail;
    err = cu_check(be, cu->cuStreamBeginCapture(cs, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                   "cuStreamBeginCapture");
    if (err < 0)
        goto fail;
    be->launch_stream = cs;
    const int qerr = enqueue_frame(be, slot, &br);
    be->launch_stream = be->stream;
    err = cu_check(be, cu->cuStreamEndCapture(cs, &graph), "cuStreamEndCapture");
    if (qerr < 0 || err < 0) {
        err = qerr < 0 ? qerr : err;
        goto fail;
    }
    /* CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY: the kernel nodes keep
     * their capture stream's priority */
    err = cu_check(be, cu->cuGraphInstantiateWithFlags(&slot->graph, graph, prio ? 8 : 0),
                   "cuGraphInstantiateWithFlags");
fail:
    if (graph)
        cu->cuGraphDestroy(graph);
    for (int m = 0; m < NB_BRANCHES; m++)
        release_capture_stream(be, br.stream[m], br.join[m]);
    for (int l = 0; l < NB_LEVEL_STREAMS; l++)
        release_capture_stream(be, br.level[l], br.level_join[l]);
    if (br.level_ready)
        CHECK_CU(cuEventDestroy(br.level_ready));
    if (br.fork)
        CHECK_CU(cuEventDestroy(br.fork));
    CHECK_CU(cuStreamDestroy(cs));
    return err;
}

/* Queues a frame of nb_pics pictures (the reference first) into slot idx. */
static int submit_pictures(struct cuda_backend *be, int idx,
                           const struct gpussim_picture *const *pics)
{
    struct cuda_slot *slot = &be->slots[idx];
    struct gpussim_cuda_frame_desc *desc = slot->host_desc;
    int from_producer = 0;
    int err = push_ctx(be);
    if (err < 0)
        return err;
    /* the slot's previous frame was waited for: its imports are unused */
    if (slot->imports)
        be->t->release_imports(&slot->imports, 0);

    for (int k = 0; k < be->nb_pics; k++) {
        if (pics[k]->memory == GPUSSIM_MEMORY_HOST) {
            if (!slot->staging) {
                err = alloc_host_staging(be);
                if (err < 0)
                    goto fail;
            }
            err = upload_host_picture(be, slot, k, pics[k]);
            if (err < 0)
                goto fail;
            for (int sp = 0; sp < be->nb_src_planes; sp++) {
                desc->src[k][sp] = be->src_dev[k][sp];
                desc->pitch[k][sp] = (int64_t)be->src_row_bytes[sp];
            }
        } else if (pics[k]->memory == be->t->device_memory && be->t->import_picture) {
            /* read in place (mapped for this frame when the target imports
             * it, released once the frame is done) */
            err = be->t->import_picture(&be->cfg, &slot->imports, pics[k], desc->src[k],
                                        desc->pitch[k]);
            if (err < 0) {
                if (slot->imports) /* nothing reads them yet */
                    be->t->release_imports(&slot->imports, 0);
                goto fail;
            }
            from_producer |= err;
        } else {
            gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                        "%s: pictures must be in host or %s memory", tname(be->t),
                        be->t->device_memory_name);
            err = -EINVAL;
            goto fail;
        }
    }
    /* the pictures' writes were queued on the producer's stream before this
     * submit: everything after them waits, nothing else does */
    if (from_producer && be->adopted) {
        err = CHECK_CU(cuEventRecord(slot->ready, be->producer));
        if (err < 0)
            goto fail;
        err = CHECK_CU(cuStreamWaitEvent(be->stream, slot->ready, 0));
        if (err < 0)
            goto fail;
    }
    /* the slot's pinned descriptor is rewritten only after the slot's
     * previous frame was waited for, so this async copy cannot race */
    err = CHECK_CU(cuMemcpyHtoDAsync(slot->dev_desc, desc, sizeof(*desc), be->stream));
    if (err < 0)
        goto fail;
    err = CHECK_CU(cuEventRecord(slot->start, be->stream));
    if (err < 0)
        goto fail;
    if (slot->graph)
        err = CHECK_CU(cuGraphLaunch(slot->graph, be->stream));
    else
        err = enqueue_frame(be, slot, NULL);
    if (err < 0)
        goto fail;
    err = CHECK_CU(cuEventRecord(slot->done, be->stream));
    if (err < 0)
        goto fail;
    pop_ctx(be);
    return 0;

fail:
    pop_ctx(be);
    return err;
}

int gpussim_gpu_plan_submit(void *priv, int idx, const struct gpussim_picture *ref,
                            const struct gpussim_picture *dis)
{
    const struct gpussim_picture *pics[2] = { ref, dis };
    return submit_pictures(priv, idx, pics);
}

int gpussim_gpu_plan_submit_multi(void *priv, int idx, const struct gpussim_picture *ref,
                                  const struct gpussim_picture *const *dis)
{
    struct cuda_backend *be = priv;
    const struct gpussim_picture *pics[GPUSSIM_CUDA_MAX_PICTURES];
    pics[0] = ref;
    for (int k = 0; k < be->nb_dis; k++)
        pics[1 + k] = dis[k];
    return submit_pictures(be, idx, pics);
}

/* ---- results ------------------------------------------------------------------------ */

static double fx_to_double(const struct gpussim_fx *a)
{
    uint64_t l[GPUSSIM_FX_LIMBS];
    memcpy(l, a->limb, sizeof(l));
    const int neg = (int)(l[2] >> 63);
    if (neg) {
        uint64_t carry = 1;
        for (int i = 0; i < GPUSSIM_FX_LIMBS; i++) {
            l[i] = ~l[i] + carry;
            carry = carry && l[i] == 0;
        }
    }
    /* each limb rounds once, the adds twice: within 5 * 2^-53 relative,
     * which resolve_sum() adds to its bound */
    const double d = (double)l[2] + ldexp((double)l[1], -64) + ldexp((double)l[0], -128);
    return neg ? -d : d;
}

/*
 * spec §5: the reference adds the n window terms in raster order in double.
 * We hold their exact sum; the raster-order sum differs from it by at most
 * gamma(n-1) * sum|t| (recursive summation bound, gamma(k) = k*u/(1-k*u)).
 * If every double within that bound gives the same float mean, that float
 * is the reference's, bit for bit, and the exact sum stands in for the
 * reference's sum. Otherwise the exact sum is still within the bound (and
 * far inside the spec's 5e-5), and the case is counted.
 */
static double resolve_sum(struct cuda_backend *be, const struct gpussim_fx *s, double abs_sum,
                          double n)
{
    const double u = DBL_EPSILON / 2;
    const double d = fx_to_double(s);
    const double gamma = (n - 1) * u / (1 - (n - 1) * u);
    double bound = gamma * abs_sum + n * ldexp(1.0, -GPUSSIM_FX_FRAC_BITS) + 8 * u * fabs(d);
    bound = bound * (1 + 1e-6) + DBL_MIN;
    const double lo = nextafter(d - bound, -INFINITY), hi = nextafter(d + bound, INFINITY);
    be->means_checked++;
    if ((float)(lo / n) != (float)(hi / n))
        be->means_unproven++;
    return d;
}

/* The window sums of `sums` (GPUSSIM_SUM_*: bit q is quantity q) into
 * v[0..3] (term, l, c, s); the others were not summed and stay 0. */
static void finish_wsums(struct cuda_backend *be, const struct gpussim_cuda_wsums *w, double n,
                         unsigned sums, double v[4])
{
    for (int q = 0; q < GPUSSIM_WSUM_N; q++)
        if (sums & (1u << q))
            v[q] = resolve_sum(be, &w->sum[q], w->abs_sum[q], n);
}

/*
 * The window kernels' split sums (kernels/cuda/exact_sums.h) hold terms below
 * a bound they check; a term beyond it (or a NaN) makes its quantity's
 * abs_sum NaN. SSIM's l, c, s and terms stay within [-2, 2], so this means
 * a fault, reported rather than scored.
 */
static int check_wsums(struct cuda_backend *be, const struct gpussim_cuda_wsums *w, unsigned sums,
                       const char *what)
{
    for (int q = 0; q < GPUSSIM_WSUM_N; q++)
        if ((sums & (1u << q)) && !isfinite(w->abs_sum[q])) {
            gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                        "%s: %s: a window term is NaN or beyond the exact sums' range",
                        tname(be->t), what);
            return -ERANGE;
        }
    return 0;
}

/* One distorted picture's result block -> its sums. */
static int finish_sums(struct cuda_backend *be, const struct gpussim_cuda_frame_out *out,
                       struct gpussim_frame_sums *sums)
{
    const struct gpussim_config *cfg = &be->cfg;
    memset(sums, 0, sizeof(*sums));
    for (int i = 0; i < cfg->plan.nb_stages; i++) {
        const struct gpussim_plan_stage *r = &cfg->plan.stage[i];
        if (r->kind != GPUSSIM_STAGE_REDUCE)
            continue;
        const struct gpussim_cuda_plane_out *o = &out->plane[r->plane];
        const struct gpussim_plan_stage *src = &cfg->plan.stage[r->producer];
        double v[4] = { 0.0, 0.0, 0.0, 0.0 };
        int err = 0;
        switch (r->slot) {
        case GPUSSIM_RESULT_SSIM:
            if ((err = check_wsums(be, &o->ssim, src->sums, "float_ssim")) < 0)
                break;
            finish_wsums(be, &o->ssim, r->windows, src->sums, v);
            break;
        case GPUSSIM_RESULT_MSSSIM:
            if ((err = check_wsums(be, &o->ms[r->scale], src->sums, "float_ms_ssim")) < 0)
                break;
            /* MS-SSIM never uses the term */
            finish_wsums(be, &o->ms[r->scale], r->windows, src->sums & ~GPUSSIM_SUM_TERM, v);
            break;
        case GPUSSIM_RESULT_ANSNR:
            v[0] = o->ansnr_sig;
            v[1] = o->ansnr_noise;
            break;
        case GPUSSIM_RESULT_ISSIM:
            /* the kernels sum the terms; the weights' sum depends only on
             * the plane's size (an integer below 2^53: exact) */
            if ((err = check_wsums(be, &o->issim, GPUSSIM_SUM_TERM, "ssim")) < 0)
                break;
            v[0] = fx_to_double(&o->issim.sum[0]);
            v[1] = be->plane[r->plane].issim_weight;
            break;
        case GPUSSIM_RESULT_NONE:
            break;
        }
        if (err < 0)
            return err;
        gpussim_plan_store(r, sums, v);
    }
    return 0;
}

/* Waits for slot idx's frame; fills sums[0..nb_dis-1]. */
int gpussim_gpu_plan_wait_multi(void *priv, int idx, int block, struct gpussim_frame_sums *sums)
{
    struct cuda_backend *be = priv;
    struct cuda_slot *slot = &be->slots[idx];
    int err = push_ctx(be);
    if (err < 0)
        return err;
    if (!block) {
        const CUresult r = be->cu->cuEventQuery(slot->done);
        if (r == CUDA_ERROR_NOT_READY) {
            pop_ctx(be);
            return 0;
        }
        err = cu_check(be, r, "cuEventQuery");
    } else {
        err = CHECK_CU(cuEventSynchronize(slot->done));
    }
    if (err >= 0 && slot->imports)
        be->t->release_imports(&slot->imports, 0);
    pop_ctx(be);
    if (err < 0)
        return err;

    for (int k = 0; k < be->nb_dis; k++) {
        err = finish_sums(be, &slot->host_out[k], &sums[k]);
        if (err < 0)
            return err;
    }
    return 1;
}

int gpussim_gpu_plan_wait(void *priv, int idx, int block, struct gpussim_frame_sums *sums)
{
    return gpussim_gpu_plan_wait_multi(priv, idx, block, sums);
}

int gpussim_gpu_plan_device_time_ms(void *priv, int idx, double *ms)
{
    struct cuda_backend *be = priv;
    struct cuda_slot *slot = &be->slots[idx];
    float t = 0;
    int err = push_ctx(be);
    if (err < 0)
        return err;
    err = CHECK_CU(cuEventElapsedTime(&t, slot->start, slot->done));
    pop_ctx(be);
    if (err < 0)
        return err;
    *ms = t;
    return 0;
}

/* ---- setup ---------------------------------------------------------------------------- */

void gpussim_gpu_plan_uninit(void **ppriv)
{
    struct cuda_backend *be = ppriv ? *ppriv : NULL;
    if (!be)
        return;
    if (be->ctx && push_ctx(be) == 0) {
        if (be->stream)
            CHECK_CU(cuStreamSynchronize(be->stream));
        for (int i = 0; i < CUDA_SLOTS; i++) {
            struct cuda_slot *s = &be->slots[i];
            if (s->graph)
                CHECK_CU(cuGraphExecDestroy(s->graph));
            if (s->staging)
                CHECK_CU(cuMemFreeHost(s->staging));
            if (s->host_out)
                CHECK_CU(cuMemFreeHost(s->host_out));
            if (s->dev_out)
                CHECK_CU(cuMemFree(s->dev_out));
            if (s->start)
                CHECK_CU(cuEventDestroy(s->start));
            if (s->done)
                CHECK_CU(cuEventDestroy(s->done));
            if (s->ready)
                CHECK_CU(cuEventDestroy(s->ready));
            if (s->imports)
                be->t->release_imports(&s->imports, 1);
        }
        for (int k = 0; k < GPUSSIM_CUDA_MAX_PICTURES; k++)
            for (int sp = 0; sp < GPUSSIM_MAX_PLANES; sp++)
                if (be->src_dev[k][sp])
                    CHECK_CU(cuMemFree(be->src_dev[k][sp]));
        for (int p = 0; p < GPUSSIM_MAX_SCORE_PLANES; p++) {
            struct cuda_plane *pl = &be->plane[p];
            if (pl->ssim_dec)
                CHECK_CU(cuMemFree(pl->ssim_dec));
            for (int s = 0; s < GPUSSIM_MSSSIM_SCALES; s++)
                if (pl->ms_level[s])
                    CHECK_CU(cuMemFree(pl->ms_level[s]));
        }
        if (be->ansnr_ref)
            CHECK_CU(cuMemFree(be->ansnr_ref));
        if (be->partials)
            CHECK_CU(cuMemFree(be->partials));
        if (be->jobs)
            CHECK_CU(cuMemFree(be->jobs));
        if (be->reduce_scratch)
            CHECK_CU(cuMemFree(be->reduce_scratch));
        if (be->module)
            CHECK_CU(cuModuleUnload(be->module));
        if (be->stream)
            CHECK_CU(cuStreamDestroy(be->stream));
        pop_ctx(be);
    }
    if (be->own_ctx)
        CHECK_CU(cuDevicePrimaryCtxRelease(be->device));
    if (be->means_checked)
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_VERBOSE,
                    "%s: %llu of %llu float means provably rounded as the reference's "
                    "raster-order sums",
                    tname(be->t), be->means_checked - be->means_unproven, be->means_checked);
    free(be);
    *ppriv = NULL;
}

static int cuda_open_device(struct cuda_backend *be)
{
    const struct gpussim_config *cfg = &be->cfg;
    int count = 0, err;
    err = CHECK_CU(cuDeviceGetCount(&count));
    if (err < 0)
        return err;
    if (cfg->params.device >= count) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "%s: device %d requested, %d present",
                    tname(be->t), cfg->params.device, count);
        return -ENODEV;
    }
    err = CHECK_CU(cuDeviceGet(&be->device, cfg->params.device));
    if (err < 0)
        return err;
    err = CHECK_CU(cuDevicePrimaryCtxRetain(&be->ctx, be->device));
    if (err < 0)
        return err;
    be->own_ctx = 1;
    return 0;
}

/* What a ladder context holds on the device per distorted picture: its
 * decimated planes, partial sums, result blocks and reduction scratch
 * (and, for host pictures, its device copy); once, ANSNR's filtered
 * reference. Logged at init. */
static void log_ladder_memory(const struct cuda_backend *be)
{
    const struct gpussim_plan *plan = &be->cfg.plan;
    size_t per_pic = be->part_stride +
                     (size_t)be->nb_slots * sizeof(struct gpussim_cuda_frame_out) +
                     REDUCE_SCRATCH_JOB * (size_t)(be->nb_jobs / be->nb_dis);
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        const struct cuda_plane *pl = &be->plane[st->plane];
        if (st->kind == GPUSSIM_STAGE_DECIMATE_BOX)
            per_pic += (size_t)pl->ssim_dec_stride * sizeof(float);
        else if (st->kind == GPUSSIM_STAGE_DECIMATE_LPF)
            per_pic += (size_t)pl->ms_stride[st->out_level] * sizeof(float);
    }
    gpussim_log(&be->cfg.log, GPUSSIM_LOG_VERBOSE,
                "%s: ladder of %d distorted pictures, reference terms computed once: %.1f MiB "
                "per distorted picture (%.1f MiB more for its device copy if host pictures), "
                "%.1f MiB once for the reference",
                tname(be->t), be->nb_dis, (double)per_pic / 1048576.0,
                (double)be->staging_size / 1048576.0, (double)be->ansnr_ref_bytes / 1048576.0);
}

int gpussim_gpu_plan_init(const struct gpu_plan_target *t, const struct gpussim_config *cfg,
                          void **ppriv, int *nb_slots)
{
    struct cuda_backend *be = calloc(1, sizeof(*be));
    int err, pushed = 0;
    if (!be)
        return -ENOMEM;
    be->cfg = *cfg;
    be->t = t;
    be->nb_dis = cfg->nb_distorted > 1 ? cfg->nb_distorted : 1;
    be->nb_pics = 1 + be->nb_dis;
    be->cu = t->load();
    if (!be->cu) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "%s: %s is not available", tname(t), t->runtime);
        err = -ENODEV;
        goto fail;
    }
    err = CHECK_CU(cuInit(0));
    if (err < 0) {
        if (err == -EIO)
            err = -ENODEV;
        goto fail;
    }

    const int hw = cfg->params.hw_device != NULL;
    if (hw && !t->adopt_device) {
        gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR, "%s: hw_device is not supported", tname(t));
        err = -EINVAL;
        goto fail;
    }
    if (hw) {
        err = t->adopt_device(cfg, &be->ctx, &be->producer);
        if (err < 0)
            goto fail;
        be->adopted = 1;
    } else {
        err = cuda_open_device(be);
        if (err < 0)
            goto fail;
    }
    err = push_ctx(be);
    if (err < 0)
        goto fail;
    pushed = 1;
    if (hw) {
        err = CHECK_CU(cuCtxGetDevice(&be->device));
        if (err < 0)
            goto fail;
    }
    /* non-blocking: no implicit ordering with the legacy default stream,
     * which FFmpeg's decoders and copies use */
    err = CHECK_CU(cuStreamCreate(&be->stream, CU_STREAM_NON_BLOCKING));
    if (err < 0)
        goto fail;

    /* machine code for the known architectures is in the image: no JIT */
    err = CHECK_CU(cuModuleLoadData(&be->module, t->image));
    if (err < 0) {
        if (t->image_archs)
            gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR,
                        "%s: this libgpussim has kernels for %s only (rebuild for the device)",
                        tname(t), t->image_archs);
        goto fail;
    }
    for (int k = 0; k < K_COUNT; k++) {
        err = cu_check(be, be->cu->cuModuleGetFunction(&be->fn[k], be->module, kernel_names[k]),
                       kernel_names[k]);
        if (err < 0)
            goto fail;
        /* the tiled kernels are limited by shared memory per SM: ask for the
         * largest carveout (a hint; failure is harmless) */
        if (be->cu->cuFuncSetAttribute)
            be->cu->cuFuncSetAttribute(be->fn[k],
                                       CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100);
    }

    err = CHECK_CU(cuDeviceGetAttribute(&be->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                        be->device));
    if (err < 0)
        goto fail;
    plan_planes(be, &be->part_stride);
    err = alloc_dev(be, &be->partials, be->part_stride * (size_t)be->nb_dis);
    if (err < 0)
        goto fail;
    err = alloc_planes(be);
    if (err < 0)
        goto fail;
    err = upload_jobs(be);
    if (err < 0)
        goto fail;
    plan_host_planes(be);

    be->nb_slots = CUDA_SLOTS;
    if (cfg->params.max_in_flight && cfg->params.max_in_flight < be->nb_slots)
        be->nb_slots = cfg->params.max_in_flight;
    for (int i = 0; i < be->nb_slots; i++) {
        struct cuda_slot *s = &be->slots[i];
        const size_t out_bytes = sizeof(*s->host_out) * (size_t)be->nb_dis;
        const size_t bytes = out_bytes + sizeof(*s->host_desc);
        err = CHECK_CU(cuMemAllocHost((void **)&s->host_out, bytes));
        if (err < 0)
            goto fail;
        memset(s->host_out, 0, bytes);
        s->host_desc = (struct gpussim_cuda_frame_desc *)(s->host_out + be->nb_dis);
        err = alloc_dev(be, &s->dev_out, bytes);
        if (err < 0)
            goto fail;
        s->dev_desc = s->dev_out + out_bytes;
        err = CHECK_CU(cuEventCreate(&s->start, CU_EVENT_DEFAULT));
        if (err < 0)
            goto fail;
        err = CHECK_CU(cuEventCreate(&s->done, CU_EVENT_BLOCKING_SYNC));
        if (err < 0)
            goto fail;
        if (be->adopted) {
            err = CHECK_CU(cuEventCreate(&s->ready, CU_EVENT_DISABLE_TIMING));
            if (err < 0)
                goto fail;
        }
    }
    be->launch_stream = be->stream;
    /* one graph per slot: a frame is then one launch, without per-kernel
     * launch gaps; without graph support, kernels are launched one by one */
    if (be->cu->cuGraphLaunch && be->cu->cuStreamWaitEvent) {
        for (int i = 0; i < be->nb_slots && err >= 0; i++)
            err = capture_slot_graph(be, &be->slots[i]);
        if (err < 0) {
            gpussim_log(&cfg->log, GPUSSIM_LOG_WARNING,
                        "%s: CUDA graphs unavailable, launching kernels one by one", tname(t));
            for (int i = 0; i < be->nb_slots; i++)
                if (be->slots[i].graph) {
                    CHECK_CU(cuGraphExecDestroy(be->slots[i].graph));
                    be->slots[i].graph = NULL;
                }
            err = 0;
        }
    }
    pop_ctx(be);
    pushed = 0;

    {
        char name[128] = "";
        be->cu->cuDeviceGetName(name, sizeof(name), be->device);
        gpussim_log(&cfg->log, GPUSSIM_LOG_VERBOSE, "%s: %s, %s context, %d frame slot(s)%s",
                    tname(t), name, hw ? "adopted" : "primary", be->nb_slots,
                    be->slots[0].graph ? ", one CUDA graph per frame" : "");
        if (be->nb_dis > 1)
            log_ladder_memory(be);
    }
    *ppriv = be;
    *nb_slots = be->nb_slots;
    return 0;

fail:
    if (pushed)
        pop_ctx(be);
    gpussim_gpu_plan_uninit((void **)&be);
    return err;
}

int gpussim_gpu_plan_probe(const struct gpu_plan_target *t, const struct gpussim_config *cfg)
{
    const struct gpussim_cuda_api *cu = t->load();
    int count = 0;
    if (!cu)
        return -ENODEV;
    if (cu->cuInit(0) != CUDA_SUCCESS || cu->cuDeviceGetCount(&count) != CUDA_SUCCESS)
        return -ENODEV;
    if (cfg->params.hw_device)
        return t->adopt_device ? 0 : -ENODEV;
    return cfg->params.device < count ? 0 : -ENODEV;
}
