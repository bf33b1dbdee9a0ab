# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""python -m gpussim DIS REF [--features all] [--scale auto] ...: score_files() from a shell,
printing the pooled scores (or the whole log with --json)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

from . import Error, score_files


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gpussim",
                                 description="Score DIS against REF (any files ffmpeg reads) "
                                             "with the gpussim FFmpeg filter.")
    ap.add_argument("distorted")
    ap.add_argument("reference")
    ap.add_argument("--features", default=None, help="e.g. all, or float_ssim|float_ms_ssim")
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--scale", default=None, help="WxH or auto: scale DIS first (bicubic)")
    ap.add_argument("--align", default=None, choices=["start", "pts"])
    ap.add_argument("--sync-window", type=int, default=None)
    ap.add_argument("--json", action="store_true", help="print the whole log")
    a = ap.parse_args(argv)
    try:
        r = score_files(a.distorted, a.reference, features=a.features, backend=a.backend,
                        scale=a.scale, align=a.align, sync_window=a.sync_window)
    except Error as e:
        print(f"gpussim: {e}", file=sys.stderr)
        return 1
    if a.json:
        json.dump(r.log, sys.stdout, indent=1)
        print()
        return 0
    print(f"{len(r.frames)} frames, backend {r.config.get('backend', '?')}")
    for name, st in r.pooled.items():
        print(f"{name:24s} mean {st['mean']:.6f}  min {st['min']:.6f}  "
              f"harmonic_mean {st['harmonic_mean']:.6f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
