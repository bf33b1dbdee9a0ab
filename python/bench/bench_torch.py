#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""MS-SSIM of a batch of 1080p frames already in CUDA memory (PyTorch tensors): gpussim's
CUDA backend, in place, against torchmetrics' MS-SSIM on the same tensors.

    python3 python/bench/bench_torch.py [--batch 8] [--iters 50] [--warmup 5]

Median time per batch over --iters runs after --warmup, measured with CUDA events on the
current stream (score() returns once the results are on the host). torchmetrics computes
its own MS-SSIM (Gaussian window, float input, other downsampling), not libvmaf's: its
numbers differ, and the table prints both for the first frame.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import gpussim

try:
    import torch
except ImportError:
    torch = None


def time_batches(fn, iters: int, warmup: int) -> float:
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--width", type=int, default=1920)
    ap.add_argument("--height", type=int, default=1080)
    a = ap.parse_args()
    if torch is None or not torch.cuda.is_available():
        print("bench_torch: needs PyTorch and a CUDA device", file=sys.stderr)
        return 77
    n, h, w = a.batch, a.height, a.width
    g = torch.Generator(device="cuda").manual_seed(7)
    # smooth content with detail (a blurred noise field) and a noisy, slightly blurred copy
    noise = torch.rand((n, 1, h // 8, w // 8), device="cuda", generator=g)
    base = torch.nn.functional.interpolate(noise, size=(h, w), mode="bicubic", align_corners=False)
    base = base + 0.05 * torch.rand((n, 1, h, w), device="cuda", generator=g)
    ref = (base.clamp(0, 1) * 255).round().to(torch.uint8)[:, 0].contiguous()
    dis_f = torch.nn.functional.avg_pool2d(ref[:, None].float(), 3, stride=1, padding=1)
    dis_f = dis_f + 6 * torch.randn(dis_f.shape, device="cuda", generator=g)
    dis = dis_f.clamp(0, 255).round().to(torch.uint8)[:, 0].contiguous()

    s = gpussim.Scorer(features=["float_ms_ssim"], backend="cuda")
    first = s.score(ref, dis)
    assert s.memory == "cuda" and s.backend_name == "cuda"
    t_gs = time_batches(lambda: s.score(ref, dis), a.iters, a.warmup)

    # the same calls, split into the time inside libgpussim and the Python around it
    from bench_overhead import TimedLib  # python/bench/, beside this script
    from gpussim import _scorer

    timed = TimedLib(_scorer.lib)
    _scorer.lib = timed
    try:
        walls, insides = [], []
        for _ in range(a.iters):
            timed.inside = 0.0
            t0 = time.perf_counter()
            s.score(ref, dis)
            walls.append(time.perf_counter() - t0)
            insides.append(timed.inside)
    finally:
        _scorer.lib = timed._lib
    over_ms = statistics.median([w - i for w, i in zip(walls, insides)]) * 1e3

    rows = [("gpussim (CUDA, uint8 in place)", t_gs, first[0]["float_ms_ssim"])]
    try:
        from torchmetrics.functional.image import multiscale_structural_similarity_index_measure as tm_msssim
    except ImportError:
        tm_msssim = None
    if tm_msssim is not None:
        ref_f = ref[:, None].float()
        dis_ff = dis[:, None].float()

        def run_tm():
            return tm_msssim(dis_ff, ref_f, data_range=255.0, reduction="none")

        tm_first = float(run_tm()[0])
        t_tm = time_batches(run_tm, a.iters, a.warmup)
        rows.append(("torchmetrics MS-SSIM (float32 input)", t_tm, tm_first))
    print(f"MS-SSIM, batch of {n} frames {w}x{h} on {torch.cuda.get_device_name()}, "
          f"median of {a.iters} after {a.warmup} warm-up (CUDA events)")
    print(f"| {'method':38s} | ms / batch | frames/s | frame 0 score |")
    print(f"|{'-' * 40}|-----------:|---------:|--------------:|")
    for name, t, v in rows:
        print(f"| {name:38s} | {t:10.3f} | {n * 1000 / t:8.1f} | {v:13.6f} |")
    print(f"gpussim's Python overhead (outside libgpussim's calls): {over_ms:.3f} ms per batch "
          f"({over_ms * 1000 / n:.1f} us per frame)")
    if len(rows) == 2:
        print(f"gpussim is {rows[1][1] / rows[0][1]:.2f}x faster per frame than torchmetrics")
        print("note: the scores differ: gpussim computes libvmaf's float_ms_ssim (bit-identical to "
              "libvmaf's CPU code); torchmetrics computes its own MS-SSIM variant")
    else:
        print("torchmetrics is not installed: gpussim only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
