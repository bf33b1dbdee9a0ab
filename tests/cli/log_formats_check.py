# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""Checks of gpussim's log formats against its JSON log (the CLI's and the
filter's tests share them). Each command exits non-zero naming the first
difference, and prints one line of what it checked.

  same LOG.json OTHER.csv|OTHER.xml   every frame value and pooled statistic
                                      of OTHER equals the JSON's (bit for bit)
  pooled LOG.json STAT...             each STAT (median, p5, p1) in every
                                      pooled_metrics entry equals numpy's
                                      linear percentile of the decoded pool
  poolstate LOG.json                  the compact pool_state decodes to the
                                      frames' values (null frames: +-inf or
                                      left out), its CRC is the v2 text's
  to_old LOG.json OUT.json            OUT: LOG with the pool_state written in
                                      the old hex text (gpussim-pool 2)
  summary LOG.json ERR STAT...        ffmpeg's summary lines in ERR show each
                                      STAT as the log's value (%.6f)
  names LOG NAME...                   the ladder log's sections (JSON or XML)
                                      or rows (CSV) are named NAME, in order
"""
import base64
import csv
import json
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

LIBVMAF_STATS = ("min", "max", "mean", "harmonic_mean")


def fail(msg):
    sys.exit("log_formats_check: " + msg)


def sections(log):
    """Rendition sections in order ((log.get("renditions") or [log]))."""
    return log.get("renditions") or [log]


def num(cell):
    """A CSV/XML number cell as the JSON has it: None for non-finite values."""
    v = float(cell)
    return v if math.isfinite(v) else None


def same_value(a, b):
    return a == b and (a is None or struct.pack("<d", a) == struct.pack("<d", b))


def load(path):
    with open(path) as f:
        return json.load(f)


def decode_pool(blob):
    """Values of a pool_state entry, compact or old text; checks the CRC."""
    if blob.startswith("gpussim-pool64 "):
        _, count, crc, data = blob.split(" ")
        raw = base64.b64decode(data, validate=True)
        count = int(count)
        if len(raw) != 8 * count:
            fail("pool64: %d bytes for %d values" % (len(raw), count))
        vals = list(struct.unpack("<%dd" % count, raw))
        text = "gpussim-pool 2 %d\n" % count + "".join(
            "%016x\n" % struct.unpack("<Q", struct.pack("<d", v))[0] for v in vals)
        if "%08x" % zlib.crc32(text.encode()) != crc:
            fail("pool64: CRC %s is not the v2 text's %08x" % (crc, zlib.crc32(text.encode())))
        return vals
    lines = blob.split("\n")
    return [struct.unpack("<d", struct.pack("<Q", int(h, 16)))[0] for h in lines[1:-2]]


def percentile(vals, q):
    """numpy's default (linear) percentile, as gpussim_pool_percentile()."""
    s = sorted(vals)
    rank = q / 100.0 * (len(s) - 1)
    lo = math.floor(rank)
    hi = min(lo + 1, len(s) - 1)
    frac = rank - lo
    return s[lo] if frac == 0.0 else s[lo] + (s[hi] - s[lo]) * frac


def cmd_same(json_path, other):
    log = load(json_path)
    secs = sections(log)
    names = list(secs[0]["frames"][0]["metrics"]) if secs[0]["frames"] else list(secs[0]["pooled_metrics"])
    n = 0
    if other.endswith(".csv"):
        with open(other, newline="") as f:
            rows = list(csv.reader(f))
        head = rows[0]
        lead = [c for c in head if c not in names]
        if head[:1] != ["Frame"] or head[len(lead):] != names:
            fail("CSV header %s: expected Frame[,rendition][,name][,timestamp] then %s" % (head, names))
        col = {c: i for i, c in enumerate(head)}
        frames = [r for r in rows[1:] if r[0].isdigit()]
        pooled = [r for r in rows[1:] if not r[0].isdigit()]
        if rows[1:] != frames + pooled:
            fail("CSV: a pooled row before a frame row")
        if len(frames) != len(secs) * len(secs[0]["frames"]):
            fail("CSV: %d frame rows for %d sections of %d frames" % (len(frames), len(secs), len(secs[0]["frames"])))
        for i, r in enumerate(frames):
            k = int(r[col["rendition"]]) if "rendition" in col else 0
            fr = secs[k]["frames"][i // len(secs)]
            if int(r[0]) != fr["frameNum"] or ("rendition" in col and k != i % len(secs)):
                fail("CSV row %d: frame %s rendition %d" % (i + 1, r[0], k))
            if "timestamp" in col:
                want = fr.get("timestamp")
                got = num(r[col["timestamp"]]) if r[col["timestamp"]] else None
                if not same_value(got, want):
                    fail("CSV row %d: timestamp %r, JSON %r" % (i + 1, r[col["timestamp"]], want))
            for c in names:
                if not same_value(num(r[col[c]]), fr["metrics"][c]):
                    fail("CSV row %d %s = %s, JSON %r" % (i + 1, c, r[col[c]], fr["metrics"][c]))
                n += 1
        for r in pooled:
            k = int(r[col["rendition"]]) if "rendition" in col else 0
            if "timestamp" in col and r[col["timestamp"]]:
                fail("CSV pooled row %s: timestamp cell %r" % (r[0], r[col["timestamp"]]))
            for c in names:
                want = secs[k]["pooled_metrics"][c].get(r[0], "absent")
                if want == "absent" or not same_value(num(r[col[c]]), want):
                    fail("CSV pooled row %s (rendition %d) %s = %s, JSON %r" % (r[0], k, c, r[col[c]], want))
                n += 1
        stats = [r[0] for r in pooled if r[col["rendition"]] == "0"] if "rendition" in col else [r[0] for r in pooled]
        if stats != list(secs[0]["pooled_metrics"][names[0]]):
            fail("CSV pooled rows %s, JSON has %s" % (stats, list(secs[0]["pooled_metrics"][names[0]])))
        print("    CSV: %d frame rows and %d pooled rows (%s): %d values equal the JSON's" %
              (len(frames), len(pooled), "/".join(stats), n))
        return
    root = ET.parse(other).getroot()
    if root.tag != "VMAF" or root.get("version") != log["version"]:
        fail("XML root <%s version=%r>" % (root.tag, root.get("version")))
    if [c.tag for c in root][:5] != ["params", "fyi", "frames", "pooled_metrics", "aggregate_metrics"]:
        fail("XML children %s: not libvmaf's order" % [c.tag for c in root])
    if log["config"]["width"] != int(root.find("params").get("qualityWidth")) or \
            log["config"]["height"] != int(root.find("params").get("qualityHeight")):
        fail("XML params %s" % root.find("params").attrib)
    float(root.find("fyi").get("fps"))
    xsecs = [root] + root.findall("rendition")
    if len(xsecs) != len(secs):
        fail("XML: %d sections, JSON %d" % (len(xsecs), len(secs)))
    for k, (x, sec) in enumerate(zip(xsecs, secs)):
        if k and int(x.get("index")) != k:
            fail("XML rendition %s at %d" % (x.get("index"), k))
        xf = x.find("frames").findall("frame")
        if len(xf) != len(sec["frames"]):
            fail("XML section %d: %d frames, JSON %d" % (k, len(xf), len(sec["frames"])))
        for e, fr in zip(xf, sec["frames"]):
            attrs = dict(e.attrib)
            if int(attrs.pop("frameNum")) != fr["frameNum"] or list(attrs) != names:
                fail("XML frame %s: attributes %s" % (e.get("frameNum"), list(e.attrib)))
            for c in names:
                if not same_value(num(attrs[c]), fr["metrics"][c]):
                    fail("XML frame %s %s = %s, JSON %r" % (e.get("frameNum"), c, attrs[c], fr["metrics"][c]))
                n += 1
        mets = x.find("pooled_metrics").findall("metric")
        if [m.get("name") for m in mets] != names:
            fail("XML section %d pooled metrics %s" % (k, [m.get("name") for m in mets]))
        for m in mets:
            st = dict(m.attrib)
            st.pop("name")
            want = sec["pooled_metrics"][m.get("name")]
            if list(st) != list(want):
                fail("XML %s pooled %s, JSON %s" % (m.get("name"), list(st), list(want)))
            for key in st:
                if not same_value(num(st[key]), want[key]):
                    fail("XML %s %s = %s, JSON %r" % (m.get("name"), key, st[key], want[key]))
                n += 1
    print("    XML (libvmaf's layout, %d section(s)): %d values equal the JSON's" % (len(xsecs), n))


def cmd_pooled(json_path, *stats):
    log = load(json_path)
    n = 0
    for k, sec in enumerate(sections(log)):
        for name, st in sec["pooled_metrics"].items():
            vals = decode_pool(sec["pool_state"][name])
            if list(st) != list(LIBVMAF_STATS) + [s for s in ("median", "p5", "p1") if s in stats]:
                fail("rendition %d %s: pooled keys %s" % (k, name, list(st)))
            for s in stats:
                q = {"median": 50.0, "p5": 5.0, "p1": 1.0}[s]
                want = percentile(vals, q)
                want = want if math.isfinite(want) else None
                if not same_value(st[s], want):
                    fail("rendition %d %s %s = %r, the pool's percentile %r" % (k, name, s, st[s], want))
                n += 1
    print("    %d pooled %s values equal the percentiles of the decoded pools" % (n, "/".join(stats)))


def cmd_poolstate(json_path):
    log = load(json_path)
    n = 0
    for k, sec in enumerate(sections(log)):
        for name, blob in sec["pool_state"].items():
            if not blob.startswith("gpussim-pool64 "):
                fail("rendition %d %s: pool_state is not compact: %r" % (k, name, blob[:40]))
            vals = decode_pool(blob)
            frames = [f["metrics"][name] for f in sec["frames"]]
            left = sec["pooled_metrics_frames_left_out"][name]
            it = iter(vals)
            for i, v in enumerate(frames):
                if v is None and len(vals) < len(frames) and left:
                    continue
                p = next(it, "missing")
                if p == "missing" or (v is not None and not same_value(p, v)) or (v is None and math.isfinite(p)):
                    fail("rendition %d %s frame %d: pool %r, frame %r" % (k, name, i, p, v))
            n += len(vals)
    size = sum(len(json.dumps(s["pool_state"])) for s in sections(log))
    print("    compact pool_state: %d values decoded equal to the frames (%d bytes)" % (n, size))


def cmd_to_old(json_path, out):
    with open(json_path) as f:
        text = f.read()

    def old(m):
        vals = decode_pool(json.loads(m.group(0)))
        t = "gpussim-pool 2 %d\n" % len(vals) + "".join(
            "%016x\n" % struct.unpack("<Q", struct.pack("<d", v))[0] for v in vals)
        t += "crc32 %08x\n" % zlib.crc32(t.encode())
        return json.dumps(t)
    new, count = re.subn(r'"gpussim-pool64 [^"]*"', old, text)
    if not count:
        fail("%s has no compact pool_state" % json_path)
    with open(out, "w") as f:
        f.write(new)
    print("    %s: %d pool states rewritten in the old hex text (%d -> %d bytes)" % (out, count, len(text), len(new)))


def cmd_summary(json_path, err_path, *stats):
    log = load(json_path)
    with open(err_path) as f:
        err = f.read()
    n = 0
    for k, sec in enumerate(sections(log)):
        for name, st in sec["pooled_metrics"].items():
            prefix = ("r%d." % k if k else "") + name
            m = re.search(r"gpussim %s(?: \([^)]*\))?:(.*)" % re.escape(prefix), err)
            if not m:
                continue
            for s in stats:
                got = re.search(r" %s (\S+)" % s, m.group(1))
                if not got or got.group(1) != "%.6f" % st[s]:
                    fail("summary of %s: %s %s, the log's %r" % (prefix, s, got and got.group(1), st[s]))
                n += 1
    if not n:
        fail("no summary line found")
    print("    %d summary values (%s) equal the log's" % (n, "/".join(stats)))


def cmd_names(path, *names):
    if path.endswith(".xml"):
        root = ET.parse(path).getroot()
        got = [root.find("frames").get("name")] + [r.get("name") for r in root.findall("rendition")]
    elif path.endswith(".csv"):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        got = []
        for r in rows:
            if int(r["rendition"]) == len(got):
                got.append(r["name"])
            elif got[int(r["rendition"])] != r["name"]:
                fail("CSV row %s rendition %s named %r" % (r["Frame"], r["rendition"], r["name"]))
    else:
        got = [s.get("name") for s in sections(load(path))]
    if got != list(names):
        fail("%s: names %s, expected %s" % (path, got, list(names)))
    print("    %s names its %d renditions %s" % (path, len(got), got))


def main(argv):
    cmds = {"same": cmd_same, "pooled": cmd_pooled, "poolstate": cmd_poolstate, "to_old": cmd_to_old,
            "summary": cmd_summary, "names": cmd_names}
    if len(argv) < 3 or argv[1] not in cmds:
        fail(__doc__)
    cmds[argv[1]](*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
