# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""ctypes lays structs out from the package's declarations (gpussim/_ffi.py): each size and
field offset must equal the C compiler's for include/gpussim/*.h."""

from __future__ import annotations

import ctypes
import shutil
import subprocess

import pytest

from conftest import SOURCE
from gpussim._ffi import STRUCTS as TYPES

STRUCTS = {
    "gpussim_format": ["width", "height", "bit_depth", "chroma", "packing", "msb_aligned"],
    "gpussim_picture": ["memory", "data", "stride", "fd", "offset", "modifier", "hw", "reserved"],
    "gpussim_params": ["backend", "device", "metrics", "format", "ssim_scale", "enable_lcs",
                       "enable_db", "clip_db", "planes", "threads", "max_in_flight", "log_cb",
                       "log_opaque", "log_level", "hw_device", "ms_ssim_options", "features_named",
                       "nb_distorted", "memory", "device_vendor", "get_device", "get_device_opaque",
                       "reserved"],
    "gpussim_cuda_device": ["cu_context", "cu_stream"],
    "gpussim_result": ["index", "nb_values", "values"],
    "gpussim_pool_stats": ["count", "mean", "harmonic_mean", "min", "max"],
}


def test_struct_layouts_match_the_headers(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "gpussim/gpussim.h"',
             '#include "gpussim/gpussim_cuda.h"', "int main(void) {"]
    for s, fields in STRUCTS.items():
        lines.append(f'printf("{s} %zu\\n", sizeof(struct {s}));')
        for f in fields:
            lines.append(f'printf("{s}.{f} %zu\\n", offsetof(struct {s}, {f}));')
    lines.append("return 0; }")
    (tmp_path / "layout.c").write_text("\n".join(lines))
    subprocess.run([cc, "-I", str(SOURCE / "include"), "-o", str(tmp_path / "layout"),
                    str(tmp_path / "layout.c")], check=True)
    out = subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True, check=True).stdout
    want = dict(line.rsplit(" ", 1) for line in out.splitlines())
    got = {}
    assert set(TYPES) == set(STRUCTS)
    for s, fields in STRUCTS.items():
        t = TYPES[s]
        assert [f[0] for f in t._fields_] == fields, f"struct {s}: fields"
        got[s] = str(ctypes.sizeof(t))
        for f in fields:
            got[f"{s}.{f}"] = str(getattr(t, f).offset)
    assert got == want
