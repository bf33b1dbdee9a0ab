/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/* CUPTI activity tracer loaded by the CUDA driver (CUDA_INJECTION64_PATH):
 * kernels, copies, memsets, synchronisations and driver API calls with
 * their stream / thread, as CSV into $TRACE_OUT. A diagnosis tool for the
 * device machine (which has no working nsys report step). */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>

static FILE *out;
#define BUF_SIZE (16u << 20)

static void CUPTIAPI buf_req(uint8_t **b, size_t *sz, size_t *max)
{
    *b = aligned_alloc(64, BUF_SIZE);
    *sz = BUF_SIZE;
    *max = 0;
}

static void CUPTIAPI buf_done(CUcontext ctx, uint32_t sid, uint8_t *b, size_t sz, size_t valid)
{
    CUpti_Activity *r = NULL;
    while (cuptiActivityGetNextRecord(b, valid, &r) == CUPTI_SUCCESS) {
        switch (r->kind) {
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        case CUPTI_ACTIVITY_KIND_KERNEL: {
            KERNEL_T *k = (KERNEL_T *)r;
            fprintf(out, "K,%llu,%llu,%u,%u,%u,%s\n", (unsigned long long)k->start,
                    (unsigned long long)k->end, k->streamId, k->correlationId,
                    k->gridX * k->gridY * k->gridZ, k->name);
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            MEMCPY_T *m = (MEMCPY_T *)r;
            fprintf(out, "C,%llu,%llu,%u,%u,%u,%llu\n", (unsigned long long)m->start,
                    (unsigned long long)m->end, m->streamId, m->correlationId, m->copyKind,
                    (unsigned long long)m->bytes);
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            MEMSET_T *m = (MEMSET_T *)r;
            fprintf(out, "M,%llu,%llu,%u,%u,%llu\n", (unsigned long long)m->start,
                    (unsigned long long)m->end, m->streamId, m->correlationId,
                    (unsigned long long)m->bytes);
            break;
        }
        case CUPTI_ACTIVITY_KIND_DRIVER: {
            CUpti_ActivityAPI *a = (CUpti_ActivityAPI *)r;
            fprintf(out, "A,%llu,%llu,%u,%u,%u\n", (unsigned long long)a->start,
                    (unsigned long long)a->end, a->threadId, a->correlationId, a->cbid);
            break;
        }
        case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
            SYNC_T *s = (SYNC_T *)r;
            fprintf(out, "S,%llu,%llu,%u,%u,%u\n", (unsigned long long)s->start,
                    (unsigned long long)s->end, (unsigned)s->type, s->streamId, s->correlationId);
            break;
        }
        default: break;
        }
    }
    free(b);
}

static void fin(void)
{
    cuptiActivityFlushAll(1);
    if (out)
        fclose(out);
    out = NULL;
}

int InitializeInjection(void)
{
    const char *p = getenv("TRACE_OUT");
    out = fopen(p ? p : "/tmp/trace.csv", "w");
    if (!out)
        return 0;
    cuptiActivityRegisterCallbacks(buf_req, buf_done);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
    atexit(fin);
    return 1;
}
