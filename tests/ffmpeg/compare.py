#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""Exact comparisons of gpussim scores between the FFmpeg filter's outputs
(metadata=print, ffprobe -show_frames JSON, the filter's log file), the
fixtures' expected JSON and the gpussim CLI's JSON.

Values are printed with 17 significant digits everywhere, so parsing them
gives the exact doubles: the comparisons are ==, not a tolerance, unless a
tolerance is given (GPU backends, spec section 5).
"""
import json
import math
import sys

PREFIX = "lavfi.gpussim."


def read_metadata(path):
    """metadata=print:file=PATH output -> list of {name: value} per frame."""
    frames = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("frame:"):
                frames.append({})
            elif line.startswith(PREFIX) and "=" in line:
                key, val = line[len(PREFIX):].split("=", 1)
                frames[-1][key] = float(val)
    return frames


def read_probe(path):
    with open(path) as f:
        data = json.load(f)
    out = []
    for fr in data.get("frames", []):
        tags = fr.get("tags", {})
        out.append({k[len(PREFIX):]: float(v) for k, v in tags.items() if k.startswith(PREFIX)})
    return out


def read_expected(path):
    with open(path) as f:
        data = json.load(f)
    return [dict(fr) for fr in data["frames"]]


def read_log(path):
    """libvmaf-layout JSON (the filter's log or the CLI's output)."""
    with open(path) as f:
        data = json.load(f)
    frames = sorted(data["frames"], key=lambda fr: fr["frameNum"])
    nums = [fr["frameNum"] for fr in frames]
    if nums != list(range(len(frames))):
        raise SystemExit(f"{path}: frame numbers {nums} are not 0..n-1")
    return [dict(fr["metrics"]) for fr in frames], data


def read_csv(path):
    import csv
    with open(path) as f:
        rows = list(csv.DictReader(f))
    # frame rows only (pooled rows name their statistic in Frame), scores only
    return [{k: float(v) for k, v in r.items() if k not in ("Frame", "timestamp", "rendition", "name")}
            for r in rows if r["Frame"].isdigit()]


def same(a, b, tol):
    if tol == 0.0:
        return a == b or (math.isnan(a) and math.isnan(b))
    return abs(a - b) <= tol


def compare(name_a, fa, name_b, fb, keys=None, tol=0.0, allow_extra=False):
    """Every key of fb (or `keys`) must be in fa with the same value."""
    if len(fa) != len(fb):
        raise SystemExit(f"{name_a} has {len(fa)} frames, {name_b} has {len(fb)}")
    if not fa:
        raise SystemExit(f"{name_a}: no frames")
    n = 0
    worst = 0.0
    for i, (a, b) in enumerate(zip(fa, fb)):
        ks = keys if keys is not None else sorted(b)
        if not allow_extra and keys is None and sorted(a) != sorted(b):
            raise SystemExit(f"frame {i}: keys differ: {name_a} has {sorted(set(a) - set(b))} extra, "
                             f"{name_b} has {sorted(set(b) - set(a))} extra")
        for k in ks:
            if k not in a:
                raise SystemExit(f"frame {i}: {name_a} has no {k}")
            if k not in b:
                raise SystemExit(f"frame {i}: {name_b} has no {k}")
            if not same(a[k], b[k], tol):
                raise SystemExit(f"frame {i} {k}: {name_a} {a[k]!r} != {name_b} {b[k]!r}"
                                 + (f" (tolerance {tol})" if tol else ""))
            worst = max(worst, abs(a[k] - b[k]))
            n += 1
    what = "exactly equal" if tol == 0.0 else f"equal within {tol} (largest difference {worst:.3g})"
    print(f"{n} values over {len(fa)} frames {what}: {name_a} vs {name_b}")


def loader(spec):
    kind, path = spec.split(":", 1)
    if kind == "meta":
        return read_metadata(path)
    if kind == "probe":
        return read_probe(path)
    if kind == "expected":
        return read_expected(path)
    if kind == "log":
        return read_log(path)[0]
    if kind == "csv":
        return read_csv(path)
    raise SystemExit(f"unknown input kind {kind}")


def main(argv):
    """compare.py A B [--tol X] [--keys k1,k2] [--allow-extra] [--rename-suffix]
    A and B are kind:path with kind in meta, probe, expected, log, csv:
    every value of B must be in A, equal (or within --tol)."""
    args = argv[1:]
    tol = 0.0
    keys = None
    allow_extra = False
    pos = []
    while args:
        a = args.pop(0)
        if a == "--tol":
            tol = float(args.pop(0))
        elif a == "--keys":
            keys = args.pop(0).split(",")
        elif a == "--allow-extra":
            allow_extra = True
        else:
            pos.append(a)
    if len(pos) == 1 and pos[0].startswith("logcheck:"):
        # structural check of a log file: valid JSON, pooled stats consistent
        frames, data = read_log(pos[0].split(":", 1)[1])
        for name, st in data["pooled_metrics"].items():
            vals = [fr[name] for fr in frames]
            if st["min"] != min(vals) or st["max"] != max(vals):
                raise SystemExit(f"pooled {name}: min/max do not match the frames")
            mean = math.fsum(vals) / len(vals)
            if st["mean"] != mean:
                raise SystemExit(f"pooled {name}: mean {st['mean']!r} != exact mean {mean!r}")
        print(f"log: valid JSON, {len(frames)} frames, pooled min/max/mean of "
              f"{len(data['pooled_metrics'])} scores match the frames")
        return 0
    if len(pos) != 2:
        print(main.__doc__, file=sys.stderr)
        return 2
    compare(pos[0], loader(pos[0]), pos[1], loader(pos[1]), keys, tol, allow_extra)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
