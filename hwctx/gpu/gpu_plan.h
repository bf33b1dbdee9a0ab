/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The GPU frame plan (hwctx/gpu/gpu_plan.c), shared by the CUDA and HIP
 * backends: the same kernels (kernels/cuda, built by nvcc or hipcc), driven
 * through a CUDA-driver-API table (hwctx/cuda/cuda_loader.h). A backend is the
 * plan plus a target: where its table comes from, its module image, its
 * name, whether it adopts a device, and the picture memory it reads beyond
 * host memory (hwctx/cuda/cuda.c, hwctx/hip/hip.c).
 */
#ifndef GPUSSIM_GPU_PLAN_H
#define GPUSSIM_GPU_PLAN_H

#include <stdint.h>

#include "src/backend.h"
#include "hwctx/cuda/cuda_loader.h"

struct gpu_plan_target {
    enum gpussim_backend_type type; /* CUDA or HIP: its name prefixes the log */
    const char *runtime; /* what is missing when load() fails, for the error */
    /* The driver-API table, loaded once; NULL when the runtime is absent
     * (must not log). */
    const struct gpussim_cuda_api *(*load)(void);
    const void *image;       /* module image for cuModuleLoadData */
    const char *image_archs; /* devices the image has code for (logged when
                              * the module does not load); NULL: not logged */
    /*
     * Optional: adopts cfg->params.hw_device (CUDA: a struct
     * gpussim_cuda_device), its context and the stream its pictures are
     * written on (the producer). Logs and returns a negative errno when it
     * is unusable. NULL: hw_device is refused.
     */
    int (*adopt_device)(const struct gpussim_config *cfg, CUcontext *ctx, CUstream *producer);
    /* The picture memory read in place besides host memory
     * (GPUSSIM_MEMORY_CUDA, GPUSSIM_MEMORY_DMABUF) and its name for errors. */
    enum gpussim_memory device_memory;
    const char *device_memory_name;
    /*
     * Returns the device address and pitch of each plane of pic (in
     * device_memory) for the frame about to be submitted on the slot whose
     * import state is *state (NULL at first; a hook that maps pictures
     * allocates it). Called with the context pushed. Returns 1 when pic was
     * written on the adopted producer's stream (the frame then waits for its
     * work), 0 when it is ready; logs and returns a negative errno on
     * failure.
     */
    int (*import_picture)(const struct gpussim_config *cfg, void **state,
                          const struct gpussim_picture *pic, uint64_t src[GPUSSIM_MAX_PLANES],
                          int64_t pitch[GPUSSIM_MAX_PLANES]);
    /* Releases a slot's imports once its frame is done (or never ran); with
     * free_state also frees *state and sets it to NULL. Called only when
     * *state is set. */
    void (*release_imports)(void **state, int free_state);
};

/* The backend entry points, for a target's struct gpussim_backend. */
int gpussim_gpu_plan_probe(const struct gpu_plan_target *t, const struct gpussim_config *cfg);
int gpussim_gpu_plan_init(const struct gpu_plan_target *t, const struct gpussim_config *cfg,
                          void **priv, int *nb_slots);
void gpussim_gpu_plan_uninit(void **priv);
int gpussim_gpu_plan_submit(void *priv, int slot, const struct gpussim_picture *ref,
                            const struct gpussim_picture *dis);
int gpussim_gpu_plan_wait(void *priv, int slot, int block, struct gpussim_frame_sums *sums);
/* A ladder frame (cfg->nb_distorted > 1): the reference's terms once. */
int gpussim_gpu_plan_submit_multi(void *priv, int slot, const struct gpussim_picture *ref,
                                  const struct gpussim_picture *const *dis);
int gpussim_gpu_plan_wait_multi(void *priv, int slot, int block, struct gpussim_frame_sums *sums);
int gpussim_gpu_plan_device_time_ms(void *priv, int slot, double *ms);

#endif /* GPUSSIM_GPU_PLAN_H */
