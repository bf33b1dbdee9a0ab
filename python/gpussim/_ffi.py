# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""libgpussim through cffi in ABI mode: the declarations gpussim.h exports, and the loader.

ABI mode lays the structs out itself from these declarations, so they must match
include/gpussim/gpussim.h field for field; tests/test_layout.py compares every size and
offset with the C compiler's.
"""

from __future__ import annotations

import ctypes.util
import os
from pathlib import Path
from typing import List, Optional

import cffi

CDEF = """
enum gpussim_backend_type {
    GPUSSIM_BACKEND_AUTO = 0, GPUSSIM_BACKEND_CPU, GPUSSIM_BACKEND_CUDA,
    GPUSSIM_BACKEND_VULKAN, GPUSSIM_BACKEND_HIP, GPUSSIM_BACKEND_ZE,
};
enum gpussim_planes { GPUSSIM_PLANES_LUMA = 0, GPUSSIM_PLANES_ALL };
enum gpussim_chroma {
    GPUSSIM_CHROMA_420 = 0, GPUSSIM_CHROMA_422, GPUSSIM_CHROMA_444, GPUSSIM_CHROMA_GRAY,
};
enum gpussim_packing {
    GPUSSIM_PACKING_PLANAR = 0, GPUSSIM_PACKING_SEMIPLANAR_UV, GPUSSIM_PACKING_SEMIPLANAR_VU,
};
struct gpussim_format {
    int width; int height; int bit_depth;
    enum gpussim_chroma chroma; enum gpussim_packing packing; int msb_aligned;
};
enum gpussim_memory {
    GPUSSIM_MEMORY_HOST = 0, GPUSSIM_MEMORY_CUDA, GPUSSIM_MEMORY_VULKAN, GPUSSIM_MEMORY_DMABUF,
};
struct gpussim_picture {
    enum gpussim_memory memory;
    const void *data[4];
    ptrdiff_t stride[4];
    int fd[4];
    uint64_t offset[4];
    uint64_t modifier;
    const void *hw;
    void *reserved[8];
};
enum gpussim_log_level {
    GPUSSIM_LOG_ERROR = 16, GPUSSIM_LOG_WARNING = 24, GPUSSIM_LOG_INFO = 32,
    GPUSSIM_LOG_VERBOSE = 40, GPUSSIM_LOG_DEBUG = 48,
};
typedef void (*gpussim_log_fn)(void *opaque, enum gpussim_log_level level, const char *msg);
struct gpussim_params {
    enum gpussim_backend_type backend;
    int device;
    unsigned metrics;
    struct gpussim_format format;
    int ssim_scale;
    int enable_lcs;
    int enable_db;
    int clip_db;
    enum gpussim_planes planes;
    int threads;
    int max_in_flight;
    gpussim_log_fn log_cb;
    void *log_opaque;
    enum gpussim_log_level log_level;
    const void *hw_device;
    unsigned ms_ssim_options;
    unsigned features_named;
    int nb_distorted;
    enum gpussim_memory memory;
    const char *device_vendor;
    int (*get_device)(void *opaque, enum gpussim_backend_type type, const void **hw_device);
    void *get_device_opaque;
    void *reserved[3];
};
struct gpussim_cuda_device {
    void *cu_context;
    void *cu_stream;
};
typedef struct GpussimContext GpussimContext;
struct gpussim_result {
    uint64_t index;
    int nb_values;
    const double *values;
};
typedef struct GpussimPool GpussimPool;
struct gpussim_pool_stats {
    uint64_t count;
    double mean;
    double harmonic_mean;
    double min, max;
};

void gpussim_default_params(struct gpussim_params *p);
int gpussim_use_feature(struct gpussim_params *p, const char *spec);
int gpussim_features_string(const struct gpussim_params *p, char *buf, size_t size);
const char *gpussim_backend_type_name(enum gpussim_backend_type type);
int gpussim_backend_from_name(const char *name, enum gpussim_backend_type *type);
int gpussim_create(GpussimContext **ctx, const struct gpussim_params *params);
void gpussim_destroy(GpussimContext **ctx);
const char *gpussim_backend_name(const GpussimContext *ctx);
int gpussim_score_names(const GpussimContext *ctx, const char *const **names);
int gpussim_score_is_term(const char *name);
int64_t gpussim_submit(GpussimContext *ctx, const struct gpussim_picture *ref,
                       const struct gpussim_picture *dis);
int gpussim_collect(GpussimContext *ctx, struct gpussim_result *res, int wait);
int gpussim_pending(const GpussimContext *ctx);
const char *gpussim_strerror(int err);
int gpussim_pool_create(GpussimPool **pool);
void gpussim_pool_destroy(GpussimPool **pool);
int gpussim_pool_add(GpussimPool *pool, double v);
int gpussim_pool_stats(const GpussimPool *pool, struct gpussim_pool_stats *st);
int gpussim_pool_percentile(const GpussimPool *pool, double q, double *out);
"""

ffi = cffi.FFI()
ffi.cdef(CDEF)

_HERE = Path(__file__).resolve().parent
SONAME = "libgpussim.so.0"


def library_candidates() -> List[str]:
    """Where the library is looked for, in order: $GPUSSIM_LIBRARY, the copy the wheel
    carries (gpussim/_lib/), the build/ of the checkout the package was built from, then
    the system's (ldconfig, LD_LIBRARY_PATH: a `make install`)."""
    out: List[str] = []
    env = os.environ.get("GPUSSIM_LIBRARY")
    if env:
        out.append(env)
    out.append(str(_HERE / "_lib" / SONAME))
    try:
        from . import _build_info  # written by the wheel build

        checkout: Optional[str] = getattr(_build_info, "CHECKOUT", None)
        if checkout:
            out.append(os.path.join(checkout, "build", ".libs", SONAME))
    except ImportError:
        pass
    # a source tree used in place (PYTHONPATH=python): python/../build
    out.append(str(_HERE.parent.parent / "build" / ".libs" / SONAME))
    out.append(ctypes.util.find_library("gpussim") or SONAME)
    return out


def _load():
    tried = []
    env = os.environ.get("GPUSSIM_LIBRARY")
    for cand in library_candidates():
        is_path = os.sep in cand
        if is_path and not os.path.exists(cand):
            if cand == env:
                raise ImportError(f"GPUSSIM_LIBRARY={env}: no such file")
            tried.append(cand)
            continue
        try:
            return ffi.dlopen(cand), cand
        except OSError as e:
            if cand == env:
                raise ImportError(f"GPUSSIM_LIBRARY={env}: {e}") from None
            tried.append(f"{cand} ({e})")
    raise ImportError(
        "gpussim: libgpussim.so.0 not found; build it (./scripts/build.sh in the checkout) "
        "and reinstall the package, or set GPUSSIM_LIBRARY to its path. Tried: " + "; ".join(tried)
    )


lib, library_path = _load()
