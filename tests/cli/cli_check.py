#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""Helpers for tests/cli/test_cli.sh: make inputs from the raw fixtures and
check the gpussim CLI's output against libvmaf's values.

Every check prints what differs and exits 1 on a mismatch, 0 when all holds.
Values are compared with ==: the CLI prints 17 significant digits, so a
double that round-trips is equal to libvmaf's double exactly.
"""
import csv
import json
import math
import sys


def fail(msg):
    print("    FAIL: " + msg)
    sys.exit(1)


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail("%s is not valid JSON: %s" % (path, e))


def frame_size(w, h, chroma, bps):
    cw, ch = {"420": ((w + 1) // 2, (h + 1) // 2), "422": ((w + 1) // 2, h),
              "444": (w, h), "400": (0, 0)}[chroma]
    return (w * h + 2 * cw * ch) * bps


# ---- input makers ------------------------------------------------------------

def cmd_y4m(src, dst, w, h, chroma, bps, header, frame_line="FRAME"):
    """Wraps a raw planar file into y4m: header line, then frame_line before each frame."""
    n = frame_size(int(w), int(h), chroma, int(bps))
    data = open(src, "rb").read()
    with open(dst, "wb") as out:
        out.write(header.encode() + b"\n")
        for off in range(0, len(data), n):
            out.write(frame_line.encode() + b"\n")
            out.write(data[off:off + n])


def cmd_relayout(src, dst, w, h, bps, chroma):
    """Rewrites 4:2:0 frames as gray (400) or with 4:2:2/4:4:4 chroma planes.
    The metrics read luma only, so libvmaf's values stay the same; the chroma
    content is a ramp so a wrong plane offset shows up as a luma change."""
    w, h, bps = int(w), int(h), int(bps)
    n420 = frame_size(w, h, "420", bps)
    luma = w * h * bps
    data = open(src, "rb").read()
    extra = frame_size(w, h, chroma, bps) - luma
    ramp = bytes((i * 7) & 0xff for i in range(extra)) if bps == 1 else \
        b"".join(((i * 7) & 0x3f).to_bytes(2, "little") for i in range(extra // 2))
    with open(dst, "wb") as out:
        for off in range(0, len(data), n420):
            out.write(data[off:off + luma])
            out.write(ramp)


def cmd_plane(src, dst, w, h, bps, plane):
    """Extracts plane 1 (U) or 2 (V) of 4:2:0 frames as a gray file of the chroma size."""
    w, h, bps, plane = int(w), int(h), int(bps), int(plane)
    n420 = frame_size(w, h, "420", bps)
    luma = w * h * bps
    csize = ((w + 1) // 2) * ((h + 1) // 2) * bps
    off = luma + (plane - 1) * csize
    data = open(src, "rb").read()
    with open(dst, "wb") as out:
        for f in range(0, len(data), n420):
            out.write(data[f + off:f + off + csize])


def lcg_bytes(seed, n):
    """Deterministic noise (the 64-bit LCG of Knuth's MMIX), top byte of each step."""
    x = seed
    out = bytearray(n)
    for i in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        out[i] = x >> 56
    return bytes(out)


def cmd_noise(dst, w, h, frames, seed):
    """A gray 8-bit y4m of random-noise frames."""
    w, h, frames, seed = int(w), int(h), int(frames), int(seed)
    with open(dst, "wb") as out:
        out.write(b"YUV4MPEG2 W%d H%d Cmono\n" % (w, h))
        for k in range(frames):
            out.write(b"FRAME\n")
            out.write(lcg_bytes(seed * 1000 + k, w * h))


def cmd_repeat(src):
    """Writes src to stdout over and over, until the reader goes away."""
    data = open(src, "rb").read()
    out = sys.stdout.buffer
    try:
        while True:
            out.write(data)
            out.flush()
    except (BrokenPipeError, OSError):
        pass
    try:
        sys.stdout = None  # no flush error at exit
    except Exception:
        pass


def cmd_poke16(path, offset, value):
    """Overwrites the 16-bit little-endian word at byte offset with value."""
    with open(path, "r+b") as f:
        f.seek(int(offset))
        f.write(int(value).to_bytes(2, "little"))


def cmd_count(path, needle, n):
    """Exit 0 once path holds needle at least n times (for polling)."""
    try:
        text = open(path, "rb").read().decode("utf-8", "replace")
    except OSError:
        sys.exit(1)
    sys.exit(0 if text.count(needle) >= int(n) else 1)


def read_gpussim_json(path):
    """README's recipe for a gpussim JSON log, also one of a killed run."""
    text = open(path).read()
    try:
        return json.loads(text)
    except ValueError:
        pass
    # killed mid-run: keep the frames written so far (each is flushed whole)
    end = text.find("\n  ],")
    if end < 0:
        end = text.rfind("\n    }")
        end = end + 6 if end >= 0 else text.index('"frames": [') + 11
    return json.loads(text[:end] + "\n  ]\n}")


def cmd_prefix(out_path, exp_path, mode):
    """A run stopped early: N > 0 frames, each equal to the expected sequence's
    frame (repeated as in expect); mode 'complete' also wants valid JSON with
    the pooled stats over the N frames, 'killed' repairs the file first."""
    if mode == "killed":
        try:
            json.load(open(out_path))
            fail("the killed run's file is complete JSON; expected it cut off")
        except ValueError:
            pass
        out = read_gpussim_json(out_path)
    else:
        out = load_json(out_path)
    exp = load_json(exp_path)["frames"]
    frames = out["frames"]
    if not frames:
        fail("no frames in the output of the stopped run")
    for i, fr in enumerate(frames):
        if fr.get("frameNum") != i:
            fail("frame %d has frameNum %r" % (i, fr.get("frameNum")))
        for k, v in exp[i % len(exp)].items():
            if fr["metrics"].get(k) != v:
                fail("frame %d %s = %r, libvmaf %r" % (i, k, fr["metrics"].get(k), v))
    if mode == "complete":
        keys = list(exp[0].keys())
        check_pooled(out, keys, len(frames))
        left = out.get("pooled_metrics_frames_left_out")
        if left != {k: 0 for k in keys}:
            fail("pooled_metrics_frames_left_out is %r" % left)
    print("    %d frames (%s run) equal libvmaf's first %d" % (len(frames), mode, len(frames)))
    print("FRAMES=%d" % len(frames))


def cmd_nan(out_path, key, nan_frames, nframes):
    """key is null on exactly the frames listed (comma-separated), the pool is
    over the other frames and pooled_metrics_frames_left_out says how many."""
    out = load_json(out_path)
    nan_frames = [int(x) for x in nan_frames.split(",")]
    frames = out["frames"]
    if len(frames) != int(nframes):
        fail("%d frames, expected %s" % (len(frames), nframes))
    got = [i for i, fr in enumerate(frames) if fr["metrics"][key] is None]
    if got != nan_frames:
        fail("%s is null on frames %r, expected %r" % (key, got, nan_frames))
    vals = [fr["metrics"][key] for fr in frames if fr["metrics"][key] is not None]
    p = out["pooled_metrics"][key]
    if p["min"] != min(vals) or p["max"] != max(vals) or p["mean"] != math.fsum(vals) / len(vals):
        fail("pooled %s %r is not over the %d finite frames %r" % (key, p, len(vals), vals))
    left = out["pooled_metrics_frames_left_out"]
    want = {k: (len(nan_frames) if k == key else 0) for k in frames[0]["metrics"]}
    if left != want:
        fail("pooled_metrics_frames_left_out %r, expected %r" % (left, want))
    print("    %s null on frames %r, pooled over the other %d, left out %d" % (key, got, len(vals), len(got)))


def cmd_same(a_path, b_path):
    """Two outputs hold the same frames and pooled values (fps aside)."""
    a, b = load_json(a_path), load_json(b_path)
    if a["frames"] != b["frames"] or a["pooled_metrics"] != b["pooled_metrics"]:
        fail("%s and %s differ" % (a_path, b_path))
    print("    same %d frames and pooled values" % len(a["frames"]))


def cmd_printable(path):
    """path holds only printable ASCII and newlines (no raw control bytes)."""
    data = open(path, "rb").read()
    bad = [b for b in data if (b < 0x20 and b != 0x0a) or b > 0x7e]
    if bad:
        fail("%s holds raw bytes %r" % (path, bytes(bad[:16])))
    print("    %s: printable text only" % path)


def cmd_suffix_equal(out_path, other_path, suffix, keys):
    """out's '<key><suffix>' values equal other's '<key>' values on every frame."""
    a = load_json(out_path)["frames"]
    b = load_json(other_path)["frames"]
    if len(a) != len(b):
        fail("%d vs %d frames" % (len(a), len(b)))
    keys = keys.split(",")
    for i in range(len(a)):
        for k in keys:
            if a[i]["metrics"][k + suffix] != b[i]["metrics"][k]:
                fail("frame %d %s%s = %r, the plane scored alone gives %r"
                     % (i, k, suffix, a[i]["metrics"][k + suffix], b[i]["metrics"][k]))
    print("    %s keys equal the plane scored alone as gray, %d frames" % (suffix, len(a)))


# ---- output checks -----------------------------------------------------------

def check_pooled(out, keys, nframes):
    pooled = out.get("pooled_metrics")
    if not isinstance(pooled, dict):
        fail("no pooled_metrics object")
    for k in keys:
        vals = [fr["metrics"][k] for fr in out["frames"]]
        p = pooled.get(k)
        if p is None:
            fail("pooled_metrics has no %s" % k)
        if not vals:
            if any(p[f] is not None for f in ("min", "max", "mean", "harmonic_mean")):
                fail("%s pooled over no frames is %r, expected nulls" % (k, p))
            continue
        if any(v is None for v in vals):
            continue  # checked by the caller where non-finite values are expected
        if p["min"] != min(vals) or p["max"] != max(vals):
            fail("%s pooled min/max %r/%r, frames give %r/%r" % (k, p["min"], p["max"], min(vals), max(vals)))
        mean = math.fsum(vals) / len(vals)
        if p["mean"] != mean:
            fail("%s pooled mean %r, fsum/n of the frames is %r" % (k, p["mean"], mean))
        hm = len(vals) / math.fsum(1.0 / (v + 1.0) for v in vals) - 1.0
        if abs(p["harmonic_mean"] - hm) > 1e-12 * max(1.0, abs(hm)):
            fail("%s pooled harmonic_mean %r, frames give %r" % (k, p["harmonic_mean"], hm))


def cmd_expect(out_path, exp_path, nframes=None, keys=None):
    """The output has exactly nframes frames (default: as many as expected;
    more repeat the expected sequence, for inputs made by concatenating the
    fixture) with exactly the keys given (default: every key of the expected
    file), equal values, and pooled stats over those frames."""
    out = load_json(out_path)
    exp = load_json(exp_path)["frames"]
    nframes = len(exp) if nframes in (None, "", "all") else int(nframes)
    keys = list(exp[0].keys()) if keys in (None, "", "all") else keys.split(",")
    for field in ("version", "fps", "frames", "pooled_metrics", "aggregate_metrics"):
        if field not in out:
            fail("output has no '%s' (libvmaf layout)" % field)
    frames = out["frames"]
    if len(frames) != nframes:
        fail("%d frames in the output, expected %d" % (len(frames), nframes))
    for i, fr in enumerate(frames):
        if fr.get("frameNum") != i:
            fail("frame %d has frameNum %r" % (i, fr.get("frameNum")))
        m = fr["metrics"]
        if sorted(m.keys()) != sorted(keys):
            fail("frame %d keys %s, expected %s" % (i, sorted(m.keys()), sorted(keys)))
        e = exp[i % len(exp)]
        for k in keys:
            if m[k] != e[k]:
                fail("frame %d %s = %r, libvmaf %r" % (i, k, m[k], e[k]))
    if sorted(out["pooled_metrics"].keys()) != sorted(keys):
        fail("pooled keys %s, expected %s" % (sorted(out["pooled_metrics"].keys()), sorted(keys)))
    check_pooled(out, keys, nframes)
    print("    %d frames x %d keys equal libvmaf; pooled mean/min/max exact" % (nframes, len(keys)))


def cmd_values(out_path, exp_path, nframes, keys):
    """The listed keys equal libvmaf's on every frame (other keys not checked)."""
    out = load_json(out_path)
    exp = load_json(exp_path)["frames"]
    nframes = len(exp) if nframes == "all" else int(nframes)
    keys = keys.split(",")
    if len(out["frames"]) != nframes:
        fail("%d frames in the output, expected %d" % (len(out["frames"]), nframes))
    for i, fr in enumerate(out["frames"]):
        for k in keys:
            if fr["metrics"].get(k) != exp[i % len(exp)][k]:
                fail("frame %d %s = %r, libvmaf %r" % (i, k, fr["metrics"].get(k), exp[i % len(exp)][k]))
    print("    %d keys equal libvmaf on %d frames" % (len(keys), nframes))


def cmd_keys(out_path, keys):
    """The output's metric keys are exactly keys, in this order."""
    out = load_json(out_path)
    want = keys.split(",")
    for fr in out["frames"]:
        got = list(fr["metrics"].keys())
        if got != want:
            fail("frame %d keys %s, expected %s" % (fr["frameNum"], got, want))
    print("    keys in order: %s" % ",".join(want))


def cmd_csv(csv_path, json_path):
    """CSV header and every value equal the JSON output's: a frame row per
    frame (an empty timestamp cell: the CLI knows no frame rate), then the
    pooled rows (Frame = the statistic) equal to pooled_metrics."""
    out = load_json(json_path)
    with open(csv_path, newline="") as f:
        rows = list(csv.reader(f))
    names = list(out["frames"][0]["metrics"].keys())
    if rows[0] != ["Frame", "timestamp"] + names:
        fail("CSV header %s, expected %s" % (rows[0], ["Frame", "timestamp"] + names))
    frames = [r for r in rows[1:] if r[0].isdigit()]
    pooled = rows[1 + len(frames):]
    if len(frames) != len(out["frames"]):
        fail("%d CSV frame rows, %d JSON frames" % (len(frames), len(out["frames"])))
    for i, row in enumerate(frames):
        if int(row[0]) != i or row[1] != "":
            fail("CSV row %d has frame %s, timestamp %r" % (i, row[0], row[1]))
        for k, cell in zip(names, row[2:]):
            if float(cell) != out["frames"][i]["metrics"][k]:
                fail("CSV frame %d %s = %s, JSON %r" % (i, k, cell, out["frames"][i]["metrics"][k]))
    stats = list(out["pooled_metrics"][names[0]])
    if [r[0] for r in pooled] != stats:
        fail("CSV pooled rows %s, expected %s" % ([r[0] for r in pooled], stats))
    for row in pooled:
        for k, cell in zip(names, row[2:]):
            if float(cell) != out["pooled_metrics"][k][row[0]]:
                fail("CSV pooled %s %s = %s, JSON %r" % (row[0], k, cell, out["pooled_metrics"][k][row[0]]))
    print("    CSV: %d rows x %d values and %d pooled rows equal the JSON" % (len(frames), len(names), len(pooled)))


def cmd_db(out_path, exp_path, key, clip, w, h, bpc):
    """key holds libvmaf's dB conversion of the expected value:
    min(-10*log10(1 - v), max_db), max_db = ceil(10*log10(peak^2 / (0.5/(w*h)))) with clip_db."""
    out = load_json(out_path)
    exp = load_json(exp_path)["frames"]
    peak = (1 << int(bpc)) - 1
    max_db = math.ceil(10 * math.log10(peak * peak / (0.5 / (int(w) * int(h))))) if clip == "clip" else math.inf
    vals = []
    for i, fr in enumerate(out["frames"]):
        v = exp[i][key]
        want = -10 * math.log10(1 - v) if v < 1 else math.inf
        want = min(want, max_db)
        got = fr["metrics"][key]
        if math.isinf(want):
            if got is not None:
                fail("frame %d %s = %r, expected null (infinite dB)" % (i, key, got))
        elif got != want:
            fail("frame %d %s = %r dB, expected %r" % (i, key, got, want))
        vals.append(want)
    p = out["pooled_metrics"][key]
    if any(math.isinf(v) for v in vals):
        if p["mean"] is not None:
            fail("pooled mean of infinite dB values is %r, expected null" % p["mean"])
    elif p["mean"] != math.fsum(vals) / len(vals):
        fail("pooled %s mean %r, expected %r" % (key, p["mean"], math.fsum(vals) / len(vals)))
    print("    %s in dB (%s): %s" % (key, clip, ", ".join("null" if math.isinf(v) else repr(v) for v in vals)))


def cmd_same_luma(out_path, exp_path, keys):
    """The luma keys equal libvmaf's and every '.u'/'.v' twin is present and finite."""
    out = load_json(out_path)
    exp = load_json(exp_path)["frames"]
    keys = keys.split(",")
    for i, fr in enumerate(out["frames"]):
        m = fr["metrics"]
        for k in keys:
            if m[k] != exp[i][k]:
                fail("frame %d %s = %r, libvmaf %r" % (i, k, m[k], exp[i][k]))
            for sfx in (".u", ".v"):
                if not isinstance(m.get(k + sfx), (int, float)) or not math.isfinite(m[k + sfx]):
                    fail("frame %d has no finite %s" % (i, k + sfx))
    print("    luma equal libvmaf, .u/.v present on %d frames" % len(out["frames"]))


def main():
    cmds = {"y4m": cmd_y4m, "relayout": cmd_relayout, "expect": cmd_expect, "keys": cmd_keys, "values": cmd_values,
            "csv": cmd_csv, "db": cmd_db, "same_luma": cmd_same_luma,
            "plane": cmd_plane, "suffix_equal": cmd_suffix_equal, "noise": cmd_noise,
            "repeat": cmd_repeat, "poke16": cmd_poke16, "count": cmd_count, "prefix": cmd_prefix,
            "nan": cmd_nan, "same": cmd_same, "printable": cmd_printable}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        fail("usage: cli_check.py %s ARGS" % "|".join(cmds))
    cmds[sys.argv[1]](*sys.argv[2:])


if __name__ == "__main__":
    main()
