/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Stage ANSNR: the filtered planes -> per-row float sums (spec §3); a
 * ladder's reference filtered once, its rows summed with the distorted
 * pictures'.
 * A part of the one CUDA module: compiled only through kernels/cuda/kernels.cu,
 * after common.cuh and convert.cu.
 */

/* ANSNR's asymmetric reflection (spec §3.3). */
GPU_DEVICE int ansnr_reflect(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - i - 1;
    return i;
}

/*
 * Each block owns ANSNR_ROWS rows and walks them left to right in chunks of
 * ANSNR_CHUNK columns. The row sums must be the reference's: one float
 * chain per row, left to right (spec §3.4), so they are a sequential
 * dependency of w adds per row. The block is split by role so that this
 * chain never waits for the filtering: ANSNR_FILTER_THREADS threads filter
 * chunk k (each one column, ANSNR_ROWS / 2 rows, the taps' inputs reused
 * from registers) and store the products r*r and (r-d)^2, while the last
 * warp adds chunk k-1's products to its rows' sums; the input of chunk k+1
 * is loaded meanwhile (double buffers, one barrier per chunk).
 * reduce_partials adds the rows' floats top to bottom.
 */
#define ANSNR_PAD 2 /* half of the larger (5x5) filter */
#define ANSNR_IN_H (ANSNR_ROWS + 2 * ANSNR_PAD)
#define ANSNR_IN_W (ANSNR_CHUNK + 2 * ANSNR_PAD)
#define ANSNR_LOADS ((ANSNR_IN_H * ANSNR_IN_W + ANSNR_FILTER_THREADS - 1) / ANSNR_FILTER_THREADS)

/* The reference's filter taps: double quotients rounded to float,
 * compile-time constants. */
GPU_DEVICE float ansnr_ref_coef(int i)
{
    const int wt[GPUSSIM_ANSNR_REF_LEN * GPUSSIM_ANSNR_REF_LEN] = { GPUSSIM_ANSNR_REF_WEIGHTS };
    return GPUSSIM_ANSNR_COEF(wt[i], GPUSSIM_ANSNR_REF_DIV);
}

GPU_DEVICE float ansnr_dis_coef(int i)
{
    const int wt[GPUSSIM_ANSNR_DIS_LEN * GPUSSIM_ANSNR_DIS_LEN] = { GPUSSIM_ANSNR_DIS_WEIGHTS };
    return GPUSSIM_ANSNR_COEF(wt[i], GPUSSIM_ANSNR_DIS_DIV);
}

/*
 * The filters compute the spec's float operations (§3.3: per output, per
 * filter row an inner float sum from 0 over the columns, added to a float
 * accumulator from 0) with fewer instructions, through three identities
 * that hold for every input, so every value is the spec's:
 *  1. "0 + t" is t. A sample is (float)s * inv_scaler + (-128): never -0 (in
 *     round-to-nearest x + (-128) is -0 for no x), either 0 or at least
 *     2^-8 in magnitude; every tap is positive and above 2^-9, so no
 *     product is -0 or subnormal, and a sum that starts from such a term
 *     is never -0. The first add of each inner sum and of the accumulator
 *     is dropped.
 *  2. The reference's taps are 1/16, 2/16 and 4/16, powers of two: a
 *     product is exact, so one FMA, round(c*v + a), is round(round(c*v) + a).
 *     Its middle row's weights are twice the outer rows': every term
 *     doubles, and the sum with it (scaling by 2 commutes with rounding).
 *  3. An inner sum depends only on the input row and the filter row's
 *     weights. The 5x5 filter's rows 0 and 4 (and 1 and 3) have the same
 *     weights, so the inner sum of an input row serves output row r as
 *     filter row 0 and output row r - 4 as filter row 4: a thread filtering
 *     several rows of a column computes it once.
 */
struct ansnr_weights_check {
    static constexpr int ref[] = { GPUSSIM_ANSNR_REF_WEIGHTS };
    static constexpr int dis[] = { GPUSSIM_ANSNR_DIS_WEIGHTS };
    static constexpr bool dis_symmetric()
    {
        for (int fi = 0; fi < GPUSSIM_ANSNR_DIS_LEN; fi++)
            for (int fj = 0; fj < GPUSSIM_ANSNR_DIS_LEN; fj++)
                if (dis[fi * GPUSSIM_ANSNR_DIS_LEN + fj] !=
                    dis[(GPUSSIM_ANSNR_DIS_LEN - 1 - fi) * GPUSSIM_ANSNR_DIS_LEN + fj])
                    return false;
        return true;
    }
};
static_assert(GPUSSIM_ANSNR_REF_LEN == 3 && GPUSSIM_ANSNR_REF_DIV == 16.0 &&
                  ansnr_weights_check::ref[0] == 1 && ansnr_weights_check::ref[1] == 2 &&
                  ansnr_weights_check::ref[2] == 1 && ansnr_weights_check::ref[6] == 1 &&
                  ansnr_weights_check::ref[7] == 2 && ansnr_weights_check::ref[8] == 1 &&
                  ansnr_weights_check::ref[3] == 2 && ansnr_weights_check::ref[4] == 4 &&
                  ansnr_weights_check::ref[5] == 2,
              "identity 2: the reference's taps are 1 2 1 / 2 4 2 / 1 2 1 over 16");
static_assert(ansnr_weights_check::dis_symmetric(),
              "identity 3: the distorted filter's row fi has row 4 - fi's weights");

/* The reference's outer rows (weights 1 2 1) over v[0..2]: the spec's inner
 * sum, by identities 1 and 2. */
GPU_DEVICE float ansnr_ref_inner(const float *v)
{
    return __fmaf_rn(ansnr_ref_coef(2), v[2], __fmaf_rn(ansnr_ref_coef(1), v[1], ansnr_ref_coef(0) * v[0]));
}

/* The reference's output from its three input rows' outer-row inner sums
 * (a, b, c, top to bottom): (a + 2b) + c, the middle row's inner sum being
 * 2b exactly (identity 2), the accumulator's first add dropped (identity 1). */
GPU_DEVICE float ansnr_ref_out(float a, float b, float c)
{
    return __fmaf_rn(2.0f, b, a) + c;
}

/* The distorted filter's row FI (0..2; rows 3 and 4 are rows 1 and 0) over
 * v[0..4]: the spec's inner sum from its first product (identity 1). */
template <int FI> GPU_DEVICE float ansnr_dis_inner(const float *v)
{
    const int DK = GPUSSIM_ANSNR_DIS_LEN;
    float inner = ansnr_dis_coef(FI * DK) * v[0];
#pragma unroll
    for (int fj = 1; fj < DK; fj++)
        inner += ansnr_dis_coef(FI * DK + fj) * v[fj];
    return inner;
}

/*
 * A column's distorted filter over ROWS output rows, from the ROWS + 4 input
 * rows of tile t (t(r) points at input row r's first needed sample; output
 * row j reads input rows j .. j + 4), into df[]. Input rows ascend, so each
 * output's accumulator adds its filter rows in the spec's order; each inner
 * sum is computed once for the outputs that share it (identity 3).
 */
template <int ROWS, typename T> GPU_DEVICE void ansnr_dis_column(T t, float *df)
{
    const int DK = GPUSSIM_ANSNR_DIS_LEN;
#pragma unroll
    for (int ir = 0; ir < ROWS + DK - 1; ir++) {
        float v[DK];
#pragma unroll
        for (int fj = 0; fj < DK; fj++)
            v[fj] = t(ir)[fj];
        /* the inner sums no output of the column reads are dead code */
        const float in0 = ansnr_dis_inner<0>(v), in1 = ansnr_dis_inner<1>(v),
                    in2 = ansnr_dis_inner<2>(v);
#pragma unroll
        for (int j = 0; j < ROWS; j++) {
            const int fi = ir - j;
            if (fi < 0 || fi >= DK)
                continue;
            const int q = fi < DK - 1 - fi ? fi : DK - 1 - fi;
            const float inner = q == 0 ? in0 : q == 1 ? in1 : in2;
            df[j] = fi == 0 ? inner : df[j] + inner;
        }
    }
}

/* A pair: picture 1 against picture 0, both row sums. */
GPU_KERNEL void __launch_bounds__(ANSNR_THREADS, 2)
ansnr_rows(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w, int h,
           float inv_scaler, float *row_sig, float *row_noise)
{
    const raw_plane ref = raw_plane_of(desc, 0, fmt);
    const raw_plane dis = raw_plane_of(desc, 1, fmt);
    const int RK = GPUSSIM_ANSNR_REF_LEN, DK = GPUSSIM_ANSNR_DIS_LEN;
    const int HR = ANSNR_ROWS / 2; /* rows per filter thread */
    __shared__ float in[2][2][ANSNR_IN_H][ANSNR_IN_W];         /* [buf][ref, dis] */
    __shared__ float prod[2][2][ANSNR_ROWS][ANSNR_CHUNK + 1]; /* [buf][sig, noise] */
    const int tid = GPU_TID_X;
    const int y0 = GPU_BID_X * ANSNR_ROWS;
    const int nchunks = (w + ANSNR_CHUNK - 1) / ANSNR_CHUNK;
    const bool filter = tid < ANSNR_FILTER_THREADS;
    uint16_t raw[2][ANSNR_LOADS];

    /* input row rr of a chunk holds image row reflect(y0 + rr - PAD), column
     * cc image column reflect(c0 + cc - PAD); positions past the last needed
     * one (and past h + 1 / w + 1) are never read */
#define ANSNR_FETCH(c0)                                                                      \
    for (int l = 0; l < ANSNR_LOADS; l++) {                                                  \
        const int i = tid + l * ANSNR_FILTER_THREADS;                                        \
        const int rr = i / ANSNR_IN_W, cc = i % ANSNR_IN_W;                                  \
        const int yy = y0 + rr - ANSNR_PAD, xx = (c0) + cc - ANSNR_PAD;                      \
        raw[0][l] = raw[1][l] = 0;                                                           \
        if (i < ANSNR_IN_H * ANSNR_IN_W && yy < h + ANSNR_PAD && xx < w + ANSNR_PAD) {       \
            const int my = ansnr_reflect(yy, h), mx = ansnr_reflect(xx, w);                  \
            const long long at = raw_offset(fmt.bytes_per_sample, fmt.first, fmt.step, mx);  \
            raw[0][l] = raw_word(ref.base, ref.pitch, fmt.bytes_per_sample, at, my);         \
            raw[1][l] = raw_word(dis.base, dis.pitch, fmt.bytes_per_sample, at, my);         \
        }                                                                                    \
    }
#define ANSNR_STORE(b)                                                                       \
    for (int l = 0; l < ANSNR_LOADS; l++) {                                                  \
        const int i = tid + l * ANSNR_FILTER_THREADS;                                        \
        if (i < ANSNR_IN_H * ANSNR_IN_W)                                                     \
            in[b][0][i / ANSNR_IN_W][i % ANSNR_IN_W] = sample_to_float(                      \
                raw_unpack(raw[0][l], fmt.bytes_per_sample, fmt.shift, fmt.mask), inv_scaler, \
                -128.0f);                                                                    \
        if (i < ANSNR_IN_H * ANSNR_IN_W)                                                     \
            in[b][1][i / ANSNR_IN_W][i % ANSNR_IN_W] = sample_to_float(                      \
                raw_unpack(raw[1][l], fmt.bytes_per_sample, fmt.shift, fmt.mask), inv_scaler, \
                -128.0f);                                                                    \
    }

    if (filter) {
        ANSNR_FETCH(0)
        ANSNR_STORE(0)
    }
    GPU_SYNC();

    float sig_row = 0.0f, noise_row = 0.0f;
    for (int k = 0; k <= nchunks; k++) {
        const int b = k & 1;
        if (filter && k < nchunks) {
            const int c0 = k * ANSNR_CHUNK;
            const bool more = k + 1 < nchunks;
            if (more) {
                ANSNR_FETCH(c0 + ANSNR_CHUNK)
            }
            const int c = tid % ANSNR_CHUNK, r0 = (tid / ANSNR_CHUNK) * HR;
            if (c0 + c < w) {
                /* tile row rr holds image row y0 + rr - PAD: output row r
                 * reads tile rows r + 1 .. r + 3 (3x3), r .. r + 4 (5x5) */
                float ri[HR + 2]; /* the reference's outer-row sums, tile rows r0 + 1 .. */
#pragma unroll
                for (int k = 0; k < HR + 2; k++)
                    ri[k] = ansnr_ref_inner(&in[b][0][r0 + 1 + k][c + ANSNR_PAD - RK / 2]);
                float df[HR];
                ansnr_dis_column<HR>(
                    [&](int ir) { return &in[b][1][r0 + ir][c + ANSNR_PAD - DK / 2]; }, df);
#pragma unroll
                for (int j = 0; j < HR; j++) {
                    const int r = r0 + j;
                    const float rf = ansnr_ref_out(ri[j], ri[j + 1], ri[j + 2]);
                    prod[b][0][r][c] = rf * rf;
                    prod[b][1][r][c] = (rf - df[j]) * (rf - df[j]);
                }
            }
            if (more) {
                ANSNR_STORE(b ^ 1)
            }
        } else if (!filter && k > 0) {
            const int row = tid - ANSNR_FILTER_THREADS;
            if (row < ANSNR_ROWS && y0 + row < h) {
                const int c0 = (k - 1) * ANSNR_CHUNK;
                const int n = w - c0 < ANSNR_CHUNK ? w - c0 : ANSNR_CHUNK;
                /* unrolled so the loads run ahead of the two float add chains */
#pragma unroll 16
                for (int c = 0; c < n; c++) {
                    sig_row += prod[b ^ 1][0][row][c];
                    noise_row += prod[b ^ 1][1][row][c];
                }
            }
        }
        GPU_SYNC();
    }
#undef ANSNR_FETCH
#undef ANSNR_STORE
    if (!filter) {
        const int row = tid - ANSNR_FILTER_THREADS;
        if (row < ANSNR_ROWS && y0 + row < h) {
            row_sig[y0 + row] = sig_row;
            row_noise[y0 + row] = noise_row;
        }
    }
}

/*
 * A ladder's reference, once: its 3x3-filtered plane (spec §3.3, the pair's
 * float operations: ansnr_ref_inner() and ansnr_ref_out()) into ref_plane,
 * w x h floats, for the distorted pictures' kernel, which also adds its
 * signal rows. A block filters ANSNR_RF_BX columns of ANSNR_RF_BY *
 * ANSNR_RF_FR rows, each thread ANSNR_RF_FR adjacent rows of a column,
 * from the samples (and a one-sample margin, reflected as spec §3.3) in
 * shared memory.
 */
GPU_KERNEL void __launch_bounds__(ANSNR_RF_BX *ANSNR_RF_BY)
ansnr_ref_filter(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w, int h,
                 float inv_scaler, float *ref_plane)
{
    constexpr int FR = ANSNR_RF_FR, IN_W = ANSNR_RF_BX + 2, IN_H = ANSNR_RF_BY * FR + 2;
    __shared__ float in[IN_H][IN_W];
    const raw_plane ref = raw_plane_of(desc, 0, fmt);
    const int x0 = GPU_BID_X * ANSNR_RF_BX, y0 = GPU_BID_Y * ANSNR_RF_BY * FR;
    /* tile row rr holds image row reflect(y0 + rr - 1), column cc image
     * column reflect(x0 + cc - 1); positions past h / w (which only
     * outputs past the plane read) are not loaded */
    for (int i = GPU_TID_Y * ANSNR_RF_BX + GPU_TID_X; i < IN_H * IN_W;
         i += ANSNR_RF_BX * ANSNR_RF_BY) {
        const int yy = y0 + i / IN_W - 1, xx = x0 + i % IN_W - 1;
        float v = 0.0f;
        if (yy <= h && xx <= w)
            v = sample_to_float(raw_sample(ref, ansnr_reflect(xx, w), ansnr_reflect(yy, h)),
                                inv_scaler, -128.0f);
        in[i / IN_W][i % IN_W] = v;
    }
    GPU_SYNC();
    const int x = x0 + GPU_TID_X, ly0 = GPU_TID_Y * FR;
    if (x >= w)
        return;
    /* output row ly0 + j reads tile rows ly0 + j .. + 2, columns tx .. + 2 */
    float ri[FR + 2];
#pragma unroll
    for (int k = 0; k < FR + 2; k++)
        ri[k] = ansnr_ref_inner(&in[ly0 + k][GPU_TID_X]);
#pragma unroll
    for (int j = 0; j < FR; j++)
        if (y0 + ly0 + j < h)
            ref_plane[(size_t)(y0 + ly0 + j) * w + x] = ansnr_ref_out(ri[j], ri[j + 1], ri[j + 2]);
}

/*
 * A ladder's distorted pictures, G of them per block (pictures
 * 1 + blockIdx.z * G .., at most nb_dis in all), against the reference's
 * filtered plane (ansnr_ref_filter()'s ref_plane). The block owns ANSNR_LAD_ROWS
 * rows and walks them in chunks of ANSNR_FILTER_THREADS / G columns. A load
 * slot's position, mirror and byte offset are found once and serve all G
 * pictures (a kernel per picture finds them G times); the words are
 * unpacked only when stored, after the filtering, so that nothing waits
 * for the loads. Filter thread (g, c) filters column c of picture g, all
 * the block's rows, each input row read once; the last warps' lane
 * (g, row) adds picture g's row, one float chain left to right, as the
 * pair's. In the blocks of blockIdx.z 0 the next lanes add the reference's
 * signal rows, r * r left to right from the filtered plane
 * (ansnr_ref_filter()), so that the reference needs no chains of its own.
 * Each value is the pair's: the same float operations in the same order
 * (test_ladder).
 */
template <int G>
__device__ void ansnr_rows_ladder(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt,
                                  int w, int h, float inv_scaler, float *row_sig,
                                  float *row_noise, long long rows_stride,
                                  const float *ref_plane, int nb_dis)
{
    constexpr int ROWS = ANSNR_LAD_ROWS, IN_H = ROWS + 2 * ANSNR_PAD;
    constexpr int CHUNK = ANSNR_FILTER_THREADS / G, IN_W = CHUNK + 2 * ANSNR_PAD;
    constexpr int LOADS = (IN_H * IN_W + ANSNR_FILTER_THREADS - 1) / ANSNR_FILTER_THREADS;
    const int DK = GPUSSIM_ANSNR_DIS_LEN;
    static_assert(ANSNR_PAD == DK / 2, "the input tile is the distorted filter's");
    __shared__ float in[2][G][IN_H][IN_W];
    __shared__ float prod[2][G][ROWS][CHUNK + 1];
    const int tid = GPU_TID_X;
    const int y0 = GPU_BID_X * ROWS;
    const int g0 = GPU_BID_Z * G;
    const int ng = nb_dis - g0 < G ? nb_dis - g0 : G;
    /* the lanes past the pictures' in the blocks of blockIdx.z 0 (counted
     * in ANSNR_LAD_THREADS): the reference's signal chain of row
     * lane - G * ROWS (each row once) */
    const int sig_lane = tid - ANSNR_FILTER_THREADS - G * ROWS;
    const bool sig = GPU_BID_Z == 0 && sig_lane >= 0 && sig_lane < ROWS;
    const int nchunks = (w + CHUNK - 1) / CHUNK;
    const bool filter = tid < ANSNR_FILTER_THREADS;
    const int bps = fmt.bytes_per_sample;
    const uint8_t *base[G];
    long long pitch[G];
#pragma unroll
    for (int g = 0; g < G; g++) {
        const int k = 1 + g0 + (g < ng ? g : 0);
        base[g] = (const uint8_t *)desc->src[k][fmt.src_plane];
        pitch[g] = desc->pitch[k][fmt.src_plane];
    }
    /* a load slot's tile position and mirrored row, the same every chunk */
    int slot_cc[LOADS], slot_row[LOADS];
#pragma unroll
    for (int l = 0; l < LOADS; l++) {
        const int i = tid + l * ANSNR_FILTER_THREADS;
        const int rr = i / IN_W, yy = y0 + rr - ANSNR_PAD;
        slot_cc[l] = i % IN_W;
        slot_row[l] = i < IN_H * IN_W && yy < h + ANSNR_PAD ? ansnr_reflect(yy, h) : -1;
    }
    uint16_t raw[G][LOADS]; /* words as stored: unpacked when stored (raw_unpack()) */

    /* as ansnr_rows()'s FETCH and STORE: input row rr of a chunk holds image
     * row reflect(y0 + rr - PAD), column cc image column reflect(c0 + cc -
     * PAD); positions past the last needed one are never read */
#define ANSNR_LAD_FETCH(c0)                                                                     \
    _Pragma("unroll") for (int l = 0; l < LOADS; l++) {                                         \
        const int xx = (c0) + slot_cc[l] - ANSNR_PAD;                                           \
        const bool in_tile = slot_row[l] >= 0 && xx < w + ANSNR_PAD;                            \
        const long long at = raw_offset(bps, fmt.first, fmt.step, ansnr_reflect(xx, w));        \
        _Pragma("unroll") for (int g = 0; g < G; g++)                                           \
            raw[g][l] = in_tile && g < ng ? raw_word(base[g], pitch[g], bps, at, slot_row[l])   \
                                          : 0;                                                  \
    }
#define ANSNR_LAD_STORE(b)                                                                      \
    _Pragma("unroll") for (int l = 0; l < LOADS; l++) {                                         \
        const int i = tid + l * ANSNR_FILTER_THREADS;                                           \
        if (i < IN_H * IN_W)                                                                    \
            _Pragma("unroll") for (int g = 0; g < G; g++)                                       \
                in[b][g][i / IN_W][i % IN_W] = sample_to_float(                                 \
                    raw_unpack(raw[g][l], bps, fmt.shift, fmt.mask), inv_scaler, -128.0f);      \
    }

    if (filter) {
        ANSNR_LAD_FETCH(0)
        ANSNR_LAD_STORE(0)
    }
    GPU_SYNC();

    float chain = 0.0f; /* a lane's row sum */
    for (int k = 0; k <= nchunks; k++) {
        const int b = k & 1;
        if (filter && k < nchunks) {
            const int c0 = k * CHUNK;
            const bool more = k + 1 < nchunks;
            if (more) {
                ANSNR_LAD_FETCH(c0 + CHUNK)
            }
            const int g = tid / CHUNK, c = tid % CHUNK;
            if (g < ng && c0 + c < w) {
                /* the pair's filter (ansnr_dis_column(), spec §3.3) */
                float df[ROWS];
                ansnr_dis_column<ROWS>([&](int ir) { return &in[b][g][ir][c]; }, df);
#pragma unroll
                for (int j = 0; j < ROWS; j++) {
                    /* the reference plane holds rows below h only */
                    const float rf =
                        y0 + j < h ? ref_plane[(size_t)(y0 + j) * w + (size_t)(c0 + c)] : 0.0f;
                    prod[b][g][j][c] = (rf - df[j]) * (rf - df[j]);
                }
            }
            if (more) {
                ANSNR_LAD_STORE(b ^ 1)
            }
        } else if (!filter && k > 0) {
            const int lane = tid - ANSNR_FILTER_THREADS;
            const int g = lane / ROWS, row = lane % ROWS;
            const int c0 = (k - 1) * CHUNK;
            const int n = w - c0 < CHUNK ? w - c0 : CHUNK;
            if (g < ng && y0 + row < h) {
#pragma unroll 16
                for (int c = 0; c < n; c++)
                    chain += prod[b ^ 1][g][row][c];
            } else if (sig && y0 + row < h) {
                /* r * r added left to right as the pair's chain; the plane
                 * was written by the previous kernel, so its loads run
                 * ahead of the chain */
                const float *rp = ref_plane + (size_t)(y0 + row) * w + c0;
#pragma unroll 16
                for (int c = 0; c < n; c++)
                    chain += rp[c] * rp[c];
            }
        }
        GPU_SYNC();
    }
#undef ANSNR_LAD_FETCH
#undef ANSNR_LAD_STORE
    if (!filter) {
        const int lane = tid - ANSNR_FILTER_THREADS;
        const int g = lane / ROWS, row = lane % ROWS;
        if (g < ng && y0 + row < h)
            row_noise[(g0 + g) * rows_stride + y0 + row] = chain;
        else if (sig && y0 + row < h)
            row_sig[y0 + row] = chain;
    }
}

/* A ladder's distorted pictures 2 or 4 per block (_dis2, _dis4), picture
 * 1 + r's noise rows at row_noise + r * rows_stride; the blocks of
 * blockIdx.z 0 also the reference's signal rows. */
#define ANSNR_ROWS_DIS_KERNEL(G)                                                                \
    GPU_KERNEL void __launch_bounds__(ANSNR_LAD_THREADS(G), 2)                                  \
    ansnr_rows_dis##G(const gpussim_cuda_frame_desc *desc, gpussim_cuda_plane_fmt fmt, int w,   \
                      int h, float inv_scaler, float *row_sig, float *row_noise,                \
                      long long rows_stride, const float *ref_plane, int nb_dis)                \
    {                                                                                           \
        ansnr_rows_ladder<G>(desc, fmt, w, h, inv_scaler, row_sig, row_noise, rows_stride,      \
                             ref_plane, nb_dis);                                                \
    }
ANSNR_ROWS_DIS_KERNEL(2)
ANSNR_ROWS_DIS_KERNEL(4)
