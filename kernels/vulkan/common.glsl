// SPDX-License-Identifier: BSD-2-Clause
// Copyright (c) 2026 The gpussim authors
// Shared by every gpussim compute shader (GLSL 4.60 for Vulkan 1.2+).
//
// Exactness: every expression that reproduces reference arithmetic is stored
// in a `precise` variable, so the compiler neither fuses a*b+c into an FMA nor
// reassociates (spec: "no contraction"). Doubles are used exactly where the
// spec says double; the device must have shaderFloat64 (checked at init).
//
// Descriptor layout, shared by all pipelines (one set, one layout): bindings
// 0..7 are storage buffers, 8 is a storage image (pack.comp's Vulkan frames).
// A shader declares only the bindings it uses. Intermediate planes get one
// binding each (2..6), so that no binding is larger than one plane: some
// devices (lavapipe, several mobile GPUs) cap a binding at 128 MiB.

#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require

#include "tables.glsl"

// Workgroup shape: 2-D kernels use WG_X x WG_Y invocations; reductions
// produce one partial per workgroup. Specialization constants 0 and 1.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;
layout(constant_id = 0) const int WG_X = 16;
layout(constant_id = 1) const int WG_Y = 16;

// RAW_BPS (specialization constant 3): the dispatch's input is level 0,
// the staged picture words (1 or 2 bytes a sample; raw.glsl reads them),
// not a float plane (0: a box decimation, a pyramid level). A shader that
// reads level 0 ends its push constants with RAW_PARAMS.
layout(constant_id = 3) const int RAW_BPS = 0;
#define RAW_PARAMS                                                               \
    int raw_off0, raw_off1; /* the plane's first word in picture 0 / 1 */        \
    int raw_stride;         /* words a row */                                    \
    int raw_first, raw_step; /* sample x of a row is sample first + x * step */  \
    uint raw_shift, raw_mask; /* its value: (stored >> shift) & mask */          \
    float raw_inv_scaler    /* 1 / scaler: the float plane's value v / scaler */

// Half-sample-symmetric mirror of spec §1.2 (edge sample repeated).
int mirror_hss(int i, int n)
{
    if (i < 0)
        return -1 - i;
    if (i >= n)
        return 2 * n - 1 - i;
    return i;
}

// Exactly double(f) for a positive normal float f, with integer operations
// instead of the conversion instruction (on NVIDIA a quarter of the double
// adds' rate, a large share of the window and pyramid shaders); +0 gives 2^-127,
// a "residue". As nonneg_f2d() in kernels/cuda/gpussim_kernels.cu, and only
// where its proof holds: on sums of n terms that are each +0 or at least
// 2^-70 for n <= 11 (2^-66 for n <= 81), the n residues stay below half an
// ulp of any nonzero term or partial sum, so they vanish in the first
// rounding after a nonzero term and every nonzero partial sum is the
// reference's; a sum of +0 terms alone leaves at most n * 2^-127, which
// flush_residue() returns to +0 (every nonzero sum is far above 2^-100).
double nonneg_f2d(float f)
{
    const uint b = floatBitsToUint(f);
    return packDouble2x32(uvec2(b << 29, (b >> 3) + 0x38000000u));
}

double flush_residue(double a)
{
    const double tiny = packDouble2x32(uvec2(0u, 0x39B00000u)); // 2^-100
    return abs(a) < tiny ? 0.0lf : a;
}

// Correctly rounded float quotient: GLSL's float division is allowed 2.5 ulp,
// so divide in double (correctly rounded) and round once to float. For float
// operands the double rounding is innocuous (53 >= 2*24 + 2), so the result
// is the C reference's float division.
float div_rn(float a, float b)
{
    precise double q = double(a) / double(b);
    return float(q);
}

// (float)sqrt((double)p) of the reference for a float p >= 0 (or -0.0): the
// correctly rounded float square root of p (again innocuous double rounding).
// GLSL promises neither a correctly rounded float nor double sqrt (a double
// sqrt only as precise as a float one: a few float ulps), so take the double
// sqrt's candidate and fix it exactly: y is the correctly rounded root iff p
// lies between the squares of the midpoints to y's float neighbours; those
// midpoints have 25 significant bits, so their squares are exact in double.
// (No tie is possible: an odd 25-bit midpoint squared needs 49 bits.)
// Outside, y moves one float towards the root and is checked again, as many
// times as the candidate was off (up to a few ulps within Vulkan's
// precision; NVIDIA's and lavapipe's are correctly rounded: one check).
float sqrt_rn(float p)
{
    if (!(p > 0.0))
        return float(sqrt(double(p))); // +-0 (and the NaN of a NaN input) as the reference
    float y = float(sqrt(double(p)));
    const double pd = double(p);
    for (int it = 0; it < 16; it++) {
        const uint yb = floatBitsToUint(y);
        precise double lo = (double(y) + double(uintBitsToFloat(yb - 1u))) * 0.5lf;
        precise double hi = (double(y) + double(uintBitsToFloat(yb + 1u))) * 0.5lf;
        precise double lo2 = lo * lo;
        precise double hi2 = hi * hi;
        if (pd < lo2)
            y = uintBitsToFloat(yb - 1u);
        else if (pd > hi2)
            y = uintBitsToFloat(yb + 1u);
        else
            break;
    }
    return y;
}
