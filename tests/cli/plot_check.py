#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""Helpers for tests/cli/test_plot.sh (and tests/cli/test_run_chunks.sh): make small
y4m inputs, check `gpussim plot` reports against the JSON logs they draw,
and check a browser's screenshot.

Every check prints what differs and exits 1 on a mismatch, 0 when all holds.
"""
import html.parser
import json
import math
import os
import random
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_check import fail, load_json  # noqa: E402  the CLI tests' helpers


# ---- inputs ------------------------------------------------------------------

def cmd_y4m(dst, w, h, frames, seed, noise, bad=""):
    """An 8-bit 4:2:0 y4m: a moving ramp, plus noise of amplitude noise
    (4x on the frames listed in bad, comma separated) when noise > 0."""
    w, h, frames, seed, noise = int(w), int(h), int(frames), int(seed), int(noise)
    bad = {int(x) for x in bad.split(",") if x}
    chroma = bytes([128]) * (2 * ((w + 1) // 2) * ((h + 1) // 2))
    with open(dst, "wb") as f:
        f.write(b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n" % (w, h))
        for i in range(frames):
            y = bytearray((x * 3 + r * 2 + i * 5) & 255 for r in range(h) for x in range(w))
            amp = noise * (4 if i in bad else 1) + i % 3 if noise else 0
            if amp:
                rnd = random.Random(seed * 100003 + i)
                y = bytearray(min(255, max(0, v + rnd.randint(-amp, amp))) for v in y)
            f.write(b"FRAME\n" + bytes(y) + chroma)


def cmd_edit(src, dst, null_frames, fps):
    """A copy of a log with the scores of null_frames (comma separated) set
    to null and a timestamp (frame / fps) in every frame; pooled_metrics
    dropped (what a stopped run leaves) when fps is negative."""
    log = load_json(src)
    nulls = {int(x) for x in null_frames.split(",") if x}
    fps = float(fps)
    for fr in log["frames"]:
        if fr["frameNum"] in nulls:
            for k in fr["metrics"]:
                fr["metrics"][k] = None
        fr["timestamp"] = fr["frameNum"] / abs(fps)
    if fps < 0:
        for k in ("pooled_metrics", "pooled_metrics_frames_left_out", "pool_state"):
            log.pop(k, None)
    elif "pooled_metrics_frames_left_out" in log:
        for k in log["pooled_metrics_frames_left_out"]:
            log["pooled_metrics_frames_left_out"][k] += len(nulls)
    with open(dst, "w") as f:
        json.dump(log, f, indent=2)


# ---- the report ----------------------------------------------------------------

def main_score(name):
    base = name.split(".")[0]
    return not re.search(r"_[lcs](_scale\d+)?$", base)


def expected_charts(logs, metrics):
    if metrics:
        return metrics
    names = []
    for log in logs:
        for fr in log["frames"]:
            for k in fr["metrics"]:
                if main_score(k) and k not in names:
                    names.append(k)
    return names


def series_of(log, name):
    """(frame numbers, values with None for null) of one score."""
    # a chunk's frames are drawn at their numbers in the whole input
    first = max(0, (log.get("config") or {}).get("first_frame") or 0)
    return ([fr["frameNum"] + first for fr in log["frames"]],
            [fr["metrics"].get(name) for fr in log["frames"]])


def worst_of(log, name, n):
    nums, vals = series_of(log, name)
    pairs = sorted((v, i) for i, v in enumerate(vals) if v is not None)
    return [nums[i] for _, i in pairs[:n]]


POINT = re.compile(r"-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?")


class Collector(html.parser.HTMLParser):
    """Elements of interest of the HTML page, with their attributes, in order."""

    def __init__(self):
        super().__init__()
        self.items = []   # (tag, attrs, text)
        self.stack = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.items.append([tag, a, ""])
        if tag not in ("circle", "line", "rect", "meta", "br"):
            self.stack.append(self.items[-1])

    def handle_startendtag(self, tag, attrs):
        self.items.append([tag, dict(attrs), ""])

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        # like itertext(): an element's text includes its children's
        for el in self.stack:
            el[2] += data


def report_items(path, fmt):
    """[(tag, attrs, text)] of the report, from the HTML parser or from XML."""
    if fmt == "svg":
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as e:
            fail("%s is not well-formed XML: %s" % (path, e))
        if root.tag != "{http://www.w3.org/2000/svg}svg":
            fail("%s: the root element is %s, not svg" % (path, root.tag))
        return [(el.tag.split("}")[-1], el.attrib, "".join(el.itertext())) for el in root.iter()]
    c = Collector()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if "http://" in text.replace("http://www.w3.org/2000/svg", "") or "https://" in text:
        fail("%s refers to the network" % path)
    if re.search(r"<script[^>]*\bsrc=", text) or re.search(r"<link\b", text):
        fail("%s loads something from outside" % path)
    c.feed(text)
    return c.items


def charts_in(items):
    """{metric: [items of its chart]} in document order."""
    charts, cur = {}, None
    for tag, a, text in items:
        if a.get("class") == "chart":
            cur = charts.setdefault(a["data-metric"], [])
        elif cur is not None:
            cur.append((tag, a, text))
    return charts


def check_report(path, fmt, worst_n, metrics, log_paths):
    logs = [load_json(p) for p in log_paths]
    items = report_items(path, fmt)
    charts = charts_in(items)
    want = expected_charts(logs, metrics)
    if list(charts) != want:
        fail("%s: charts %s, expected %s" % (path, list(charts), want))
    for name, els in charts.items():
        paths = [(a, t) for tag, a, t in els if tag == "path" and a.get("class") == "series"]
        with_score = [i for i, log in enumerate(logs) if any(name in fr["metrics"] for fr in log["frames"])]
        if [int(a["data-log"]) for a, _ in paths] != with_score:
            fail("%s: chart %s has lines of logs %s, expected %s" %
                 (path, name, [a["data-log"] for a, _ in paths], with_score))
        for a, title in paths:
            i = int(a["data-log"])
            nums, vals = series_of(logs[i], name)
            finite = sum(v is not None for v in vals)
            pts = POINT.findall(a["d"])
            if a["data-decimated"] == "0":
                if len(pts) != finite or int(a["data-points"]) != finite:
                    fail("%s: chart %s, log %d: %d points (data-points %s), expected one per frame with a "
                         "value: %d" % (path, name, i, len(pts), a["data-points"], finite))
                # the gaps: a new subpath after each null frame that has values before and after it
                segs, prev = 0, None
                for v in vals:
                    if v is not None and prev is None:
                        segs += 1
                    prev = v
                if a["d"].count("M") != segs:
                    fail("%s: chart %s, log %d: %d subpaths, expected %d (one per run of frames with values)"
                         % (path, name, i, a["d"].count("M"), segs))
            if title.strip() != log_paths[i]:
                fail("%s: chart %s, log %d is titled %r, expected %r" % (path, name, i, title, log_paths[i]))
            worst = [(int(w["data-rank"]), int(w["data-frame"]), t) for tag, w, t in els
                     if tag == "g" and w.get("class") == "worst" and int(w["data-log"]) == i]
            exp = worst_of(logs[i], name, worst_n)
            if [f for _, f, _ in worst] != exp:
                fail("%s: chart %s, log %d: worst frames marked %s, expected %s" %
                     (path, name, i, [f for _, f, _ in worst], exp))
            labels = [int(t) for tag, w, t in els if tag == "text" and w.get("class") == "worst-label"
                      and int(w["data-log"]) == i]
            if labels != exp:
                fail("%s: chart %s, log %d: worst-frame labels %s, expected %s" % (path, name, i, labels, exp))
            print("    %s %s log %d: %d points, worst %s" % (fmt, name, i, len(pts), exp))
        legend = [t.strip() for tag, a, t in els if tag == "text" and a.get("class") == "legend-label"]
        if [l.split(" (")[0] for l in legend] != log_paths:
            fail("%s: chart %s legend %s, expected %s" % (path, name, legend, log_paths))


def cmd_html(path, worst_n, metrics, *log_paths):
    check_report(path, "html", int(worst_n), [m for m in metrics.split(",") if m], list(log_paths))


def cmd_svg(path, worst_n, metrics, *log_paths):
    check_report(path, "svg", int(worst_n), [m for m in metrics.split(",") if m], list(log_paths))


def cmd_table(path, name, log_index, frames, nulls, mean, time_of_worst=""):
    """The pooled row of one log in one chart's table: frames, null frames, mean."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'<section class="metric" data-metric="%s">(.*?)</section>' % re.escape(name), text, re.S)
    if not m:
        fail("%s: no section for %s" % (path, name))
    sec = m.group(1)
    rows = re.findall(r'<table class="pooled">.*?</table>', sec, re.S)[0]
    row = re.search(r'<tr data-log="%s">(.*?)</tr>' % log_index, rows, re.S)
    cells = [re.sub("<[^>]*>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)]
    if cells[1] != frames or cells[2] != nulls or cells[3].rstrip("*") != mean:
        fail("%s: %s row %s is %s, expected frames %s, null frames %s, mean %s" %
             (path, name, log_index, cells, frames, nulls, mean))
    if time_of_worst:
        wt = re.findall(r'<table class="worst">.*?</table>', sec, re.S)[0]
        row = re.search(r'<tr data-log="%s">(.*?)</tr>' % log_index, wt, re.S)
        cells = [re.sub("<[^>]*>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)]
        if cells[3] != time_of_worst:
            fail("%s: %s worst frame of log %s at time %s, expected %s" % (path, name, log_index, cells[3],
                                                                          time_of_worst))
    print("    %s %s log %s: %s" % (path.split("/")[-1], name, log_index, cells))


def cmd_dom(path, series, ready):
    """The DOM chromium dumped: the script ran (data-ready) and the lines are there."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    n = len(re.findall(r'<path class="series"', text))
    if n != int(series):
        fail("the browser's DOM has %d lines, expected %s" % (n, series))
    if ready == "1" and 'data-ready="1"' not in text:
        fail("the page's script did not run to its end in the browser")
    print("    DOM: %d lines, script ran: %s" % (n, 'data-ready="1"' in text))


# ---- PNG (no PIL) --------------------------------------------------------------

def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s is not a PNG" % path)
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]:
            fail("%s: bad CRC in chunk %s" % (path, kind))
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail("%s: PNG kind depth %d colour type %d interlace %d not handled" % (path, depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif ft == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def cmd_png(path, width, height, *colours):
    """A valid PNG of width x height, not blank, with each #rrggbb colour
    (the lines' colours) present."""
    w, h, bpp, rows = read_png(path)
    if (w, h) != (int(width), int(height)):
        fail("%s is %dx%d, expected %sx%s" % (path, w, h, width, height))
    seen = set()
    for line in rows:
        for i in range(0, len(line), bpp):
            seen.add(bytes(line[i:i + 3]))
    if len(seen) < 16:
        fail("%s has %d distinct colours: blank or nearly" % (path, len(seen)))
    missing = [c for c in colours if bytes.fromhex(c.lstrip("#")) not in seen]
    if missing:
        fail("%s lacks the line colours %s" % (path, missing))
    print("    %s: %dx%d, %d colours, line colours %s present" % (path.split("/")[-1], w, h, len(seen),
                                                                 " ".join(colours)))


# ---- merged logs -------------------------------------------------------------------

def cmd_same_pooled(a_path, b_path):
    """Two logs' pooled_metrics are equal, value for value."""
    a, b = load_json(a_path)["pooled_metrics"], load_json(b_path)["pooled_metrics"]
    if a != b:
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                print("    %s: %s vs %s" % (k, a.get(k), b.get(k)))
        fail("pooled_metrics of %s and %s differ" % (a_path, b_path))
    print("    pooled_metrics equal: %d scores" % len(a))


def main():
    cmds = {name[4:]: fn for name, fn in globals().items() if name.startswith("cmd_")}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        fail("usage: plot_check.py %s ARGS..." % "|".join(sorted(cmds)))
    cmds[sys.argv[1]](*sys.argv[2:])


if __name__ == "__main__":
    main()
