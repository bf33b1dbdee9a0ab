# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""Scorer: frames in memory (NumPy arrays, CUDA tensors) scored by libgpussim."""

from __future__ import annotations

import errno
import logging
import math
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

import ctypes
from ctypes import POINTER, byref, c_char_p, c_double, c_int, c_void_p

from . import _cuda, _ffi
from ._errors import Error, InvalidInputError, library_error
from ._ffi import lib, text

__all__ = ["Scorer", "Frame"]

_log = logging.getLogger("gpussim")
_PY_LEVEL = {16: logging.ERROR, 24: logging.WARNING, 32: logging.INFO, 40: logging.DEBUG, 48: logging.DEBUG}

#: One frame: a 2-D luma array, or (Y, U, V) planes; a leading N axis makes a batch of N.
Frame = Union[Any, Sequence[Any]]

_HOST = _ffi.MEMORY_HOST
_CUDA = _ffi.MEMORY_CUDA


@dataclass
class _Plane:
    ptrs: List[int]           # one address per frame
    stride: int               # bytes between rows
    shape: Tuple[int, int]    # (height, width)
    itemsize: int
    copied: bool = False


@dataclass
class _Frames:
    """One side (reference or distorted) of a score() call, ready for gpussim_picture."""

    memory: int
    planes: List[_Plane]
    count: int
    batch: bool
    device: Optional[int] = None
    stream: Optional[int] = None
    keepalive: List[Any] = field(default_factory=list)


def _host_plane(a: Any, batch_dims: int, what: str) -> Tuple[_Plane, Any]:
    arr = np.asarray(a)
    if not (arr.dtype.kind == "u" and arr.dtype.itemsize in (1, 2)) and not (
            arr.dtype.kind == "i" and arr.dtype.itemsize == 2):
        raise InvalidInputError(
            f"{what}: samples of type {arr.dtype}; pass uint8 (8-bit) or uint16 (10/12/16-bit)")
    if arr.ndim != 2 + batch_dims:
        raise InvalidInputError(f"{what}: {arr.ndim}-D array of shape {arr.shape}; "
                                f"expected {'(N, height, width)' if batch_dims else '(height, width)'}")
    copied = False
    if arr.dtype.itemsize == 2 and not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))  # the library reads native words
        copied = True
    isz = arr.dtype.itemsize
    h, w = arr.shape[-2], arr.shape[-1]
    rs, cs = arr.strides[-2], arr.strides[-1]
    addr = arr.__array_interface__["data"][0]
    # the library takes any row pitch (negative too) but needs a row's samples adjacent,
    # rows that do not overlap, and 2-byte alignment for 16-bit words: else one copy
    if (w > 1 and cs != isz) or (h > 1 and abs(rs) < w * isz) or (
            isz == 2 and (rs % 2 or addr % 2 or (batch_dims and arr.strides[0] % 2))):
        arr = np.ascontiguousarray(arr)
        copied = True
        rs = arr.strides[-2]
        addr = arr.__array_interface__["data"][0]
    if batch_dims:
        ptrs = [addr + i * arr.strides[0] for i in range(arr.shape[0])]
    else:
        ptrs = [addr]
    return _Plane(ptrs, int(rs) if h > 1 else w * isz, (h, w), isz, copied), arr


def _device_plane(d: _cuda.DeviceArray, batch_dims: int, what: str) -> _Plane:
    if len(d.shape) != 2 + batch_dims:
        raise InvalidInputError(f"{what}: {len(d.shape)}-D CUDA array of shape {d.shape}; "
                                f"expected {'(N, height, width)' if batch_dims else '(height, width)'}")
    h, w = d.shape[-2], d.shape[-1]
    rs, cs = d.strides[-2], d.strides[-1]
    if (w > 1 and cs != d.itemsize) or (h > 1 and rs < w * d.itemsize):
        raise InvalidInputError(
            f"{what}: CUDA array with strides {d.strides} (bytes): a row's samples must be adjacent "
            "and rows must not overlap (pass .contiguous())")
    if d.itemsize == 2 and (rs % 2 or d.ptr % 2):
        raise InvalidInputError(f"{what}: 16-bit CUDA array with an odd address or row stride")
    ptrs = [d.ptr + i * d.strides[0] for i in range(d.shape[0])] if batch_dims else [d.ptr]
    return _Plane(ptrs, rs if h > 1 else w * d.itemsize, (h, w), d.itemsize)


def _split(x: Frame) -> List[Any]:
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _frames(planes_in: List[Any], probes: List[Optional[Dict[str, Any]]], what: str,
            stream: Optional[int]) -> _Frames:
    """planes_in: one luma plane or (Y, U, V); probes: _cuda.probe() of each."""
    if len(planes_in) not in (1, 3):
        raise InvalidInputError(f"{what}: {len(planes_in)} planes; pass a luma array or (Y, U, V)")
    names = ["luma"] if len(planes_in) == 1 else ["Y", "U", "V"]
    on_cuda = probes[0] is not None
    if any((pr is not None) != on_cuda for pr in probes):
        raise InvalidInputError(f"{what}: planes in host and CUDA memory mixed")
    out = _Frames(_CUDA if on_cuda else _HOST, [], 0, False, stream=stream)
    if on_cuda:
        devs = [_cuda.device_array(p, stream, pr or {}) for p, pr in zip(planes_in, probes)]
        batch_dims = 1 if len(devs[0].shape) == 3 else 0
    else:
        batch_dims = 1 if np.ndim(planes_in[0]) == 3 else 0
    out.batch = bool(batch_dims)
    for k, (p, name) in enumerate(zip(planes_in, names)):
        pw = f"{what} {name}" if len(planes_in) > 1 else what
        if on_cuda:
            d = devs[k]
            plane = _device_plane(d, batch_dims, pw)
            dev = d.device if d.device is not None else _cuda.pointer_device(d.ptr)
            if out.device is None:
                out.device, out.stream = dev, d.stream
            elif out.device != dev:
                raise InvalidInputError(f"{what}: planes on CUDA devices {out.device} and {dev}")
            out.keepalive.append(d.keepalive)
        else:
            plane, arr = _host_plane(p, batch_dims, pw)
            out.keepalive.append(arr)
        if out.planes and len(plane.ptrs) != len(out.planes[0].ptrs):
            raise InvalidInputError(f"{what}: planes hold {len(out.planes[0].ptrs)} and "
                                    f"{len(plane.ptrs)} frames")
        if out.planes and plane.itemsize != out.planes[0].itemsize:
            raise InvalidInputError(f"{what}: planes of different sample types")
        out.planes.append(plane)
    out.count = len(out.planes[0].ptrs)
    return out


def _chroma(f: _Frames, what: str) -> int:
    if len(f.planes) == 1:
        return _ffi.CHROMA_GRAY
    (h, w), u, v = f.planes[0].shape, f.planes[1].shape, f.planes[2].shape
    if u != v:
        raise InvalidInputError(f"{what}: U plane {u} and V plane {v} differ")
    cw, ch = (w + 1) // 2, (h + 1) // 2
    table = {(h, w): _ffi.CHROMA_444, (h, cw): _ffi.CHROMA_422, (ch, cw): _ffi.CHROMA_420}
    if u not in table:
        raise InvalidInputError(
            f"{what}: chroma planes {u} for luma {(h, w)}: expected {(ch, cw)} (4:2:0), "
            f"{(h, cw)} (4:2:2) or {(h, w)} (4:4:4)")
    return table[u]


class Scorer:
    """Scores frames in memory with libgpussim: libvmaf's SSIM, MS-SSIM, ANSNR and integer
    SSIM, bit for bit the values of the C library, the ``gpussim`` tool and the FFmpeg filter.

    ``features``: libvmaf's feature names with options, as the library's
    gpussim_use_feature() takes them ("float_ssim", "float_ms_ssim", "float_ansnr", "ssim",
    "float_ssim:enable_lcs=true", "all"), a list or one string joined with "|"; None: every
    metric the frame size allows. ``backend``: "auto", "cpu", "cuda", "vulkan", "hip", "ze"
    ("auto": CUDA arrays go to the CUDA backend; host arrays to the first GPU that answers,
    else the CPU). ``bitdepth``: the default for uint16 samples (10, 12 or 16). ``planes``:
    "luma" (libvmaf's) or "all" (also U and V, keys suffixed ".u" / ".v").

    One Scorer is used from one thread at a time. Pooled statistics cover every frame
    scored since it was made (or since reset()).
    """

    def __init__(self, features: Union[None, str, Iterable[str]] = None, backend: str = "auto", *,
                 bitdepth: Optional[int] = None, planes: str = "luma", device: int = 0,
                 threads: int = 0, max_in_flight: int = 0) -> None:
        self._errors: List[str] = []
        errors = self._errors

        def on_log(_opaque: Any, level: int, msg: Optional[bytes]) -> None:
            line = text(msg)
            if level <= _ffi.LOG_ERROR:
                # raised as the failing call's exception: not printed a second time
                errors.append(line)
                _log.debug("%s", line)
            else:
                _log.log(_PY_LEVEL.get(level, logging.DEBUG), "%s", line)

        # kept referenced as long as the library may call it
        self._log_cb = _ffi.LogFn(on_log)
        self._params = _ffi.Params()
        p = self._params
        lib.gpussim_default_params(byref(p))
        p.log_cb = self._log_cb
        p.log_level = _ffi.LOG_INFO
        bt = c_int()
        if lib.gpussim_backend_from_name(str(backend).encode(), byref(bt)) < 0:
            names = [text(lib.gpussim_backend_type_name(i)) for i in range(_ffi.NB_BACKEND_TYPES)]
            raise InvalidInputError(f"unknown backend {backend!r}; one of {', '.join(names)}")
        p.backend = bt.value
        if planes not in ("luma", "all"):
            raise InvalidInputError(f"planes={planes!r}: 'luma' or 'all'")
        p.planes = _ffi.PLANES_ALL if planes == "all" else _ffi.PLANES_LUMA
        p.device, p.threads, p.max_in_flight = device, threads, max_in_flight
        if isinstance(features, str):
            features = features.split("|")
        for spec in features or ():
            self._call(lib.gpussim_use_feature(byref(p), spec.encode()), f"feature {spec!r}")
        self.bitdepth = bitdepth
        self._ctx = c_void_p()
        self._ctx_key: Optional[Tuple[Any, ...]] = None
        self._hw_device: Any = None
        self._cuda_ctx: Dict[int, _cuda.PrimaryContext] = {}
        self._pools: Dict[str, Any] = {}
        self._names: List[str] = []
        self.frames = 0
        #: planes the last score() call copied before scoring (0: all read in place)
        self.copies = 0
        #: memory the last frames were in: "host" or "cuda"
        self.memory: Optional[str] = None

    # -- library plumbing -------------------------------------------------------------------

    def _call(self, r: int, what: str) -> int:
        if r < 0:
            msgs, self._errors[:] = list(self._errors), []
            raise library_error(what, r, msgs, text(lib.gpussim_strerror(r)))
        return r

    def _context(self, key: Tuple[Any, ...], fmt: Tuple[int, int, int, int], f: _Frames) -> None:
        if key == self._ctx_key:
            return
        self._destroy_context()
        p = self._params
        p.format.width, p.format.height, p.format.bit_depth, p.format.chroma = fmt
        p.format.packing = _ffi.PACKING_PLANAR
        p.memory = f.memory
        p.hw_device = None
        if f.memory == _CUDA:
            assert f.device is not None
            pc = self._cuda_ctx.get(f.device)
            if pc is None:
                pc = self._cuda_ctx[f.device] = _cuda.PrimaryContext(f.device)
            # must outlive the library context: kept in self._hw_device
            hw = _ffi.CudaDevice(pc.handle, f.stream or None)
            self._hw_device = hw
            p.hw_device = ctypes.addressof(hw)
        ctx = c_void_p()
        self._errors.clear()
        self._call(lib.gpussim_create(byref(ctx), byref(p)), "gpussim_create")
        self._ctx = ctx
        self._ctx_key = key
        names = POINTER(c_char_p)()
        n = self._call(lib.gpussim_score_names(self._ctx, byref(names)), "gpussim_score_names")
        self._names = [text(names[i]) for i in range(n)]

    def _destroy_context(self) -> None:
        if self._ctx:
            lib.gpussim_destroy(byref(self._ctx))
            self._ctx = c_void_p()
        self._ctx_key = None

    def close(self) -> None:
        """Frees the library context and releases the CUDA contexts it used (pooled
        statistics stay readable)."""
        self._destroy_context()
        for pc in self._cuda_ctx.values():
            pc.release()
        self._cuda_ctx.clear()

    def __enter__(self) -> "Scorer":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    # -- scoring ----------------------------------------------------------------------------

    @property
    def backend_name(self) -> Optional[str]:
        """The backend the last frames were scored on ("cpu", "cuda", ...); None before."""
        if not self._ctx:
            return None
        return text(lib.gpussim_backend_name(self._ctx))

    @property
    def score_names(self) -> List[str]:
        """The keys of score()'s dicts (libvmaf's names), known after the first frame."""
        return list(self._names)

    def score(self, ref: Frame, dis: Frame, *, bitdepth: Optional[int] = None,
              stream: Optional[int] = None) -> Union[Dict[str, float], List[Dict[str, float]]]:
        """Scores dis against ref and returns {score name: value} (libvmaf's names).

        ref, dis: a 2-D luma array (height, width), or (Y, U, V) planes whose shapes give
        4:2:0, 4:2:2 or 4:4:4; uint8 samples (8-bit) or uint16 (bitdepth 10, 12 or 16; int16
        is read as the same 16-bit words, for frameworks without uint16). NumPy
        arrays and anything np.asarray() reads are scored in place, strided views included
        (a copy is made only when a row's samples are not adjacent). CUDA arrays
        (__cuda_array_interface__ or DLPack: PyTorch, CuPy...) are scored on their device by
        the CUDA backend without leaving it, after the work queued on ``stream`` (default:
        a torch tensor's current stream, else the legacy default stream).
        A leading axis, (N, height, width), is a batch: N frames are submitted together and
        a list of N dicts returned. A failure raises, and none of the call's frames is pooled.
        """
        depth = bitdepth if bitdepth is not None else self.bitdepth
        ref_planes, dis_planes = _split(ref), _split(dis)
        ref_probes = [_cuda.probe(p) for p in ref_planes]
        dis_probes = [_cuda.probe(p) for p in dis_planes]
        if ref_probes and dis_probes and (ref_probes[0] is None) != (dis_probes[0] is None):
            raise InvalidInputError("reference and distorted frames are in different memories "
                                    "(one on the host, one on a CUDA device)")
        r = _frames(ref_planes, ref_probes, "reference", stream)
        d = _frames(dis_planes, dis_probes, "distorted", stream)
        if r.memory == _CUDA and (r.device, r.stream) != (d.device, d.stream):
            raise InvalidInputError(
                f"reference on CUDA device {r.device} stream {r.stream:#x}, distorted on device "
                f"{d.device} stream {d.stream:#x}: pass both on one device and stream"
                if r.stream is not None and d.stream is not None else
                f"reference on CUDA device {r.device}, distorted on {d.device} (or other streams)")
        shapes = lambda f: [p.shape for p in f.planes]  # noqa: E731
        if shapes(r) != shapes(d) or r.count != d.count or r.batch != d.batch:
            raise InvalidInputError(
                f"reference {_describe(r)} and distorted {_describe(d)} differ; scale the "
                "distorted frames to the reference's size first")
        isz = r.planes[0].itemsize
        if isz != d.planes[0].itemsize:
            raise InvalidInputError("reference and distorted samples differ in type (uint8, uint16)")
        if isz == 1:
            if depth not in (None, 8):
                raise InvalidInputError(f"bitdepth={depth} needs uint16 samples; uint8 is 8-bit")
            depth = 8
        elif depth is None:
            raise InvalidInputError("uint16 samples need bitdepth= (10, 12 or 16)")
        elif depth == 8:
            raise InvalidInputError("bitdepth=8 needs uint8 samples")
        h, w = r.planes[0].shape
        fmt = (w, h, int(depth), _chroma(r, "reference"))
        _chroma(d, "distorted")
        self._context((fmt, r.memory, r.device, r.stream), fmt, r)
        self.memory = "cuda" if r.memory == _CUDA else "host"
        self.copies = sum(p.copied for f in (r, d) for p in f.planes)
        out = self._run(r, d)
        return out if r.batch else out[0]

    def _picture(self, f: _Frames, i: int) -> Any:
        pic = _ffi.Picture()
        pic.memory = f.memory
        for k, p in enumerate(f.planes):
            pic.data[k] = p.ptrs[i]
            pic.stride[k] = p.stride
        return pic

    def _run(self, r: _Frames, d: _Frames) -> List[Dict[str, float]]:
        results: List[Dict[str, float]] = []
        res = _ffi.Result()
        first_error: Optional[Error] = None
        submitted = 0
        self._errors.clear()

        def collect() -> None:
            nonlocal first_error
            rc = lib.gpussim_collect(self._ctx, byref(res), 1)
            if rc == 0:  # only called with frames pending
                raise Error("gpussim_collect: no frame pending")
            if rc < 0:
                try:
                    self._call(rc, f"frame {len(results)}")
                except Error as e:
                    first_error = first_error or e
                results.append({})
                return
            values = res.values[:res.nb_values]
            results.append(dict(zip(self._names, values)))

        while submitted < r.count and first_error is None:
            rp, dp = self._picture(r, submitted), self._picture(d, submitted)
            rc = lib.gpussim_submit(self._ctx, byref(rp), byref(dp))
            while rc == -errno.EAGAIN:  # max_in_flight frames pending: collect one first
                collect()
                rc = lib.gpussim_submit(self._ctx, byref(rp), byref(dp))
            if rc < 0:
                try:
                    self._call(rc, f"frame {submitted}" if r.batch else "gpussim_submit")
                except Error as e:
                    first_error = e
                break
            submitted += 1
        while lib.gpussim_pending(self._ctx) > 0:
            collect()
        if first_error is not None:
            raise first_error
        for m in results:
            self._pool(m)
        return results

    # -- pooling ----------------------------------------------------------------------------

    def _pool(self, m: Dict[str, float]) -> None:
        for name, v in m.items():
            pool = self._pools.get(name)
            if pool is None:
                pool = self._pools[name] = _Pool()
                self._call(lib.gpussim_pool_create(byref(pool.handle)), "gpussim_pool_create")
            if not math.isnan(v):  # left out of the pool, as the log writer does
                self._call(lib.gpussim_pool_add(pool.handle, v), f"pooling {name}")
        self.frames += 1

    def pooled(self, percentiles: Sequence[float] = ()) -> Dict[str, Dict[str, float]]:
        """Pooled statistics of every frame scored so far: {name: {"min", "max", "mean",
        "harmonic_mean"}} computed as the gpussim log's pooled_metrics (exact sums: equal to
        the tool's and the filter's to the last bit), plus {"p<q>": value} per percentile q
        asked for (linear interpolation, NumPy's default). NaN scores are left out."""
        out: Dict[str, Dict[str, float]] = {}
        st = _ffi.PoolStats()
        val = c_double()
        for name, pool in self._pools.items():
            self._call(lib.gpussim_pool_stats(pool.handle, byref(st)), "gpussim_pool_stats")
            entry = {"min": st.min, "max": st.max, "mean": st.mean, "harmonic_mean": st.harmonic_mean}
            for q in percentiles:
                if st.count:
                    self._call(lib.gpussim_pool_percentile(pool.handle, float(q), byref(val)),
                               f"percentile {q}")
                    entry[f"p{q:g}"] = val.value
                else:
                    entry[f"p{q:g}"] = math.nan
            out[name] = entry
        return out

    def reset(self) -> None:
        """Starts the pooled statistics afresh (the library context is kept)."""
        self._pools.clear()
        self.frames = 0


class _Pool:
    """A GpussimPool, destroyed with its Python object."""

    def __init__(self) -> None:
        self.handle = c_void_p()

    def __del__(self) -> None:
        if self.handle:
            lib.gpussim_pool_destroy(byref(self.handle))


def _describe(f: _Frames) -> str:
    shapes = " ".join(f"{h}x{w}" for h, w in (p.shape for p in f.planes))
    n = f"{f.count} frames of " if f.batch else ""
    return f"{n}planes (height x width) {shapes}"
