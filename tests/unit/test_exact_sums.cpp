/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The CUDA and HIP kernels' exact accumulation (kernels/cuda/exact_sums.h),
 * compiled on the host (gpu_compat.h's host mode) and checked against the
 * fixed point's exact reference (fx_add_double() below):
 *  - split sums of up to WSPLIT_TERMS terms equal fx_add_double()'s sums
 *    bit for bit wherever the latter is exact (terms on the 2^-128 grid), at
 *    both scales the kernels use (SSIM's 2^0, integer SSIM's 2^-16);
 *  - below that grid they stay within the 2^-128 per term the host allows;
 *  - the range guard turns a term beyond 2^8 (scaled), an infinity or a NaN
 *    into a NaN, and nothing else;
 *  - fx_add_i64() and exact_int() are exact over their ranges;
 *  - a block's sums as the window kernels form them (wsplit_piece() of 256
 *    threads added as 64-bit integers, then wsplit_pieces_to_fx()) equal
 *    the threads' fixed-point values added one by one, bit for bit, also
 *    with every term at the range's edge;
 *  - gpu_sqrt_rn(), the float square root the window kernels take for the
 *    reference's (float)sqrt((double)v), equals it (double rounding is
 *    innocuous for the square root, 53 >= 2 * 24 + 2): every subnormal and
 *    every float of [1/4, 4), and every 61st of the others.
 * Random cases come from a fixed seed: every run checks the same values.
 */
#include "exact_sums.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static long passed, failed;

static void check(bool ok, const char *what, double a, double b)
{
    if (ok) {
        passed++;
        return;
    }
    if (failed++ < 20)
        std::printf("FAIL: %s (%a, %a)\n", what, a, b);
}

/* xorshift64*: the same sequence everywhere */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

/* a random double with a full 53-bit significand and |v| in [2^lo, 2^hi) */
static double random_term(int lo, int hi)
{
    const double m = 1.0 + (double)(rng() >> 12) * 0x1p-52;
    const int e = lo + (int)(rng() % (uint64_t)(hi - lo));
    const double v = std::ldexp(m, e);
    return (rng() & 1) ? -v : v;
}

static bool fx_equal(const gpussim_fx &a, const gpussim_fx &b)
{
    return std::memcmp(a.limb, b.limb, sizeof(a.limb)) == 0;
}

/* The exact reference: a += v exactly, except for bits of v below
 * 2^-FRAC_BITS (truncated toward zero, as the host's bound allows). */
static void fx_add_double(gpussim_fx *a, double v)
{
    const uint64_t bits = gpu_double_bits(v);
    int e = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((1ull << 52) - 1);
    if (e)
        m |= 1ull << 52;
    else
        e = 1;
    /* v = m * 2^(e - 1075); in fixed point m sits at bit sh */
    int sh = e - 1075 + GPUSSIM_FX_FRAC_BITS;
    if (sh < 0) {
        m = sh > -64 ? m >> -sh : 0;
        sh = 0;
    }
    /* sh <= 192 - 53 for any |v| < 2^64; larger cannot occur */
    const int li = sh >> 6, b = sh & 63;
    const uint64_t lo = m << b, hi = b ? m >> (64 - b) : 0;
    uint64_t t0 = li == 0 ? lo : 0;
    uint64_t t1 = li == 1 ? lo : li == 0 ? hi : 0;
    uint64_t t2 = li == 2 ? lo : li == 1 ? hi : 0;
    if (bits >> 63) {
        /* two's complement negation */
        t0 = ~t0 + 1;
        const uint64_t c0 = t0 == 0;
        t1 = ~t1 + c0;
        const uint64_t c1 = c0 && t1 == 0;
        t2 = ~t2 + c1;
    }
    const gpussim_fx t = { { t0, t1, t2 } };
    fx_add(a, &t);
}

/* A split sum's value in the fixed point: its pieces, as a block of one
 * thread adds them. */
template <int E> static void wsplit_to_fx(gpussim_fx *a, const wsplit *s)
{
    const long long p[3] = { wsplit_piece(s, 0), wsplit_piece(s, 1), wsplit_piece(s, 2) };
    wsplit_pieces_to_fx<E>(a, p);
}

/* (a - b) in units of 2^-FRAC_BITS, for differences that fit a long long */
static long long fx_diff(const gpussim_fx &a, const gpussim_fx &b)
{
    gpussim_fx n = b;
    /* two's complement negation of b, then a + (-b) */
    uint64_t carry = 1;
    for (int i = 0; i < GPUSSIM_FX_LIMBS; i++) {
        n.limb[i] = ~n.limb[i] + carry;
        carry = carry && n.limb[i] == 0;
    }
    gpussim_fx d = a;
    fx_add(&d, &n);
    return (long long)d.limb[0];
}

/* The split sums of terms t[0..k-1] (scaled by 2^-E) against fx_add_double. */
template <int E> static void split_vs_fx(const double *t, int k, gpussim_fx *split, gpussim_fx *ref)
{
    wsplit s;
    wsplit_zero(&s);
    fx_zero(split);
    fx_zero(ref);
    for (int i = 0; i < k; i++) {
        double abs_sum = 0.0;
        wsplit_term<E>(&s, &abs_sum, t[i]);
        check(abs_sum == std::fabs(t[i]), "wsplit_term: |t| into abs_sum", t[i], abs_sum);
        fx_add_double(ref, t[i]);
    }
    wsplit_to_fx<E>(split, &s);
}

/* 200000 random groups of 1 .. WSPLIT_TERMS terms with |t| in [2^lo, 2^hi), scaled by 2^-E:
 * on the grid, so the split sum equals the exact sum bit for bit */
template <int E> static void random_grid_groups(int lo, int hi, const char *what)
{
    gpussim_fx a, b;
    for (int n = 0; n < 200000; n++) {
        double t[WSPLIT_TERMS];
        const int k = 1 + (int)(rng() % WSPLIT_TERMS);
        for (int i = 0; i < k; i++)
            t[i] = random_term(lo, hi);
        split_vs_fx<E>(t, k, &a, &b);
        check(fx_equal(a, b), what, t[0], k > 1 ? t[1] : 0.0);
    }
}

/* Terms on the 2^-128 grid (|t| >= 2^-76 has an ulp of at least 2^-128): both
 * sums are exact, so equal bit for bit. */
static void test_grid_terms(void)
{
    const double edges[] = { 0.0,
                             -0.0,
                             0x1p-76,
                             -0x1p-76,
                             0x1.fffffffffffffp7,
                             -0x1.fffffffffffffp7,
                             0x1p-41,
                             -0x1p-41,
                             0x1.8p-40,
                             0x1p-40 + 0x1p-41,
                             0x1p-85,
                             0x1.8p-84,
                             1.0,
                             -1.0,
                             0x1.0000000000001p0,
                             2.0 - 0x1p-52 };
    const int nb_edges = (int)(sizeof(edges) / sizeof(edges[0]));
    gpussim_fx a, b;
    for (int i = 0; i < nb_edges; i++)
        for (int j = 0; j < nb_edges; j++) {
            const double t[4] = { edges[i], edges[j], edges[(i + j) % nb_edges],
                                  edges[(i * 7 + j) % nb_edges] };
            for (int k = 1; k <= WSPLIT_TERMS; k++) {
                split_vs_fx<0>(t, k, &a, &b);
                check(fx_equal(a, b), "edge terms: split sum == exact sum", t[0], t[1]);
            }
        }
    random_grid_groups<0>(-76, 8, "random terms in [2^-76, 2^8): split sum == exact sum");
    /* integer SSIM's scale: terms up to 2^24 on the 2^-112 grid */
    random_grid_groups<16>(-60, 24,
                           "scaled by 2^-16, terms in [2^-60, 2^24): split sum == exact sum");
}

/* Terms below the grid, down to subnormals: the split rounds to nearest
 * (within half a unit per term), the fixed point truncates (within one):
 * their sums differ by less than 1.5 units per term. */
static void test_tiny_terms(void)
{
    gpussim_fx a, b;
    for (int n = 0; n < 200000; n++) {
        double t[WSPLIT_TERMS];
        const int k = 1 + (int)(rng() % WSPLIT_TERMS);
        for (int i = 0; i < k; i++)
            t[i] = (rng() & 3) ? random_term(-140, -76) : random_term(-1074, -140);
        split_vs_fx<0>(t, k, &a, &b);
        const long long d = fx_diff(a, b);
        check(2 * std::llabs(d) < 3 * k, "terms below 2^-76: within 1.5 units of 2^-128 a term",
              t[0], (double)d);
    }
    /* a large term hides nothing below the grid */
    for (int n = 0; n < 100000; n++) {
        const double t[2] = { random_term(-10, 8), random_term(-200, -100) };
        split_vs_fx<0>(t, 2, &a, &b);
        const long long d = fx_diff(a, b);
        check(std::llabs(d) <= 2, "large + tiny term: within the bound", t[0], t[1]);
    }
}

static void test_guard(void)
{
    for (int n = 0; n < 100000; n++) {
        const double v = std::fabs(random_term(-1074, 8));
        check(wsplit_checked(v, WSPLIT_MAX) == v, "guard: a term below 2^8 passes", v, 0.0);
    }
    const double out[] = { WSPLIT_MAX, 0x1.0000000000001p8, 1e300, INFINITY, NAN };
    for (double v : out)
        check(std::isnan(wsplit_checked(v, WSPLIT_MAX)), "guard: NaN for a term out of range", v,
              0.0);
    /* integer SSIM's scale: the range is 2^8 * 2^16 */
    const double scaled[] = { 0x1p24, -0x1p24, NAN };
    for (double v : scaled) {
        wsplit s;
        wsplit_zero(&s);
        double abs_sum = 0.0;
        wsplit_term<16>(&s, &abs_sum, v);
        check(std::isnan(abs_sum), "guard at scale 2^-16: NaN from 2^24 on", v, abs_sum);
    }
}

static void test_integer_paths(void)
{
    const double ints[] = { 0.0, 1.0, -1.0, 0x1p51 - 1, -(0x1p51 - 1), 12345.0, -67890.0 };
    for (double x : ints)
        check(exact_int(x) == (long long)x, "exact_int: exact below 2^51", x, 0.0);
    for (int n = 0; n < 100000; n++) {
        const long long v = (long long)(rng() >> 14) * ((rng() & 1) ? -1 : 1); /* |v| < 2^50 */
        check(exact_int((double)v) == v, "exact_int: random", (double)v, 0.0);
        gpussim_fx a, b;
        const int shifts[] = { 0, 16, 44, 60, 88, 104 };
        for (int sh : shifts) {
            fx_zero(&a);
            fx_zero(&b);
            switch (sh) {
            case 0: fx_add_i64<0>(&a, v); break;
            case 16: fx_add_i64<16>(&a, v); break;
            case 44: fx_add_i64<44>(&a, v); break;
            case 60: fx_add_i64<60>(&a, v); break;
            case 88: fx_add_i64<88>(&a, v); break;
            default: fx_add_i64<104>(&a, v); break;
            }
            fx_add_double(&b, std::ldexp((double)v, sh - GPUSSIM_FX_FRAC_BITS));
            check(fx_equal(a, b), "fx_add_i64 == fx_add_double of the same value", (double)v, sh);
        }
    }
}

/* One check per binade (exponent field), each over its floats of bit
 * pattern p = e << 23 | m with m % step == 0. */
static void test_sqrt_rn(void)
{
    for (uint32_t e = 0; e < 255; e++) {
        /* subnormals and [1/4, 4) (exponent fields 125..128): every float */
        const uint32_t step = e == 0 || (e >= 125 && e <= 128) ? 1 : 61;
        bool ok = true;
        float bad = 0.0f;
        for (uint32_t m = 0; m < (1u << 23); m += step) {
            const uint32_t bits = e << 23 | m;
            float v;
            std::memcpy(&v, &bits, sizeof(v));
            if (gpu_sqrt_rn(v) != (float)std::sqrt((double)v) && ok)
                ok = false, bad = v;
        }
        check(ok, "gpu_sqrt_rn(v) == (float)sqrt((double)v)", bad, e);
    }
}

/* One block of `threads` threads, each with 1 .. WSPLIT_TERMS terms from
 * term(): its sum as wacc_block_store() forms it (each thread's pieces added
 * as 64-bit integers, in the unsigned arithmetic the kernel uses, then the
 * totals into the fixed point) against the threads' wsplit_to_fx() values
 * added one by one. */
template <int E, typename F> static void block_vs_threads(int threads, F term, const char *what)
{
    unsigned long long tot[3] = { 0, 0, 0 };
    gpussim_fx ref;
    fx_zero(&ref);
    for (int i = 0; i < threads; i++) {
        wsplit s;
        wsplit_zero(&s);
        double abs_sum = 0.0;
        const int k = 1 + (int)(rng() % WSPLIT_TERMS);
        for (int j = 0; j < k; j++)
            wsplit_term<E>(&s, &abs_sum, term());
        for (int p = 0; p < 3; p++)
            tot[p] += (unsigned long long)wsplit_piece(&s, p);
        wsplit_to_fx<E>(&ref, &s);
    }
    const long long pieces[3] = { (long long)tot[0], (long long)tot[1], (long long)tot[2] };
    gpussim_fx blk;
    fx_zero(&blk);
    wsplit_pieces_to_fx<E>(&blk, pieces);
    check(fx_equal(blk, ref), what, (double)pieces[0], (double)pieces[2]);
}

static void test_block_pieces(void)
{
    for (int n = 0; n < 2000; n++) {
        block_vs_threads<0>(
            256, [] { return random_term(-90, 8); },
            "block of 256: 64-bit pieces == threads' fixed-point sum");
        block_vs_threads<16>(
            256, [] { return random_term(-70, 24); },
            "block of 256, scaled by 2^-16: 64-bit pieces == threads' sum");
    }
    /* every term at the edge of the range, one sign: the largest pieces */
    for (int sign = -1; sign <= 1; sign += 2) {
        block_vs_threads<0>(
            256, [sign] { return sign * 0x1.fffffffffffffp7; },
            "block of 256 edge terms == threads' fixed-point sum");
        block_vs_threads<16>(
            256, [sign] { return sign * 0x1.fffffffffffffp23; },
            "block of 256 edge terms, scaled: == threads' fixed-point sum");
    }
}

int main(void)
{
    test_sqrt_rn();
    test_grid_terms();
    test_tiny_terms();
    test_guard();
    test_integer_paths();
    test_block_pieces();
    std::printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
