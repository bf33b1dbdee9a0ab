/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Stage ISSIM: integer SSIM -> per-block exact sums (spec §4).
 * A part of the one CUDA module: compiled only through kernels/cuda/kernels.cu,
 * after common.cuh and convert.cu.
 */

/* A tile is ISSIM_TW x TH windows (TH: ISSIM_TH, or ISSIM_TH_U64 for the
 * 64-bit moments), each thread TH / ISSIM_BY of them in one column. */
#define ISSIM_R (ISSIM_K / 2)
#define ISSIM_IN_W (ISSIM_TW + 2 * ISSIM_R)
#define ISSIM_IN_PITCH (ISSIM_IN_W + 1)
#define ISSIM_IN_H(TH) ((TH) + 2 * ISSIM_R)
/* a ladder's horizontal passes of its other pictures: adjacent columns
 * per thread (issim_hpass()) */
#define ISSIM_HC 4

template <typename HM, int TH> struct issim_tile_smem {
    uint32_t in[2][ISSIM_IN_H(TH)][ISSIM_IN_PITCH];
    HM mom[5][ISSIM_IN_H(TH)][ISSIM_TW];
};

template <typename HM, int TH> union issim_smem {
    issim_tile_smem<HM, TH> tile;
    uint64_t red[WS_RED_WORDS(WQ_TERM, ISSIM_BX * ISSIM_BY)];
};

/* A picture's input tile: ISSIM_IN_W x (TH + 2R) samples from (x0 - R,
 * y0 - R), 0 outside the plane. One index over the whole tile keeps every
 * lane busy (row by row, the 8 columns past a warp's 32 would leave most
 * lanes idle). */
template <int TH, typename TS>
__device__ __forceinline__ void issim_load(TS (*dst)[ISSIM_IN_PITCH], const raw_plane &p, int x0,
                                           int y0, int w, int h, int tid)
{
    for (int i = tid; i < ISSIM_IN_W * ISSIM_IN_H(TH); i += ISSIM_BX * ISSIM_BY) {
        const int r = i / ISSIM_IN_W, c = i % ISSIM_IN_W;
        const int gx = x0 + c - ISSIM_R, gy = y0 + r - ISSIM_R;
        dst[r][c] = gx >= 0 && gx < w && gy >= 0 && gy < h ? raw_sample(p, gx, gy) : 0;
    }
}

/*
 * Samples outside the plane are loaded as 0: their products vanish, which
 * is the reference's truncation (skipped taps) for every moment; only the
 * weight sums need the in-plane taps counted explicitly. HM holds the
 * horizontal moments exactly: uint32_t up to 12 bits (256 * 4095^2 < 2^32),
 * uint64_t at 16 bits.
 */
/* The sum of the taps (spec §4.2): the weight of a window clear of the edges. */
#define ISSIM_TAPS_SUM 256
/* Terms reach |term| <= M.w <= 2^16 (SSIM's two factors are within [-1, 1]):
 * the split sums (exact_sums.h) take them scaled by 2^-16. */
#define ISSIM_TERM_E 16
static_assert(ISSIM_TH / ISSIM_BY <= WSPLIT_TERMS && ISSIM_TH_U64 / ISSIM_BY <= WSPLIT_TERMS,
              "a thread's windows exceed the split sums' range");

/* A thread's column gx of a w-column plane: its horizontal weight wsum_h
 * (the taps inside the plane) and the constants c1, c2 of its windows
 * clear of the top and bottom edges (vertical weight ISSIM_TAPS_SUM): the
 * same for every such window and every picture, so computed once. */
struct issim_column {
    int64_t wsum_h;
    double c1, c2;
};

__device__ __forceinline__ issim_column issim_column_of(int gx, int w, double c1base,
                                                       double c2base)
{
    issim_column col;
    col.wsum_h = 0;
    for (int k = 0; k < ISSIM_K; k++)
        if (gx + k - ISSIM_R >= 0 && gx + k - ISSIM_R < w)
            col.wsum_h += issim_taps[k];
    const double W = (double)(ISSIM_TAPS_SUM * col.wsum_h);
    col.c1 = c1base * W * W;
    col.c2 = c2base * W * W;
    return col;
}

/* One window's term (spec §4.5, grouping as kernels/c/issim_tmpl.c), added
 * to the thread's sums acc, scaled by 2^-ISSIM_TERM_E (the weights' sum is
 * the host's, gpussim_issim_weight_sum()): the window at row gy of
 * an h-row plane in column col, its vertical weight from the taps inside
 * the plane (c1 and c2 col's unless that is below ISSIM_TAPS_SUM: the same
 * operations on the same W); the moments mux, muy, mx2, mxy2, my2 are all
 * below 2^49, exact as signed integers and as doubles. The pair and the
 * ladder kernels both score their windows here. */
__device__ __forceinline__ void issim_window_term(wacc *acc, int gy, int h,
                                                  issim_column col, double c1base,
                                                  double c2base, int64_t mux, int64_t muy,
                                                  int64_t mx2, int64_t mxy2, int64_t my2)
{
    int64_t vw = ISSIM_TAPS_SUM;
    double c1 = col.c1, c2 = col.c2;
    if (gy < ISSIM_R || gy + ISSIM_R >= h) {
        vw = 0;
        for (int k = 0; k < ISSIM_K; k++)
            if (gy + k - ISSIM_R >= 0 && gy + k - ISSIM_R < h)
                vw += issim_taps[k];
        const double We = (double)(vw * col.wsum_h);
        c1 = c1base * We * We;
        c2 = c2base * We * We;
    }
    const int64_t mw = vw * col.wsum_h;
    const double W = (double)mw;
    const double mx2d = mux * (double)mux;
    const double mxyd = mux * (double)muy;
    const double my2d = muy * (double)muy;
    const double A = 2 * mxyd + c1;
    const double B = c2 + 2 * (mxy2 * W - mxyd);
    const double D = (mx2d + my2d + c1) * (mx2 * W - mx2d + my2 * W - my2d + c2);
    const double term = mw * A * B / D;
    wsplit_term<ISSIM_TERM_E>(&acc->sp[GPUSSIM_WSUM_TERM], &acc->abs_sum[GPUSSIM_WSUM_TERM],
                              term);
}

/*
 * A horizontal pass over a tile of in_h rows (hpass_groups(), HC adjacent
 * columns per thread): NQ moments, each the exact integer sum of tap *
 * value over the ISSIM_K taps; sample(r, c, v) gives the NQ values of tile
 * sample (r, c) (the samples and their products), store(q, r, c, m) takes
 * moment q of output (r, c). With ISSIM_IN_PITCH the loads of a warp hit
 * distinct banks (32-bit tiles; HC 1, 2, 4).
 */
template <int HC, int NQ, typename HM, typename S, typename O>
__device__ __forceinline__ void issim_hpass(int tid, int in_h, S sample, O store)
{
    hpass_groups<ISSIM_TW, ISSIM_K, HC, NQ, HM, HM>(
        tid, ISSIM_BX * ISSIM_BY, in_h, sample,
        [](HM &a, int, int t, HM x) { a += (HM)issim_taps[t] * x; }, store);
}

/*
 * The vertical pass of NQ moment planes mom[0 .. NQ - 1] (ISSIM_IN_H rows of
 * ISSIM_TW horizontal moments) at column tx: M[j][q] for the RPT vertically
 * adjacent outputs from row oy0. RPT 2: the outputs share all but one of
 * their moment rows (read once from shared memory; 32-bit accumulators keep
 * that within the registers). Exact integers, as the reference's.
 */
template <typename HM, typename VM, int RPT, int NQ, int IN_H>
__device__ __forceinline__ void issim_vsums(const HM (*mom)[IN_H][ISSIM_TW], int oy0, int tx,
                                            VM (&M)[RPT][NQ])
{
#pragma unroll
    for (int j = 0; j < RPT; j++)
#pragma unroll
        for (int q = 0; q < NQ; q++)
            M[j][q] = 0;
#pragma unroll
    for (int q = 0; q < NQ; q++)
#pragma unroll
        for (int v = 0; v < ISSIM_K + RPT - 1; v++) {
            const HM m = mom[q][oy0 + v][tx];
#pragma unroll
            for (int j = 0; j < RPT; j++)
                if (v - j >= 0 && v - j < ISSIM_K) /* VM u32: one multiply-add; else widening */
                    M[j][q] += (VM)issim_taps[v - j] * (VM)m;
        }
}

/*
 * A pair's passes over a tile: the reference's and the distorted
 * picture's samples (in_r, in_d) in one load, their five horizontal
 * moments (mom), then the vertical moments and every window's term into
 * acc. KEEP (a ladder's first picture): the reference's vertical
 * mu_x and E[x^2] of every row also go to keep, for the ladder's other
 * pictures. Shared memory is the caller's.
 */
template <typename HM, typename VM, typename TS, int RPT, int TH, bool KEEP>
__device__ __forceinline__ void issim_pair_passes(TS (*in_r)[ISSIM_IN_PITCH],
                                                  TS (*in_d)[ISSIM_IN_PITCH],
                                                  HM (*mom)[ISSIM_IN_H(TH)][ISSIM_TW],
                                                  VM (*keep)[TH][ISSIM_TW], const raw_plane &ref,
                                                  const raw_plane &dis, int w, int h,
                                                  double c1base, double c2base, wacc *acc)
{
    constexpr int IN_H = ISSIM_IN_H(TH);
    const int tx = GPU_TID_X, ty = GPU_TID_Y, tid = ty * ISSIM_BX + tx;
    const int x0 = GPU_BID_X * ISSIM_TW, y0 = GPU_BID_Y * TH;

    /* both pictures' tiles, as issim_load() */
    for (int i = tid; i < ISSIM_IN_W * IN_H; i += ISSIM_BX * ISSIM_BY) {
        const int r = i / ISSIM_IN_W, c = i % ISSIM_IN_W;
        const int gx = x0 + c - ISSIM_R, gy = y0 + r - ISSIM_R;
        TS rv = 0, dv = 0;
        if (gx >= 0 && gx < w && gy >= 0 && gy < h) {
            rv = raw_sample(ref, gx, gy);
            dv = raw_sample(dis, gx, gy);
        }
        in_r[r][c] = rv;
        in_d[r][c] = dv;
    }
    GPU_SYNC();

    /* the five horizontal moments, a column per thread (the ladder's
     * column groups, ISSIM_HC, wait for the Vulkan shaders': BENCHMARKS.md) */
    issim_hpass<1, 5, HM>(
        tid, IN_H,
        [&](int r, int c, HM *v) {
            const uint32_t s = in_r[r][c], t = in_d[r][c];
            v[0] = s;
            v[1] = t;
            v[2] = s * s; /* < 2^32 even for 16-bit samples */
            v[3] = s * t;
            v[4] = t * t;
        },
        [&](int q, int r, int c, HM m) { mom[q][r][c] = m; });
    GPU_SYNC();

    const int gx = x0 + tx;
    const issim_column col = issim_column_of(gx, w, c1base, c2base);
    /* each pass, each thread computes RPT vertically adjacent outputs
     * (issim_vsums): rows g * ISSIM_BY * RPT + ty * RPT + j */
    for (int g = 0; g < TH / (ISSIM_BY * RPT); g++) {
        const int oy0 = (g * ISSIM_BY + ty) * RPT;
        VM M[RPT][5];
        issim_vsums<HM, VM, RPT, 5, IN_H>(mom, oy0, tx, M);
    #pragma unroll
        for (int j = 0; j < RPT; j++) {
            const int oy = oy0 + j, gy = y0 + oy;
            if (KEEP) {
                keep[0][oy][tx] = M[j][0];
                keep[1][oy][tx] = M[j][2];
            }
            if (gx >= w || gy >= h)
                continue;
            issim_window_term(acc, gy, h, col, c1base, c2base, (int64_t)M[j][0],
                              (int64_t)M[j][1], (int64_t)M[j][2], (int64_t)M[j][3],
                              (int64_t)M[j][4]);
        }
    }
}

template <typename HM, typename VM, int RPT, int TH>
__device__ void issim_windows(const raw_plane &ref, const raw_plane &dis, int w, int h,
                              double c1base, double c2base, uint64_t *partials)
{
    __shared__ __align__(16) issim_smem<HM, TH> sm;
    const int tid = GPU_TID_Y * ISSIM_BX + GPU_TID_X;
    wacc acc;
    wacc_zero<WQ_TERM>(&acc);
    issim_pair_passes<HM, VM, uint32_t, RPT, TH, false>(sm.tile.in[0], sm.tile.in[1], sm.tile.mom,
                                                         NULL, ref, dis, w, h, c1base, c2base,
                                                         &acc);
    wacc_block_store<WQ_TERM, ISSIM_TERM_E>(sm.red, tid, ISSIM_BX * ISSIM_BY, &acc, partials,
                                            (size_t)GPU_GDIM_X * gridDim.y,
                                            (size_t)GPU_BID_Y * GPU_GDIM_X + GPU_BID_X);
}

/*
 * A ladder's integer SSIM, as ssim_windows_ladder(), the distorted
 * pictures 1 + r0 .. r1 of blockIdx.z. The first is scored with the
 * reference as a pair is (both tiles in one load, the five moments in one
 * horizontal pass: the positions and loops serve two pictures), and its
 * vertical pass keeps the reference's mu_x and E[x^2] for the others; each
 * other picture then loads its tile and computes its own and the cross
 * moments. Exact integers and issim_window_term(): every window's term,
 * and so every block's partials, are the pair kernel's, bit for bit.
 * TS is the tiles' sample type: 16 bits for the 10 and 12-bit kernel,
 * whose 64-bit vertical moments of the reference would not leave room for
 * the first picture's five planes within 48 KiB otherwise.
 */
template <typename HM, typename VM, typename TS, int TH> struct issim_ladder_smem {
    TS in_ref[ISSIM_IN_H(TH)][ISSIM_IN_PITCH];
    VM mom_ref[2][TH][ISSIM_TW]; /* vertical: mu_x, E[x^2] */
    union {
        struct {
            TS in[ISSIM_IN_H(TH)][ISSIM_IN_PITCH];
            HM mom[5][ISSIM_IN_H(TH)][ISSIM_TW]; /* the first picture's five, then three */
        } dis;
        uint64_t red[WS_RED_WORDS(WQ_TERM, ISSIM_BX * ISSIM_BY)];
    } u;
};

template <typename HM, typename VM, typename TS, int RPT, int TH>
__device__ void issim_windows_ladder(const raw_pictures &pics, int r0, int r1, int w, int h,
                                     double c1base, double c2base, uint64_t *partials,
                                     long long part_stride)
{
    constexpr int IN_H = ISSIM_IN_H(TH);
    __shared__ __align__(16) issim_ladder_smem<HM, VM, TS, TH> sm;
    static_assert(sizeof(sm) <= 48 * 1024, "beyond static shared memory");
    const int tx = GPU_TID_X, ty = GPU_TID_Y, tid = ty * ISSIM_BX + tx;
    const int x0 = GPU_BID_X * ISSIM_TW, y0 = GPU_BID_Y * TH;

    /* picture 1 + r0 with the reference: a pair's passes, keeping the
     * reference's vertical moments */
    wacc acc;
    wacc_zero<WQ_TERM>(&acc);
    issim_pair_passes<HM, VM, TS, RPT, TH, true>(sm.in_ref, sm.u.dis.in, sm.u.dis.mom, sm.mom_ref,
                                                 picture(pics, 0), picture(pics, 1 + r0), w, h,
                                                 c1base, c2base, &acc);
    wacc_block_store<WQ_TERM, ISSIM_TERM_E>(sm.u.red, tid, ISSIM_BX * ISSIM_BY, &acc,
                                            partials + r0 * part_stride,
                                            (size_t)GPU_GDIM_X * gridDim.y,
                                            (size_t)GPU_BID_Y * GPU_GDIM_X + GPU_BID_X);

    const int gx = x0 + tx;
    const issim_column col = issim_column_of(gx, w, c1base, c2base);
    for (int pic = r0 + 1; pic < r1; pic++) {
        const raw_plane dis = picture(pics, 1 + pic);
        /* the barrier: the previous picture's reduction is done with this
         * memory */
        GPU_SYNC();
        issim_load<TH, TS>(sm.u.dis.in, dis, x0, y0, w, h, tid);
        GPU_SYNC();
        /* moments 1, 3, 4 (mu_y, E[xy], E[y^2]) */
        issim_hpass<ISSIM_HC, 3, HM>(
            tid, IN_H,
            [&](int r, int c, HM *v) {
                const uint32_t s = sm.in_ref[r][c], t = sm.u.dis.in[r][c];
                v[0] = t;
                v[1] = s * t;
                v[2] = t * t;
            },
            [&](int q, int r, int c, HM m) { sm.u.dis.mom[q][r][c] = m; });
        GPU_SYNC();

        wacc_zero<WQ_TERM>(&acc);
        for (int g = 0; g < TH / (ISSIM_BY * RPT); g++) {
            const int oy0 = (g * ISSIM_BY + ty) * RPT;
            VM M[RPT][3];
            issim_vsums<HM, VM, RPT, 3, IN_H>(sm.u.dis.mom, oy0, tx, M);
        #pragma unroll
            for (int j = 0; j < RPT; j++) {
                const int oy = oy0 + j, gy = y0 + oy;
                if (gx >= w || gy >= h)
                    continue;
                issim_window_term(&acc, gy, h, col, c1base, c2base,
                                  (int64_t)sm.mom_ref[0][oy][tx], (int64_t)M[j][0],
                                  (int64_t)sm.mom_ref[1][oy][tx], (int64_t)M[j][1],
                                  (int64_t)M[j][2]);
            }
        }
        wacc_block_store<WQ_TERM, ISSIM_TERM_E>(sm.u.red, tid, ISSIM_BX * ISSIM_BY, &acc,
                                                partials + pic * part_stride,
                                                (size_t)GPU_GDIM_X * gridDim.y,
                                                (size_t)GPU_BID_Y * GPU_GDIM_X + GPU_BID_X);
    }
}

/* A pair's integer SSIM kernels (pictures 0 and 1) and a ladder's
 * (_ladder: distorted pictures as the SSIM window kernels'; TS as
 * issim_windows_ladder(); LMIN: the ladder's blocks per multiprocessor
 * that its registers must allow, 4 where that costs no spills). */
#define ISSIM_WINDOWS_KERNEL(name, HM, VM, TS, RPT, TH, LMIN)                               \
    GPU_KERNEL void __launch_bounds__(ISSIM_BX * ISSIM_BY)                                     \
    name(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w, int h,        \
         double c1base, double c2base, uint64_t *partials)                                     \
    {                                                                                          \
        const raw_plane ref = raw_plane_of(desc, 0, fmt), dis = raw_plane_of(desc, 1, fmt);    \
        issim_windows<HM, VM, RPT, TH>(ref, dis, w, h, c1base, c2base, partials);              \
    }                                                                                          \
    GPU_KERNEL void __launch_bounds__(ISSIM_BX * ISSIM_BY, LMIN)                               \
    name##_ladder(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w,      \
                  int h, double c1base, double c2base, uint64_t *partials,                     \
                  long long part_stride, int group, int nb_dis)                                \
    {                                                                                          \
        const raw_pictures pics = { desc, fmt };                                               \
        const int r0 = GPU_BID_Z * group, r1 = r0 + group < nb_dis ? r0 + group : nb_dis;      \
        issim_windows_ladder<HM, VM, TS, RPT, TH>(pics, r0, r1, w, h, c1base, c2base,          \
                                                  partials, part_stride);                      \
    }
/* 10 and 12 bits: the ladder's tiles of 16-bit samples (TS) */
ISSIM_WINDOWS_KERNEL(issim_windows_u32, uint32_t, uint64_t, uint16_t, 1, ISSIM_TH, 4)
/* 8-bit: every vertical moment sum is below 65536 * 255^2 < 2^32 */
ISSIM_WINDOWS_KERNEL(issim_windows_u32_8bit, uint32_t, uint32_t, uint32_t, 2, ISSIM_TH, 4)
ISSIM_WINDOWS_KERNEL(issim_windows_u64, uint64_t, uint64_t, uint32_t, 1, ISSIM_TH_U64, 1)
