#version 460
// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
#extension GL_GOOGLE_include_directive : require
// float_ansnr (spec §3), as in kernels/c/ansnr.c, bit-exact by construction:
//   PASS_FILTER  the 3x3 ref and 5x5 dis filters, FR adjacent rows of a
//                column per invocation, all float: per filter row a float
//                sum over the columns, added to a float accumulator row by row;
//                asymmetric reflection at the borders. The input through
//                shared memory; row-major output.
//   PASS_ROWS    the reference's per-row float sums: each row's r*r (signal)
//                and (r-d)^2 (noise) added left to right in float by one
//                invocation, ANSNR_ROWS rows per workgroup, the whole
//                workgroup streaming the rows through shared memory; the
//                host adds the rows' floats in row order (spec §3 hint).
// Inputs are the pictures' staged words (raw.glsl: the offset-0 floats of
// their samples); the -128 offset is applied on read (f - 128 equals the
// reference's (float)v / scaler + (-128) exactly).
//
// A ladder frame (one reference, several distorted pictures) splits the
// work as kernels/c/ansnr.c does, with the same arithmetic per output:
// SIDE_REF (PASS_FILTER, PASS_ROWS) the reference's filtered plane and its
// signal row sums, once; PASS_NOISE (SIDE_DIS) each distorted picture's
// 5x5 filter and noise row sums against the reference's filtered plane, in
// one pass. Those rows go to rows[i], not interleaved.
#include "common.glsl"

#ifdef SIDE_REF
#define DO_DIS 0
#else
#define DO_DIS 1
#endif

layout(push_constant) uniform Params {
    int w, h;
#ifdef SIDE_DIS
    // distorted picture z of the dispatch (gl_WorkGroupID.z): its input at
    // z * s_in, its row sums at z * s_out
    int s_in, s_out;
#endif
    RAW_PARAMS; // the input: the pictures' staged words (raw.glsl)
} pc;
#if defined(PASS_FILTER) || defined(PASS_NOISE)
#include "raw.glsl"
#endif

#ifdef SIDE_DIS
#define Z_IN (int(gl_WorkGroupID.z) * pc.s_in)
#define Z_OUT (int(gl_WorkGroupID.z) * pc.s_out)
#endif

#if defined(PASS_FILTER) || defined(PASS_NOISE)
#define HALO (ANSNR_DIS_LEN / 2)

// reflect without repeating the edge below 0, repeating it past the end
int ansnr_reflect(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - i - 1;
    return i;
}

// The filters compute the spec's float operations (per output, per filter
// row an inner float sum from 0 over the columns, added to a float
// accumulator from 0) with fewer instructions, through three identities
// that hold for every input (kernels/cuda/ansnr.cu states them too; the
// generator of the tables, gen_tables_vk.c, checks the weights they need):
//  1. "0 + t" is t: a sample f - 128 is never -0 and is 0 or at least 2^-8
//     in magnitude, every tap is positive and above 2^-9, so no product is
//     -0 or subnormal and no sum from such a term is -0. The first add of
//     each inner sum and of the accumulator is dropped.
//  2. The reference's taps are 1/16, 2/16, 4/16, powers of two: a product
//     is exact, so fma(c, v, a) is round(round(c*v) + a) whether the
//     device fuses it or not. Its middle row's weights are twice the outer
//     rows': every term doubles, and the sum with it.
//  3. An inner sum depends only on the input row and the filter row's
//     weights; the 5x5 filter's rows 0 and 4 (and 1 and 3) have the same,
//     so an input row's inner sum serves output row r as filter row 0 and
//     output row r - 4 as filter row 4, computed once for both.

// the 5x5 filter's row Q (0..2) over v[0..4], from its first product
float dis_inner(const int q, const float v[ANSNR_DIS_LEN])
{
    precise float inner = ANSNR_DIS[q * ANSNR_DIS_LEN] * v[0];
    [[unroll]] for (int fj = 1; fj < ANSNR_DIS_LEN; fj++)
        inner += ANSNR_DIS[q * ANSNR_DIS_LEN + fj] * v[fj];
    return inner;
}

// The 5x5 filter of N output rows of a column (from tile row ly0, column
// lx) of the tile T(row, column) reads into ACC[N]. Input rows ascend, so
// each output adds its filter rows in the spec's order; the inner sums no
// output of the column reads are dead code once the loops are unrolled.
#define DIS_COLUMN(ACC, N, T)                                               \
    [[unroll]] for (int ir = 0; ir < N + ANSNR_DIS_LEN - 1; ir++) {         \
        float v[ANSNR_DIS_LEN];                                             \
        [[unroll]] for (int fj = 0; fj < ANSNR_DIS_LEN; fj++)               \
            v[fj] = T(ly0 + ir, lx + fj);                                   \
        const float in0 = dis_inner(0, v), in1 = dis_inner(1, v),           \
                    in2 = dis_inner(2, v);                                  \
        [[unroll]] for (int k = 0; k < N; k++) {                            \
            const int fi = ir - k;                                          \
            if (fi >= 0 && fi < ANSNR_DIS_LEN) {                            \
                const int q = min(fi, ANSNR_DIS_LEN - 1 - fi);              \
                const float inner = q == 0 ? in0 : q == 1 ? in1 : in2;      \
                ACC[k] = fi == 0 ? inner : ACC[k] + inner;                  \
            }                                                               \
        }                                                                   \
    }

#endif

#ifdef PASS_FILTER
// the filtered planes, row-major
layout(std430, binding = 2) writeonly buffer FiltR { float filt_r[]; };
#if DO_DIS
layout(std430, binding = 3) writeonly buffer FiltD { float filt_d[]; };
#endif

// The workgroup's input window (its WG_X x FR * WG_Y outputs and the 5x5
// filter's 2-sample margin, reflected, offset applied) is read once into
// shared memory; both filters read it there. The host's shape is 32 x 8: a
// warp stores one row's 128 bytes, one cache line. FR: each invocation's
// outputs, FR adjacent rows of a column (the host dispatches ceil(h / FR)
// rows: vulkan_plan.c's ANSNR_FR); the taller window reads fewer margin
// rows per output, and the rows share their inner sums (below).
#define FR 4
#define TILE_X (WG_X + 2 * HALO)
#define TILE_Y (FR * WG_Y + 2 * HALO)
shared float tile_r[TILE_Y][TILE_X];
#if DO_DIS
shared float tile_d[TILE_Y][TILE_X];
#define TILE_D(y, x) tile_d[y][x]
#endif

// the reference's outer rows (1 2 1) over tile row R, from the 3x3
// window's first column inside the 5x5 margin
#define RO (HALO - ANSNR_REF_LEN / 2)
#define REF_INNER(R)                                                        \
    fma(ANSNR_REF[2], tile_r[R][lx + RO + 2],                               \
        fma(ANSNR_REF[1], tile_r[R][lx + RO + 1], ANSNR_REF[0] * tile_r[R][lx + RO]))

void main()
{
    const int lid = int(gl_LocalInvocationIndex);
    const int j0 = int(gl_WorkGroupID.x) * WG_X, i0 = int(gl_WorkGroupID.y) * FR * WG_Y;
    // inside the plane's columns, from the staged words: a word (RAW_SPW
    // samples from column j0 - RAW_SPW) per picture and invocation
    const int cw0 = j0 - RAW_SPW;
    if (raw_words_from(cw0) && cw0 >= 0 && j0 + TILE_X <= pc.w) {
        const int NW = (TILE_X + 2 * RAW_SPW - 1) / RAW_SPW;
        for (int e = lid; e < NW * TILE_Y; e += WG_X * WG_Y) {
            const int r = e / NW, x = cw0 + RAW_SPW * (e % NW);
            // rows no output needs hold 0 (as below)
            const bool row_ok = i0 - HALO + r <= pc.h + HALO - 1;
            uint a = 0u, b = 0u;
            if (row_ok) {
                const int ri = ansnr_reflect(i0 - HALO + r, pc.h);
                a = raw_words[raw_word(pc.raw_off0, x, ri)];
#if DO_DIS
                b = raw_words1[raw_word(pc.raw_off1, x, ri)];
#endif
            }
            [[unroll]] for (int j = 0; j < RAW_SPW; j++) {
                const int c = x + j - (j0 - HALO);
                if (c >= 0 && c < TILE_X) {
                    tile_r[r][c] = row_ok ? raw_float(raw_sample(a, x + j)) - 128.0 : 0.0;
#if DO_DIS
                    tile_d[r][c] = row_ok ? raw_float(raw_sample(b, x + j)) - 128.0 : 0.0;
#endif
                }
            }
        }
    } else {
        for (int e = lid; e < TILE_X * TILE_Y; e += WG_X * WG_Y) {
            const int r = e / TILE_X, c = e % TILE_X;
            const int ii = i0 - HALO + r, jj = j0 - HALO + c;
            float rv = 0.0, dv = 0.0;
            // positions no output needs are not read (the reflection would
            // leave the plane past 2n - 1)
            if (ii <= pc.h + HALO - 1 && jj <= pc.w + HALO - 1) {
                const int ri = ansnr_reflect(ii, pc.h), rj = ansnr_reflect(jj, pc.w);
                rv = raw_f(pc.raw_off0, rj, ri) - 128.0;
#if DO_DIS
                dv = raw_f1(pc.raw_off1, rj, ri) - 128.0;
#endif
            }
            tile_r[r][c] = rv;
#if DO_DIS
            tile_d[r][c] = dv;
#endif
        }
    }
    barrier();

    const int lx = int(gl_LocalInvocationID.x), j = j0 + lx;
    if (j >= pc.w)
        return;
    // tile row r holds image row i0 - HALO + r: output row ly0 + k reads
    // tile rows ly0 + k + 1 .. + 3 (3x3) and ly0 + k .. + 4 (5x5)
    const int ly0 = int(gl_LocalInvocationID.y) * FR;
    precise float ri[FR + 2]; // the reference's outer-row sums, tile rows ly0 + RO ..
    [[unroll]] for (int k = 0; k < FR + 2; k++)
        ri[k] = REF_INNER(ly0 + RO + k);
#if DO_DIS
    precise float da[FR];
    DIS_COLUMN(da, FR, TILE_D)
#endif
    [[unroll]] for (int k = 0; k < FR; k++) {
        const int i = i0 + ly0 + k;
        if (i >= pc.h)
            break;
        // (a + 2b) + c: the middle row's inner sum is 2b (identity 2)
        precise float rf = fma(2.0, ri[k + 1], ri[k]) + ri[k + 2];
        filt_r[i * pc.w + j] = rf;
#if DO_DIS
        filt_d[i * pc.w + j] = da[k];
#endif
    }
}
#endif

#if defined(PASS_ROWS) || defined(PASS_NOISE)
// A row's float chain: SUM += TERM(READ(c)) for c = 0 .. N - 1, left to
// right. The values are read CHAIN_B at a time ahead of their adds, so
// that the shared-memory latency is paid once per batch, not once per add;
// the adds keep their order.
#define CHAIN_B 16
#define CHAIN_SUM(SUM, N, READ, TERM)                                       \
    {                                                                       \
        int c = 0;                                                          \
        for (; c + CHAIN_B <= (N); c += CHAIN_B) {                          \
            float v[CHAIN_B];                                               \
            [[unroll]] for (int k = 0; k < CHAIN_B; k++)                    \
                v[k] = READ(c + k);                                         \
            [[unroll]] for (int k = 0; k < CHAIN_B; k++)                    \
                SUM += TERM(v[k]);                                          \
        }                                                                   \
        for (; c < (N); c++) {                                              \
            const float x = READ(c);                                        \
            SUM += TERM(x);                                                 \
        }                                                                   \
    }
#define SQUARE(x) ((x) * (x))
#endif

#ifdef PASS_ROWS
// ANSNR_ROWS rows per workgroup of WG_X invocations (the host dispatches
// WG_X / ANSNR_ROWS invocations per row), read in tiles of ANSNR_ROWS x
// TILE_W samples: every invocation loads LOADS samples of each plane per
// tile, coalesced along the rows, into registers while the previous tile's
// sums run, then into shared memory. The sums are 2 * ANSNR_ROWS chains in
// two warps (signal in invocations 0.., noise in 32..): a chain cannot be
// split, but every row has its own, so the chains of all rows run at once
// and the loads of the whole workgroup keep them fed.
#define ANSNR_ROWS 8
#define TILE_W 256 /* a power of two: 2 x 8 x 256 floats are the 16 KiB every device has */
#define LOADS (ANSNR_ROWS * TILE_W / WG_X)
layout(std430, binding = 2) readonly buffer FiltR { float filt_r[]; };
#if DO_DIS
layout(std430, binding = 3) readonly buffer FiltD { float filt_d[]; };
#define LOAD_D(o) filt_d[o]
#else
#define LOAD_D(o) 0.0
#endif
layout(std430, binding = 7) writeonly buffer Rows { float rows[]; };

// Column c of row r is stored at (c + r) % TILE_W: the chains (one row
// each, the same column at a time) hit distinct banks without padding.
shared float tile_r[ANSNR_ROWS][TILE_W], tile_d[ANSNR_ROWS][TILE_W];
#define SLOT(r, c) (((c) + (r)) & (TILE_W - 1))

void main()
{
    const int lid = int(gl_LocalInvocationID.x);
    const int i0 = int(gl_WorkGroupID.x) * ANSNR_ROWS;
    const int nrows = min(ANSNR_ROWS, pc.h - i0);
    // chain invocations: signal of row lid, noise of row lid - 32
    const bool sig = lid < ANSNR_ROWS;
    const bool noise = DO_DIS != 0 && lid >= 32 && lid < 32 + ANSNR_ROWS;
    const int ci = sig ? lid : lid - 32;
    precise float sum = 0.0;
    float rv[LOADS], dv[LOADS];

    [[unroll]] for (int k = 0; k < LOADS; k++) {
        const int e = k * WG_X + lid, r = e / TILE_W, c = e % TILE_W;
        const bool ok = r < nrows && c < pc.w;
        rv[k] = ok ? filt_r[(i0 + r) * pc.w + c] : 0.0;
        dv[k] = ok ? LOAD_D((i0 + r) * pc.w + c) : 0.0;
    }
    for (int c0 = 0; c0 < pc.w; c0 += TILE_W) {
        barrier(); // the previous tile's sums are done with shared memory
        [[unroll]] for (int k = 0; k < LOADS; k++) {
            const int e = k * WG_X + lid, r = e / TILE_W, c = e % TILE_W;
            tile_r[r][SLOT(r, c)] = rv[k];
            tile_d[r][SLOT(r, c)] = dv[k];
        }
        barrier();
        // the next tile's loads, in flight during this tile's sums
        if (c0 + TILE_W < pc.w) {
            [[unroll]] for (int k = 0; k < LOADS; k++) {
                const int e = k * WG_X + lid, r = e / TILE_W, c = c0 + TILE_W + e % TILE_W;
                const bool ok = r < nrows && c < pc.w;
                rv[k] = ok ? filt_r[(i0 + r) * pc.w + c] : 0.0;
                dv[k] = ok ? LOAD_D((i0 + r) * pc.w + c) : 0.0;
            }
        }
        // the tile's part of the chains: r * r, (r - d)^2
        const int n = min(TILE_W, pc.w - c0);
#define SIG_READ(c) tile_r[ci][SLOT(ci, c)]
#define NOISE_READ(c) (tile_r[ci][SLOT(ci, c)] - tile_d[ci][SLOT(ci, c)])
        if (sig && ci < nrows)
            CHAIN_SUM(sum, n, SIG_READ, SQUARE)
        else if (noise && ci < nrows)
            CHAIN_SUM(sum, n, NOISE_READ, SQUARE)
    }
    if ((sig || noise) && ci < nrows)
        rows[DO_DIS != 0 ? 2 * (i0 + ci) + (noise ? 1 : 0) : i0 + ci] = sum;
}
#endif

#ifdef PASS_NOISE
// A ladder's distorted picture (SIDE_DIS), filtered and summed in one pass:
// each workgroup owns NOISE_R rows of picture gl_WorkGroupID.z and walks
// them left to right in chunks of NOISE_C columns. Per chunk its filter
// invocations (NOISE_FR rows of a column each, as PASS_FILTER's) filter
// the chunk's window from shared memory and store each output's (r - d)^2
// against the reference's filtered plane (r read ahead into registers);
// one invocation per row, in the last warp, adds the previous chunk's
// products to the row's float sum, left to right, as PASS_ROWS does. So
// no distorted picture's filtered plane goes through memory.
//
// The next chunk's window is loaded while the current one is filtered,
// NOISE_LOADS samples per invocation. A slot's row (reflected) and column
// in the window are the same for every chunk, so its offset is found once
// (off[]): a chunk away from the left and right edges only adds its first
// column, an edge chunk reflects the column. A load's value is used only
// when it is stored (the -128 then), so no invocation waits for its loads
// before it filters; a row no output reads (past the last one the window
// needs) loads a sample of the plane that is never used.
//
// The shape, on an H200 (4 pictures at 2160p 8-bit, --steps; the ladder of
// 4 without): rows x columns a workgroup 8 x 64 166 us (2.727 ms), 12 x 64
// 139 us (2.716 ms), 16 x 64 146 us (2.710 ms, beyond 16 KiB of shared
// memory), 16 x 32 155 us (2.730 ms).
#define NOISE_R 12 /* vulkan_plan.c's ANSNR_NOISE_R */
#define NOISE_C 64
#define NOISE_FR 4 /* rows per filter invocation */
#define NOISE_F (NOISE_C * NOISE_R / NOISE_FR) /* filter invocations */
#define NOISE_WG (NOISE_F + 32) /* the host's workgroup: vulkan_plan.c's ANSNR_NOISE_WG */
#define NT_Y (NOISE_R + 2 * HALO)
#define NT_X (NOISE_C + 2 * HALO)
#define NT_ALL (NT_Y * NT_X)
#define NOISE_LOADS ((NT_ALL + NOISE_WG - 1) / NOISE_WG)
#if NOISE_R > 32 || NOISE_R % NOISE_FR != 0 || 4 * (2 * NT_ALL + 2 * NOISE_R * (NOISE_C + 1)) > 16384
#error "PASS_NOISE: a row per lane of one warp, whole filter invocations, 16 KiB of shared memory"
#endif
layout(std430, binding = 2) readonly buffer FiltR { float filt_r[]; };
layout(std430, binding = 7) writeonly buffer Rows { float rows[]; };
// the windows of two chunks (rows of NT_X, flat) and their products (a
// row padded by one: each chain reads a column at a time)
shared float ntile[2 * NT_ALL];
shared float nprod[2][NOISE_R][NOISE_C + 1];
#define NT(y, x) ntile[tbase + (y) * NT_X + (x)]

void main()
{
    const int lid = int(gl_LocalInvocationID.x);
    const int i0 = int(gl_WorkGroupID.x) * NOISE_R;
    const int nchunks = (pc.w + NOISE_C - 1) / NOISE_C;

    // the load slots: window position k * NOISE_WG + lid; off[]: the
    // staged word its row starts at (a row's words, s_in apart a picture)
    int off[NOISE_LOADS];
    [[unroll]] for (int k = 0; k < NOISE_LOADS; k++) {
        const int e = k * NOISE_WG + lid, ii = i0 - HALO + e / NT_X;
        const int row = ii <= pc.h + HALO - 1 ? ansnr_reflect(ii, pc.h) : 0;
        off[k] = Z_IN + pc.raw_off1 + row * pc.raw_stride;
    }
    const bool last_slot = (NOISE_LOADS - 1) * NOISE_WG + lid < NT_ALL;
    // a slot's word and its sample's bit position, the value taken out
    // when it is stored
    uint nw[NOISE_LOADS], npos[NOISE_LOADS];
    // the chunk from column C0: its window's columns C0 - HALO ..
#define NOISE_FETCH(C0)                                                           \
    [[unroll]] for (int k = 0; k < NOISE_LOADS; k++) {                            \
        const int x = (k * NOISE_WG + lid) % NT_X;                                \
        int jj = (C0) + x - HALO;                                                 \
        if ((C0) < HALO || (C0) + NOISE_C + HALO > pc.w) {                        \
            jj = abs(jj);                                                         \
            jj = max(jj >= pc.w ? 2 * pc.w - 1 - jj : jj, 0);                     \
        }                                                                         \
        npos[k] = raw_bit_pos(jj);                                                \
        if (k < NOISE_LOADS - 1 || last_slot)                                     \
            nw[k] = raw_words1[off[k] + raw_word_in_row(jj)];                     \
    }
#define NOISE_STORE(B)                                                            \
    [[unroll]] for (int k = 0; k < NOISE_LOADS; k++)                              \
        if (k < NOISE_LOADS - 1 || last_slot)                                     \
            ntile[(B) * NT_ALL + k * NOISE_WG + lid] =                            \
                raw_float(raw_sample_at(nw[k], npos[k])) - 128.0;

    // filter invocations: column lx, rows ly0 .. ly0 + NOISE_FR - 1, and
    // the reference's filtered outputs there (the plane's last row for
    // rows past it, never summed)
    const bool filt = lid < NOISE_F;
    const int lx = lid % NOISE_C, ly0 = lid / NOISE_C * NOISE_FR;
    int roff[NOISE_FR];
    [[unroll]] for (int r = 0; r < NOISE_FR; r++)
        roff[r] = min(i0 + ly0 + r, pc.h - 1) * pc.w + lx;
    float rr[NOISE_FR], rn[NOISE_FR];
#define REF_FETCH(RV, C0)                                                         \
    if (filt) {                                                                   \
        const int cc = min((C0) + lx, pc.w - 1) - lx;                             \
        [[unroll]] for (int r = 0; r < NOISE_FR; r++)                             \
            RV[r] = filt_r[roff[r] + cc];                                         \
    }
    // chain invocations: row cr
    const int cr = lid - NOISE_F;
    const bool chain = !filt && cr < NOISE_R && i0 + cr < pc.h;

    NOISE_FETCH(0)
    REF_FETCH(rr, 0)
    NOISE_STORE(0)
    barrier();
    precise float sum = 0.0;
    for (int ch = 0; ch <= nchunks; ch++) {
        const int b = ch & 1;
        const int c0 = ch * NOISE_C;
        const bool more = ch + 1 < nchunks; // the same for the whole workgroup
        if (more) {
            NOISE_FETCH(c0 + NOISE_C)
            REF_FETCH(rn, c0 + NOISE_C)
        }
        if (filt && ch < nchunks && c0 + lx < pc.w) {
            const int tbase = b * NT_ALL;
            precise float df[NOISE_FR];
            DIS_COLUMN(df, NOISE_FR, NT)
            [[unroll]] for (int r = 0; r < NOISE_FR; r++) {
                precise float d = rr[r] - df[r];
                precise float p = d * d;
                nprod[b][ly0 + r][lx] = p;
            }
        } else if (chain && ch > 0) {
            // the previous chunk's products
            const int n = min(NOISE_C, pc.w - (c0 - NOISE_C));
#define PROD_READ(c) nprod[b ^ 1][cr][c]
#define AS_IS(x) (x)
            CHAIN_SUM(sum, n, PROD_READ, AS_IS)
        }
        if (more) {
            NOISE_STORE(b ^ 1)
            [[unroll]] for (int r = 0; r < NOISE_FR; r++)
                rr[r] = rn[r];
        }
        barrier();
    }
    if (chain)
        rows[Z_OUT + i0 + cr] = sum;
}
#endif
