/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The Vulkan backend's state (types only: the functions are in the layers'
 * own headers).
 *
 * Layers of the Vulkan backend, each including only those below it:
 *   vulkan_fns.h       the entry points (X-macro lists)
 *   vulkan_internal.h  the backend's state (types only)
 *   vulkan_buffer.[ch] errors and buffers
 *   vulkan_plan.[ch]   pipelines, the frame's dispatches, submit, collect
 *   vulkan_frame.[ch]  Vulkan frames: views and sync with their producers
 *   vulkan.c           instance, device, slots: the backend's entry points
 */
#ifndef GPUSSIM_HWCTX_VULKAN_INTERNAL_H
#define GPUSSIM_HWCTX_VULKAN_INTERNAL_H

#include <stdint.h>

#include "vulkan_fns.h" /* first: VK_NO_PROTOTYPES */

#include "gpussim/gpussim_vulkan.h"
#include "src/backend.h"

#define VK_MAX_STEPS 160 /* a pair's frame; a ladder's: per picture (be->max_steps) */
#define VK_MAX_PIPES 48
#define VK_MAX_RESULTS 64 /* a pair's frame; a ladder's: per distorted picture */
/* pictures of one frame: the reference and up to GPUSSIM_MAX_DISTORTED */
#define VK_MAX_PICS (1 + GPUSSIM_MAX_DISTORTED)
#define VK_PC_MAX 128
/* descriptor bindings shared by every shader (kernels/vulkan/common.glsl) */
#define VK_NB_BUFFER_BINDINGS 8
#define VK_IMAGE_BINDING 8
#define VK_NB_MOMENTS 5 /* intermediate planes, bindings 2..6 */
#define VK_OUT_BINDING 7

struct vk_buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
    VkDeviceSize size;
    void *map; /* host-visible buffers only */
};

/* A slice of a buffer bound to one binding. */
struct vk_bind {
    const struct vk_buffer *buf;
    VkDeviceSize off, size;
};

enum vk_shader {
    SH_PACK_R8,
    SH_PACK_R16,
    SH_PACK_RG8,
    SH_PACK_RG16,
    SH_DECIMATE_BOX,
    SH_DECIMATE_LPF,
    SH_SSIM_H,
    SH_SSIM_V,
    SH_SSIM_HV,
    SH_ANSNR_FILTER,
    SH_ANSNR_ROWS,
    SH_ISSIM_H,
    SH_ISSIM_V,
    SH_ISSIM_H32,
    SH_ISSIM_V32,
    SH_ISSIM_H8,
    SH_ISSIM_V8,
    SH_ISSIM_HV8, /* a pair's both passes in one, 8 bits */
    /* a ladder frame's: ssim_window_ladder.comp, ansnr.comp (SIDE_REF, SIDE_DIS),
     * issim.comp (LADDER) */
    SH_SSIM_LAD_REF,
    SH_SSIM_LAD_DIS_H,
    SH_SSIM_LAD_DIS_V,
    SH_SSIM_LAD_DIS_HV,
    SH_SSIM_LAD_HV,
    SH_ANSNR_LAD_REF_FILTER,
    SH_ANSNR_LAD_REF_ROWS,
    SH_ANSNR_LAD_NOISE,
    SH_ISSIM_LAD_H,
    SH_ISSIM_LAD_V,
    SH_ISSIM_LAD_H32,
    SH_ISSIM_LAD_V32,
    SH_ISSIM_LAD_H8,
    SH_ISSIM_LAD_V8,
    SH_ISSIM_LAD_HV8, /* a ladder's both passes in one, 8 bits */
    SH_COUNT
};

/* Which of a ladder's SSIM window stages compute the reference's moments in
 * every workgroup (ssim_lad_hv, scoring each distorted picture of the
 * dispatch in turn) rather than apart (ssim_lad_ref, then ssim_lad_dis_hv
 * a picture a workgroup): vulkan_plan.c's add_ladder_stage. By default
 * level 0 (from the staged words): H100, 2160p 8-bit ladder of 4, 1.136 ->
 * 1.023 ms there, but 0.305 -> 0.335 ms at level 1 (float planes, a
 * quarter of the workgroups). */
enum {
    LADDER_REF_LEVEL0,
    LADDER_REF_ALL,
    LADDER_REF_NONE
};

struct vk_pipe {
    enum vk_shader shader;
    int spec2; /* specialization constant 2 (bytes per sample, box factor, window_spec(), LEVEL0,
               * integer SSIM's tiles per workgroup) */
    int spec3; /* specialization constant 3: RAW_BPS (kernels/vulkan/common.glsl) */
    VkPipeline pipeline;
};

/* One compute dispatch of the frame program. */
struct vk_step {
    int pipe;
    VkDescriptorSet set;
    struct vk_bind binds[VK_NB_BUFFER_BINDINGS];
    uint8_t pc[VK_PC_MAX];
    uint32_t pc_size;
    uint32_t gx, gy, gz;
    int barrier; /* a full compute barrier before it (it reads what earlier steps wrote) */
};

/* The pack of one (picture, scored plane) of a Vulkan frame into the staged
 * words (kernels/vulkan/pack.comp): the slot's image set binds its view. */
struct vk_pack {
    int pic, plane;  /* 0 ref / 1.. the distorted pictures; scored plane */
    int src_plane;   /* picture plane it reads */
    VkDeviceSize dst_off, dst_size; /* the words it writes: the picture's or the frame's */
    uint32_t dst_word0;             /* the staged word dst starts at */
};

/* Where one reduction's partials land in the results buffer. */
struct vk_result {
    int reduce; /* the REDUCE stage of cfg.plan that adds them */
    int dis;    /* the distorted picture (its sums), 0 in a pair's frame */
    VkDeviceSize off;
    uint32_t count; /* workgroups (SSIM, ISSIM) or rows (ANSNR) */
    /* ANSNR of a ladder frame: the rows' signal floats at sig_off (the
     * reference's, shared), the noise floats at off; else both at off,
     * interleaved */
    int ansnr_split;
    VkDeviceSize sig_off;
};

struct vk_slot {
    VkCommandBuffer cmd;
    VkQueryPool query_pool;
    struct vk_buffer host; /* [staged pictures | results] */
    uint64_t done_value;   /* timeline value signalled when the frame is done */
    /* Vulkan frames: per (picture, plane) the view and descriptor set */
    VkImageView view[VK_MAX_PICS][GPUSSIM_MAX_SCORE_PLANES];
    VkDescriptorSet img_set[VK_MAX_PICS][GPUSSIM_MAX_SCORE_PLANES];
    int img_pipe[VK_MAX_PICS][GPUSSIM_MAX_SCORE_PLANES];
};

/* Sync of one submission with the frames it reads (vulkan_frame.c). */
struct vk_frame_sync {
    VkImageMemoryBarrier2 barrier[VK_MAX_PICS * GPUSSIM_VK_MAX_IMAGES];
    int nb_barriers;
    VkSemaphoreSubmitInfo wait[VK_MAX_PICS * GPUSSIM_VK_MAX_IMAGES];
    VkSemaphoreSubmitInfo signal[VK_MAX_PICS * GPUSSIM_VK_MAX_IMAGES];
    int nb_sems;
};

struct vk_backend {
    struct gpussim_config cfg;
    struct vk_fns fns;
    VkInstance inst;
    VkPhysicalDevice pdev;
    VkDevice dev;
    int own_device;
    uint32_t family;
    VkQueue queue;
    void (*lock_queue)(void *opaque, uint32_t family, uint32_t index);
    void (*unlock_queue)(void *opaque, uint32_t family, uint32_t index);
    void *lock_opaque;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem_props;
    uint32_t timestamp_bits;
    int step_times; /* GPUSSIM_VK_STEP_TIMES=1: a timestamp after every dispatch */
    /* GPUSSIM_TEST_LADDER_GROUP=N: at most N distorted pictures a ladder dispatch */
    int ladder_group;
    /* which of a ladder's SSIM window stages take ssim_lad_hv (the
     * reference's moments in every workgroup): LADDER_REF_LEVEL0 (level 0,
     * the default), LADDER_REF_ALL or LADDER_REF_NONE
     * (GPUSSIM_TEST_LADDER_REF=all|none, for tests and benches) */
    int ladder_ref;

    VkSemaphore timeline;
    uint64_t timeline_value;
    VkCommandPool cmd_pool;
    int nb_slots;
    struct vk_slot *slots;

    /* the frame program (vulkan_plan.c) */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipe_layout;
    VkPipelineCache pipe_cache;
    VkDescriptorPool desc_pool;
    VkShaderModule modules[SH_COUNT];
    struct vk_pipe pipes[VK_MAX_PIPES];
    int nb_pipes;
    /* pictures per frame: 2 (a pair), or 1 + nb_distorted (a ladder: the
     * reference's terms computed once, build_ladder_program) */
    int nb_pics;
    struct vk_step *steps;
    int nb_steps, max_steps;
    struct vk_pack packs[VK_MAX_PICS * GPUSSIM_MAX_SCORE_PLANES];
    int nb_packs;
    struct vk_result *results_map;
    int nb_results, max_results;
    double issim_weight[GPUSSIM_MAX_SCORE_PLANES];

    struct vk_buffer scratch; /* device: raw pictures, planes, pyramid, moments */
    struct vk_buffer results; /* device: the partial sums of one frame */
    VkDeviceSize raw_off, raw_size; /* the staged pictures inside scratch */
    VkDeviceSize results_size;
    /* the results in a slot's host buffer: after the staged pictures, at an
     * ALIGN boundary (doubles); the buffer's size */
    VkDeviceSize host_results_off, host_size;
    /* staged layout of picture plane s of picture k (32-bit words) */
    uint32_t raw_plane_off[VK_MAX_PICS][3], raw_plane_stride[VK_MAX_PICS][3];
    uint32_t raw_plane_rows[VK_MAX_PICS][3], raw_plane_row_bytes[VK_MAX_PICS][3];
    int nb_src_planes;
};

#endif /* GPUSSIM_HWCTX_VULKAN_INTERNAL_H */
