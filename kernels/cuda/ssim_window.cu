/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Stage SSIM_WINDOWS: 11x11 Gaussian window statistics -> per-block exact
 * sums (spec §1.3-1.6), pairs and ladders.
 * A part of the one CUDA module: compiled only through kernels/cuda/kernels.cu,
 * after common.cuh and convert.cu.
 */

/* Each block computes a WIN_TW x TH tile of valid-mode windows with
 * WIN_BX x WIN_BY threads, each thread TH / WIN_BY windows of one column.
 * The horizontal pass covers the tile's TH + 10 input rows, so the 5 moment
 * planes never leave shared memory. TH = 32 keeps the horizontal overlap
 * small on large planes; TH = 8 spreads small planes over more blocks. */
#define WIN_IN_W (WIN_TW + SSIM_K - 1)
#define WIN_IN_PITCH (WIN_IN_W + 1)
/* a ladder's horizontal passes: adjacent columns per thread
 * (hpass_columns()) */
#define WIN_HC 2
static_assert(WIN_TH_TALL / WIN_BY <= WSPLIT_TERMS && WIN_TH_SHORT / WIN_BY <= WSPLIT_TERMS,
              "a thread's windows exceed the split sums' range");

template <int TH> struct ssim_tile_smem {
    float in[2][TH + SSIM_K - 1][WIN_IN_PITCH];
    float mom[5][TH + SSIM_K - 1][WIN_TW];
};

template <int TH> union ssim_smem {
    ssim_tile_smem<TH> tile;
    uint64_t red[WS_RED_WORDS(WQ_ALL, WIN_BX * WIN_BY)];
};

/* A window's variance with the reference's typing (spec §1.5): E[x^2] -
 * mu^2 in float, negative values clamped to 0. */
GPU_DEVICE float ssim_variance(float mu, float e2)
{
    const float v = e2 - mu * mu;
    return 0.0f > v ? 0.0f : v;
}

/* Per-window term, l, c, s with the reference's typing (spec §1.5), as
 * ssim_window_terms() in kernels/c/ssim_window.c: t[GPUSSIM_WSUM_*], those
 * of QS (l also for the term), from the means, the variances
 * (ssim_variance()) and E[xy]. */
template <unsigned QS>
GPU_DEVICE void ssim_window_terms(float mx, float my, float sx2, float sy2, float exy, double *t)
{
    const float C1 = (GPUSSIM_SSIM_K1 * GPUSSIM_SSIM_L) * (GPUSSIM_SSIM_K1 * GPUSSIM_SSIM_L);
    const float C2 = (GPUSSIM_SSIM_K2 * GPUSSIM_SSIM_L) * (GPUSSIM_SSIM_K2 * GPUSSIM_SSIM_L);
    const float C3 = C2 / 2.0f;
    const float sxy = exy - mx * my;
    /* the reference's (float)sqrt((double)(sx2 * sy2)), see gpu_sqrt_rn */
    const float sxsy = gpu_sqrt_rn(sx2 * sy2);
    double l = 0.0;
    if (wq_has<QS>(GPUSSIM_WSUM_L) || wq_has<QS>(GPUSSIM_WSUM_TERM))
        l = (2.0 * mx * my + C1) / (mx * mx + my * my + C1);
    const double c = (2.0 * sxsy + C2) / (sx2 + sy2 + C2);
    const float sxy_c = (sxy < 0.0f && sxsy <= 0.0f) ? 0.0f : sxy;
    const double s = (sxy_c + C3) / (sxsy + C3);
    if (wq_has<QS>(GPUSSIM_WSUM_TERM))
        t[GPUSSIM_WSUM_TERM] = l * c * s;
    t[GPUSSIM_WSUM_L] = l;
    t[GPUSSIM_WSUM_C] = c;
    t[GPUSSIM_WSUM_S] = s;
}

/*
 * NN: the window's input samples are +0 or >= 2^-8 / scale^2: a picture's
 * samples (>= 2^-8), or float_ssim's box decimation of one (a sum of
 * terms sample * 1/scale^2). Then every horizontal term is +0 or
 * >= 2^-26 / scale^4 (taps > 2^-10), so is every horizontal moment, and
 * every vertical term is +0 or >= 2^-36 / scale^4, i.e. >= 2^-70 for any
 * scale up to 300: nonneg_f2d applies (see there). MS-SSIM's levels 1-4
 * have negative samples (the pyramid filter has negative taps): !NN there.
 */
template <bool NN> GPU_DEVICE double widen(float f)
{
    return NN ? nonneg_f2d(f) : (double)f;
}

template <bool NN> GPU_DEVICE double unresidue(double a)
{
    return NN ? flush_residue(a) : a;
}

/*
 * A horizontal pass (spec §1.4) over a tile of in_h rows (hpass_groups(),
 * HC adjacent columns per thread): NQ moments, each a double sum of float
 * products value * tap, left to right; sample(r, c, v) gives the NQ values
 * of tile sample (r, c) (the samples and their products), store(q, r, c, m)
 * takes moment q of output (r, c). Moments in IMASK are widened as
 * widen<NN>(), the others on the conversion unit (widen<false>). With
 * WIN_IN_PITCH the loads of a warp hit distinct banks (HC 1, 2, 4).
 */
template <int HC, int NQ, unsigned IMASK, bool NN, typename S, typename O>
GPU_DEVICE void hpass_columns(int tid, int in_h, S sample, O store)
{
    hpass_groups<WIN_TW, SSIM_K, HC, NQ, double, float>(
        tid, WIN_BX * WIN_BY, in_h, sample,
        [](double &a, int q, int t, float x) {
            a += (IMASK >> q & 1u) ? widen<NN>(x * gauss11[t]) : widen<false>(x * gauss11[t]);
        },
        [&](int q, int r, int c, double a) {
            store(q, r, c, (float)((IMASK >> q & 1u) ? unresidue<NN>(a) : unresidue<false>(a)));
        });
}

/* The vertical pass of one horizontal-moment plane (spec §1.4) at column tx
 * from row oy: a double sum of float products, top to bottom, widened as
 * widen<NN>(). */
template <bool NN> GPU_DEVICE double vfilter(const float (*mom)[WIN_TW], int oy, int tx)
{
    double a = 0.0;
    for (int v = 0; v < SSIM_K; v++)
        a += widen<NN>(mom[oy + v][tx] * gauss11[v]);
    return unresidue<NN>(a);
}

template <typename T, int TH, bool NN, unsigned QS>
__device__ void ssim_windows(const T &ref, const T &dis, int w, int h, float inv_scaler,
                             uint64_t *partials)
{
    const int WIN_IN_H = TH + SSIM_K - 1;
    /* Where to widen: the horizontal pass widens on the conversion unit
     * (one instruction, but that unit takes a warp's conversion in 8
     * cycles: 5 a tap would make it the bound), except the cross moment,
     * widened with integer operations where NN holds (three, on otherwise
     * idle pipes); the vertical pass widens with integers where NN holds.
     * That balances the pipes (H100: MS-SSIM level 0 -3 % for the
     * vertical pass; H200, 2160p 8-bit, all four metrics of a pair: 762 ->
     * 749 us for the cross moment; bit-identical): hpass_columns()'s
     * IMASK holds the cross moment, HI says whether it widens as NN. */
    constexpr bool HI = NN, VN = NN;
    __shared__ __align__(16) ssim_smem<TH> sm;
    const int tx = GPU_TID_X, ty = GPU_TID_Y, tid = ty * WIN_BX + tx;
    const int x0 = GPU_BID_X * WIN_TW, y0 = GPU_BID_Y * TH;
    const int ow = w - (SSIM_K - 1), oh = h - (SSIM_K - 1);

    for (int i = tid; i < WIN_IN_W * WIN_IN_H; i += WIN_BX * WIN_BY) {
        const int r = i / WIN_IN_W, c = i % WIN_IN_W;
        const int gx = x0 + c, gy = y0 + r;
        float rv = 0.0f, dv = 0.0f;
        if (gx < w && gy < h) {
            rv = load_plane(ref, w, gx, gy, inv_scaler);
            dv = load_plane(dis, w, gx, gy, inv_scaler);
        }
        sm.tile.in[0][r][c] = rv;
        sm.tile.in[1][r][c] = dv;
    }
    GPU_SYNC();

    /* horizontal pass (spec §1.4): the five moments, a column per thread
     * (the ladder's column groups, WIN_HC, wait for the Vulkan shaders':
     * BENCHMARKS.md) */
    hpass_columns<1, 5, 1u << 4, HI>(
        tid, WIN_IN_H,
        [&](int r, int c, float *v) {
            const float rv = sm.tile.in[0][r][c], dv = sm.tile.in[1][r][c];
            v[0] = rv;
            v[1] = dv;
            v[2] = rv * rv;
            v[3] = dv * dv;
            v[4] = rv * dv;
        },
        [&](int q, int r, int c, float m) { sm.tile.mom[q][r][c] = m; });
    GPU_SYNC();

    wacc acc;
    wacc_zero<QS>(&acc);
    const int gx = x0 + tx;
    for (int k = 0; k < TH / WIN_BY; k++) {
        const int oy = ty + k * WIN_BY, gy = y0 + oy;
        if (gx >= ow || gy >= oh)
            continue;
        float m[5];
        for (int q = 0; q < 5; q++)
            m[q] = (float)vfilter<VN>(sm.tile.mom[q], oy, tx);
        double t[GPUSSIM_WSUM_N];
        ssim_window_terms<QS>(m[0], m[1], ssim_variance(m[0], m[2]), ssim_variance(m[1], m[3]),
                              m[4], t);
        wacc_add<QS, 0>(&acc, t);
    }
    /* the tile is dead; its memory becomes the reduction scratch */
    wacc_block_store<QS, 0>(sm.red, tid, WIN_BX * WIN_BY, &acc, partials,
                            (size_t)GPU_GDIM_X * gridDim.y,
                            (size_t)GPU_BID_Y * GPU_GDIM_X + GPU_BID_X);
}

/*
 * A ladder's windows: picture 0 (the reference) against distorted pictures
 * r0 .. r1 - 1 (pictures 1 + r), one block per tile for all of them. The
 * reference's tile, horizontal moments and vertical moments (mu_x, E[x^2])
 * are computed once per block; each distorted picture then loads its tile
 * and computes its own moments (mu_y, E[y^2]) and the cross moment E[xy].
 * Every moment is its own accumulation, in the pair kernel's order, so
 * every window's terms and every block's partials (picture r's at
 * partials + r * part_stride) are the pair kernel's, bit for bit.
 */
template <int TH> struct ssim_ladder_smem {
    float in_ref[TH + SSIM_K - 1][WIN_IN_PITCH];
    float mom_ref[2][TH][WIN_TW]; /* vertical: mu_x and its variance (ssim_variance()) */
    union {
        struct {
            float in[TH + SSIM_K - 1][WIN_IN_PITCH];
            float mom[3][TH + SSIM_K - 1][WIN_TW];
        } dis; /* also the reference's horizontal moments, before the loop */
        uint64_t red[WS_RED_WORDS(WQ_ALL, WIN_BX * WIN_BY)];
    } u;
};

/* The pictures a kernel reads: the frame descriptor's (level 0) or float
 * planes `stride` floats apart (pyramid levels, float_ssim's box planes). */
struct raw_pictures {
    const gpussim_cuda_frame_desc *desc;
    gpussim_cuda_plane_fmt fmt;
};

struct f32_pictures {
    const float *planes;
    long long stride;
};

GPU_DEVICE raw_plane picture(const raw_pictures &p, int k)
{
    return raw_plane_of(p.desc, k, p.fmt);
}

GPU_DEVICE const float *picture(const f32_pictures &p, int k)
{
    return p.planes + k * p.stride;
}

template <typename P, int TH, bool NN, unsigned QS>
__device__ void ssim_windows_ladder(const P &pics, int r0, int r1, int w, int h, float inv_scaler,
                                    uint64_t *partials, long long part_stride)
{
    const int WIN_IN_H = TH + SSIM_K - 1;
    /* as ssim_windows(), one moment of each horizontal pass widened with
     * integers where NN holds: the reference's E[x^2] and each distorted
     * picture's E[xy] (H200, 2160p 8-bit, a ladder of 4: 2326 -> 2288 us;
     * E[y^2] as well: 2295 us) */
    constexpr bool HI = NN, VN = NN;
    __shared__ __align__(16) ssim_ladder_smem<TH> sm;
    const int tx = GPU_TID_X, ty = GPU_TID_Y, tid = ty * WIN_BX + tx;
    const int x0 = GPU_BID_X * WIN_TW, y0 = GPU_BID_Y * TH;
    const int ow = w - (SSIM_K - 1), oh = h - (SSIM_K - 1);
    const int gx = x0 + tx;

    const auto ref = picture(pics, 0);
    for (int i = tid; i < WIN_IN_W * WIN_IN_H; i += WIN_BX * WIN_BY) {
        const int r = i / WIN_IN_W, c = i % WIN_IN_W;
        const int ix = x0 + c, iy = y0 + r;
        sm.in_ref[r][c] = ix < w && iy < h ? load_plane(ref, w, ix, iy, inv_scaler) : 0.0f;
    }
    GPU_SYNC();
    /* the reference's horizontal moments 0 and 2 (spec §1.4) */
    hpass_columns<WIN_HC, 2, 1u << 1, HI>(
        tid, WIN_IN_H,
        [&](int r, int c, float *v) {
            const float rv = sm.in_ref[r][c];
            v[0] = rv;
            v[1] = rv * rv;
        },
        [&](int q, int r, int c, float m) { sm.u.dis.mom[q][r][c] = m; });
    GPU_SYNC();
    /* the reference's mu_x and variance, once for every distorted picture */
    for (int k = 0; k < TH / WIN_BY; k++) {
        const int oy = ty + k * WIN_BY;
        float m[2];
        for (int q = 0; q < 2; q++)
            m[q] = (float)vfilter<VN>(sm.u.dis.mom[q], oy, tx);
        sm.mom_ref[0][oy][tx] = m[0];
        sm.mom_ref[1][oy][tx] = ssim_variance(m[0], m[1]);
    }

    for (int pic = r0; pic < r1; pic++) {
        const auto dis = picture(pics, 1 + pic);
        /* the barrier: the reference's moments (first pass) or the previous
         * picture's reduction (later passes) are done with this memory */
        GPU_SYNC();
        for (int i = tid; i < WIN_IN_W * WIN_IN_H; i += WIN_BX * WIN_BY) {
            const int r = i / WIN_IN_W, c = i % WIN_IN_W;
            const int ix = x0 + c, iy = y0 + r;
            sm.u.dis.in[r][c] = ix < w && iy < h ? load_plane(dis, w, ix, iy, inv_scaler) : 0.0f;
        }
        GPU_SYNC();
        /* moments 1, 3, 4 (mu_y, E[y^2], E[xy]) */
        hpass_columns<WIN_HC, 3, 1u << 2, HI>(
            tid, WIN_IN_H,
            [&](int r, int c, float *v) {
                const float rv = sm.in_ref[r][c], dv = sm.u.dis.in[r][c];
                v[0] = dv;
                v[1] = dv * dv;
                v[2] = rv * dv;
            },
            [&](int q, int r, int c, float m) { sm.u.dis.mom[q][r][c] = m; });
        GPU_SYNC();

        wacc acc;
        wacc_zero<QS>(&acc);
        for (int k = 0; k < TH / WIN_BY; k++) {
            const int oy = ty + k * WIN_BY, gy = y0 + oy;
            if (gx >= ow || gy >= oh)
                continue;
            /* mu_y widened on the conversion unit, E[y^2] and E[xy] with
             * integers where NN holds: the pass is issue-bound, and the
             * conversion unit idle in it (H200, 2160p 8-bit, a ladder of 4:
             * 2280 -> 2272 us) */
            float m[3];
            m[0] = (float)vfilter<false>(sm.u.dis.mom[0], oy, tx);
            m[1] = (float)vfilter<VN>(sm.u.dis.mom[1], oy, tx);
            m[2] = (float)vfilter<VN>(sm.u.dis.mom[2], oy, tx);
            double t[GPUSSIM_WSUM_N];
            ssim_window_terms<QS>(sm.mom_ref[0][oy][tx], m[0], sm.mom_ref[1][oy][tx],
                                  ssim_variance(m[0], m[1]), m[2], t);
            wacc_add<QS, 0>(&acc, t);
        }
        wacc_block_store<QS, 0>(sm.u.red, tid, WIN_BX * WIN_BY, &acc,
                                partials + pic * part_stride, (size_t)GPU_GDIM_X * gridDim.y,
                                (size_t)GPU_BID_Y * GPU_GDIM_X + GPU_BID_X);
    }
}

/* A pair's window kernels (pictures 0 and 1; f32: planes, planes + stride)
 * and a ladder's (_ladder: blockIdx.z scores distorted pictures
 * z * group .. z * group + group - 1, at most nb_dis), summing the
 * quantities QS: all four, or (suffix _t) the term, or (_cs) c and s. */
#define SSIM_WINDOWS_RAW_KERNEL(name, TH, QS)                                               \
    GPU_KERNEL void __launch_bounds__(WIN_BX * WIN_BY, 4)                                   \
    name(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w, int h,     \
         float inv_scaler, uint64_t *partials)                                              \
    {                                                                                       \
        const raw_plane ref = raw_plane_of(desc, 0, fmt), dis = raw_plane_of(desc, 1, fmt); \
        ssim_windows<raw_plane, TH, true, QS>(ref, dis, w, h, inv_scaler, partials);        \
    }                                                                                       \
    GPU_KERNEL void __launch_bounds__(WIN_BX * WIN_BY, 4)                                   \
    name##_ladder(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w,   \
                  int h, float inv_scaler, uint64_t *partials, long long part_stride,       \
                  int group, int nb_dis)                                                    \
    {                                                                                       \
        const raw_pictures pics = { desc, fmt };                                            \
        const int r0 = GPU_BID_Z * group, r1 = r0 + group < nb_dis ? r0 + group : nb_dis;   \
        ssim_windows_ladder<raw_pictures, TH, true, QS>(pics, r0, r1, w, h, inv_scaler,     \
                                                    partials, part_stride);                 \
    }
#define SSIM_WINDOWS_F32_KERNEL(name, TH, NN, QS)                                               \
    GPU_KERNEL void __launch_bounds__(WIN_BX * WIN_BY, 4)                                       \
    name(const float *planes, long long stride, int w, int h, float inv_scaler,                 \
         uint64_t *partials)                                                                    \
    {                                                                                           \
        const float *ref = planes, *dis = planes + stride;                                      \
        ssim_windows<const float *, TH, NN, QS>(ref, dis, w, h, inv_scaler, partials);          \
    }                                                                                           \
    GPU_KERNEL void __launch_bounds__(WIN_BX * WIN_BY, 4)                                       \
    name##_ladder(const float *planes, long long stride, int w, int h, float inv_scaler,        \
                  uint64_t *partials, long long part_stride, int group, int nb_dis)             \
    {                                                                                           \
        const f32_pictures pics = { planes, stride };                                           \
        const int r0 = GPU_BID_Z * group, r1 = r0 + group < nb_dis ? r0 + group : nb_dis;       \
        ssim_windows_ladder<f32_pictures, TH, NN, QS>(pics, r0, r1, w, h, inv_scaler, partials, \
                                                  part_stride);                                 \
    }
SSIM_WINDOWS_RAW_KERNEL(ssim_windows_raw_t32, WIN_TH_TALL, WQ_ALL)
SSIM_WINDOWS_RAW_KERNEL(ssim_windows_raw_t32_t, WIN_TH_TALL, WQ_TERM)
SSIM_WINDOWS_RAW_KERNEL(ssim_windows_raw_t32_cs, WIN_TH_TALL, WQ_CS)
SSIM_WINDOWS_RAW_KERNEL(ssim_windows_raw_t8, WIN_TH_SHORT, WQ_ALL)
SSIM_WINDOWS_RAW_KERNEL(ssim_windows_raw_t8_t, WIN_TH_SHORT, WQ_TERM)
SSIM_WINDOWS_RAW_KERNEL(ssim_windows_raw_t8_cs, WIN_TH_SHORT, WQ_CS)
/* MS-SSIM's levels 1-4 */
SSIM_WINDOWS_F32_KERNEL(ssim_windows_f32_t32, WIN_TH_TALL, false, WQ_ALL)
SSIM_WINDOWS_F32_KERNEL(ssim_windows_f32_t32_cs, WIN_TH_TALL, false, WQ_CS)
SSIM_WINDOWS_F32_KERNEL(ssim_windows_f32_t8, WIN_TH_SHORT, false, WQ_ALL)
SSIM_WINDOWS_F32_KERNEL(ssim_windows_f32_t8_cs, WIN_TH_SHORT, false, WQ_CS)
/* float_ssim's decimated planes */
SSIM_WINDOWS_F32_KERNEL(ssim_windows_dec_t32, WIN_TH_TALL, true, WQ_ALL)
SSIM_WINDOWS_F32_KERNEL(ssim_windows_dec_t32_t, WIN_TH_TALL, true, WQ_TERM)
SSIM_WINDOWS_F32_KERNEL(ssim_windows_dec_t8, WIN_TH_SHORT, true, WQ_ALL)
SSIM_WINDOWS_F32_KERNEL(ssim_windows_dec_t8_t, WIN_TH_SHORT, true, WQ_TERM)
