/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Input unpacking and normalisation (spec §0), mirroring hwctx/cpu/cpu.c's
 * unpack_component() and kernels/c/convert.c.
 */
#include "common.h"

/*
 * One component of a picture plane -> a contiguous w x h plane of true
 * sample values. Reads bytes so that any pitch/offset works (dma-buf planes
 * need not be 2-byte aligned in the buffer); 16-bit words are little-endian.
 * `first`/`step` select the component of an interleaved (semi-planar) plane;
 * `shift` removes MSB alignment (P010...), `mask` keeps the true bits.
 */
__kernel void unpack_plane_ze(__global const uchar *src, ulong offset, long pitch,
                              int bytes_per_sample, int first, int step, int shift, uint mask,
                              int w, int h, __global ushort *dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    __global const uchar *row = src + offset + (long)y * pitch;
    const long i = (long)first + (long)x * step;
    uint v;
    if (bytes_per_sample == 1) {
        v = row[i];
    } else {
        v = (uint)row[2 * i] | ((uint)row[2 * i + 1] << 8);
        v = (v >> shift) & mask;
    }
    dst[(size_t)y * w + x] = (ushort)v;
}

/* (float)v / scaler + offset. scaler is a power of two, so the division is
 * exact and equals the product with its exact inverse; the product is used
 * so that no division accuracy mode can change it. */
__kernel void convert_to_float_ze(__global const ushort *src, int n, float inv_scaler,
                                  float offset, __global float *dst)
{
    const int i = get_global_id(0);
    if (i >= n)
        return;
    dst[i] = (float)src[i] * inv_scaler + offset;
}
