#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Chunked runs that merge exactly: a 200-frame clip scored whole and as 100
# chunks (--skip/--frames), the chunk logs merged with `gpussim merge`, must
# give the whole run's log byte for byte (frames, pooled_metrics, NaN counts,
# config, pool state; only "fps" differs: null in a merge). Also: merging
# logs of other features or sizes is refused with the difference named; a
# truncated or corrupted log is refused with its position; chunks given out
# of order are sorted (by first_frame, else by timestamps) and merged with a
# note; overlapping chunks, or a gap, are refused naming the frames; -o naming
# a chunk log is refused with the chunk unchanged; frames that are not their
# pool state's values are refused; logs cut off by a killed run (pair and
# ladder, at several points) are rewritten by `merge --recover` equal to the
# run over their complete frames, as the README's Python reader reads them;
# --skip past the end is a setup error.
#
# Environment (set by `make check`): GPUSSIM_CLI = the built tool. Exits 77
# (skip) without python3.

. "$(dirname "$0")/../lib/common.sh"
need_tool python3 "to make the clip and parse the JSON"
need_cli
make_tmp merge

# expect_refusal NAME MESSAGE: the last command failed and stderr names MESSAGE
expect_refusal() {
    if [ "$rc" -eq 0 ]; then
        failed "$1: accepted"
    elif grep -F -q -- "$2" "$TMP/err"; then
        pass "$1"
        printf '    stderr: %s\n' "$(grep -F -- "$2" "$TMP/err" | head -n 1)"
    else
        failed "$1: stderr lacks '$2'"
        sed 's/^/    stderr: /' "$TMP/err"
    fi
}

# A 176x176 4:2:0 clip (MS-SSIM's minimum, so every metric runs): moving
# gradients, the distorted one with noise of varying strength; frames 50..52
# identical (float_ssim in dB is +inf there: null in JSON, kept in the pool)
# and 90..92 unrelated noise (float_ms_ssim may be NaN: left out of pools).
python3 - "$TMP" <<'EOF'
import random, sys
tmp = sys.argv[1]
w = h = 176
rnd = random.Random(13)
def frame(k, noisy):
    y = bytearray(((x * 3 + r * 2 + k * 5) ^ (r >> 3)) & 255 for r in range(h) for x in range(w))
    c = bytearray(((x + r + k) & 127) + 64 for r in range(h // 2) for x in range(w // 2))
    return y, c
with open(tmp + "/ref.y4m", "wb") as fr, open(tmp + "/dis.y4m", "wb") as fd:
    for f in (fr, fd):
        f.write(b"YUV4MPEG2 W176 H176 F25:1 Ip C420jpeg\n")
    for k in range(200):
        y, c = frame(k, False)
        if 90 <= k <= 92:
            y = bytearray(rnd.randrange(256) for _ in range(w * h))
        dy = bytearray(y)
        if not 50 <= k <= 52:
            amp = 1 + k % 9
            noise = rnd.randbytes(w * h) if hasattr(rnd, "randbytes") else bytes(rnd.randrange(256) for _ in range(w * h))
            for i in range(0, w * h, 1 + k % 3):
                v = dy[i] + (noise[i] % (2 * amp + 1)) - amp
                dy[i] = 0 if v < 0 else 255 if v > 255 else v
        if 90 <= k <= 92:
            dy = bytearray(rnd.randrange(256) for _ in range(w * h))
        fr.write(b"FRAME\n" + bytes(y) + bytes(c) + bytes(c))
        fd.write(b"FRAME\n" + bytes(dy) + bytes(c) + bytes(c))
EOF

FEAT="--feature float_ssim=enable_db=true:enable_lcs=true --feature ms_ssim --feature ansnr --feature ssim"

# compare WHOLE MERGED: the same bytes, fps aside (null in a merge)
compare() {
    python3 - "$1" "$2" <<'EOF'
import json, re, sys
a_text, b_text = open(sys.argv[1]).read(), open(sys.argv[2]).read()
def pooled(t):
    return t[t.index('"pooled_metrics": {'):t.index('"aggregate_metrics"')]
if pooled(a_text) != pooled(b_text):
    sys.exit("pooled_metrics differ:\n%s\n%s" % (pooled(a_text)[:400], pooled(b_text)[:400]))
a, b = json.loads(a_text), json.loads(b_text)
if a["frames"] != b["frames"]:
    sys.exit("the frames differ")
if [f["frameNum"] for f in b["frames"]] != list(range(len(a["frames"]))):
    sys.exit("merged frames not renumbered 0..N-1")
if b["fps"] is not None:
    sys.exit("merged fps %r, expected null" % b["fps"])
strip = lambda t: re.sub(r'\n  "fps": [^\n]*\n', "\n", t)
if strip(a_text) != strip(b_text):
    sys.exit("the logs differ beyond fps")
n = len(a["frames"])
print("    %d frames, %d metrics; pooled_metrics (%d bytes), config and pool_state identical" %
      (n, len(a["pooled_metrics"]), len(pooled(a_text))))
print("    e.g. float_ssim_l mean %r, left out: %r" % (a["pooled_metrics"]["float_ssim_l"]["mean"],
      {k: v for k, v in a["pooled_metrics_frames_left_out"].items() if v}))
EOF
}

"$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" $FEAT -q -o "$TMP/whole.json" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] || { failed "the whole run: exit $rc"; sed 's/^/    stderr: /' "$TMP/err"; }

# ---- 100 chunks of 2 frames ------------------------------------------------------
i=0
list=
while [ $i -lt 100 ]; do
    c=$(printf '%s/chunk%03d.json' "$TMP" $i)
    "$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" $FEAT -q --skip $((i * 2)) --frames 2 -o "$c" 2>>"$TMP/chunk_err" ||
        failed "chunk $i: exit $?"
    list="$list $c"
    i=$((i + 1))
done
"$CLI" merge $list -o "$TMP/merged.json" 2>"$TMP/err"
rc=$?
if [ $rc -ne 0 ]; then
    failed "merge of 100 chunks: exit $rc"
    sed 's/^/    stderr: /' "$TMP/err"
elif compare "$TMP/whole.json" "$TMP/merged.json"; then
    pass "200 frames whole == 100 chunks of 2 merged (byte-identical pooled_metrics and frames)"
else
    failed "200 frames whole vs 100 chunks merged"
fi

# uneven chunks, through raw input: 0..69, 70..70, 71..199 (the 4:2:0 frames after the y4m headers)
python3 - "$TMP" <<'EOF'
import sys
tmp = sys.argv[1]
for n in ("ref", "dis"):
    data = open("%s/%s.y4m" % (tmp, n), "rb").read()
    body = data[data.index(b"\n") + 1:]
    open("%s/%s.yuv" % (tmp, n), "wb").write(body.replace(b"FRAME\n", b""))
EOF
RAW="-r $TMP/ref.yuv -d $TMP/dis.yuv -w 176 -h 176 -p 420 -b 8"
"$CLI" $RAW $FEAT -q --frames 70 -o "$TMP/u0.json" &&
    "$CLI" $RAW $FEAT -q --skip 70 --frames 1 -o "$TMP/u1.json" &&
    "$CLI" $RAW $FEAT -q --skip 71 -o "$TMP/u2.json" &&
    "$CLI" merge "$TMP/u0.json" "$TMP/u1.json" "$TMP/u2.json" -o "$TMP/umerged.json" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && compare "$TMP/whole.json" "$TMP/umerged.json"; then
    pass "raw input, chunks of 70, 1 and 129 frames merged == the whole y4m run"
else
    failed "raw uneven chunks (exit $rc)"
fi

# ---- a ladder (one reference, 3 renditions) in 5 chunks ----------------------------
# renditions: dis.y4m, and two more made from it (coarser values, a shifted
# luma); the ladder log's sections must equal the pair runs' logs, and the
# merged chunks the whole ladder run, byte for byte (fps aside)
python3 - "$TMP" <<'EOF2'
import sys
tmp = sys.argv[1]
data = open(tmp + "/dis.y4m", "rb").read()
head, body = data[:data.index(b"\n") + 1], data[data.index(b"\n") + 1:]
frames = body.split(b"FRAME\n")[1:]
ysize = 176 * 176
for name, fn in (("dis2", lambda v: v & 0xf0), ("dis3", lambda v: min(255, v + 9))):
    with open("%s/%s.y4m" % (tmp, name), "wb") as f:
        f.write(head)
        for fr in frames:
            f.write(b"FRAME\n" + bytes(fn(v) for v in fr[:ysize]) + fr[ysize:])
EOF2
LADDER="-r $TMP/ref.y4m -d $TMP/dis.y4m -d $TMP/dis2.y4m -d $TMP/dis3.y4m"
"$CLI" $LADDER $FEAT -q -o "$TMP/lwhole.json" 2>"$TMP/err" &&
    "$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis3.y4m" $FEAT -q -o "$TMP/pair3.json" 2>>"$TMP/err"
rc=$?
if [ $rc -ne 0 ]; then
    failed "the whole ladder run: exit $rc"
    sed 's/^/    stderr: /' "$TMP/err"
fi
python3 - "$TMP" <<'EOF2'
import json, sys
tmp = sys.argv[1]
l = json.load(open(tmp + "/lwhole.json"))
assert l["config"]["renditions"] == 3 and len(l["renditions"]) == 3, "not a 3-rendition log"
for k, pair in ((0, "whole"), (2, "pair3")):
    p = json.load(open("%s/%s.json" % (tmp, pair)))
    r = l["renditions"][k]
    for key in ("frames", "pooled_metrics", "pooled_metrics_frames_left_out", "pool_state"):
        if r[key] != p[key]:
            sys.exit("rendition %d's %s differ from the pair run's" % (k, key))
print("    renditions 0 and 2 equal their pair runs: %d frames; float_ms_ssim means %r, %r, %r" %
      (len(l["renditions"][0]["frames"]), *[l["renditions"][k]["pooled_metrics"]["float_ms_ssim"]["mean"] for k in range(3)]))
EOF2
[ $? -eq 0 ] && pass "ladder log: each rendition's section == its pair run (frames, pooled, pool state)" ||
    failed "ladder log vs pair runs"
i=0
list=
while [ $i -lt 5 ]; do
    c=$(printf '%s/lchunk%d.json' "$TMP" $i)
    "$CLI" $LADDER $FEAT -q --skip $((i * 40)) --frames 40 -o "$c" 2>>"$TMP/chunk_err" || failed "ladder chunk $i: exit $?"
    list="$list $c"
    i=$((i + 1))
done
"$CLI" merge $list -o "$TMP/lmerged.json" 2>"$TMP/err"
rc=$?
python3 - "$TMP/lwhole.json" "$TMP/lmerged.json" <<'EOF2'
import json, re, sys
a_text, b_text = open(sys.argv[1]).read(), open(sys.argv[2]).read()
strip = lambda t: re.sub(r'\n  "fps": [^\n]*\n', "\n", t)
if strip(a_text) != strip(b_text):
    sys.exit("the ladder logs differ beyond fps")
b = json.loads(b_text)
if b["fps"] is not None or len(b["renditions"]) != 3:
    sys.exit("merged ladder: fps %r, %d renditions" % (b["fps"], len(b["renditions"])))
print("    3 renditions x %d frames identical, e.g. r2 ssim mean %r" %
      (len(b["renditions"][0]["frames"]), b["renditions"][2]["pooled_metrics"]["ssim"]["mean"]))
EOF2
[ $rc -eq 0 ] && [ $? -eq 0 ] && pass "ladder: whole == 5 chunks merged (byte-identical beyond fps)" ||
    failed "ladder whole vs merged chunks (merge exit $rc)"
"$CLI" merge "$TMP/lchunk0.json" "$TMP/chunk000.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "merging a ladder log with a pair log is refused" \
    "cannot merge $TMP/chunk000.json with $TMP/lchunk0.json: different numbers of renditions (1 vs 3)"

# ---- the compact pool state, old-format logs, pooled percentiles --------------------
# The pool state is written as base64 ("gpussim-pool64"); logs of older
# versions hold the hex text ("gpussim-pool 2"): both must merge, alone or
# mixed, into the same log as the whole run. The clip's +inf (identical
# frames, in dB) and NaN scores (left out) are in the decoded pool as the
# frames say.
CHECK="python3 $(dirname "$0")/log_formats_check.py"
if $CHECK poolstate "$TMP/whole.json"; then
    pass "compact pool_state of 200 frames: decodes to the frames' values (+inf kept, NaN left out)"
else
    failed "compact pool_state of the whole run"
fi
list=
i=0
while [ $i -lt 100 ]; do
    c=$(printf '%s/chunk%03d.json' "$TMP" $i)
    # every other chunk as an older gpussim wrote it
    if [ $((i % 2)) -eq 1 ]; then
        $CHECK to_old "$c" "$c.old.json" >/dev/null || failed "to_old $c"
        c=$c.old.json
    fi
    list="$list $c"
    i=$((i + 1))
done
"$CLI" merge $list -o "$TMP/mixmerged.json" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && compare "$TMP/whole.json" "$TMP/mixmerged.json"; then
    pass "50 old-format (hex pool_state) and 50 compact chunk logs merged == the whole run"
else
    failed "old and new chunk logs merged (exit $rc)"
    sed 's/^/    stderr: /' "$TMP/err"
fi
$CHECK to_old "$TMP/lwhole.json" "$TMP/lwhole.old.json" &&
    "$CLI" merge "$TMP/lwhole.old.json" -o "$TMP/lre.json" 2>"$TMP/err" &&
    python3 - "$TMP/lwhole.json" "$TMP/lre.json" "$TMP/lwhole.old.json" <<'EOF2'
import os, re, sys
a, b = open(sys.argv[1]).read(), open(sys.argv[2]).read()
strip = lambda t: re.sub(r'\n  "fps": [^\n]*\n', "\n", t)
if strip(a) != strip(b):
    sys.exit("the old-format ladder log rewritten differs from the original")
old, new = os.path.getsize(sys.argv[3]), os.path.getsize(sys.argv[1])
ps = lambda t: sum(len(m) for m in re.findall(r'"pool_state": \{[^}]*\}', t))
print("    ladder log %d bytes (pool_state %d) vs %d bytes with the hex pool_state (%d): %.0f%% of it" %
      (new, ps(a), old, ps(open(sys.argv[3]).read()), 100.0 * ps(a) / ps(open(sys.argv[3]).read())))
if ps(a) * 10 > ps(open(sys.argv[3]).read()) * 7:
    sys.exit("the compact pool_state is not 30% smaller than the hex text")
EOF2
[ $? -eq 0 ] && pass "an old-format ladder log merges (alone) into the compact log, byte-identical beyond fps; pool_state 30%+ smaller" ||
    failed "old-format ladder log"
# --pool median+p5+p1 in chunks: the merge keeps the statistics, equal to the whole run's
"$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" $FEAT -q --pool median+p5+p1 -o "$TMP/pwhole.json" 2>"$TMP/err" &&
    "$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" $FEAT -q --pool median+p5+p1 --frames 77 -o "$TMP/pc0.json" 2>>"$TMP/err" &&
    "$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" $FEAT -q --pool median+p5+p1 --skip 77 -o "$TMP/pc1.json" 2>>"$TMP/err" &&
    $CHECK to_old "$TMP/pc1.json" "$TMP/pc1.old.json" >/dev/null &&
    "$CLI" merge "$TMP/pc0.json" "$TMP/pc1.old.json" -o "$TMP/pmerged.json" 2>>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && compare "$TMP/pwhole.json" "$TMP/pmerged.json" && $CHECK pooled "$TMP/pmerged.json" median p5 p1; then
    pass "--pool median+p5+p1: chunks of 77 and 123 frames merged == the whole run, percentiles of the merged pool"
else
    failed "--pool chunks merged (exit $rc)"
    sed 's/^/    stderr: /' "$TMP/err"
fi
# an edited median no longer matches the pool state
python3 - "$TMP" <<'EOF2'
import re, sys
tmp = sys.argv[1]
t = open(tmp + "/pc0.json").read()
t = re.sub(r'("median": )(-?[0-9.e+-]+)', lambda m: m.group(1) + repr(float(m.group(2)) * 0.5 + 0.125), t, count=1)
open(tmp + "/badmed.json", "w").write(t)
EOF2
"$CLI" merge "$TMP/badmed.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "an edited pooled median is refused" "median does not match its pool_state"

# ---- refusals --------------------------------------------------------------------
"$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" --feature float_ssim --feature ms_ssim --feature ansnr --feature ssim \
    -q --frames 2 -o "$TMP/otherfeat.json" 2>/dev/null
"$CLI" merge "$TMP/chunk000.json" "$TMP/otherfeat.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "merge with other feature options refused" \
    "cannot merge $TMP/otherfeat.json with $TMP/chunk000.json: different features or options (float_ssim:scale=0:enable_lcs=0:enable_db=0:clip_db=0|"
python3 - "$TMP" <<'EOF'
import sys
tmp = sys.argv[1]
with open(tmp + "/small.yuv", "wb") as f:
    f.write(bytes((i * 7) & 255 for i in range(2 * 64 * 64 * 3 // 2)))
EOF
"$CLI" -r "$TMP/small.yuv" -d "$TMP/small.yuv" -w 64 -h 64 -p 420 -b 8 --feature float_ssim=enable_db=true:enable_lcs=true \
    --feature ansnr --feature ssim -q -o "$TMP/small.json" 2>/dev/null
"$CLI" merge "$TMP/chunk000.json" "$TMP/small.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "merge with another frame size refused" "different frame sizes (64x64 vs 176x176)"
[ ! -e "$TMP/x.json" ] && pass "  ... no output written" || failed "  ... output written on a refusal"

head -c 3000 "$TMP/chunk001.json" >"$TMP/trunc.json"
"$CLI" merge "$TMP/chunk000.json" "$TMP/trunc.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "a truncated log is refused with its position" "log: not valid JSON: unterminated string at line"
grep -F -q "'$TMP/trunc.json' is not a usable gpussim log" "$TMP/err" && pass "  ... naming the file" ||
    failed "  ... file not named"

# a changed value inside the (compact) pool state: the blob's checksum catches it
python3 - "$TMP" <<'EOF'
import re, sys
tmp = sys.argv[1]
t = open(tmp + "/chunk001.json").read()
# the second base64 character of the first pool state: a low byte of its first value
t = re.sub(r'("gpussim-pool64 2 [0-9a-f]{8} .)(.)', lambda m: m.group(1) + ("B" if m.group(2) != "B" else "C"), t, count=1)
open(tmp + "/corrupt.json", "w").write(t)
EOF
if cmp -s "$TMP/chunk001.json" "$TMP/corrupt.json"; then failed "corruption not applied"; fi
"$CLI" merge "$TMP/chunk000.json" "$TMP/corrupt.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "a corrupted pool state is refused (checksum)" "pool blob: checksum mismatch"
grep -F -q "is not a valid pool at line" "$TMP/err" && pass "  ... with its position" || failed "  ... no position"

# an edited pooled mean no longer matches the pool state
python3 - "$TMP" <<'EOF'
import re, sys
tmp = sys.argv[1]
t = open(tmp + "/chunk001.json").read()
t = re.sub(r'("ssim": \{\n      "min": [^\n]*\n      "max": [^\n]*\n      "mean": )0\.', r'\g<1>0.0', t, count=1)
open(tmp + "/edited.json", "w").write(t)
EOF
"$CLI" merge "$TMP/chunk000.json" "$TMP/edited.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "an edited pooled mean is refused" "pool_state \"ssim\" does not match its pooled_metrics"

# a libvmaf log (no config, no pool state)
printf '{"version": "3.0.0", "frames": [{"frameNum": 0, "metrics": {"float_ssim": 0.9}}], "pooled_metrics": {"float_ssim": {"min": 0.9, "max": 0.9, "mean": 0.9, "harmonic_mean": 0.9}}, "aggregate_metrics": {}}\n' >"$TMP/libvmaf.json"
"$CLI" merge "$TMP/libvmaf.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "a log without pool state (libvmaf's) is refused" "it has no config block"

# ---- order, overlaps, gaps ---------------------------------------------------------
# expect_message NAME MESSAGE: stderr names MESSAGE (whatever the exit status)
expect_message() {
    if grep -F -q -- "$2" "$TMP/err"; then
        pass "$1"
        printf '    stderr: %s\n' "$(grep -F -- "$2" "$TMP/err" | head -n 1)"
    else
        failed "$1: stderr lacks '$2'"
        sed 's/^/    stderr: /' "$TMP/err"
    fi
}
# expect_status NAME STATUS: the last command exited with STATUS
expect_status() {
    [ "$rc" -eq "$2" ] && pass "$1: exit $2" || failed "$1: exit $rc, expected $2"
}
"$CLI" merge "$TMP/chunk000.json" "$TMP/chunk001.json" "$TMP/chunk002.json" -o "$TMP/inorder.json" 2>"$TMP/err" ||
    failed "merging 3 chunks in order"
"$CLI" merge "$TMP/chunk001.json" "$TMP/chunk002.json" "$TMP/chunk000.json" -o "$TMP/swapped.json" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$TMP/inorder.json" "$TMP/swapped.json" &&
    grep -F -q "info: merge: $TMP/chunk001.json (first frame 2) was given before $TMP/chunk000.json (first frame 0): the chunks are merged in the order of their first frames" "$TMP/err"; then
    pass "chunks out of order: sorted by first frame (with a note), byte-identical to the merge in order"
else
    failed "chunks out of order (exit $rc)"
    sed 's/^/    stderr: /' "$TMP/err"
fi
# all 100 chunks in reverse: the whole run again
rlist=
i=0
while [ $i -lt 100 ]; do rlist="$(printf '%s/chunk%03d.json' "$TMP" $i) $rlist"; i=$((i + 1)); done
"$CLI" merge $rlist -o "$TMP/reversed.json" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$TMP/merged.json" "$TMP/reversed.json" &&
    pass "100 chunks given in reverse: byte-identical to the merge in order" ||
    failed "100 chunks in reverse (exit $rc)"

# overlap: frames 0..1 and 1..2
"$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" $FEAT -q --skip 1 --frames 2 -o "$TMP/over.json" 2>/dev/null
"$CLI" merge "$TMP/chunk000.json" "$TMP/over.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_status "overlapping chunks refused" 2
expect_refusal "  ... naming the chunks and frames" \
    "cannot merge: chunk $TMP/over.json starts at frame 1 but $TMP/chunk000.json ends at frame 1: frames 1..1 overlap"
[ ! -e "$TMP/x.json" ] && pass "  ... no output written" || failed "  ... output written on a refusal"
"$CLI" merge "$TMP/chunk003.json" "$TMP/chunk003.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_status "one chunk given twice refused" 2
expect_refusal "  ... as an overlap" \
    "chunk $TMP/chunk003.json starts at frame 6 but $TMP/chunk003.json ends at frame 7: frames 6..7 overlap"
# gap: frames 0..1, then 4..5 (order given: the later one first)
"$CLI" merge "$TMP/chunk002.json" "$TMP/chunk000.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_status "chunks with a gap refused" 2
expect_refusal "  ... naming the missing frames" \
    "cannot merge: chunk $TMP/chunk002.json starts at frame 4 but $TMP/chunk000.json ends at frame 1: frames 2..3 are in no chunk (a gap)"

# chunks without frame numbers (first_frame null, as the filter writes) but
# with timestamps: ordered and checked by the timestamps
python3 - "$TMP" <<'EOF'
import json, sys
tmp = sys.argv[1]
def untimed(i, shift=0):
    l = json.load(open("%s/chunk%03d.json" % (tmp, i)))
    l["config"]["first_frame"] = None
    for k, f in enumerate(l["frames"]):
        f["timestamp"] = (2 * i + k + shift) / 25
    return l
for name, i, shift in (("t0", 0, 0), ("t1", 1, 0), ("t2", 2, 0), ("tover", 1, -1), ("tgap", 2, 4)):
    json.dump(untimed(i, shift), open("%s/%s.json" % (tmp, name), "w"), indent=1)
EOF
"$CLI" merge "$TMP/t0.json" "$TMP/t1.json" "$TMP/t2.json" -o "$TMP/tinorder.json" 2>"$TMP/err" ||
    failed "merging timed chunks in order"
"$CLI" merge "$TMP/t2.json" "$TMP/t0.json" "$TMP/t1.json" -o "$TMP/tswapped.json" 2>"$TMP/err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$TMP/tinorder.json" "$TMP/tswapped.json" &&
    grep -F -q "merge: $TMP/t2.json (first frame at 0.160000 s) was given before $TMP/t0.json (at 0.000000 s): the chunks are merged in the order of their timestamps" "$TMP/err" &&
    python3 -c "import json,sys; l=json.load(open(sys.argv[1])); sys.exit([f['timestamp'] for f in l['frames']] != [k / 25 for k in range(6)])" "$TMP/tswapped.json"; then
    pass "chunks without first_frame, out of order: sorted by timestamp, byte-identical to the merge in order"
else
    failed "timed chunks out of order (exit $rc)"
    sed 's/^/    stderr: /' "$TMP/err"
fi
"$CLI" merge "$TMP/t0.json" "$TMP/tover.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_status "timed chunks that overlap refused" 2
expect_refusal "  ... naming the times and frames" \
    "cannot merge: chunk $TMP/tover.json starts at 0.040000 s but $TMP/t0.json ends at 0.040000 s: the chunks overlap (frames 0..0 of $TMP/tover.json are not after the end of $TMP/t0.json"
"$CLI" merge "$TMP/t0.json" "$TMP/t1.json" "$TMP/tgap.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_status "timed chunks with a gap refused" 2
expect_refusal "  ... naming the times" \
    "cannot merge: chunk $TMP/tgap.json starts at 0.320000 s but $TMP/t1.json ends at 0.120000 s: a gap of 0.200000 s where the widest step between two frames of a chunk is 0.040000 s (about 4 frames are in no chunk)"
python3 - "$TMP" <<'EOF'
import json, sys
tmp = sys.argv[1]
l = json.load(open(tmp + "/t1.json"))
for f in l["frames"]:
    del f["timestamp"]
json.dump(l, open(tmp + "/tnone.json", "w"))
EOF
"$CLI" merge "$TMP/t0.json" "$TMP/tnone.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_status "chunks with neither frame numbers nor timestamps: merged" 0
expect_message "  ... with a warning that nothing could be checked" \
    "merged in the order given, unchecked for overlaps and gaps"

# ---- the output is one of the inputs ------------------------------------------------
cp "$TMP/chunk000.json" "$TMP/inplace.json"
ln -s "$TMP/inplace.json" "$TMP/inplace-link.json"
for o in inplace.json inplace-link.json; do
    "$CLI" merge "$TMP/inplace.json" "$TMP/chunk001.json" -o "$TMP/$o" 2>"$TMP/err"
    rc=$?
    expect_status "merge -o $o (a chunk log given) refused" 2
    expect_refusal "  ... naming the chunk" "merge: -o $TMP/$o is the chunk log $TMP/inplace.json: the merge would overwrite it"
    cmp -s "$TMP/chunk000.json" "$TMP/inplace.json" && pass "  ... the chunk log unchanged" ||
        failed "  ... the chunk log changed"
done

# ---- frames that are not their pool state's ---------------------------------------
# frames 0 and 1 of "ssim" swapped: count, min, max and mean all still agree
python3 - "$TMP" <<'EOF'
import re, sys
tmp = sys.argv[1]
t = open(tmp + "/chunk001.json").read()
v = re.findall(r'\n        "ssim": ([^,\n]+)', t)
assert len(v) == 2 and v[0] != v[1], v
t = t.replace('"ssim": ' + v[0], '"ssim": @', 1).replace('"ssim": ' + v[1], '"ssim": ' + v[0], 1)
open(tmp + "/swapframes.json", "w").write(t.replace('"ssim": @', '"ssim": ' + v[1], 1))
t = open(tmp + "/chunk001.json").read()
v = re.findall(r'\n        "float_ansnr": ([^,\n]+)', t)
open(tmp + "/editframe.json", "w").write(t.replace('"float_ansnr": ' + v[1], '"float_ansnr": 12.5', 1))
EOF
"$CLI" merge "$TMP/chunk000.json" "$TMP/swapframes.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_status "frames reordered against their pool state refused" 2
expect_refusal "  ... naming the metric and the frame" \
    "pool_state \"ssim\" does not hold the frames' values: frame 0 (frameNum 0) is"
grep -F -q "'$TMP/swapframes.json' is not a usable gpussim log" "$TMP/err" && pass "  ... and the log" ||
    failed "  ... log not named"
"$CLI" merge "$TMP/chunk000.json" "$TMP/editframe.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "an edited frame value refused" \
    "pool_state \"float_ansnr\" does not hold the frames' values: frame 1 (frameNum 1) is 12.5 where the pool has"

# ---- logs cut off by a killed run -----------------------------------------------
# The writer flushes every frame; the pooled blocks, config and pool state
# come at close, and a ladder's renditions 1.. too. `gpussim merge --recover`
# rewrites a cut-off log from its complete frames (rendition 0's for a
# ladder): equal to a run over those frames (--frames N) in frames, pooled
# statistics, NaN counts and pool state. The README's Python reader is
# checked on the same cuts.
cat >"$TMP/read_gpussim_json.py" <<'EOF'
import json

def read_gpussim_json(path):
    """Reads a gpussim JSON log. A log cut off by a killed run gives its complete
    frames in the log's layout, without the blocks written at close (pooled
    statistics, config, pool state; a ladder log's renditions 1.. too)."""
    text = open(path).read()
    try:
        return json.loads(text)
    except ValueError:
        pass
    start = text.index('"frames": [') + len('"frames": [')  # ValueError: cut before any frame
    stop = start if text.startswith("]", start) else text.find("\n  ]", start)
    end = text.rfind("\n    }", start, len(text) if stop < 0 else stop)  # the last complete frame
    end = start if end < 0 else end + len("\n    }")
    closers = {"{": "}", "[": "]"}
    opened = [c for c in text[:start] if c in closers]  # no brackets in the header's strings
    return json.loads(text[:end] + "".join(closers[c] for c in reversed(opened)))
EOF
"$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" $FEAT -q --frames 30 -o "$TMP/first30.json" &&
    "$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" $FEAT -q --frames 45 -o "$TMP/first45.json" ||
    failed "the runs over the first 30 and 45 frames"
# cut LOG NAME: cut.NAME.{mid30,end45,tail}.json, cut mid-frame 30, right after
# frame 44, and after rendition 0's frames (in the pooled blocks, or a ladder's
# rendition 1)
cut() {
    python3 - "$1" "$TMP/cut.$2" <<'EOF'
import sys
text = open(sys.argv[1]).read()
start = text.index('"frames": [')
ends, pos = [], start
for k in range(200):
    pos = text.index('"frameNum": %d,' % k, pos)
    pos = text.index("\n    }", pos) + 6
    ends.append(pos)
cuts = {"mid30": ends[29] + 70, "end45": ends[44], "tail": text.index('"frameNum": 3,', ends[199]) if '"renditions"' in text
        else text.index('"mean"', ends[199])}
for name, at in cuts.items():
    open("%s.%s.json" % (sys.argv[2], name), "w").write(text[:at])
    print(name, at)
EOF
}
cut "$TMP/whole.json" pair >"$TMP/cuts.pair"
cut "$TMP/lwhole.json" ladder >"$TMP/cuts.ladder"
for kind in pair ladder; do
    for c in mid30:30:first30 end45:45:first45 tail:200:whole; do
        name=${c%%:*} rest=${c#*:}
        n=${rest%%:*} ref=${rest#*:}
        at=$(sed -n "s/^$name //p" "$TMP/cuts.$kind")
        log="$TMP/cut.$kind.$name.json"
        "$CLI" merge "$log" -o "$TMP/x.json" 2>"$TMP/err"
        rc=$?
        [ "$kind.$name" = pair.mid30 ] && expect_refusal "a cut-off log without --recover: refused" "(truncated file?)"
        "$CLI" merge --recover "$log" -o "$TMP/rec.json" 2>"$TMP/err"
        rc=$?
        if [ $rc -ne 0 ]; then
            failed "$kind log cut at byte $at ($name): --recover exit $rc"
            sed 's/^/    stderr: /' "$TMP/err"
            continue
        fi
        grep -F -q "log: cut off at byte $at (a killed run?): recovered its $n complete frames" "$TMP/err" ||
            failed "$kind $name: no warning naming the cut and $n frames"
        python3 - "$TMP/rec.json" "$TMP/$ref.json" "$n" "$log" "$TMP" <<'EOF'
import json, sys
rec, ref, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
sys.path.insert(0, sys.argv[5])
from read_gpussim_json import read_gpussim_json
if len(rec["frames"]) != n or "renditions" in rec:
    sys.exit("recovered %d frames%s, expected %d" % (len(rec["frames"]), " as a ladder" if "renditions" in rec else "", n))
if rec["frames"] != ref["frames"][:n]:
    sys.exit("the recovered frames differ from the run's")
if n < 200:
    # no infinity in these frames: the same pools as the run over them
    for key in ("pooled_metrics", "pooled_metrics_frames_left_out", "pool_state"):
        if rec[key] != ref[key]:
            sys.exit("%s differs from the run over the first %d frames" % (key, n))
else:
    # frames 50..52 of float_ssim are +inf (null): left out, counted
    left = rec["pooled_metrics_frames_left_out"]
    nulls = {k: sum(f["metrics"][k] is None for f in ref["frames"]) for k in left}
    if left != nulls or left["float_ssim"] != 3:
        sys.exit("left out %r, nulls %r" % (left, nulls))
if rec["config"]["first_frame"] is not None or rec["config"]["features"] is not None:
    sys.exit("the recovered config claims what the cut log lacks: %r" % rec["config"])
py = read_gpussim_json(sys.argv[4])
sec = py["renditions"][0] if "renditions" in py else py
if sec["frames"] != rec["frames"]:
    sys.exit("the Python reader got %d frames" % len(sec["frames"]))
print("    %d frames, e.g. frame %d float_ms_ssim %r; ssim mean %r; the Python reader agrees" %
      (n, n - 1, rec["frames"][-1]["metrics"]["float_ms_ssim"], rec["pooled_metrics"]["ssim"]["mean"]))
EOF
        [ $? -eq 0 ] && pass "$kind log cut at byte $at ($name): --recover gives its $n frames ($( [ $n -lt 200 ] && echo "== the run over them" || echo "infinities left out"))" ||
            failed "$kind log cut at byte $at ($name)"
    done
done
"$CLI" merge "$TMP/chunk015.json" "$TMP/rec.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "a rewritten recovered log merged with a chunk: refused" \
    "cannot merge $TMP/rec.json: its config does not name its features and options (a log recovered from a cut-off run"
"$CLI" merge --recover "$TMP/cut.pair.mid30.json" "$TMP/chunk000.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "--recover with two logs refused" "merge: --recover rewrites one cut-off log (2 given)"
head -c 20 "$TMP/whole.json" >"$TMP/cut.header.json"
"$CLI" merge --recover "$TMP/cut.header.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "a log cut before its frames: refused" "not valid JSON"
"$CLI" merge --recover "$TMP/corrupt.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
expect_refusal "--recover of a corrupted (not cut) log: refused as without it" "pool blob: checksum mismatch"
"$CLI" merge --recover "$TMP/chunk000.json" -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] && ! grep -q "cut off" "$TMP/err" &&
    python3 -c "import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); a['fps']=b['fps']=None; sys.exit(a!=b)" "$TMP/chunk000.json" "$TMP/x.json" &&
    pass "--recover of a complete log: the log (fps aside), no warning" || failed "--recover of a complete log"

"$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" --skip 1000 -o "$TMP/x.json" 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || failed "--skip past the end: exit $rc, expected 2"
expect_refusal "--skip past the end is a setup error" "--skip 1000: the inputs hold only 200 frames"
"$CLI" -r "$TMP/ref.y4m" -d "$TMP/dis.y4m" --frames 0 2>"$TMP/err"
rc=$?
expect_refusal "--frames 0 is refused" "--frames: expected a frame count >= 1, got '0'"

summary
