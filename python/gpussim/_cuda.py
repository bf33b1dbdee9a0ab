# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""CUDA arrays: reading __cuda_array_interface__ and DLPack, and the driver calls that find
the CUcontext of a device pointer (ctypes). libcuda is opened only when a CUDA array is
scored."""

from __future__ import annotations

import ctypes
from ctypes import POINTER, Structure, byref, c_char_p, c_int, c_int32, c_int64, c_uint, c_uint8, \
    c_uint16, c_uint64, c_ulonglong, c_void_p
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from ._errors import Error, InvalidInputError

KDL_CPU = 1
KDL_CUDA = 2
KDL_CUDA_MANAGED = 13
_KDL_INT = 0
_KDL_UINT = 1


class _DLDevice(Structure):
    _fields_ = [("device_type", c_int32), ("device_id", c_int32)]


class _DLDataType(Structure):
    _fields_ = [("code", c_uint8), ("bits", c_uint8), ("lanes", c_uint16)]


class _DLTensor(Structure):
    _fields_ = [("data", c_void_p), ("device", _DLDevice), ("ndim", c_int32),
                ("dtype", _DLDataType), ("shape", POINTER(c_int64)), ("strides", POINTER(c_int64)),
                ("byte_offset", c_uint64)]


class _DLManagedTensor(Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", c_void_p), ("deleter", c_void_p)]


_CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2
_CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9
_CU_MEMORYTYPE_HOST = 1

_libcuda: Any = None


def _driver() -> Any:
    global _libcuda
    if _libcuda is None:
        try:
            lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            raise Error(f"a CUDA array needs the NVIDIA driver (libcuda.so.1): {e}") from None
        lib.cuInit.argtypes = [c_uint]
        lib.cuDeviceGet.argtypes = [POINTER(c_int), c_int]
        lib.cuDevicePrimaryCtxRetain.argtypes = [POINTER(c_void_p), c_int]
        lib.cuDevicePrimaryCtxRelease_v2.argtypes = [c_int]
        lib.cuPointerGetAttribute.argtypes = [c_void_p, c_int, c_ulonglong]
        lib.cuGetErrorString.argtypes = [c_int, POINTER(c_char_p)]
        _check(lib, lib.cuInit(0), "cuInit")
        _libcuda = lib
    return _libcuda


def _check(lib: Any, r: int, what: str) -> None:
    if r != 0:
        s = c_char_p()
        name = s.value.decode() if lib.cuGetErrorString(r, byref(s)) == 0 and s.value else ""
        raise Error(f"{what} failed: CUDA error {r} {name}".rstrip())


def pointer_device(ptr: int) -> int:
    """The ordinal of the device ptr lives on (device or managed memory)."""
    lib = _driver()
    mt = c_uint()
    _check(lib, lib.cuPointerGetAttribute(byref(mt), _CU_POINTER_ATTRIBUTE_MEMORY_TYPE, ptr),
           "cuPointerGetAttribute(MEMORY_TYPE)")
    if mt.value == _CU_MEMORYTYPE_HOST:
        raise InvalidInputError("the CUDA array is in pinned host memory; pass it as a host array")
    ordinal = c_int()
    _check(lib, lib.cuPointerGetAttribute(byref(ordinal), _CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr),
           "cuPointerGetAttribute(DEVICE_ORDINAL)")
    return ordinal.value


class PrimaryContext:
    """A retained reference to a device's primary context: the one PyTorch, CuPy and the
    CUDA runtime use, so the library works in the caller's context."""

    def __init__(self, ordinal: int) -> None:
        lib = _driver()
        dev = c_int()
        _check(lib, lib.cuDeviceGet(byref(dev), ordinal), f"cuDeviceGet({ordinal})")
        ctx = c_void_p()
        _check(lib, lib.cuDevicePrimaryCtxRetain(byref(ctx), dev), "cuDevicePrimaryCtxRetain")
        self.ordinal = ordinal
        self._dev = dev.value
        self.handle: Optional[int] = ctx.value

    def release(self) -> None:
        if self.handle is not None:
            _libcuda.cuDevicePrimaryCtxRelease_v2(self._dev)
            self.handle = None


@dataclass
class DeviceArray:
    """A CUDA array as the library needs it: base pointer, shape and byte strides."""

    ptr: int
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]  # bytes
    itemsize: int
    device: Optional[int]  # None: ask the driver
    stream: Optional[int]  # None: the legacy default stream
    keepalive: Any


def _torch_stream(obj: Any) -> Optional[int]:
    """The current stream of a torch tensor's device: the stream its writes were queued on."""
    mod = type(obj).__module__
    if not mod.startswith("torch"):
        return None
    import torch  # the object is a torch tensor: torch is there

    return int(torch.cuda.current_stream(obj.device).cuda_stream)


def probe(obj: Any) -> Optional[Dict[str, Any]]:
    """None for an array in host memory; for a CUDA array its __cuda_array_interface__, or an
    empty dict when it speaks DLPack only. (Read once per call: PyTorch builds the interface
    anew at each access.)"""
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        return cai
    dev = getattr(obj, "__dlpack_device__", None)
    if dev is None:
        return None
    try:
        kind = int(dev()[0])
    except Exception:
        return None
    return {} if kind in (KDL_CUDA, KDL_CUDA_MANAGED) else None


def device_array(obj: Any, stream: Optional[int], cai: Dict[str, Any]) -> DeviceArray:
    """Reads a CUDA array through __cuda_array_interface__ (PyTorch, CuPy, Numba), else
    DLPack (JAX and any array-API library). stream: the caller's stream, else the torch
    tensor's current stream, the interface's (version 3), or the legacy default stream.
    cai: probe(obj)'s answer."""
    if stream is None:
        stream = _torch_stream(obj)
    if cai:
        typestr = cai["typestr"]
        if typestr[1:] not in ("u1", "u2", "i2") or typestr[0] == ">":
            raise InvalidInputError(
                f"CUDA array of type {typestr}: pass uint8 (8-bit) or little-endian uint16 "
                "(or int16) samples")
        itemsize = int(typestr[2:])
        shape = tuple(int(n) for n in cai["shape"])
        strides = cai.get("strides")
        if strides is None:
            strides = _contiguous(shape, itemsize)
        if cai.get("mask") is not None:
            raise InvalidInputError("masked CUDA arrays are not supported")
        if stream is None and cai.get("version", 0) >= 3:
            s = cai.get("stream")
            # 1: the legacy default stream, 2: per-thread default (CUDA's own handle value)
            stream = None if s in (None, 1) else int(s)
        return DeviceArray(int(cai["data"][0]), shape, tuple(int(s) for s in strides), itemsize,
                           None, stream or None, obj)
    # DLPack: the producer orders its work before the stream we name
    kind, dev_id = obj.__dlpack_device__()
    capsule = obj.__dlpack__(stream=1 if stream is None else stream)
    pyapi = ctypes.pythonapi
    pyapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
    pyapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    addr = pyapi.PyCapsule_GetPointer(capsule, b"dltensor")
    t = _DLManagedTensor.from_address(addr).dl_tensor
    if not ((t.dtype.code == _KDL_UINT and t.dtype.bits in (8, 16)) or
            (t.dtype.code == _KDL_INT and t.dtype.bits == 16)) or t.dtype.lanes != 1:
        raise InvalidInputError(
            f"DLPack array of type code {t.dtype.code} bits {t.dtype.bits}: pass uint8 or uint16 samples")
    itemsize = t.dtype.bits // 8
    shape = tuple(int(t.shape[i]) for i in range(t.ndim))
    if not t.strides:
        strides = _contiguous(shape, itemsize)
    else:
        strides = tuple(int(t.strides[i]) * itemsize for i in range(t.ndim))
    ptr = (t.data or 0) + int(t.byte_offset)
    # the capsule, unconsumed, keeps the tensor alive and calls its deleter when freed
    return DeviceArray(ptr, shape, strides, itemsize, int(dev_id), stream or None, (obj, capsule))


def _contiguous(shape: Tuple[int, ...], itemsize: int) -> Tuple[int, ...]:
    strides = []
    acc = itemsize
    for n in reversed(shape):
        strides.append(acc)
        acc *= n
    return tuple(reversed(strides))
