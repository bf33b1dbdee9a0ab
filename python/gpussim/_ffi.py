# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""libgpussim through ctypes (the standard library's FFI): the declarations gpussim.h
exports, and the loader.

ctypes binds the shared library at run time (no compiler, no build step, no dependency:
the package installs offline and runs in any Python 3.9+ that has NumPy). It lays the structs
out from these declarations, so they must match include/gpussim/gpussim.h field for field;
tests/test_layout.py compares every size and offset with the C compiler's.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_double, c_int, c_int64,
                    c_ssize_t, c_uint, c_uint64, c_void_p)
from pathlib import Path
from typing import Any, List, Optional

c_enum = c_int  # C enums of int range are ints on every ABI gpussim builds for
c_ptrdiff_t = c_ssize_t

MAX_PLANES = 4

# enum gpussim_memory / chroma / packing / planes / log level
MEMORY_HOST, MEMORY_CUDA = 0, 1
CHROMA_420, CHROMA_422, CHROMA_444, CHROMA_GRAY = 0, 1, 2, 3
PACKING_PLANAR = 0
PLANES_LUMA, PLANES_ALL = 0, 1
LOG_ERROR, LOG_WARNING, LOG_INFO, LOG_VERBOSE, LOG_DEBUG = 16, 24, 32, 40, 48
NB_BACKEND_TYPES = 6

LogFn = CFUNCTYPE(None, c_void_p, c_enum, c_char_p)
GetDeviceFn = CFUNCTYPE(c_int, c_void_p, c_enum, POINTER(c_void_p))


class Format(Structure):
    _fields_ = [("width", c_int), ("height", c_int), ("bit_depth", c_int), ("chroma", c_enum),
                ("packing", c_enum), ("msb_aligned", c_int)]


class Picture(Structure):
    _fields_ = [("memory", c_enum), ("data", c_void_p * MAX_PLANES),
                ("stride", c_ptrdiff_t * MAX_PLANES), ("fd", c_int * MAX_PLANES),
                ("offset", c_uint64 * MAX_PLANES), ("modifier", c_uint64), ("hw", c_void_p),
                ("reserved", c_void_p * 8)]


class Params(Structure):
    _fields_ = [("backend", c_enum), ("device", c_int), ("metrics", c_uint), ("format", Format),
                ("ssim_scale", c_int), ("enable_lcs", c_int), ("enable_db", c_int),
                ("clip_db", c_int), ("planes", c_enum), ("threads", c_int),
                ("max_in_flight", c_int), ("log_cb", LogFn), ("log_opaque", c_void_p),
                ("log_level", c_enum), ("hw_device", c_void_p), ("ms_ssim_options", c_uint),
                ("features_named", c_uint), ("nb_distorted", c_int), ("memory", c_enum),
                ("device_vendor", c_char_p), ("get_device", GetDeviceFn),
                ("get_device_opaque", c_void_p), ("reserved", c_void_p * 3)]


class CudaDevice(Structure):
    _fields_ = [("cu_context", c_void_p), ("cu_stream", c_void_p)]


class Result(Structure):
    _fields_ = [("index", c_uint64), ("nb_values", c_int), ("values", POINTER(c_double))]


class PoolStats(Structure):
    _fields_ = [("count", c_uint64), ("mean", c_double), ("harmonic_mean", c_double),
                ("min", c_double), ("max", c_double)]


#: struct name in gpussim.h -> its ctypes type (for the layout test)
STRUCTS = {"gpussim_format": Format, "gpussim_picture": Picture, "gpussim_params": Params,
           "gpussim_cuda_device": CudaDevice, "gpussim_result": Result,
           "gpussim_pool_stats": PoolStats}

_P = c_void_p  # opaque handles: GpussimContext *, GpussimPool *
_SIGNATURES = {
    "gpussim_default_params": (None, [POINTER(Params)]),
    "gpussim_use_feature": (c_int, [POINTER(Params), c_char_p]),
    "gpussim_backend_type_name": (c_char_p, [c_enum]),
    "gpussim_backend_from_name": (c_int, [c_char_p, POINTER(c_enum)]),
    "gpussim_create": (c_int, [POINTER(_P), POINTER(Params)]),
    "gpussim_destroy": (None, [POINTER(_P)]),
    "gpussim_backend_name": (c_char_p, [_P]),
    "gpussim_score_names": (c_int, [_P, POINTER(POINTER(c_char_p))]),
    "gpussim_submit": (c_int64, [_P, POINTER(Picture), POINTER(Picture)]),
    "gpussim_collect": (c_int, [_P, POINTER(Result), c_int]),
    "gpussim_pending": (c_int, [_P]),
    "gpussim_strerror": (c_char_p, [c_int]),
    "gpussim_pool_create": (c_int, [POINTER(_P)]),
    "gpussim_pool_destroy": (None, [POINTER(_P)]),
    "gpussim_pool_add": (c_int, [_P, c_double]),
    "gpussim_pool_stats": (c_int, [_P, POINTER(PoolStats)]),
    "gpussim_pool_percentile": (c_int, [_P, c_double, POINTER(c_double)]),
}

_HERE = Path(__file__).resolve().parent
SONAME = "libgpussim.so.0"


def library_candidates() -> List[str]:
    """Where the library is looked for, in order: $GPUSSIM_LIBRARY, the copy the wheel
    carries (gpussim/_lib/), the build/ of the checkout the package was built from, that of
    a source tree used in place (PYTHONPATH=python), then the system's (a `make install`)."""
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
    out.append(str(_HERE.parent.parent / "build" / ".libs" / SONAME))
    out.append(ctypes.util.find_library("gpussim") or SONAME)
    return out


def _load() -> Any:
    tried = []
    env = os.environ.get("GPUSSIM_LIBRARY")
    for cand in dict.fromkeys(library_candidates()):
        if os.sep in cand and not os.path.exists(cand):
            if cand == env:
                raise ImportError(f"GPUSSIM_LIBRARY={env}: no such file")
            tried.append(cand)
            continue
        try:
            lib = ctypes.CDLL(cand)
        except OSError as e:
            if cand == env:
                raise ImportError(f"GPUSSIM_LIBRARY={env}: {e}") from None
            tried.append(f"{cand} ({e})")
            continue
        for name, (res, args) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        return lib, cand
    raise ImportError(
        "gpussim: libgpussim.so.0 not found; build it (./scripts/build.sh in the checkout) "
        "and reinstall the package, or set GPUSSIM_LIBRARY to its path. Tried: " + "; ".join(tried))


lib, library_path = _load()


def text(p: Optional[bytes]) -> str:
    return p.decode("utf-8", "replace") if p else ""
