# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""Shared fixtures: the checkout, the C tool (the oracle), the libvmaf fixture frames.

Environment (tests/repo/test_python.sh sets them; defaults for a run from the checkout):
  GPUSSIM_SOURCE_DIR  the checkout (default: python/..)
  GPUSSIM_CLI         the built gpussim tool (default: build/gpussim)
  GPUSSIM_FIXTURES    tests/fixtures
  GPUSSIM_FFMPEG      the ffmpeg with the filter (default: build/_ffmpeg/ffmpeg)
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import numpy as np
import pytest

SOURCE = Path(os.environ.get("GPUSSIM_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = Path(os.environ.get("GPUSSIM_CLI", SOURCE / "build" / "gpussim"))
FIXTURES = Path(os.environ.get("GPUSSIM_FIXTURES", SOURCE / "tests" / "fixtures")) / "src01_576x324_3f"
W, H, NFRAMES = 576, 324, 3
PIXFMT = {8: "yuv420p", 10: "yuv420p10le", 12: "yuv420p12le", 16: "yuv420p16le"}
#: every score the library has, with the lcs terms: the fixtures' keys
ALL_LCS = ["float_ssim:enable_lcs=true", "float_ms_ssim:enable_lcs=true", "float_ansnr", "ssim"]

Planes = Tuple[np.ndarray, np.ndarray, np.ndarray]


def read_yuv(path: Path, w: int, h: int, depth: int, cw: int, ch: int) -> List[Planes]:
    """The frames of a raw planar file: (Y, U, V) per frame."""
    dt = np.uint8 if depth == 8 else np.dtype("<u2")
    data = np.fromfile(path, dtype=dt)
    size = w * h + 2 * cw * ch
    assert data.size % size == 0, f"{path}: not a whole number of {w}x{h} frames"
    out = []
    for f in range(data.size // size):
        fr = data[f * size:(f + 1) * size]
        out.append((fr[:w * h].reshape(h, w), fr[w * h:w * h + cw * ch].reshape(ch, cw),
                    fr[w * h + cw * ch:].reshape(ch, cw)))
    return out


def fixture_frames(depth: int, which: str) -> List[Planes]:
    """The fixture's reference ("00") or distorted ("01") frames at a depth."""
    path = FIXTURES / f"src01_hrc{which}_576x324_3f.{PIXFMT[depth]}.yuv"
    if not path.is_file():
        pytest.fail(f"the fixtures are missing: no {path}")
    return read_yuv(path, W, H, depth, W // 2, H // 2)


def need_cli() -> Path:
    if not os.access(CLI, os.X_OK):
        pytest.fail(f"the gpussim tool is not built: no {CLI} (./scripts/build.sh)")
    return CLI


def cli_json(ref: Path, dis: Path, w: int, h: int, depth: int, chroma: str,
             features: Sequence[str], extra: Sequence[str] = ()) -> Dict:
    """The C tool's JSON log for two raw files, on the CPU backend."""
    cmd = [str(need_cli()), "-r", str(ref), "-d", str(dis), "-w", str(w), "-h", str(h),
           "-p", chroma, "-b", str(depth), "--backend", "cpu", "-q"]
    for f in features:
        cmd += ["--feature", f.replace(":", "=", 1)]
    cmd += list(extra)
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def write_yuv(path: Path, frames: Sequence[Sequence[np.ndarray]]) -> None:
    with open(path, "wb") as fh:
        for planes in frames:
            for p in planes:
                fh.write(np.ascontiguousarray(p).astype(p.dtype.newbyteorder("<")).tobytes())


def expected(depth: int) -> Dict:
    return json.loads((FIXTURES / f"expected_{depth}bit.json").read_text())
