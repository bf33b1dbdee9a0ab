/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * Stage REDUCE: per-block partials -> a frame's result block.
 * A part of the one CUDA module: compiled only through kernels/cuda/kernels.cu,
 * after common.cuh and convert.cu.
 */

/*
 * Grid (REDUCE_BLOCKS, jobs): blockIdx.y is the job (struct
 * gpussim_cuda_reduce_job). A WSUMS job's `count` partials are folded in
 * REDUCE_CHAINS chains, chain t adding partials t, t + REDUCE_CHAINS, ...
 * in that order, then a fixed tree over the chains (wsums_block_reduce),
 * so the result, magnitude sums (plain doubles) included, is one fixed
 * order's, bit for bit, whatever the block and thread scheduling.
 *
 * The chains are spread over REDUCE_BLOCKS blocks of REDUCE_CPB chains, one
 * thread per (field, chain): a fixed-point limb field is summed as a
 * 128-bit integer and the three limb sums of a quantity are then combined
 * modulo 2^192 — the same integer as adding the 192-bit values one by one.
 * Each block writes its chains' totals to the job's scratch; the last block
 * of the job to finish (counter in scratch, reset by that block for the
 * next frame) runs the tree and writes the result block.
 */
#define REDUCE_BATCH 16
#define REDUCE_ROWS_CHUNK 4096
/* scratch: REDUCE_SCRATCH_HEAD bytes of counters (one uint32 per job), then
 * per job the chains' totals, field-major (REDUCE_SCRATCH_JOB bytes:
 * WS_FIELDS * REDUCE_CHAINS words); hwctx/gpu/gpu_plan.c sizes it */

GPU_KERNEL void __launch_bounds__(REDUCE_THREADS)
reduce_partials(const gpussim_cuda_reduce_job *jobs, const uint8_t *partials, uint8_t *out,
                uint8_t *scratch)
{
    __shared__ __align__(16) union {
        uint64_t red[WS_FIELDS * REDUCE_CHAINS];
        float rows[2][REDUCE_ROWS_CHUNK];
        uint64_t limb_sum[2][GPUSSIM_WSUM_N * GPUSSIM_FX_LIMBS * REDUCE_CPB];
    } sm;
    __shared__ int last_block;
    const int jid = GPU_BID_Y;
    const gpussim_cuda_reduce_job job = jobs[jid];
    const int tid = GPU_TID_X;

    if (job.kind == GPUSSIM_REDUCE_ANSNR_ROWS) {
        if (GPU_BID_X != 0)
            return;
        /* rows added top to bottom in float (spec §3.4): the signal sum by
         * thread 0, the noise sum by thread 32 (another warp, so the two
         * dependent chains issue side by side), from shared memory that all
         * threads fill, read four rows per load */
        const float *s = (const float *)(partials + job.src_offset);
        const float *n = (const float *)(partials + job.src2_offset);
        const int which = tid == 0 ? 0 : 1;
        float acc = 0.0f;
        for (uint32_t base = 0; base < job.count; base += REDUCE_ROWS_CHUNK) {
            const uint32_t cnt =
                job.count - base < REDUCE_ROWS_CHUNK ? job.count - base : REDUCE_ROWS_CHUNK;
            GPU_SYNC();
            for (uint32_t i = tid; i < cnt; i += REDUCE_THREADS) {
                sm.rows[0][i] = s[base + i];
                sm.rows[1][i] = n[base + i];
            }
            GPU_SYNC();
            if (tid == 0 || tid == 32) {
                const float4 *r4 = (const float4 *)sm.rows[which];
                uint32_t i = 0;
#pragma unroll 8
                for (; i + 4 <= cnt; i += 4) {
                    const float4 v = r4[i / 4];
                    acc += v.x;
                    acc += v.y;
                    acc += v.z;
                    acc += v.w;
                }
                for (; i < cnt; i++)
                    acc += sm.rows[which][i];
            }
        }
        if (tid == 0 || tid == 32)
            ((float *)(out + job.dst_offset))[which] = acc;
        return;
    }

    /* thread (field f, chain v of the block): consecutive threads read
     * consecutive words of the field-major partials */
    const int f = tid / REDUCE_CPB, v = tid % REDUCE_CPB;
    const uint32_t chain = (uint32_t)GPU_BID_X * REDUCE_CPB + (uint32_t)v;
    const uint64_t *col = (const uint64_t *)(partials + job.src_offset) + (size_t)f * job.count;
    uint64_t lo = 0, hi = 0;
    double mag = 0.0;
    /* REDUCE_BATCH loads in flight before they are added; past the end a
     * partial reads as 0 (adds nothing: +0.0 to a magnitude sum >= +0) */
    for (uint32_t i = chain; i < job.count; i += REDUCE_BATCH * REDUCE_CHAINS) {
        uint64_t b[REDUCE_BATCH];
#pragma unroll
        for (int u = 0; u < REDUCE_BATCH; u++)
            b[u] = i + (uint32_t)u * REDUCE_CHAINS < job.count ? col[i + u * REDUCE_CHAINS] : 0;
        if (f >= WS_ABS0) {
#pragma unroll
            for (int u = 0; u < REDUCE_BATCH; u++)
                mag += gpu_bits_double(b[u]);
        } else {
#pragma unroll
            for (int u = 0; u < REDUCE_BATCH; u++) {
                lo += b[u];
                hi += lo < b[u];
            }
        }
    }
    uint64_t *tot = (uint64_t *)(scratch + REDUCE_SCRATCH_HEAD) +
                    (size_t)jid * WS_FIELDS * REDUCE_CHAINS;
    if (f < WS_ABS0) {
        sm.limb_sum[0][tid] = lo;
        sm.limb_sum[1][tid] = hi;
    } else {
        tot[(size_t)f * REDUCE_CHAINS + chain] = (uint64_t)gpu_double_bits(mag);
    }
    GPU_SYNC();
    if (tid < GPUSSIM_WSUM_N * REDUCE_CPB) {
        /* sum of limb l = lo_l + hi_l * 2^64; the quantity is
         * sum_l (lo_l + hi_l * 2^64) * 2^(64 l) modulo 2^192 */
        const int q = tid / REDUCE_CPB, c = tid % REDUCE_CPB;
        const uint32_t ch = (uint32_t)GPU_BID_X * REDUCE_CPB + (uint32_t)c;
        const int f0 = q * GPUSSIM_FX_LIMBS * REDUCE_CPB + c;
        const uint64_t lo0 = sm.limb_sum[0][f0], hi0 = sm.limb_sum[1][f0];
        const uint64_t lo1 = sm.limb_sum[0][f0 + REDUCE_CPB], hi1 = sm.limb_sum[1][f0 + REDUCE_CPB];
        const uint64_t lo2 = sm.limb_sum[0][f0 + 2 * REDUCE_CPB];
        const uint64_t l1 = hi0 + lo1;
        const uint64_t l2 = hi1 + lo2 + (l1 < lo1);
        tot[(size_t)(q * GPUSSIM_FX_LIMBS + 0) * REDUCE_CHAINS + ch] = lo0;
        tot[(size_t)(q * GPUSSIM_FX_LIMBS + 1) * REDUCE_CHAINS + ch] = l1;
        tot[(size_t)(q * GPUSSIM_FX_LIMBS + 2) * REDUCE_CHAINS + ch] = l2;
    }
    /* last-block-done: the totals visible device-wide before the count */
    __threadfence();
    GPU_SYNC();
    unsigned *counter = (unsigned *)scratch + jid;
    if (tid == 0)
        last_block = atomicAdd(counter, 1u) == REDUCE_BLOCKS - 1;
    GPU_SYNC();
    if (!last_block)
        return;
    __threadfence();
    /* other blocks' writes: read past this multiprocessor's L1 */
    const volatile uint64_t *vt = tot;
    for (int k = tid; k < WS_FIELDS * REDUCE_CHAINS; k += REDUCE_THREADS)
        sm.red[k] = vt[k];
    if (tid == 0)
        *counter = 0;
    wsums_block_reduce<WQ_ALL>(sm.red, tid, REDUCE_CHAINS, REDUCE_THREADS);
    /* the result block is a plain struct: its 16 fields in field order */
    if (tid < WS_FIELDS)
        ((uint64_t *)(out + job.dst_offset))[tid] = sm.red[(size_t)tid * REDUCE_CHAINS];
}
