/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Stages UNPACK and CONVERT (spec §0), fused into every kernel that reads a
 * picture: a picture plane's samples read in place through the frame
 * descriptor and normalised to float.
 * A part of the one CUDA module: compiled only through kernels/cuda/kernels.cu,
 * after common.cuh.
 */

/* spec §0: (float)v / scaler + offset. scaler is a power of two, so the
 * quotient equals the product with its exact reciprocal (inv_scaler, made
 * on the host), bit for bit, without a division per sample. */
/* (float)v for v < 2^23 without the conversion unit: 2^23 + v is a float,
 * exactly, and so is the difference */
GPU_DEVICE float sample_to_float_u23(uint32_t v)
{
    return gpu_bits_float(0x4B000000u | v) - 8388608.0f;
}

GPU_DEVICE float sample_to_float(uint16_t v, float inv_scaler, float offset)
{
    return sample_to_float_u23(v) * inv_scaler + offset;
}

/*
 * The kernels read the pictures in place (CUDA frames, or the host
 * pictures' device copies) through the frame descriptor: a raw_plane is one
 * component of one picture plane, unpacked per sample as the CPU backend's
 * unpack_component() does (MSB shift, interleave step, mask).
 */
struct raw_plane {
    const uint8_t *base;
    long long pitch;
    int bytes_per_sample, first, step, shift;
    unsigned mask;
};

GPU_DEVICE raw_plane raw_plane_of(const gpussim_cuda_frame_desc *desc, int k,
                                  const gpussim_cuda_plane_fmt &f)
{
    raw_plane p;
    p.base = (const uint8_t *)desc->src[k][f.src_plane];
    p.pitch = desc->pitch[k][f.src_plane];
    p.bytes_per_sample = f.bytes_per_sample;
    p.first = f.first;
    p.step = f.step;
    p.shift = f.shift;
    p.mask = f.mask;
    return p;
}

/* A sample in two steps: raw_word() loads its byte or word as stored,
 * raw_unpack() removes the MSB alignment and the other bits. A kernel that
 * loads ahead (the next chunk while filtering this one) unpacks only when
 * it stores, so that no instruction waits for the load in between. */
GPU_DEVICE uint16_t raw_word(const uint8_t *base, long long pitch, int bytes_per_sample,
                             long long at, int y)
{
    const uint8_t *p = base + (long long)y * pitch + at;
    return bytes_per_sample == 1 ? *p : *(const uint16_t *)p;
}

GPU_DEVICE uint16_t raw_unpack(uint16_t v, int bytes_per_sample, int shift, unsigned mask)
{
    return bytes_per_sample == 1 ? v : (uint16_t)((v >> shift) & mask);
}

/* the byte offset of sample x in its row */
GPU_DEVICE long long raw_offset(int bytes_per_sample, int first, int step, int x)
{
    return (long long)(first + x * step) * bytes_per_sample;
}

GPU_DEVICE uint16_t raw_sample(const raw_plane &p, int x, int y)
{
    const uint8_t *row = p.base + (long long)y * p.pitch;
    if (p.bytes_per_sample == 1)
        return row[p.first + x * p.step];
    return (uint16_t)((((const uint16_t *)row)[p.first + x * p.step] >> p.shift) & p.mask);
}

GPU_DEVICE float load_plane(const raw_plane &p, int w, int x, int y, float inv_scaler)
{
    (void)w;
    return sample_to_float(raw_sample(p, x, y), inv_scaler, 0.0f);
}

GPU_DEVICE float load_plane(const float *p, int w, int x, int y, float inv_scaler)
{
    (void)inv_scaler;
    return p[(size_t)y * w + x];
}
