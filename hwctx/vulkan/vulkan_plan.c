/* SPDX-License-Identifier: BSD-2-Clause
 * Copyright (c) 2026 The gpussim authors */
/*
 * The Vulkan frame program: pipelines (built once, with a pipeline cache),
 * the buffer layout, the list of dispatches of one frame with their
 * descriptor sets and push constants (all built at init), recording and
 * submitting a frame, and adding its partial sums on the host.
 *
 * Host arithmetic here is reference arithmetic (the ANSNR row floats added
 * in row order, the double partials added in workgroup order): built with
 * -ffp-contract=off like the rest of the library.
 *
 * Layers of the Vulkan backend, each including only those below it:
 *   vulkan_fns.h       the entry points (X-macro lists)
 *   vulkan_internal.h  the backend's state (types only)
 *   vulkan_buffer.[ch] errors and buffers
 *   vulkan_plan.[ch]   pipelines, the frame's dispatches, submit, collect
 *   vulkan_frame.[ch]  Vulkan frames: views and sync with their producers
 *   vulkan.c           instance, device, slots: the backend's entry points
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vulkan_plan.h"

#include "kernels/vulkan/spv_pack_r8.h"
#include "kernels/vulkan/spv_pack_r16.h"
#include "kernels/vulkan/spv_pack_rg8.h"
#include "kernels/vulkan/spv_pack_rg16.h"
#include "kernels/vulkan/spv_decimate_box.h"
#include "kernels/vulkan/spv_decimate_lpf.h"
#include "kernels/vulkan/spv_ssim_h.h"
#include "kernels/vulkan/spv_ssim_v.h"
#include "kernels/vulkan/spv_ssim_hv.h"
#include "kernels/vulkan/spv_ansnr_filter.h"
#include "kernels/vulkan/spv_ansnr_rows.h"
#include "kernels/vulkan/spv_issim_h.h"
#include "kernels/vulkan/spv_issim_v.h"
#include "kernels/vulkan/spv_issim_h32.h"
#include "kernels/vulkan/spv_issim_v32.h"
#include "kernels/vulkan/spv_issim_h8.h"
#include "kernels/vulkan/spv_issim_v8.h"
#include "kernels/vulkan/spv_issim_hv8.h"
#include "kernels/vulkan/spv_ssim_lad_ref.h"
#include "kernels/vulkan/spv_ssim_lad_dis_h.h"
#include "kernels/vulkan/spv_ssim_lad_dis_v.h"
#include "kernels/vulkan/spv_ssim_lad_dis_hv.h"
#include "kernels/vulkan/spv_ssim_lad_hv.h"
#include "kernels/vulkan/spv_ansnr_lad_ref_filter.h"
#include "kernels/vulkan/spv_ansnr_lad_ref_rows.h"
#include "kernels/vulkan/spv_ansnr_lad_noise.h"
#include "kernels/vulkan/spv_issim_lad_h.h"
#include "kernels/vulkan/spv_issim_lad_v.h"
#include "kernels/vulkan/spv_issim_lad_h32.h"
#include "kernels/vulkan/spv_issim_lad_v32.h"
#include "kernels/vulkan/spv_issim_lad_h8.h"
#include "kernels/vulkan/spv_issim_lad_v8.h"
#include "kernels/vulkan/spv_issim_lad_hv8.h"

#define ISSIM_H_N 4 /* issim_h*: pixels per invocation, as kernels/vulkan/issim.comp's H_N */
#define ISSIM_RPT 2 /* issim_v*: stacked pixels per invocation, issim.comp's RPT */
/* issim_hv8: a workgroup's tiles of issim_v (specialization constant 2);
 * the shared memory of issim_hv8 (4 moment planes of 32 x 33 words, the
 * tree) and issim_lad_hv8 (5 planes of 24 x 33 words, the tree), bytes
 * (issim.comp's PASS_HV) */
#define ISSIM_HV_STRIP 4
#define ISSIM_HV_SHARED (4 * 32 * 33 * 4 + ROW_WX * ROW_WY * 8)
#define ISSIM_LAD_HV_SHARED (5 * 24 * 33 * 4 + ROW_WX * ROW_WY * 8)
/* The workgroups of the packs, ANSNR's filters and integer SSIM: a warp's
 * 32 invocations read and write one row's 128 bytes of a plane, one cache
 * line, where a 16-wide shape touched two half lines. Integer SSIM's pair
 * and ladder shaders both take it, so that their partials match. */
#define ROW_WX 32
#define ROW_WY 8
#define ALIGN 256         /* >= every device's minStorageBufferOffsetAlignment */
#define WG 16             /* 2-D workgroups are WG x WG */
#define ANSNR_ROWS_WG 256 /* ansnr_rows: a workgroup sums ANSNR_ROWS rows */
#define ANSNR_ROWS 8      /* as kernels/vulkan/ansnr.comp */
#define ANSNR_FR 4        /* ansnr filters: rows per invocation, ansnr.comp's FR */
/* ansnr.comp's PASS_NOISE: rows a workgroup (NOISE_R), its invocations (64
 * columns x NOISE_R / 4 rows filtering, a warp of row sums); its shared
 * memory, two chunks' windows and products, is 14.6 KiB (of the 16 KiB every
 * device has) */
#define ANSNR_NOISE_R 12
#define ANSNR_NOISE_WG (64 * ANSNR_NOISE_R / 4 + 32)
#define HV_ROWS 2       /* ssim_hv: windows per invocation, as kernels/vulkan/ssim_window.comp */
#define HV_SHARED 30704 /* ssim_hv's shared memory, bytes */
#define REF_ROWS 2      /* ssim_lad_ref: rows per invocation, as ssim_window_ladder.comp */

static const struct {
    const uint32_t *code;
    size_t size;
    int wg_x, wg_y;
    const char *name; /* its SPIR-V module's, for --steps */
} shaders[SH_COUNT] = {
#define SH(id, name, wx, wy) [id] = { spv_##name, sizeof(spv_##name), wx, wy, #name }
    SH(SH_PACK_R8, pack_r8, ROW_WX, ROW_WY),
    SH(SH_PACK_R16, pack_r16, ROW_WX, ROW_WY),
    SH(SH_PACK_RG8, pack_rg8, ROW_WX, ROW_WY),
    SH(SH_PACK_RG16, pack_rg16, ROW_WX, ROW_WY),
    SH(SH_DECIMATE_BOX, decimate_box, WG, WG),
    SH(SH_DECIMATE_LPF, decimate_lpf, WG, WG),
    SH(SH_SSIM_H, ssim_h, WG, WG),
    SH(SH_SSIM_V, ssim_v, WG, WG),
    SH(SH_SSIM_HV, ssim_hv, WG, WG),
    SH(SH_ANSNR_FILTER, ansnr_filter, ROW_WX, ROW_WY),
    SH(SH_ANSNR_ROWS, ansnr_rows, ANSNR_ROWS_WG, 1),
    SH(SH_ISSIM_H, issim_h, ROW_WX, ROW_WY),
    SH(SH_ISSIM_V, issim_v, ROW_WX, ROW_WY),
    SH(SH_ISSIM_H32, issim_h32, ROW_WX, ROW_WY),
    SH(SH_ISSIM_V32, issim_v32, ROW_WX, ROW_WY),
    SH(SH_ISSIM_H8, issim_h8, ROW_WX, ROW_WY),
    SH(SH_ISSIM_V8, issim_v8, ROW_WX, ROW_WY),
    SH(SH_ISSIM_HV8, issim_hv8, ROW_WX, ROW_WY),
    SH(SH_SSIM_LAD_REF, ssim_lad_ref, WG, WG),
    SH(SH_SSIM_LAD_DIS_H, ssim_lad_dis_h, WG, WG),
    SH(SH_SSIM_LAD_DIS_V, ssim_lad_dis_v, WG, WG),
    SH(SH_SSIM_LAD_DIS_HV, ssim_lad_dis_hv, WG, WG),
    SH(SH_SSIM_LAD_HV, ssim_lad_hv, WG, WG),
    SH(SH_ANSNR_LAD_REF_FILTER, ansnr_lad_ref_filter, ROW_WX, ROW_WY),
    SH(SH_ANSNR_LAD_REF_ROWS, ansnr_lad_ref_rows, ANSNR_ROWS_WG, 1),
    SH(SH_ANSNR_LAD_NOISE, ansnr_lad_noise, ANSNR_NOISE_WG, 1),
    SH(SH_ISSIM_LAD_H, issim_lad_h, ROW_WX, ROW_WY),
    SH(SH_ISSIM_LAD_V, issim_lad_v, ROW_WX, ROW_WY),
    SH(SH_ISSIM_LAD_H32, issim_lad_h32, ROW_WX, ROW_WY),
    SH(SH_ISSIM_LAD_V32, issim_lad_v32, ROW_WX, ROW_WY),
    SH(SH_ISSIM_LAD_H8, issim_lad_h8, ROW_WX, ROW_WY),
    SH(SH_ISSIM_LAD_V8, issim_lad_v8, ROW_WX, ROW_WY),
    SH(SH_ISSIM_LAD_HV8, issim_lad_hv8, ROW_WX, ROW_WY),
#undef SH
};

/* The bindings (kernels/vulkan/common.glsl) a shader writes, bit i for
 * binding i; it reads the others it is given. The frame's barriers follow
 * from them (schedule_steps). A shader not listed here is taken to write
 * every binding it is given: barriers around it, never a missing one. */
static unsigned shader_writes(enum vk_shader sh)
{
    switch (sh) {
    case SH_PACK_R8:
    case SH_PACK_R16:
    case SH_PACK_RG8:
    case SH_PACK_RG16: return 1u << 1;
    case SH_DECIMATE_BOX:
    case SH_DECIMATE_LPF: return (1u << 1) | (1u << 3);
    case SH_SSIM_H:
    case SH_ISSIM_H:
    case SH_ISSIM_H32:
    case SH_ISSIM_H8:
    case SH_ISSIM_LAD_H:
    case SH_ISSIM_LAD_H32:
    case SH_ISSIM_LAD_H8: return 0x1fu << 2; /* the five moment planes */
    case SH_ANSNR_FILTER: return (1u << 2) | (1u << 3);
    case SH_SSIM_V:
    case SH_SSIM_HV:
    case SH_ANSNR_ROWS:
    case SH_ISSIM_V:
    case SH_ISSIM_V32:
    case SH_ISSIM_V8:
    case SH_ISSIM_HV8:
    case SH_SSIM_LAD_DIS_V:
    case SH_SSIM_LAD_DIS_HV:
    case SH_SSIM_LAD_HV:
    case SH_ANSNR_LAD_REF_ROWS:
    case SH_ANSNR_LAD_NOISE:
    case SH_ISSIM_LAD_V:
    case SH_ISSIM_LAD_V32:
    case SH_ISSIM_LAD_V8:
    case SH_ISSIM_LAD_HV8: return 1u << VK_OUT_BINDING;
    /* a ladder's: the reference's two terms, a distorted picture's three */
    case SH_SSIM_LAD_REF: return (1u << 2) | (1u << 3);
    case SH_SSIM_LAD_DIS_H: return 0x7u << 2;
    case SH_ANSNR_LAD_REF_FILTER: return 1u << 2;
    default: return 0xffu;
    }
}

/* push constant blocks, laid out as the shaders declare them (std430) */
struct pc_pack {
    int32_t samples, rows, off, stride;
};
/* the end of a block of a shader that reads level 0 from the staged words
 * (RAW_BPS; common.glsl's RAW_PARAMS): where a plane's samples are (32-bit
 * words) and how to take them out */
struct pc_raw {
    int32_t off0, off1, stride, first, step;
    uint32_t shift, mask;
    float inv_scaler;
};
struct pc_decimate {
    int32_t w, h, sw, sh;
    float k; /* the box's tap (its input: samples v / scaler, raw.inv_scaler) */
    struct pc_raw raw;
};
struct pc_ssim {
    int32_t w, h, ow, oh;
    struct pc_raw raw;
};
struct pc_ansnr {
    int32_t w, h;
    struct pc_raw raw;
};
struct pc_issim {
    double c1base, c2base;
    int32_t w, h;
    struct pc_raw raw;
};
/* a ladder's passes over several distorted pictures (gl_WorkGroupID.z):
 * the distance from one picture's region to the next, in elements */
struct pc_ssim_lad {
    int32_t w, h, ow, oh, s_dis, s_part, nb_dis;
    struct pc_raw raw;
};
struct pc_ansnr_lad {
    int32_t w, h, s_in, s_out;
    struct pc_raw raw;
};
struct pc_issim_lad {
    double c1base, c2base;
    int32_t w, h;
    int32_t s_in, s_mom, s_part, nb_dis;
    struct pc_raw raw;
};

/* Integer SSIM's shader variant for a depth: uint32 vertical sums (and, in
 * a pair, x and y in one plane) at 8 bits, uint32 horizontal moments up to
 * 12 bits, int64 above (kernels/vulkan/issim.comp's NARROW8, NARROW) */
static enum vk_shader issim_variant(int bit_depth, enum vk_shader s8, enum vk_shader s12,
                                    enum vk_shader s16)
{
    return bit_depth <= 8 ? s8 : bit_depth <= 12 ? s12 : s16;
}

static uint32_t div_up(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

/* Integer SSIM's horizontal moments: uint32 up to 12 bits (exact there:
 * kernels/vulkan/issim.comp's NARROW), int64 above; bytes per moment. */
static size_t issim_moment_size(int bit_depth)
{
    return bit_depth <= 12 ? sizeof(uint32_t) : sizeof(int64_t);
}

/* Integer SSIM's partial sums of a w x h plane: one per workgroup of its
 * vertical pass, ROW_WX x ISSIM_RPT * ROW_WY pixels (the pair's and the
 * ladder's alike, so that their partials match). */
static uint32_t issim_workgroups(int w, int h)
{
    return div_up((uint32_t)w, ROW_WX) * div_up((uint32_t)h, ROW_WY * ISSIM_RPT);
}

static VkDeviceSize carve(VkDeviceSize *top, VkDeviceSize size)
{
    const VkDeviceSize off = *top;
    *top += (size + ALIGN - 1) / ALIGN * ALIGN;
    return off;
}

/* ---- pipelines ---------------------------------------------------------------- */

static int get_pipe(struct vk_backend *be, enum vk_shader sh, int spec2, int spec3)
{
    const struct vk_fns *f = &be->fns;
    VkResult res;
    for (int i = 0; i < be->nb_pipes; i++)
        if (be->pipes[i].shader == sh && be->pipes[i].spec2 == spec2 && be->pipes[i].spec3 == spec3)
            return i;
    if (be->nb_pipes == VK_MAX_PIPES)
        return -ENOMEM;
    if (!be->modules[sh]) {
        VkShaderModuleCreateInfo smi = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = shaders[sh].size,
            .pCode = shaders[sh].code,
        };
        res = f->vkCreateShaderModule(be->dev, &smi, NULL, &be->modules[sh]);
        if (res != VK_SUCCESS)
            return vk_err(be, res, "vkCreateShaderModule");
    }
    const int32_t spec[4] = { shaders[sh].wg_x, shaders[sh].wg_y, spec2, spec3 };
    const VkSpecializationMapEntry map[4] = {
        { 0, 0, sizeof(int32_t) },
        { 1, sizeof(int32_t), sizeof(int32_t) },
        { 2, 2 * sizeof(int32_t), sizeof(int32_t) },
        { 3, 3 * sizeof(int32_t), sizeof(int32_t) },
    };
    const VkSpecializationInfo si = {
        .mapEntryCount = 4,
        .pMapEntries = map,
        .dataSize = sizeof(spec),
        .pData = spec,
    };
    VkComputePipelineCreateInfo cpi = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = be->modules[sh],
            .pName = "main",
            .pSpecializationInfo = &si,
        },
        .layout = be->pipe_layout,
    };
    struct vk_pipe *p = &be->pipes[be->nb_pipes];
    res = f->vkCreateComputePipelines(be->dev, be->pipe_cache, 1, &cpi, NULL, &p->pipeline);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkCreateComputePipelines");
    p->shader = sh;
    p->spec2 = spec2;
    p->spec3 = spec3;
    return be->nb_pipes++;
}

int vk_pack_image_pipe(struct vk_backend *be, int two_components, int sixteen_bit)
{
    const enum vk_shader sh = two_components ? (sixteen_bit ? SH_PACK_RG16 : SH_PACK_RG8)
                                             : (sixteen_bit ? SH_PACK_R16 : SH_PACK_R8);
    return get_pipe(be, sh, 0, sixteen_bit ? 2 : 1);
}

/* ---- steps ---------------------------------------------------------------------- */

static int alloc_set(struct vk_backend *be, VkDescriptorSet *set)
{
    VkDescriptorSetAllocateInfo dai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = be->desc_pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &be->set_layout,
    };
    VkResult res = be->fns.vkAllocateDescriptorSets(be->dev, &dai, set);
    return vk_err(be, res, "vkAllocateDescriptorSets");
}

static void write_step_sets(struct vk_backend *be)
{
    for (int s = 0; s < be->nb_steps; s++) {
        const struct vk_step *st = &be->steps[s];
        VkDescriptorBufferInfo bi[VK_NB_BUFFER_BINDINGS];
        VkWriteDescriptorSet wr[VK_NB_BUFFER_BINDINGS];
        uint32_t nb = 0;
        for (int i = 0; i < VK_NB_BUFFER_BINDINGS; i++) {
            if (!st->binds[i].buf)
                continue;
            bi[nb] = (VkDescriptorBufferInfo){ st->binds[i].buf->buf, st->binds[i].off,
                                               st->binds[i].size };
            wr[nb] = (VkWriteDescriptorSet){
                .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                .dstSet = st->set,
                .dstBinding = (uint32_t)i,
                .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                .pBufferInfo = &bi[nb],
            };
            nb++;
        }
        be->fns.vkUpdateDescriptorSets(be->dev, nb, wr, 0, NULL);
    }
}

/* Appends a dispatch of shader sh with specialization constants 2 and 3
 * (RAW_BPS); binds[i].buf == NULL leaves binding i unused. barrier: a
 * barrier before it; build_program's steps pass 0 and schedule_steps()
 * places their barriers. */
static int add_step3(struct vk_backend *be, enum vk_shader sh, int spec2, int spec3,
                     const struct vk_bind binds[VK_NB_BUFFER_BINDINGS], const void *pc,
                     uint32_t pc_size, uint32_t nx, uint32_t ny, int barrier)
{
    if (be->nb_steps == be->max_steps)
        return -ENOMEM;
    struct vk_step *st = &be->steps[be->nb_steps];
    int err = get_pipe(be, sh, spec2, spec3);
    if (err < 0)
        return err;
    st->pipe = err;
    err = alloc_set(be, &st->set);
    if (err < 0)
        return err;
    /* written once the buffers exist (write_step_sets) */
    memcpy(st->binds, binds, sizeof(st->binds));
    memcpy(st->pc, pc, pc_size);
    st->pc_size = pc_size;
    st->gx = div_up(nx, (uint32_t)shaders[sh].wg_x);
    st->gy = div_up(ny, (uint32_t)shaders[sh].wg_y);
    st->gz = 1;
    st->barrier = barrier;
    return be->nb_steps++;
}

/* A dispatch whose input is not level 0 (RAW_BPS 0, or a shader without it). */
static int add_step(struct vk_backend *be, enum vk_shader sh, int spec2,
                    const struct vk_bind binds[VK_NB_BUFFER_BINDINGS], const void *pc,
                    uint32_t pc_size, uint32_t nx, uint32_t ny, int barrier)
{
    return add_step3(be, sh, spec2, 0, binds, pc, pc_size, nx, ny, barrier);
}

/* A new result for the partials of plan stage `producer`. */
static int add_result(struct vk_backend *be, int producer, uint32_t count, size_t elem,
                      VkDeviceSize *top, struct vk_bind *bind)
{
    if (be->nb_results == be->max_results)
        return -ENOMEM;
    struct vk_result *r = &be->results_map[be->nb_results++];
    memset(r, 0, sizeof(*r));
    r->reduce = gpussim_plan_reduce_of(&be->cfg.plan, producer);
    r->count = count;
    r->off = carve(top, (VkDeviceSize)count * elem);
    bind->buf = &be->results;
    bind->off = r->off;
    bind->size = (VkDeviceSize)count * elem;
    return 0;
}

/* Bindings of a step: inputs at 0 and 1, the intermediate planes at 2..6,
 * the output at 7 (kernels/vulkan/common.glsl). */
static void bind_moments(struct vk_bind b[VK_NB_BUFFER_BINDINGS],
                         const struct vk_bind tmp[VK_NB_MOMENTS], VkDeviceSize plane_size)
{
    for (int m = 0; m < VK_NB_MOMENTS; m++) {
        b[2 + m] = tmp[m];
        b[2 + m].size = plane_size ? plane_size : 4;
    }
}

/* Whether the device has the shared memory of ssim_hv (every desktop GPU
 * and lavapipe; Vulkan promises 16 KiB). */
static int windows_fused(const struct vk_backend *be)
{
    return be->props.limits.maxComputeSharedMemorySize >= HV_SHARED;
}

/* Whether integer SSIM at bit_depth takes issim_hv8 / issim_lad_hv8 (both
 * passes in one dispatch, a pair's and a ladder's): at 8 bits, on a device
 * with their shared memory (every desktop GPU and lavapipe; Vulkan promises
 * 16 KiB); else issim_h* + issim_v* (kernels/vulkan/issim.comp's PASS_HV
 * says why not above 8 bits). */
static int issim_fused(const struct vk_backend *be, int bit_depth)
{
    const uint32_t need =
        ISSIM_HV_SHARED > ISSIM_LAD_HV_SHARED ? ISSIM_HV_SHARED : ISSIM_LAD_HV_SHARED;
    return bit_depth <= 8 && be->props.limits.maxComputeSharedMemorySize >= need;
}

/* The window shaders' specialization constant 2 for a windows stage: bit 0
 * NONNEG, the planes' samples are +0 or >= 2^-8 / scale^2 (a picture's
 * samples or their box decimation; the pyramid's levels 1-4 can be
 * negative); bits 1-4 the quantities its results use (the plan's `sums`).
 * kernels/vulkan/ssim_window.comp. */
static int window_spec(const struct gpussim_plan_stage *st)
{
    return (st->in != GPUSSIM_BUF_LEVEL) | (int)(st->sums << 1);
}

/* The SSIM window passes over a w x h pair of planes, partials into a new
 * result for plan stage `producer`; spec: window_spec(); raw_bps and raw:
 * stage_raw()'s. */
static int add_ssim_window(struct vk_backend *be, struct vk_bind src[2], int w, int h, int spec,
                           int raw_bps, const struct pc_raw *raw,
                           const struct vk_bind tmp[VK_NB_MOMENTS], int producer,
                           VkDeviceSize *res_top)
{
    const int ow = w - (GPUSSIM_GAUSSIAN11_LEN - 1), oh = h - (GPUSSIM_GAUSSIAN11_LEN - 1);
    const struct pc_ssim pc = { w, h, ow, oh, *raw };
    const VkDeviceSize msize = (VkDeviceSize)ow * h * sizeof(float);
    int err;
    if (windows_fused(be)) {
        /* both passes in one dispatch, the moments in shared memory */
        struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { src[0], src[1] };
        const uint32_t gy = div_up((uint32_t)oh, HV_ROWS * WG);
        err = add_result(be, producer, div_up((uint32_t)ow, WG) * gy, 4 * sizeof(double), res_top,
                         &b[VK_OUT_BINDING]);
        if (err < 0)
            return err;
        return add_step3(be, SH_SSIM_HV, spec, raw_bps, b, &pc, sizeof(pc), (uint32_t)ow, gy * WG,
                         0);
    }
    struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { src[0], src[1] };
    bind_moments(b, tmp, msize);
    err = add_step3(be, SH_SSIM_H, spec, raw_bps, b, &pc, sizeof(pc), (uint32_t)ow, (uint32_t)h, 0);
    if (err < 0)
        return err;
    struct vk_bind bv[VK_NB_BUFFER_BINDINGS] = { { 0 } };
    bind_moments(bv, tmp, msize);
    const uint32_t nwg = div_up((uint32_t)ow, WG) * div_up((uint32_t)oh, WG);
    err = add_result(be, producer, nwg, 4 * sizeof(double), res_top, &bv[VK_OUT_BINDING]);
    if (err < 0)
        return err;
    return add_step(be, SH_SSIM_V, spec, bv, &pc, sizeof(pc), (uint32_t)ow, (uint32_t)oh, 0);
}

static struct vk_bind scratch_region(struct vk_backend *be, VkDeviceSize *top, VkDeviceSize size)
{
    struct vk_bind b = { &be->scratch, carve(top, size), size ? size : 4 };
    return b;
}

/* The working planes of the frame program, per picture. Level 0 is the
 * staged words (level0: all of them, both pictures), raw[] saying where
 * each scored plane's samples are and raw_bps their bytes per sample. */
struct vk_planes {
    struct vk_bind level0[2][GPUSSIM_MAX_SCORE_PLANES];
    struct vk_bind box[2], pyr[2][GPUSSIM_MSSSIM_SCALES];
    int raw_bps;
    struct pc_raw raw[GPUSSIM_MAX_SCORE_PLANES];
};

/* Stage st's specialization constant RAW_BPS (0 where its input is not
 * level 0: a box decimation or a pyramid level) and the end of its push
 * constants; a pair's (raw_bps, raws: vk_planes') or a ladder's. */
static int stage_raw(int raw_bps, const struct pc_raw *raws, const struct gpussim_plan_stage *st,
                     struct pc_raw *raw)
{
    memset(raw, 0, sizeof(*raw));
    if (st->in == GPUSSIM_BUF_BOX || st->in == GPUSSIM_BUF_LEVEL)
        return 0;
    *raw = raws[st->plane];
    return raw_bps;
}

/* The region holding plan buffer b of picture k; level 0's readers take
 * the samples out of the staged words (UNPACK and CONVERT are fused into
 * them) and the ANSNR filter applies the -128 offset on read, so
 * FLOAT_ANSNR is level 0 too. */
static struct vk_bind plan_buf(const struct vk_planes *vp, int plane, enum gpussim_plan_buf b,
                               int level, int k)
{
    switch (b) {
    case GPUSSIM_BUF_BOX: return vp->box[k];
    case GPUSSIM_BUF_LEVEL: return vp->pyr[k][level];
    default: return vp->level0[k][plane];
    }
}

/*
 * The intermediate planes (bindings 2..6) come in sets, so that the metric
 * families, and the MS-SSIM levels among themselves, write apart and run
 * side by side: one set per SSIM window stage kind (each MS-SSIM level,
 * float_ssim; none with ssim_hv), one for ANSNR (two planes), one for
 * integer SSIM. Planes of one kind share its set.
 */
#define TMP_FLOAT_SSIM GPUSSIM_MSSSIM_SCALES
#define TMP_ANSNR (GPUSSIM_MSSSIM_SCALES + 1)
#define TMP_ISSIM (GPUSSIM_MSSSIM_SCALES + 2)
#define TMP_SETS (GPUSSIM_MSSSIM_SCALES + 3)

static int tmp_set_of(const struct gpussim_plan_stage *st)
{
    if (st->kind == GPUSSIM_STAGE_ANSNR)
        return TMP_ANSNR;
    if (st->kind != GPUSSIM_STAGE_SSIM_WINDOWS)
        return TMP_ISSIM;
    return st->slot == GPUSSIM_RESULT_SSIM ? TMP_FLOAT_SSIM : st->scale;
}

/* The dispatches of one plan stage (UNPACK and CONVERT are fused into
 * level 0's readers, REDUCE is done on the host at collect). */
static int add_stage(struct vk_backend *be, int idx, const struct vk_planes *vp,
                     const struct vk_bind tmps[TMP_SETS][VK_NB_MOMENTS], VkDeviceSize *res_top)
{
    const struct gpussim_plan_stage *st = &be->cfg.plan.stage[idx];
    const struct vk_bind *tmp = tmps[tmp_set_of(st)];
    const int p = st->plane, w = st->in_w, h = st->in_h;
    struct vk_bind in[2], out[2];
    struct pc_raw raw;
    const int raw_bps = stage_raw(vp->raw_bps, vp->raw, st, &raw);
    int err;
    for (int k = 0; k < 2; k++) {
        in[k] = plan_buf(vp, p, st->in, st->in_level, k);
        out[k] = plan_buf(vp, p, st->out, st->out_level, k);
    }
    switch (st->kind) {
    case GPUSSIM_STAGE_DECIMATE_BOX: {
        const struct pc_decimate pc = { w, h, st->out_w, st->out_h, st->box_tap, raw };
        const struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { in[0], out[0], in[1], out[1] };
        err = add_step3(be, SH_DECIMATE_BOX, st->factor, raw_bps, b, &pc, sizeof(pc),
                        (uint32_t)st->out_w, (uint32_t)st->out_h, 0);
        if (err < 0)
            return err;
        be->steps[err].gz = 2; /* both pictures */
        return 0;
    }
    case GPUSSIM_STAGE_DECIMATE_LPF: {
        const struct pc_decimate pc = { w, h, st->out_w, st->out_h, 0.0f, raw };
        const struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { in[0], out[0], in[1], out[1] };
        /* LEVEL0: the input is the pictures' samples (exact sums) */
        err = add_step3(be, SH_DECIMATE_LPF, st->in != GPUSSIM_BUF_LEVEL, raw_bps, b, &pc,
                        sizeof(pc), (uint32_t)st->out_w, (uint32_t)st->out_h, 0);
        if (err < 0)
            return err;
        /* both pictures: in every invocation at level 0, else per workgroup z */
        be->steps[err].gz = st->in != GPUSSIM_BUF_LEVEL ? 1 : 2;
        return 0;
    }
    case GPUSSIM_STAGE_SSIM_WINDOWS:
        return add_ssim_window(be, in, w, h, window_spec(st), raw_bps, &raw, tmp, idx, res_top);
    case GPUSSIM_STAGE_ANSNR: {
        const struct pc_ansnr pc = { w, h, raw };
        const VkDeviceSize fsize = (VkDeviceSize)w * h * sizeof(float);
        struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { in[0], in[1], tmp[0], tmp[1] };
        b[2].size = b[3].size = fsize;
        err = add_step3(be, SH_ANSNR_FILTER, 0, raw_bps, b, &pc, sizeof(pc), (uint32_t)w,
                        div_up((uint32_t)h, ANSNR_FR), 0);
        if (err < 0)
            return err;
        struct vk_bind br[VK_NB_BUFFER_BINDINGS] = { { 0 }, { 0 }, b[2], b[3] };
        err = add_result(be, idx, (uint32_t)h, 2 * sizeof(float), res_top, &br[VK_OUT_BINDING]);
        if (err < 0)
            return err;
        /* one workgroup per ANSNR_ROWS rows */
        err = add_step(be, SH_ANSNR_ROWS, 0, br, &pc, sizeof(pc),
                       div_up((uint32_t)h, ANSNR_ROWS) * ANSNR_ROWS_WG, 1, 0);
        return err < 0 ? err : 0;
    }
    case GPUSSIM_STAGE_ISSIM: {
        const struct pc_issim pc = { st->c1base, st->c2base, w, h, raw };
        be->issim_weight[p] = gpussim_issim_weight_sum(w, h);
        if (issim_fused(be, st->bit_depth)) {
            /* both passes in one dispatch, the moments in shared memory; the
             * partials of issim_v's workgroups, ISSIM_HV_STRIP of them a
             * workgroup, one below the other */
            struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { in[0], in[1] };
            err = add_result(be, idx, issim_workgroups(w, h), sizeof(double), res_top,
                             &b[VK_OUT_BINDING]);
            if (err < 0)
                return err;
            const uint32_t tiles = div_up((uint32_t)h, ISSIM_RPT * ROW_WY);
            err = add_step3(be, SH_ISSIM_HV8, ISSIM_HV_STRIP, raw_bps, b, &pc, sizeof(pc),
                            (uint32_t)w, div_up(tiles, ISSIM_HV_STRIP) * ROW_WY, 0);
            return err < 0 ? err : 0;
        }
        const VkDeviceSize msize = (VkDeviceSize)w * h * issim_moment_size(st->bit_depth);
        struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { in[0], in[1] };
        bind_moments(b, tmp, msize);
        err =
            add_step3(be, issim_variant(st->bit_depth, SH_ISSIM_H8, SH_ISSIM_H32, SH_ISSIM_H), 0,
                      raw_bps, b, &pc, sizeof(pc), div_up((uint32_t)w, ISSIM_H_N), (uint32_t)h, 0);
        if (err < 0)
            return err;
        struct vk_bind bv[VK_NB_BUFFER_BINDINGS] = { { 0 } };
        bind_moments(bv, tmp, msize);
        err = add_result(be, idx, issim_workgroups(w, h), sizeof(double), res_top,
                         &bv[VK_OUT_BINDING]);
        if (err < 0)
            return err;
        err = add_step(be, issim_variant(st->bit_depth, SH_ISSIM_V8, SH_ISSIM_V32, SH_ISSIM_V), 0,
                       bv, &pc, sizeof(pc), (uint32_t)w, div_up((uint32_t)h, ISSIM_RPT), 0);
        return err < 0 ? err : 0;
    }
    case GPUSSIM_STAGE_UNPACK:
    case GPUSSIM_STAGE_CONVERT:
    case GPUSSIM_STAGE_REDUCE: break;
    }
    return 0;
}

/* Whether b (recorded after a) touches what a touches, one of them writing:
 * then b must wait for a. */
static int steps_conflict(const struct vk_step *a, unsigned a_writes, const struct vk_step *b,
                          unsigned b_writes)
{
    for (int i = 0; i < VK_NB_BUFFER_BINDINGS; i++)
        for (int j = 0; j < VK_NB_BUFFER_BINDINGS; j++) {
            const struct vk_bind *x = &a->binds[i], *y = &b->binds[j];
            if (!x->buf || x->buf != y->buf || !(((a_writes >> i) | (b_writes >> j)) & 1))
                continue;
            if (x->off < y->off + y->size && y->off < x->off + x->size)
                return 1;
        }
    return 0;
}

/*
 * Orders the compute steps in waves with one barrier between waves (a
 * Vulkan barrier waits for every earlier dispatch): a step goes into the
 * wave after the last one holding a step it conflicts with, so independent
 * work (the metric families, a pyramid step beside the windows of its
 * level) runs side by side, and dependent steps stay in plan order. The
 * steps are stably sorted by wave.
 */
/*
 * split: a wave's dispatches of one pipeline recorded together (a ladder's
 * frame: there one dispatch covers several distorted pictures). Until
 * ssim_lad_hv, a barrier also came before each such group of at least 8192
 * workgroups: large dispatches side by side slowed each other down (H200,
 * 8-bit ladder of 4, 1080p 0.852 -> 0.775 ms). With ssim_lad_hv the
 * barriers only drain the GPU: H100, 8-bit ladder of 4, 2160p 2.590 ->
 * 2.542 ms, 10-bit 2.866 -> 2.818, 1080p unchanged (0.684, 0.750); a
 * barrier before every group took 2.633 and 2.912 ms (BENCHMARKS.md).
 */
static int schedule_steps(struct vk_backend *be, int split)
{
    const int nb = be->nb_steps;
    int *wave = malloc(2 * sizeof(int) * (size_t)(nb ? nb : 1)), *order = wave + nb;
    struct vk_step *sorted = malloc(sizeof(*sorted) * (size_t)(nb ? nb : 1));
    int nb_waves = 1;
    if (!wave || !sorted) {
        free(wave);
        free(sorted);
        return -ENOMEM;
    }
    for (int s = 0; s < be->nb_steps; s++) {
        const unsigned ws = shader_writes(be->pipes[be->steps[s].pipe].shader);
        wave[s] = 0;
        for (int t = 0; t < s; t++) {
            const unsigned wt = shader_writes(be->pipes[be->steps[t].pipe].shader);
            if (wave[t] >= wave[s] && steps_conflict(&be->steps[t], wt, &be->steps[s], ws))
                wave[s] = wave[t] + 1;
        }
        nb_waves = wave[s] + 1 > nb_waves ? wave[s] + 1 : nb_waves;
    }
    /* Then the sinks (the steps no later step depends on: the window sums,
     * ANSNR's row sums, integer SSIM's vertical pass) go to the last wave,
     * beside the pyramid's small last levels, which alone leave most of the
     * GPU idle. H200: 1080p all four 0.292 -> 0.288 ms, a ladder of 4
     * renditions 1.005 -> 0.997 ms, 2160p unchanged (1.028 ms); every
     * step as late as possible: 0.284 ms at 1080p but 1.031 ms at 2160p. */
    for (int s = 0; s < be->nb_steps; s++) {
        const unsigned ws = shader_writes(be->pipes[be->steps[s].pipe].shader);
        int sink = 1;
        for (int t = s + 1; t < be->nb_steps && sink; t++) {
            const unsigned wt = shader_writes(be->pipes[be->steps[t].pipe].shader);
            sink = !steps_conflict(&be->steps[s], ws, &be->steps[t], wt);
        }
        if (sink)
            wave[s] = nb_waves - 1;
    }
    int n = 0;
    for (int w = 0; w < nb_waves; w++)
        for (int s = 0; s < be->nb_steps; s++) {
            if (wave[s] != w)
                continue;
            const int pipe = be->steps[s].pipe;
            if (split) {
                /* the wave's first step of its pipeline brings the others */
                int seen = 0;
                for (int t = 0; t < s && !seen; t++)
                    seen = wave[t] == w && be->steps[t].pipe == pipe;
                if (seen)
                    continue;
            }
            for (int t = s; t < be->nb_steps; t++) {
                if (wave[t] != w || (t > s && (!split || be->steps[t].pipe != pipe)))
                    continue;
                sorted[n] = be->steps[t];
                /* the first step of each wave waits for the waves before */
                sorted[n].barrier = n == 0 || wave[t] != wave[order[n - 1]];
                order[n++] = t;
                if (!split)
                    break;
            }
        }
    memcpy(be->steps, sorted, (size_t)be->nb_steps * sizeof(sorted[0]));
    free(sorted);
    free(wave);
    return 0;
}

/* The program's last steps, pair and ladder alike: its dispatches in waves
 * (split: a ladder's, by pipeline), the results buffer (res_top bytes), the
 * descriptor sets. */
static int finish_program(struct vk_backend *be, int split, VkDeviceSize res_top)
{
    int err = schedule_steps(be, split);
    if (err < 0)
        return err;
    be->results_size = res_top ? res_top : ALIGN;
    err = vk_buffer_create(be, &be->results, be->results_size, 0);
    if (err < 0)
        return err;
    write_step_sets(be);
    /* the staged pictures take raw_size bytes, a multiple of 4: the partial
     * sums (doubles) start at the next ALIGN boundary */
    be->host_results_off = (be->raw_size + ALIGN - 1) / ALIGN * ALIGN;
    be->host_size = be->host_results_off + be->results_size;
    return 0;
}

/* The shaders index with 32-bit ints and bind each region whole: every
 * region (the largest intermediate plane, the box plane, level 0: a
 * pair's staged words, a ladder picture's) within the device's
 * storage-buffer range. */
static int check_ranges(struct vk_backend *be, VkDeviceSize tmp_max, VkDeviceSize box_max,
                        VkDeviceSize raw)
{
    const struct gpussim_config *cfg = &be->cfg;
    const VkDeviceSize max_range = be->props.limits.maxStorageBufferRange;
    if (tmp_max / sizeof(float) <= INT32_MAX && tmp_max <= max_range && box_max <= max_range &&
        raw <= max_range)
        return 0;
    gpussim_log(&cfg->log, GPUSSIM_LOG_ERROR,
                "vulkan: %dx%d frames need %.0f MiB intermediate planes, above this device's "
                "storage-buffer range (%.0f MiB) or 32-bit indexing; use the CPU backend",
                cfg->plane[0].width, cfg->plane[0].height, tmp_max / 1048576.0,
                max_range / 1048576.0);
    return -EINVAL;
}

/* Where UNPACK stage st's plane is in the staged words (its first word
 * in picture 0 and 1 of a binding) and how its samples come out of them. */
static struct pc_raw plane_raw(const struct vk_backend *be, const struct gpussim_plan_stage *st,
                               uint32_t off0, uint32_t off1)
{
    const struct pc_raw r = {
        .off0 = (int32_t)off0,
        .off1 = (int32_t)off1,
        .stride = (int32_t)be->raw_plane_stride[0][st->src.src_plane],
        .first = st->src.first,
        .step = st->src.step,
        .shift = (uint32_t)st->src.shift,
        .mask = st->src.mask,
        .inv_scaler = st->inv_scaler,
    };
    return r;
}

/* Notes the pack of picture k's plane of UNPACK stage st for Vulkan frames:
 * into the staged words dst, which start at staged word dst_word0. */
static void add_pack(struct vk_backend *be, const struct gpussim_plan_stage *st, int k,
                     struct vk_bind dst, uint32_t dst_word0)
{
    struct vk_pack *u = &be->packs[be->nb_packs++];
    u->pic = k, u->plane = st->plane;
    u->src_plane = st->src.src_plane;
    u->dst_off = dst.off;
    u->dst_size = dst.size;
    u->dst_word0 = dst_word0;
}

/* Everything of the frame program that depends on the configuration: the
 * plan's stages as dispatches. */
static int build_program(struct vk_backend *be)
{
    const struct gpussim_config *cfg = &be->cfg;
    const struct gpussim_plan *plan = &cfg->plan;
    const int bps = cfg->bytes_per_sample;
    VkDeviceSize top = 0, res_top = 0;
    int err;

    /* staged pictures: the planes the scores read, rows padded to 32 bits */
    be->nb_src_planes = plan->nb_pic_planes;
    uint32_t words = 0;
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < be->nb_src_planes; s++) {
            const int samples = plan->pic_row_samples[s], rows = plan->pic_rows[s];
            be->raw_plane_row_bytes[k][s] = (uint32_t)(samples * bps);
            be->raw_plane_stride[k][s] = div_up((uint32_t)(samples * bps), 4);
            be->raw_plane_rows[k][s] = (uint32_t)rows;
            be->raw_plane_off[k][s] = words;
            words += be->raw_plane_stride[k][s] * (uint32_t)rows;
        }
    be->raw_size = (VkDeviceSize)words * 4;
    be->raw_off = carve(&top, be->raw_size);
    const struct vk_bind raw = { &be->scratch, be->raw_off, be->raw_size };

    /* Level 0 is the staged words themselves: every shader reading it
     * takes its samples out of them (RAW_BPS, kernels/vulkan/raw.glsl), and
     * Vulkan frames are packed into them. No unpack to float planes runs:
     * H100, 2160p 8-bit, all four, the unpacks alone took 29 us of a
     * 0.938 ms frame. Then working buffers shared by all planes: the largest decimated
     * plane, pyramid level, and per set (tmp_set_of) intermediate plane
     * (one of five moments, or one of the two filtered ANSNR planes) */
    struct vk_planes vp;
    VkDeviceSize box_max = 0, tmp_max = 0, pyr_max[GPUSSIM_MSSSIM_SCALES] = { 0 };
    VkDeviceSize tmp_size[TMP_SETS] = { 0 };
    memset(&vp, 0, sizeof(vp));
    vp.raw_bps = bps;
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        const VkDeviceSize n = (VkDeviceSize)st->in_w * st->in_h;
        VkDeviceSize t = 0;
        switch (st->kind) {
        case GPUSSIM_STAGE_UNPACK: {
            const int s = st->src.src_plane;
            for (int k = 0; k < 2; k++)
                vp.level0[k][st->plane] = raw;
            vp.raw[st->plane] = plane_raw(be, st, be->raw_plane_off[0][s], be->raw_plane_off[1][s]);
            break;
        }
        case GPUSSIM_STAGE_DECIMATE_BOX:
            t = (VkDeviceSize)st->out_w * st->out_h * sizeof(float);
            box_max = t > box_max ? t : box_max;
            t = 0;
            break;
        case GPUSSIM_STAGE_DECIMATE_LPF: {
            const VkDeviceSize nb = (VkDeviceSize)st->out_w * st->out_h * sizeof(float);
            if (nb > pyr_max[st->out_level])
                pyr_max[st->out_level] = nb;
            break;
        }
        case GPUSSIM_STAGE_SSIM_WINDOWS:
            /* ssim_hv keeps the moments in shared memory */
            t = windows_fused(be) ? 0 : (VkDeviceSize)st->out_w * st->in_h * sizeof(float);
            break;
        case GPUSSIM_STAGE_ANSNR: t = n * sizeof(float); break;
        case GPUSSIM_STAGE_ISSIM:
            /* issim_hv8 keeps its moments in shared memory */
            t = issim_fused(be, st->bit_depth) ? 0 : n * issim_moment_size(st->bit_depth);
            break;
        default: break;
        }
        tmp_max = t > tmp_max ? t : tmp_max;
        if (t > tmp_size[tmp_set_of(st)])
            tmp_size[tmp_set_of(st)] = t;
    }
    for (int k = 0; k < 2; k++)
        vp.box[k] = scratch_region(be, &top, box_max);
    for (int k = 0; k < 2; k++)
        for (int i = 1; i < GPUSSIM_MSSSIM_SCALES; i++)
            if (pyr_max[i])
                vp.pyr[k][i] = scratch_region(be, &top, pyr_max[i]);
    struct vk_bind tmp[TMP_SETS][VK_NB_MOMENTS];
    memset(tmp, 0, sizeof(tmp));
    for (int t = 0; t < TMP_SETS; t++)
        if (tmp_size[t])
            for (int m = 0; m < (t == TMP_ANSNR ? 2 : VK_NB_MOMENTS); m++)
                tmp[t][m] = scratch_region(be, &top, tmp_size[t]);

    err = check_ranges(be, tmp_max, box_max, be->raw_size);
    if (err < 0)
        return err;
    err = vk_buffer_create(be, &be->scratch, top, 0);
    if (err < 0)
        return err;

    /* the (picture, plane)s a Vulkan frame's packs write, then the
     * stages, in the plan's order */
    for (int i = 0; i < plan->nb_stages; i++)
        if (plan->stage[i].kind == GPUSSIM_STAGE_UNPACK)
            for (int k = 0; k < 2; k++)
                add_pack(be, &plan->stage[i], k, raw, 0);
    for (int i = 0; i < plan->nb_stages; i++)
        if ((err = add_stage(be, i, &vp, tmp, &res_top)) < 0)
            return err;

    return finish_program(be, 0, res_top);
}

/* ---- a ladder frame: one reference, nb_distorted pictures -------------------------- */

/*
 * A ladder frame (cfg.nb_distorted > 1) walks the same plan over the
 * pictures k = 0 (the reference) .. nb_pics - 1, with the reference's terms
 * computed once: its decimations, its SSIM window means and means
 * of squares at every scale, its ANSNR filtered plane and signal row sums,
 * its integer SSIM moments. Each distorted picture computes only its own and
 * the cross terms (the *_ladder.comp passes: the C backend's split of the
 * pair kernels, hwctx/cpu/cpu_plan.c), so every partial is the pair's to the
 * bit. A per-picture pass covers several distorted pictures in one
 * dispatch (gl_WorkGroupID.z; group_size). Each family (and MS-SSIM level)
 * has its own intermediate planes, and the dispatches go in waves as a
 * pair's, split by pipeline (schedule_steps).
 */
struct vk_ladder_planes {
    /* level 0: each picture's staged words, raw[] saying where a scored
     * plane's samples are in them (the same place in every picture) */
    struct vk_bind level0[VK_MAX_PICS][GPUSSIM_MAX_SCORE_PLANES];
    int raw_bps;
    struct pc_raw raw[GPUSSIM_MAX_SCORE_PLANES];
    struct vk_bind box[VK_MAX_PICS], pyr[VK_MAX_PICS][GPUSSIM_MSSSIM_SCALES];
    /* intermediate planes per set (tmp_set_of): the reference's terms
     * (tmp[set][0][0..1]; ANSNR's filtered plane) and each distorted
     * picture's moments (none for ANSNR: its one pass keeps them on chip) */
    struct vk_bind tmp[TMP_SETS][VK_MAX_PICS][3];
};

static struct vk_bind ladder_buf(const struct vk_ladder_planes *lp, int plane,
                                 enum gpussim_plan_buf b, int level, int k)
{
    switch (b) {
    case GPUSSIM_BUF_BOX: return lp->box[k];
    case GPUSSIM_BUF_LEVEL: return lp->pyr[k][level];
    default: return lp->level0[k][plane];
    }
}

/* The first `size` bytes of region b. */
static struct vk_bind sized(struct vk_bind b, VkDeviceSize size)
{
    b.size = size ? size : 4;
    return b;
}

/* The last result added belongs to distorted picture k (1..). */
static void result_of(struct vk_backend *be, int k)
{
    be->results_map[be->nb_results - 1].dis = k - 1;
}

/* For each distorted picture k of n - 1 a new result of ladder stage idx,
 * count partials of elem bytes, bound at part[k]. */
static int add_ladder_results(struct vk_backend *be, int idx, int n, uint32_t count, size_t elem,
                              VkDeviceSize *res_top, struct vk_bind part[])
{
    for (int k = 1; k < n; k++) {
        const int err = add_result(be, idx, count, elem, res_top, &part[k]);
        if (err < 0)
            return err;
        result_of(be, k);
    }
    return 0;
}

/*
 * A ladder's per-picture passes cover several distorted pictures a dispatch
 * (gl_WorkGroupID.z): their regions of one kind lie at a fixed distance
 * (carved one picture after the other), so one binding spans them. The
 * number of pictures k0, k0 + 1, ... one dispatch covers: every span within
 * the device's binding range, at most ladder_group (GPUSSIM_TEST_LADDER_GROUP,
 * a test's knob) and the distance the same from picture to picture.
 */
static int group_size(const struct vk_backend *be, const struct vk_bind *const regs[], int nb_regs,
                      int k0, int n)
{
    const VkDeviceSize range = be->props.limits.maxStorageBufferRange;
    int g = n - k0;
    if (be->ladder_group > 0 && g > be->ladder_group)
        g = be->ladder_group;
    for (; g > 1; g--) {
        int ok = 1;
        for (int i = 0; i < nb_regs && ok; i++) {
            const struct vk_bind *r = regs[i];
            ok = r[k0 + g - 1].off + r[k0 + g - 1].size - r[k0].off <= range;
            for (int j = k0 + 1; j < k0 + g && ok; j++)
                ok = r[j].buf == r[k0].buf && r[j].size == r[k0].size &&
                     r[j].off - r[j - 1].off == r[k0 + 1].off - r[k0].off;
        }
        if (ok)
            break;
    }
    return g;
}

/* The binding of the regions of pictures k0 .. k0 + g - 1, *stride the
 * distance between them in elements of elem bytes. */
static struct vk_bind span_of(const struct vk_bind regs[], int k0, int g, size_t elem,
                              int32_t *stride)
{
    struct vk_bind b = regs[k0];
    b.size = regs[k0 + g - 1].off + regs[k0 + g - 1].size - regs[k0].off;
    *stride = g > 1 ? (int32_t)((regs[k0 + 1].off - regs[k0].off) / elem) : 0;
    return b;
}

/* The dispatches of one plan stage in a ladder frame. */
static int add_ladder_stage(struct vk_backend *be, int idx, const struct vk_ladder_planes *lp,
                            VkDeviceSize *res_top)
{
    const struct gpussim_plan *plan = &be->cfg.plan;
    const struct gpussim_plan_stage *st = &plan->stage[idx];
    const struct vk_bind(*tmp)[3] = lp->tmp[tmp_set_of(st)];
    const int p = st->plane, w = st->in_w, h = st->in_h, n = be->nb_pics;
    struct vk_bind in[VK_MAX_PICS], out[VK_MAX_PICS];
    struct pc_raw raw;
    const int raw_bps = stage_raw(lp->raw_bps, lp->raw, st, &raw);
    int err;
    for (int k = 0; k < n; k++) {
        in[k] = ladder_buf(lp, p, st->in, st->in_level, k);
        out[k] = ladder_buf(lp, p, st->out, st->out_level, k);
    }
    switch (st->kind) {
    case GPUSSIM_STAGE_DECIMATE_BOX:
    case GPUSSIM_STAGE_DECIMATE_LPF: {
        /* decimate.comp takes two pictures a dispatch; an odd last one goes
         * alone (its second pair of bindings repeats the first, unused).
         * LEVEL0 of the low-pass: its input is the pictures' samples. */
        const int box = st->kind == GPUSSIM_STAGE_DECIMATE_BOX;
        const struct pc_decimate pc = { w, h, st->out_w, st->out_h, box ? st->box_tap : 0.0f, raw };
        for (int k = 0; k < n; k += 2) {
            const int k2 = k + 1 < n ? k + 1 : k;
            /* a picture per workgroup z, except the level-0 low-pass: both in
             * every invocation. An odd last picture goes alone, the level-0
             * low-pass too (LEVEL0 off: its sum is exact in any order, so
             * the reference's order gives the same float) */
            const int both = !box && st->in != GPUSSIM_BUF_LEVEL && k2 > k;
            const struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { in[k], out[k], in[k2], out[k2] };
            err =
                add_step3(be, box ? SH_DECIMATE_BOX : SH_DECIMATE_LPF, box ? st->factor : both,
                          raw_bps, b, &pc, sizeof(pc), (uint32_t)st->out_w, (uint32_t)st->out_h, 0);
            if (err < 0)
                return err;
            be->steps[err].gz = !both && k2 > k ? 2 : 1;
        }
        return 0;
    }
    case GPUSSIM_STAGE_SSIM_WINDOWS: {
        const int ow = st->out_w, oh = st->out_h;
        const struct pc_ssim_lad pc = { w, h, ow, oh, 0, 0, 0, raw };
        const int spec = window_spec(st);
        if (st->same_as >= 0) {
            /* the same planes and kernel as stage same_as: its partials serve */
            const int src = gpussim_plan_reduce_of(plan, st->same_as), nb = be->nb_results;
            for (int i = 0; i < nb; i++) {
                if (be->results_map[i].reduce != src)
                    continue;
                if (be->nb_results == be->max_results)
                    return -ENOMEM;
                be->results_map[be->nb_results] = be->results_map[i];
                be->results_map[be->nb_results++].reduce = gpussim_plan_reduce_of(plan, idx);
            }
            return 0;
        }
        const VkDeviceSize hsize = (VkDeviceSize)ow * h * sizeof(float);
        const VkDeviceSize vsize = (VkDeviceSize)ow * oh * sizeof(float);
        const struct vk_bind mu = sized(tmp[0][0], vsize), exx = sized(tmp[0][1], vsize);
        const uint32_t gy = div_up((uint32_t)oh, HV_ROWS * WG);
        const uint32_t nwg_hv = div_up((uint32_t)ow, WG) * gy;
        /* level 0 (LADDER_REF_LEVEL0): every workgroup its tile's reference
         * moments, then each distorted picture of the dispatch in turn
         * (ssim_lad_hv); else the reference's moments first, to planes */
        const int ref_in_wg = windows_fused(be) && be->ladder_ref != LADDER_REF_NONE &&
                              (be->ladder_ref == LADDER_REF_ALL || raw_bps);
        if (!ref_in_wg) {
            const struct vk_bind br[VK_NB_BUFFER_BINDINGS] = { in[0], { 0 }, mu, exx };
            err = add_step3(be, SH_SSIM_LAD_REF, spec, raw_bps, br, &pc, sizeof(pc), (uint32_t)ow,
                            div_up((uint32_t)oh, REF_ROWS), 0);
            if (err < 0)
                return err;
        }
        if (windows_fused(be)) {
            /* per distorted picture its moments in shared memory, the
             * terms, the partials: ssim_hv's tiles; several pictures a
             * dispatch (ssim_lad_dis_hv: one a workgroup, gl_WorkGroupID.z;
             * ssim_lad_hv: all in every workgroup) */
            struct vk_bind part[VK_MAX_PICS];
            err = add_ladder_results(be, idx, n, nwg_hv, 4 * sizeof(double), res_top, part);
            if (err < 0)
                return err;
            const struct vk_bind *const regs[] = { in, part };
            for (int k0 = 1, g; k0 < n; k0 += g) {
                g = group_size(be, regs, 2, k0, n);
                struct pc_ssim_lad pcl = { w, h, ow, oh, 0, 0, ref_in_wg ? g : 0, raw };
                struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { in[0] };
                b[1] = span_of(in, k0, g, sizeof(float), &pcl.s_dis);
                if (!ref_in_wg)
                    b[5] = mu, b[6] = exx;
                b[VK_OUT_BINDING] = span_of(part, k0, g, sizeof(double), &pcl.s_part);
                err = add_step3(be, ref_in_wg ? SH_SSIM_LAD_HV : SH_SSIM_LAD_DIS_HV, spec, raw_bps,
                                b, &pcl, sizeof(pcl), (uint32_t)ow, gy * WG, 0);
                if (err < 0)
                    return err;
                be->steps[err].gz = ref_in_wg ? 1u : (uint32_t)g;
            }
            return 0;
        }
        /* each distorted picture's three horizontal moments, then its
         * vertical pass, the terms, the partials */
        for (int k = 1; k < n && err >= 0; k++) {
            const struct vk_bind b[VK_NB_BUFFER_BINDINGS] = {
                in[0],
                in[k],
                sized(tmp[k][0], hsize),
                sized(tmp[k][1], hsize),
                sized(tmp[k][2], hsize),
            };
            err = add_step3(be, SH_SSIM_LAD_DIS_H, spec, raw_bps, b, &pc, sizeof(pc), (uint32_t)ow,
                            (uint32_t)h, 0);
        }
        const uint32_t nwg = div_up((uint32_t)ow, WG) * div_up((uint32_t)oh, WG);
        for (int k = 1; k < n && err >= 0; k++) {
            struct vk_bind b[VK_NB_BUFFER_BINDINGS] = {
                { 0 },
                { 0 },
                sized(tmp[k][0], hsize),
                sized(tmp[k][1], hsize),
                sized(tmp[k][2], hsize),
                mu,
                exx,
            };
            err = add_result(be, idx, nwg, 4 * sizeof(double), res_top, &b[VK_OUT_BINDING]);
            if (err < 0)
                return err;
            result_of(be, k);
            err = add_step(be, SH_SSIM_LAD_DIS_V, spec, b, &pc, sizeof(pc), (uint32_t)ow,
                           (uint32_t)oh, 0);
        }
        return err < 0 ? err : 0;
    }
    case GPUSSIM_STAGE_ANSNR: {
        /* the reference's filtered plane and signal row sums once
         * (ansnr.comp's SIDE_REF), then each distorted picture's noise row
         * sums in one pass (PASS_NOISE), a picture per gl_WorkGroupID.z */
        const struct pc_ansnr pc = { w, h, raw };
        const VkDeviceSize fsize = (VkDeviceSize)w * h * sizeof(float);
        const struct vk_bind filt_r = sized(tmp[0][0], fsize);
        const struct vk_bind bf[VK_NB_BUFFER_BINDINGS] = { in[0], { 0 }, filt_r };
        err = add_step3(be, SH_ANSNR_LAD_REF_FILTER, 0, raw_bps, bf, &pc, sizeof(pc), (uint32_t)w,
                        div_up((uint32_t)h, ANSNR_FR), 0);
        if (err < 0)
            return err;
        const VkDeviceSize sig_off = carve(res_top, (VkDeviceSize)h * sizeof(float));
        struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { { 0 }, { 0 }, filt_r };
        b[VK_OUT_BINDING] =
            (struct vk_bind){ &be->results, sig_off, (VkDeviceSize)h * sizeof(float) };
        err = add_step(be, SH_ANSNR_LAD_REF_ROWS, 0, b, &pc, sizeof(pc),
                       div_up((uint32_t)h, ANSNR_ROWS) * ANSNR_ROWS_WG, 1, 0);
        if (err < 0)
            return err;
        struct vk_bind rows[VK_MAX_PICS];
        for (int k = 1; k < n; k++) {
            err = add_result(be, idx, (uint32_t)h, sizeof(float), res_top, &rows[k]);
            if (err < 0)
                return err;
            result_of(be, k);
            be->results_map[be->nb_results - 1].ansnr_split = 1;
            be->results_map[be->nb_results - 1].sig_off = sig_off;
        }
        const struct vk_bind *const nregs[] = { in, rows };
        for (int k0 = 1, g; k0 < n; k0 += g) {
            g = group_size(be, nregs, 2, k0, n);
            struct pc_ansnr_lad pcl = { w, h, 0, 0, raw };
            b[1] = span_of(in, k0, g, sizeof(float), &pcl.s_in);
            b[VK_OUT_BINDING] = span_of(rows, k0, g, sizeof(float), &pcl.s_out);
            err = add_step3(be, SH_ANSNR_LAD_NOISE, 0, raw_bps, b, &pcl, sizeof(pcl),
                            div_up((uint32_t)h, ANSNR_NOISE_R) * ANSNR_NOISE_WG, 1, 0);
            if (err < 0)
                return err;
            be->steps[err].gz = (uint32_t)g;
        }
        return 0;
    }
    case GPUSSIM_STAGE_ISSIM: {
        /* issim.comp with LADDER: the horizontal pass writes the
         * reference's x and x*x once and each distorted picture's y, x*y
         * and y*y (tmp[k][0..2]); the vertical pass sums the reference's
         * once and scores the distorted pictures in turn */
        const struct pc_issim_lad pc = { st->c1base, st->c2base, w, h, 0, 0, 0, 0, raw };
        const size_t msz = issim_moment_size(st->bit_depth);
        const VkDeviceSize msize = (VkDeviceSize)w * h * msz;
        const enum vk_shader sh_h =
            issim_variant(st->bit_depth, SH_ISSIM_LAD_H8, SH_ISSIM_LAD_H32, SH_ISSIM_LAD_H);
        const enum vk_shader sh_v =
            issim_variant(st->bit_depth, SH_ISSIM_LAD_V8, SH_ISSIM_LAD_V32, SH_ISSIM_LAD_V);
        const uint32_t nwg = issim_workgroups(w, h);
        be->issim_weight[p] = gpussim_issim_weight_sum(w, h);
        if (issim_fused(be, st->bit_depth)) {
            /* both passes in one dispatch, issim_v's workgroups (one tile
             * each) for every picture of the group */
            struct vk_bind part[VK_MAX_PICS];
            err = add_ladder_results(be, idx, n, nwg, sizeof(double), res_top, part);
            if (err < 0)
                return err;
            const struct vk_bind *const regs[] = { in, part };
            for (int k0 = 1, g; k0 < n; k0 += g) {
                g = group_size(be, regs, 2, k0, n);
                struct pc_issim_lad pcl = pc;
                pcl.nb_dis = g;
                struct vk_bind b[VK_NB_BUFFER_BINDINGS] = { in[0], span_of(in, k0, g, sizeof(float),
                                                                           &pcl.s_in) };
                b[VK_OUT_BINDING] = span_of(part, k0, g, sizeof(double), &pcl.s_part);
                err = add_step3(be, SH_ISSIM_LAD_HV8, 0, raw_bps, b, &pcl, sizeof(pcl), (uint32_t)w,
                                div_up((uint32_t)h, ISSIM_RPT * ROW_WY) * ROW_WY, 0);
                if (err < 0)
                    return err;
            }
            return 0;
        }
        struct vk_bind part[VK_MAX_PICS], my[VK_MAX_PICS], mxy[VK_MAX_PICS], myy[VK_MAX_PICS];
        for (int k = 1; k < n; k++) {
            err = add_result(be, idx, nwg, sizeof(double), res_top, &part[k]);
            if (err < 0)
                return err;
            result_of(be, k);
            my[k] = sized(tmp[k][0], msize);
            mxy[k] = sized(tmp[k][1], msize);
            myy[k] = sized(tmp[k][2], msize);
        }
        const struct vk_bind mx = sized(tmp[0][0], msize), mxx = sized(tmp[0][1], msize);
        const struct vk_bind *const regs[] = { in, part, my, mxy, myy };
        for (int k0 = 1, g; k0 < n; k0 += g) {
            g = group_size(be, regs, 5, k0, n);
            struct pc_issim_lad pcl = pc;
            int32_t s_xy, s_yy;
            pcl.nb_dis = g;
            struct vk_bind b[VK_NB_BUFFER_BINDINGS] = {
                in[0],
                span_of(in, k0, g, sizeof(float), &pcl.s_in),
                mx,
                span_of(my, k0, g, msz, &pcl.s_mom),
                mxx,
                span_of(mxy, k0, g, msz, &s_xy),
                span_of(myy, k0, g, msz, &s_yy),
            };
            if (s_xy != pcl.s_mom || s_yy != pcl.s_mom) {
                /* the shaders take one distance for the three */
                gpussim_log(&be->cfg.log, GPUSSIM_LOG_ERROR,
                            "vulkan: internal error: integer SSIM's ladder moment planes are "
                            "not evenly spaced (%d, %d, %d elements)",
                            (int)pcl.s_mom, (int)s_xy, (int)s_yy);
                return -EINVAL;
            }
            err = add_step3(be, sh_h, 0, raw_bps, b, &pcl, sizeof(pcl),
                            div_up((uint32_t)w, ISSIM_H_N), (uint32_t)h, 0);
            if (err < 0)
                return err;
            b[0] = b[1] = (struct vk_bind){ 0 };
            b[VK_OUT_BINDING] = span_of(part, k0, g, sizeof(double), &pcl.s_part);
            err = add_step(be, sh_v, 0, b, &pcl, sizeof(pcl), (uint32_t)w,
                           div_up((uint32_t)h, ISSIM_RPT), 0);
            if (err < 0)
                return err;
        }
        be->issim_weight[p] = gpussim_issim_weight_sum(w, h);
        return 0;
    }
    case GPUSSIM_STAGE_UNPACK:
    case GPUSSIM_STAGE_CONVERT:
    case GPUSSIM_STAGE_REDUCE: break;
    }
    return 0;
}

static VkDeviceSize max_size(VkDeviceSize a, VkDeviceSize b)
{
    return a > b ? a : b;
}

/* The ladder's frame program: the pair's layout with nb_pics pictures, the
 * reference's terms kept apart (build_program's counterpart). */
static int build_ladder_program(struct vk_backend *be)
{
    const struct gpussim_config *cfg = &be->cfg;
    const struct gpussim_plan *plan = &cfg->plan;
    const int bps = cfg->bytes_per_sample, n = be->nb_pics;
    VkDeviceSize top = 0, res_top = 0;
    uint32_t pic_words[VK_MAX_PICS], pic_start[VK_MAX_PICS];
    int err;

    /* staged pictures, each from an aligned offset: level 0 of its steps
     * (as a pair's), bound alone or with the next pictures' */
    be->nb_src_planes = plan->nb_pic_planes;
    uint32_t words = 0;
    for (int k = 0; k < n; k++) {
        words = (words + ALIGN / 4 - 1) / (ALIGN / 4) * (ALIGN / 4);
        pic_start[k] = words;
        for (int s = 0; s < be->nb_src_planes; s++) {
            const int samples = plan->pic_row_samples[s], rows = plan->pic_rows[s];
            be->raw_plane_row_bytes[k][s] = (uint32_t)(samples * bps);
            be->raw_plane_stride[k][s] = div_up((uint32_t)(samples * bps), 4);
            be->raw_plane_rows[k][s] = (uint32_t)rows;
            be->raw_plane_off[k][s] = words;
            words += be->raw_plane_stride[k][s] * (uint32_t)rows;
        }
        pic_words[k] = words - pic_start[k];
    }
    be->raw_size = (VkDeviceSize)words * 4;
    be->raw_off = carve(&top, be->raw_size);

    /* the planes of every picture; the intermediate planes per set
     * (tmp_set_of) sized for its largest stage: the reference's two terms, a
     * distorted picture's three (ANSNR: one filtered plane; none for
     * windows in one dispatch) */
    struct vk_ladder_planes lp;
    VkDeviceSize box_max = 0, ref_max = 0, dis_max = 0, pyr_max[GPUSSIM_MSSSIM_SCALES] = { 0 };
    VkDeviceSize ref_size[TMP_SETS] = { 0 }, dis_size[TMP_SETS] = { 0 };
    memset(&lp, 0, sizeof(lp));
    lp.raw_bps = bps;
    for (int i = 0; i < plan->nb_stages; i++) {
        const struct gpussim_plan_stage *st = &plan->stage[i];
        const VkDeviceSize nw = (VkDeviceSize)st->in_w * st->in_h;
        const VkDeviceSize no = (VkDeviceSize)st->out_w * st->out_h;
        const int t = tmp_set_of(st);
        VkDeviceSize rs = 0, ds = 0;
        switch (st->kind) {
        case GPUSSIM_STAGE_UNPACK: {
            const int s = st->src.src_plane;
            for (int k = 0; k < n; k++)
                lp.level0[k][st->plane] =
                    (struct vk_bind){ &be->scratch, be->raw_off + (VkDeviceSize)pic_start[k] * 4,
                                      (VkDeviceSize)pic_words[k] * 4 };
            const uint32_t off = be->raw_plane_off[0][s] - pic_start[0];
            lp.raw[st->plane] = plane_raw(be, st, off, off);
            break;
        }
        case GPUSSIM_STAGE_DECIMATE_BOX: box_max = max_size(box_max, no * sizeof(float)); break;
        case GPUSSIM_STAGE_DECIMATE_LPF:
            pyr_max[st->out_level] = max_size(pyr_max[st->out_level], no * sizeof(float));
            break;
        case GPUSSIM_STAGE_SSIM_WINDOWS:
            rs = no * sizeof(float);
            ds = windows_fused(be) ? 0 : (VkDeviceSize)st->out_w * st->in_h * sizeof(float);
            break;
        case GPUSSIM_STAGE_ANSNR: rs = nw * sizeof(float); break;
        case GPUSSIM_STAGE_ISSIM:
            /* issim_lad_hv8 keeps its moments in shared memory */
            rs = ds = issim_fused(be, st->bit_depth) ? 0 : nw * issim_moment_size(st->bit_depth);
            break;
        default: break;
        }
        ref_size[t] = max_size(ref_size[t], rs);
        dis_size[t] = max_size(dis_size[t], ds);
        ref_max = max_size(ref_max, rs);
        dis_max = max_size(dis_max, ds);
    }
    /* a kind's regions one picture after the other (group_size) */
    for (int k = 0; k < n; k++)
        lp.box[k] = scratch_region(be, &top, box_max);
    for (int i = 1; i < GPUSSIM_MSSSIM_SCALES; i++)
        for (int k = 0; k < n && pyr_max[i]; k++)
            lp.pyr[k][i] = scratch_region(be, &top, pyr_max[i]);
    for (int t = 0; t < TMP_SETS; t++) {
        for (int m = 0; m < 2 && ref_size[t]; m++)
            lp.tmp[t][0][m] = scratch_region(be, &top, ref_size[t]);
        for (int m = 0; m < (t == TMP_ANSNR ? 1 : 3) && dis_size[t]; m++)
            for (int k = 1; k < n; k++)
                lp.tmp[t][k][m] = scratch_region(be, &top, dis_size[t]);
    }

    /* the shaders index with 32-bit ints and bind each region whole */
    err = check_ranges(be, max_size(ref_max, dis_max), box_max, (VkDeviceSize)pic_words[0] * 4);
    if (err < 0)
        return err;
    err = vk_buffer_create(be, &be->scratch, top, 0);
    if (err < 0)
        return err;

    /* the (picture, plane)s a Vulkan frame's packs write (each picture's
     * own words), then the stages in the plan's order, then in waves */
    for (int i = 0; i < plan->nb_stages; i++)
        if (plan->stage[i].kind == GPUSSIM_STAGE_UNPACK)
            for (int k = 0; k < n; k++)
                add_pack(be, &plan->stage[i], k, lp.level0[k][plan->stage[i].plane], pic_start[k]);
    for (int i = 0; i < plan->nb_stages; i++)
        if ((err = add_ladder_stage(be, i, &lp, &res_top)) < 0)
            return err;
    return finish_program(be, 1, res_top);
}

int vk_program_init(struct vk_backend *be)
{
    const struct vk_fns *f = &be->fns;
    VkResult res;
    VkDescriptorSetLayoutBinding lb[VK_NB_BUFFER_BINDINGS + 1];
    for (int i = 0; i <= VK_NB_BUFFER_BINDINGS; i++)
        lb[i] = (VkDescriptorSetLayoutBinding){
            .binding = (uint32_t)i,
            .descriptorType = i == VK_IMAGE_BINDING ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
                                                    : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    VkDescriptorSetLayoutCreateInfo dli = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = VK_NB_BUFFER_BINDINGS + 1,
        .pBindings = lb,
    };
    res = f->vkCreateDescriptorSetLayout(be->dev, &dli, NULL, &be->set_layout);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkCreateDescriptorSetLayout");
    VkPushConstantRange pcr = { VK_SHADER_STAGE_COMPUTE_BIT, 0, VK_PC_MAX };
    VkPipelineLayoutCreateInfo pli = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &be->set_layout,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pcr,
    };
    res = f->vkCreatePipelineLayout(be->dev, &pli, NULL, &be->pipe_layout);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkCreatePipelineLayout");
    VkPipelineCacheCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO };
    res = f->vkCreatePipelineCache(be->dev, &pci, NULL, &be->pipe_cache);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkCreatePipelineCache");

    /* a ladder's frame: about a pair's dispatches per picture */
    be->max_steps = be->nb_pics > 2 ? VK_MAX_STEPS * be->nb_pics : VK_MAX_STEPS;
    be->max_results = VK_MAX_RESULTS * (be->nb_pics - 1);
    be->steps = calloc((size_t)be->max_steps, sizeof(*be->steps));
    be->results_map = calloc((size_t)be->max_results, sizeof(*be->results_map));
    if (!be->steps || !be->results_map)
        return -ENOMEM;
    const uint32_t img_sets =
        (uint32_t)be->nb_pics * GPUSSIM_MAX_SCORE_PLANES * (uint32_t)be->nb_slots;
    const uint32_t max_sets = (uint32_t)be->max_steps + img_sets;
    const VkDescriptorPoolSize ps[2] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
          (uint32_t)be->max_steps * VK_NB_BUFFER_BINDINGS + img_sets },
        { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, img_sets },
    };
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = max_sets,
        .poolSizeCount = 2,
        .pPoolSizes = ps,
    };
    res = f->vkCreateDescriptorPool(be->dev, &dpi, NULL, &be->desc_pool);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkCreateDescriptorPool");

    int err = be->nb_pics > 2 ? build_ladder_program(be) : build_program(be);
    if (err < 0)
        return err;

    /* With an adopted device Vulkan frames may come: their pack pipelines
     * are built now too, not at the first frame. */
    if (be->cfg.params.hw_device) {
        const int sixteen = be->cfg.bytes_per_sample == 2;
        err = vk_pack_image_pipe(be, 0, sixteen);
        if (err >= 0 && be->cfg.nb_planes > 1 &&
            be->cfg.params.format.packing != GPUSSIM_PACKING_PLANAR)
            err = vk_pack_image_pipe(be, 1, sixteen);
        if (err < 0)
            return err;
    }

    /* per slot: the sets of the Vulkan-frame packs (images change per frame) */
    for (int i = 0; i < be->nb_slots; i++)
        for (int k = 0; k < be->nb_pics; k++)
            for (int p = 0; p < be->cfg.nb_planes; p++) {
                err = alloc_set(be, &be->slots[i].img_set[k][p]);
                if (err < 0)
                    return err;
                VkDescriptorBufferInfo bi = { be->scratch.buf, 0, 0 };
                for (int u = 0; u < be->nb_packs; u++)
                    if (be->packs[u].pic == k && be->packs[u].plane == p)
                        bi.offset = be->packs[u].dst_off, bi.range = be->packs[u].dst_size;
                VkWriteDescriptorSet wr = {
                    .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                    .dstSet = be->slots[i].img_set[k][p],
                    .dstBinding = 1,
                    .descriptorCount = 1,
                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                    .pBufferInfo = &bi,
                };
                f->vkUpdateDescriptorSets(be->dev, 1, &wr, 0, NULL);
            }
    return 0;
}

void vk_program_uninit(struct vk_backend *be)
{
    const struct vk_fns *f = &be->fns;
    for (int i = 0; i < be->nb_pipes; i++)
        f->vkDestroyPipeline(be->dev, be->pipes[i].pipeline, NULL);
    for (int i = 0; i < SH_COUNT; i++)
        if (be->modules[i])
            f->vkDestroyShaderModule(be->dev, be->modules[i], NULL);
    if (be->desc_pool)
        f->vkDestroyDescriptorPool(be->dev, be->desc_pool, NULL);
    if (be->pipe_cache)
        f->vkDestroyPipelineCache(be->dev, be->pipe_cache, NULL);
    if (be->pipe_layout)
        f->vkDestroyPipelineLayout(be->dev, be->pipe_layout, NULL);
    if (be->set_layout)
        f->vkDestroyDescriptorSetLayout(be->dev, be->set_layout, NULL);
    free(be->steps);
    free(be->results_map);
}

/* ---- one frame ------------------------------------------------------------------- */

void vk_stage_host_picture(struct vk_backend *be, struct vk_slot *s,
                           const struct gpussim_picture *pic, int k)
{
    uint8_t *dst = s->host.map;
    for (int p = 0; p < be->nb_src_planes; p++) {
        const uint32_t rb = be->raw_plane_row_bytes[k][p];
        uint8_t *d = dst + (size_t)be->raw_plane_off[k][p] * 4;
        const size_t ds = (size_t)be->raw_plane_stride[k][p] * 4;
        for (uint32_t y = 0; y < be->raw_plane_rows[k][p]; y++)
            memcpy(d + y * ds, (const uint8_t *)pic->data[p] + (ptrdiff_t)y * pic->stride[p], rb);
    }
}

static void global_barrier(const struct vk_fns *f, VkCommandBuffer cmd,
                           VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                           VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    VkMemoryBarrier2 mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = src_stage,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stage,
        .dstAccessMask = dst_access,
    };
    VkDependencyInfo di = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .memoryBarrierCount = 1,
        .pMemoryBarriers = &mb,
    };
    f->vkCmdPipelineBarrier2(cmd, &di);
}

static void dispatch(const struct vk_backend *be, VkCommandBuffer cmd, int pipe,
                     VkDescriptorSet set, const void *pc, uint32_t pc_size, uint32_t gx,
                     uint32_t gy, uint32_t gz, int *bound)
{
    const struct vk_fns *f = &be->fns;
    if (*bound != pipe) {
        f->vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, be->pipes[pipe].pipeline);
        *bound = pipe;
    }
    f->vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, be->pipe_layout, 0, 1, &set, 0,
                               NULL);
    f->vkCmdPushConstants(cmd, be->pipe_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, pc_size, pc);
    f->vkCmdDispatch(cmd, gx, gy, gz);
}

int vk_record_and_submit(struct vk_backend *be, struct vk_slot *s, const struct vk_frame_sync *fs)
{
    const struct vk_fns *f = &be->fns;
    const VkCommandBuffer cmd = s->cmd;
    VkResult res;
    int bound = -1;

    VkCommandBufferBeginInfo cbi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    res = f->vkBeginCommandBuffer(cmd, &cbi);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkBeginCommandBuffer");
    if (s->query_pool)
        f->vkCmdResetQueryPool(cmd, s->query_pool, 0,
                               2 + (be->step_times ? (uint32_t)be->max_steps : 0));

    /* Orders this frame after everything submitted before it on the queue
     * (the shared scratch buffers), and the frames' images after their
     * producers (layout transition from their stored state). */
    VkMemoryBarrier2 mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        .srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        .dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
    };
    VkDependencyInfo di = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .memoryBarrierCount = 1,
        .pMemoryBarriers = &mb,
        .imageMemoryBarrierCount = fs ? (uint32_t)fs->nb_barriers : 0,
        .pImageMemoryBarriers = fs ? fs->barrier : NULL,
    };
    f->vkCmdPipelineBarrier2(cmd, &di);

    if (!fs) {
        const VkBufferCopy cp = { 0, be->raw_off, be->raw_size };
        f->vkCmdCopyBuffer(cmd, s->host.buf, be->scratch.buf, 1, &cp);
        global_barrier(f, cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    }
    if (s->query_pool)
        f->vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, s->query_pool, 0);

    if (fs) {
        /* each picture plane into the staged words, once (the two chroma
         * planes of an interleaved one share it) */
        const struct gpussim_plan *plan = &be->cfg.plan;
        for (int u = 0; u < be->nb_packs; u++) {
            const struct vk_pack *up = &be->packs[u];
            int seen = 0;
            for (int v = 0; v < u; v++)
                seen |= be->packs[v].pic == up->pic && be->packs[v].src_plane == up->src_plane;
            if (seen)
                continue;
            const int sp = up->src_plane;
            const struct pc_pack pc = {
                plan->pic_row_samples[sp],
                plan->pic_rows[sp],
                (int32_t)(be->raw_plane_off[up->pic][sp] - up->dst_word0),
                (int32_t)be->raw_plane_stride[up->pic][sp],
            };
            dispatch(be, cmd, s->img_pipe[up->pic][up->plane], s->img_set[up->pic][up->plane], &pc,
                     sizeof(pc), div_up(be->raw_plane_stride[up->pic][sp], ROW_WX),
                     div_up(be->raw_plane_rows[up->pic][sp], ROW_WY), 1, &bound);
        }
    }
    for (int i = 0; i < be->nb_steps; i++) {
        const struct vk_step *st = &be->steps[i];
        if (st->barrier)
            global_barrier(f, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                               VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                               VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        dispatch(be, cmd, st->pipe, st->set, st->pc, st->pc_size, st->gx, st->gy, st->gz, &bound);
        if (be->step_times && s->query_pool)
            f->vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, s->query_pool,
                                    2 + (uint32_t)i);
    }
    if (s->query_pool)
        f->vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, s->query_pool, 1);

    /* partials to the slot's host-visible buffer */
    global_barrier(f, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                   VK_ACCESS_2_TRANSFER_READ_BIT);
    const VkBufferCopy rc = { 0, be->host_results_off, be->results_size };
    f->vkCmdCopyBuffer(cmd, be->results.buf, s->host.buf, 1, &rc);
    global_barrier(f, cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    res = f->vkEndCommandBuffer(cmd);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkEndCommandBuffer");

    VkSemaphoreSubmitInfo signal[1 + VK_MAX_PICS * GPUSSIM_VK_MAX_IMAGES];
    uint32_t nb_signal = 0;
    signal[nb_signal++] = (VkSemaphoreSubmitInfo){
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
        .semaphore = be->timeline,
        .value = be->timeline_value + 1,
        .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
    };
    if (fs)
        for (int i = 0; i < fs->nb_sems; i++)
            signal[nb_signal++] = fs->signal[i];
    const VkCommandBufferSubmitInfo cbsi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
        .commandBuffer = cmd,
    };
    const VkSubmitInfo2 si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = fs ? (uint32_t)fs->nb_sems : 0,
        .pWaitSemaphoreInfos = fs ? fs->wait : NULL,
        .commandBufferInfoCount = 1,
        .pCommandBufferInfos = &cbsi,
        .signalSemaphoreInfoCount = nb_signal,
        .pSignalSemaphoreInfos = signal,
    };
    if (be->lock_queue)
        be->lock_queue(be->lock_opaque, be->family, 0);
    res = f->vkQueueSubmit2(be->queue, 1, &si, VK_NULL_HANDLE);
    if (be->unlock_queue)
        be->unlock_queue(be->lock_opaque, be->family, 0);
    if (res != VK_SUCCESS)
        return vk_err(be, res, "vkQueueSubmit2");
    s->done_value = ++be->timeline_value;
    return 0;
}

void vk_program_log_step_times(struct vk_backend *be, struct vk_slot *s)
{
    if (!s->query_pool)
        return;
    uint64_t *ts = malloc((2 + (size_t)be->max_steps) * sizeof(*ts));
    if (!ts)
        return;
    /* the packs of Vulkan frames have no timestamp of their own */
    const uint32_t first = 2, n = (uint32_t)be->nb_steps;
    VkResult res = be->fns.vkGetQueryPoolResults(be->dev, s->query_pool, 0, 1, sizeof(ts[0]), ts,
                                                 sizeof(ts[0]), VK_QUERY_RESULT_64_BIT);
    if (res == VK_SUCCESS)
        res = be->fns.vkGetQueryPoolResults(be->dev, s->query_pool, first, n, n * sizeof(ts[0]),
                                            ts + first, sizeof(ts[0]), VK_QUERY_RESULT_64_BIT);
    if (res != VK_SUCCESS) {
        free(ts);
        return;
    }
    const double ns = be->props.limits.timestampPeriod;
    uint64_t prev = ts[0];
    for (int i = 0; i < be->nb_steps; i++) {
        const struct vk_step *st = &be->steps[i];
        /* '|': a barrier before it (the first of a wave) */
        gpussim_log(&be->cfg.log, GPUSSIM_LOG_DEBUG, "vulkan step %2d %c%-15s %5ux%-5ux%u %8.4f ms",
                    i, st->barrier ? '|' : ' ', shaders[be->pipes[st->pipe].shader].name, st->gx,
                    st->gy, st->gz, (ts[2 + i] - prev) * ns * 1e-6);
        prev = ts[2 + i];
    }
    free(ts);
}

void vk_program_collect(struct vk_backend *be, struct vk_slot *s, struct gpussim_frame_sums *sums)
{
    const uint8_t *base = (const uint8_t *)s->host.map + be->host_results_off;
    memset(sums, 0, sizeof(*sums) * (size_t)(be->nb_pics - 1));
    for (int i = 0; i < be->nb_results; i++) {
        const struct vk_result *r = &be->results_map[i];
        const struct gpussim_plan_stage *red = &be->cfg.plan.stage[r->reduce];
        double v[4] = { 0.0, 0.0, 0.0, 0.0 };
        switch (red->slot) {
        case GPUSSIM_RESULT_SSIM:
        case GPUSSIM_RESULT_MSSSIM:
            /* the double partials added in workgroup order */
            gpussim_sum_partials((const double *)(base + r->off), r->count, 4, v);
            break;
        case GPUSSIM_RESULT_ANSNR: {
            /* the reference's row floats, added in row order in float */
            const float *rows = (const float *)(base + r->off);
            if (r->ansnr_split) {
                v[0] = gpussim_sum_float_rows((const float *)(base + r->sig_off), (int)r->count, 1);
                v[1] = gpussim_sum_float_rows(rows, (int)r->count, 1);
                break;
            }
            v[0] = gpussim_sum_float_rows(rows, (int)r->count, 2);
            v[1] = gpussim_sum_float_rows(rows + 1, (int)r->count, 2);
            break;
        }
        case GPUSSIM_RESULT_ISSIM:
            gpussim_sum_partials((const double *)(base + r->off), r->count, 1, v);
            v[1] = be->issim_weight[red->plane];
            break;
        case GPUSSIM_RESULT_NONE: break;
        }
        gpussim_plan_store(red, &sums[r->dis], v);
    }
}
