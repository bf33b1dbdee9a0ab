#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""The Python package's overhead per frame on the CPU backend: Scorer.score() of 1080p frames
(NumPy arrays, read in place), split into the time inside libgpussim's calls (submit,
collect: the C library's own work) and the rest (argument checks, picture setup, result
dicts, pooling).

    python3 python/bench/bench_overhead.py [--frames 30] [--threads 1] [--depth 8]

Median per frame after 3 warm-up frames; wall-clock time (time.perf_counter).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any, Dict, List

import numpy as np

import gpussim
from gpussim import _scorer


class TimedLib:
    """Forwards to the library, adding the time spent in each call to `inside`."""

    def __init__(self, lib: Any) -> None:
        self._lib = lib
        self.inside = 0.0

    def __getattr__(self, name: str) -> Any:
        fn = getattr(self._lib, name)

        def timed(*args: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args)
            finally:
                self.inside += time.perf_counter() - t0
        return timed


def measure(features: List[str], ref: List[np.ndarray], dis: List[np.ndarray], threads: int,
            depth: int, warmup: int = 3) -> Dict[str, float]:
    s = gpussim.Scorer(features=features, backend="cpu", threads=threads, bitdepth=depth)
    timed = TimedLib(_scorer.lib)
    real = _scorer.lib
    _scorer.lib = timed
    try:
        totals, insides = [], []
        for i, (r, d) in enumerate(zip(ref, dis)):
            timed.inside = 0.0
            t0 = time.perf_counter()
            s.score(r, d)
            total = time.perf_counter() - t0
            if i >= warmup:
                totals.append(total)
                insides.append(timed.inside)
    finally:
        _scorer.lib = real
    total = statistics.median(totals) * 1e3
    inside = statistics.median(insides) * 1e3
    over = statistics.median([t - i for t, i in zip(totals, insides)]) * 1e3
    return {"total": total, "inside": inside, "overhead": over}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--width", type=int, default=1920)
    ap.add_argument("--height", type=int, default=1080)
    a = ap.parse_args()
    rng = np.random.default_rng(5)
    dt = np.uint8 if a.depth == 8 else np.uint16
    top = (1 << a.depth) - 1
    base = rng.integers(0, top + 1, (a.height, a.width)).astype(dt)
    ref, dis = [], []
    for _ in range(a.frames):
        r = np.roll(base, int(rng.integers(0, 64)), axis=1)
        noise = rng.integers(-(top // 32), top // 32 + 1, r.shape)
        ref.append(r)
        dis.append(np.clip(r.astype(np.int32) + noise, 0, top).astype(dt))
    print(f"Scorer.score() on the CPU backend, {a.width}x{a.height} {a.depth}-bit luma, "
          f"{a.threads} worker thread(s), median of {a.frames - 3} frames (ms per frame)")
    print("| features | score() | inside libgpussim | Python overhead |")
    print("|---|---:|---:|---:|")
    for feats in (["float_ssim"], ["float_ms_ssim"], ["all"]):
        m = measure(feats, ref, dis, a.threads, a.depth)
        print(f"| {'|'.join(feats)} | {m['total']:.3f} | {m['inside']:.3f} | {m['overhead']:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
