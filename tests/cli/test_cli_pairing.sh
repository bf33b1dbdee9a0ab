#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Which frames the gpussim tool scores together, and what it refuses to read
# or write, on inputs generated here (a moving gradient with per-frame noise,
# the distorted ones with noise of their own; content frame k is the same
# picture in every file that holds it):
#   --sync-window finds +3 / -3 (also after --skip-ref, at 10 bits, per
#   ladder rendition) and scores exactly as --skip-ref / --skip-dis do (every
#   value to the last bit), with the offset in the log's config;
#   --skip-ref/--skip-dis with --skip/--frames; inputs of different length
#   both ways (a warning naming both counts, exit 0; --strict-length: an
#   error, exit 1, the same frames; --shortest still accepted; --repeat-last
#   equal to a file with its last frame repeated); -o naming an input (also through a
#   symbolic or hard link, or stdin) refused with the input unchanged; -r/-o
#   twice; y4m fields given twice; NUT, PNG, WAV and other non-YUV files
#   refused by name (--force-raw reads one as raw); the exit-status rule.
# Needs python3 (skips with 77 without it); no fixtures.

. "$(dirname "$0")/../lib/common.sh"
need_tool python3 "to make the inputs and read the logs"
need_cli
make_tmp pairing

W=176
H=144
FEAT="--feature float_ssim --feature float_ansnr"

cat >"$TMP/gen.py" <<'EOF'
import json, random, sys

def frame(k, seed, w, h, depth):
    """content frame k as planar 4:2:0 samples; seed != 0 adds the distorted noise"""
    r = random.Random(k * 7919 + 1)
    rn = random.Random(seed * 104729 + k) if seed else None
    y = []
    for j in range(h):
        for i in range(w):
            v = (i * 2 + j + k * 11) % 200 + 28 + r.randint(-10, 10)
            if rn:
                v += rn.randint(-3, 3)
            y.append(max(0, min(255, v)) << (depth - 8))
    c = [(128 + (k % 7)) << (depth - 8)] * (2 * ((w + 1) // 2) * ((h + 1) // 2))
    return y + c

def pack(samples, depth):
    if depth == 8:
        return bytes(samples)
    return b"".join(v.to_bytes(2, "little") for v in samples)

def gen(out, kind, w, h, depth, frames, seed):
    """frames: content indices, in order (a repeat repeats the frame)"""
    with open(out, "wb") as f:
        if kind == "y4m":
            f.write(b"YUV4MPEG2 W%d H%d F25:1 Ip C%s\n" % (w, h, b"420jpeg" if depth == 8 else b"420p%d" % depth))
        for k in frames:
            if kind == "y4m":
                f.write(b"FRAME\n")
            f.write(pack(frame(k, seed, w, h, depth), depth))

def frames_of(path):
    d = json.load(open(path))
    if "renditions" in d:
        return [[fr["metrics"] for fr in r["frames"]] for r in d["renditions"]]
    return [fr["metrics"] for fr in d["frames"]]

cmd = sys.argv[1]
if cmd == "gen":  # gen OUT y4m|raw W H DEPTH FIRST COUNT SEED [REPEAT_LAST_N]
    out, kind, w, h, depth, first, count, seed = sys.argv[2:10]
    idx = list(range(int(first), int(first) + int(count)))
    if len(sys.argv) > 10:
        idx += [idx[-1]] * int(sys.argv[10])
    gen(out, kind, int(w), int(h), int(depth), idx, int(seed))
elif cmd == "same":  # same A.json B.json [RENDITION_A] [FIRST:LAST of B]: every value equal, bit for bit
    a, b = frames_of(sys.argv[2]), frames_of(sys.argv[3])
    if len(sys.argv) > 4 and sys.argv[4] != "-":
        a = a[int(sys.argv[4])]
    if len(sys.argv) > 5:
        lo, hi = (int(x) for x in sys.argv[5].split(":"))
        b = b[lo:hi]
    ok = len(a) == len(b) and len(a) > 0 and all(
        x.keys() == y.keys() and all(x[k].hex() == y[k].hex() for k in x) for x, y in zip(a, b))
    print("    %d frames, %s" % (len(a), "every value equal (17 digits)" if ok else "DIFFERENT (%d vs %d frames)" % (len(a), len(b))))
    sys.exit(0 if ok else 1)
elif cmd == "samelog":  # samelog A.json B.json: every rendition's frames equal, bit for bit
    a, b = frames_of(sys.argv[2]), frames_of(sys.argv[3])
    a, b = (x if x and isinstance(x[0], list) else [x] for x in (a, b))
    ok = len(a) == len(b) and all(len(x) == len(y) and len(x) > 0 and all(
        p.keys() == q.keys() and all(p[k].hex() == q[k].hex() for k in p) for p, q in zip(x, y))
        for x, y in zip(a, b))
    print("    %s frames, %s" % (",".join(str(len(x)) for x in a), "every value equal (17 digits)" if ok else "DIFFERENT"))
    sys.exit(0 if ok else 1)
elif cmd == "config":  # config LOG KEY: prints config[KEY] as JSON
    print(json.dumps(json.load(open(sys.argv[2]))["config"].get(sys.argv[3], "absent")))
elif cmd == "nframes":  # nframes LOG: frames (per rendition, comma-separated)
    f = frames_of(sys.argv[2])
    print(",".join(str(len(r)) for r in f) if f and isinstance(f[0], list) else len(f))
EOF
PY="python3 $TMP/gen.py"

# run ARGS...: the CLI with stderr in $TMP/err; status in $rc
run() {
    "$CLI" "$@" 2>"$TMP/err"
    rc=$?
}
# check NAME COND-STATUS: passes when the last run exited with STATUS; prints stderr otherwise
status_is() {
    if [ "$rc" -eq "$2" ]; then return 0; fi
    failed "$1: exit status $rc, expected $2"
    sed 's/^/    stderr: /' "$TMP/err"
    return 1
}
has_msg() { # NAME TEXT: stderr holds TEXT (one line shown)
    if grep -F -q -- "$2" "$TMP/err"; then
        printf '    stderr: %s\n' "$(grep -F -- "$2" "$TMP/err" | head -n 1)"
        return 0
    fi
    failed "$1: stderr lacks '$2'"
    sed 's/^/    stderr: /' "$TMP/err"
    return 1
}
# refused NAME STATUS TEXT OUT: exit STATUS, stderr TEXT, OUT not created
refused() {
    status_is "$1" "$2" && has_msg "$1" "$3" || return
    if [ -e "$4" ]; then failed "$1: $4 was created"; else pass "$1"; fi
}

# ---- inputs -----------------------------------------------------------------------
$PY gen "$TMP/ref.y4m" y4m $W $H 8 0 20 0        # content 0..19
$PY gen "$TMP/dis_p3.y4m" y4m $W $H 8 3 17 5     # its first 3 frames dropped (offset +3)
$PY gen "$TMP/dis_full.y4m" y4m $W $H 8 0 20 6   # every frame, noise of its own
$PY gen "$TMP/ref_late.y4m" y4m $W $H 8 3 17 0   # a reference starting at content 3
$PY gen "$TMP/dis_p5.y4m" y4m $W $H 8 5 15 5     # first 5 dropped
$PY gen "$TMP/ref10.y4m" y4m $W $H 10 3 17 0
$PY gen "$TMP/dis10.y4m" y4m $W $H 10 0 20 7

# ---- --sync-window: the offset found, printed, logged, and scored with ---------------
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --sync-window 5 -o "$TMP/sync_p3.json"
if status_is "sync +3" 0 &&
    has_msg "sync +3" "gpussim: sync: the distorted input starts 3 frames later in the content than the reference (offset +3, luma PSNR" &&
    has_msg "sync +3" "the reference's first 3 frames are not scored"; then
    pass "--sync-window 5: offset +3 found and printed"
fi
[ "$($PY config "$TMP/sync_p3.json" sync_offset)" = 3 ] && pass "  ... config sync_offset = 3" ||
    failed "  ... config sync_offset is $($PY config "$TMP/sync_p3.json" sync_offset)"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --skip-ref 3 -o "$TMP/skipref3.json"
status_is "--skip-ref 3" 0 && $PY same "$TMP/sync_p3.json" "$TMP/skipref3.json" &&
    pass "  ... scores == --skip-ref 3, every value (17 frames)" || failed "  ... scores differ from --skip-ref 3"
[ "$($PY config "$TMP/skipref3.json" sync_offset)" = '"absent"' ] && pass "  ... no sync_offset without --sync-window" ||
    failed "  ... sync_offset written without --sync-window"
# the same cut by hand: --skip-ref N is the file without its first N frames
$PY gen "$TMP/ref_from3.y4m" y4m $W $H 8 3 17 0
run -r "$TMP/ref_from3.y4m" -d "$TMP/dis_p3.y4m" $FEAT -o "$TMP/cut3.json"
status_is "cut reference" 0 && $PY same "$TMP/skipref3.json" "$TMP/cut3.json" &&
    pass "--skip-ref 3 == the reference file without its first 3 frames" || failed "--skip-ref 3 != the cut file"

run -r "$TMP/ref_late.y4m" -d "$TMP/dis_full.y4m" $FEAT --sync-window 5 -o "$TMP/sync_m3.json"
status_is "sync -3" 0 &&
    has_msg "sync -3" "gpussim: sync: the distorted input starts 3 frames earlier than the reference (offset -3, luma PSNR" &&
    pass "--sync-window 5: offset -3 found"
[ "$($PY config "$TMP/sync_m3.json" sync_offset)" = -3 ] && pass "  ... config sync_offset = -3" || failed "  ... config sync_offset"
run -r "$TMP/ref_late.y4m" -d "$TMP/dis_full.y4m" $FEAT --skip-dis 3 -o "$TMP/skipdis3.json"
status_is "--skip-dis 3" 0 && $PY same "$TMP/sync_m3.json" "$TMP/skipdis3.json" &&
    pass "  ... scores == --skip-dis 3, every value" || failed "  ... scores differ from --skip-dis 3"

run -r "$TMP/ref10.y4m" -d "$TMP/dis10.y4m" $FEAT --sync-window 8 -o "$TMP/sync10.json"
status_is "10-bit sync" 0 && has_msg "10-bit sync" "(offset -3, luma PSNR" &&
    run -r "$TMP/ref10.y4m" -d "$TMP/dis10.y4m" $FEAT --skip-dis 3 -o "$TMP/skip10.json" &&
    $PY same "$TMP/sync10.json" "$TMP/skip10.json" && pass "10-bit y4m, --sync-window 8: -3, == --skip-dis 3" ||
    failed "10-bit sync"

# the search starts after the skips: content 5.. against --skip-ref 2 is +3 more
run -r "$TMP/ref.y4m" -d "$TMP/dis_p5.y4m" $FEAT --skip-ref 2 --sync-window 4 -o "$TMP/sync_after.json"
status_is "sync after --skip-ref" 0 && has_msg "sync after --skip-ref" "(offset +3," &&
    run -r "$TMP/ref.y4m" -d "$TMP/dis_p5.y4m" $FEAT --skip-ref 5 -o "$TMP/skip5.json" &&
    $PY same "$TMP/sync_after.json" "$TMP/skip5.json" &&
    pass "--skip-ref 2 --sync-window 4: +3 after the skip, == --skip-ref 5" || failed "sync after --skip-ref"

# identical inputs: offset 0, infinite PSNR
run -r "$TMP/ref.y4m" -d "$TMP/ref.y4m" $FEAT --sync-window 3 -o "$TMP/sync_id.json"
status_is "sync identity" 0 &&
    has_msg "sync identity" "gpussim: sync: the distorted input is aligned with the reference (offset +0, luma PSNR inf dB" &&
    pass "identical inputs: offset +0, PSNR inf"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --sync-window 5 -q -o "$TMP/sync_q.json"
if status_is "sync -q" 0 && [ ! -s "$TMP/err" ]; then pass "--sync-window with -q: nothing printed"; else failed "--sync-window -q printed"; fi

# a ladder: one offset per rendition; the reference drops the largest
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" -d "$TMP/dis_full.y4m" $FEAT --sync-window 5 -o "$TMP/sync_ladder.json"
if status_is "ladder sync" 0 && has_msg "ladder sync" "gpussim: sync: rendition 0 ($TMP/dis_p3.y4m) starts 3 frames later in the content than the reference (offset +3" &&
    has_msg "ladder sync" "gpussim: sync: rendition 1 ($TMP/dis_full.y4m) is aligned with the reference (offset +0" &&
    has_msg "ladder sync" "gpussim: sync: frames dropped before pairing: the reference: 3, rendition 0: 0, rendition 1: 3"; then
    pass "ladder --sync-window: +3 and +0, drops named"
fi
[ "$($PY config "$TMP/sync_ladder.json" sync_offset)" = "[3, 0]" ] && pass "  ... config sync_offset = [3, 0]" ||
    failed "  ... config sync_offset is $($PY config "$TMP/sync_ladder.json" sync_offset)"
run -r "$TMP/ref.y4m" -d "$TMP/dis_full.y4m" $FEAT --skip-ref 3 --skip-dis 3 -o "$TMP/pair_full33.json"
$PY same "$TMP/sync_ladder.json" "$TMP/skipref3.json" 0 && $PY same "$TMP/sync_ladder.json" "$TMP/pair_full33.json" 1 &&
    pass "  ... rendition 0 == --skip-ref 3, rendition 1 == --skip-ref 3 --skip-dis 3" || failed "  ... ladder renditions differ"

# sync refusals
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" --sync-window 0 -o "$TMP/x.json"
refused "--sync-window 0" 2 "--sync-window: expected a frame count 1..240 (offsets -N..N are tried), got '0'" "$TMP/x.json"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" --sync-window 241 -o "$TMP/x.json"
refused "--sync-window 241" 2 "--sync-window: expected a frame count 1..240" "$TMP/x.json"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" --skip-dis 17 --sync-window 5 -o "$TMP/x.json"
refused "--sync-window with nothing left after --skip-dis" 2 \
    "--sync-window: the distorted input $TMP/dis_p3.y4m has no frame to compare after --skip-ref/--skip-dis" "$TMP/x.json"

# ---- --skip-ref / --skip-dis with --skip / --frames ------------------------------------
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --skip-ref 3 --skip 4 --frames 5 -o "$TMP/chunk.json"
status_is "chunk" 0 && $PY same "$TMP/chunk.json" "$TMP/skipref3.json" - 4:9 &&
    [ "$($PY config "$TMP/chunk.json" first_frame)" = 4 ] &&
    pass "--skip-ref 3 --skip 4 --frames 5: pairs 4..8 of the aligned run, first_frame 4" || failed "--skip-ref with --skip/--frames"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --sync-window 5 --skip 4 --frames 5 -o "$TMP/chunk_sync.json"
status_is "sync chunk" 0 && $PY same "$TMP/chunk_sync.json" "$TMP/skipref3.json" - 4:9 &&
    pass "--sync-window 5 --skip 4 --frames 5: the same pairs (chunks of a synced run agree)" || failed "sync chunk"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --skip-ref 21 -o "$TMP/x.json"
refused "--skip-ref past the end" 2 "--skip-ref 21: the reference $TMP/ref.y4m holds only 20 frames" "$TMP/x.json"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --skip-dis abc -o "$TMP/x.json"
refused "--skip-dis abc" 2 "--skip-dis: expected a frame count >= 0, got 'abc'" "$TMP/x.json"

# ---- inputs of different length -------------------------------------------------------
# by default the run ends with the shorter input, warned (exit 0);
# --strict-length makes it an error (exit 1) with the same frames written
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT -o "$TMP/short_dis.json"
status_is "short distorted" 0 &&
    has_msg "short distorted" "gpussim: warning: the distorted input $TMP/dis_p3.y4m ended after 17 frames while the reference $TMP/ref.y4m has more; scored 17" &&
    [ "$($PY nframes "$TMP/short_dis.json")" = 17 ] && pass "shorter distorted input: exit 0, warned, both named, 17 frames written"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --strict-length -o "$TMP/strict_dis.json"
status_is "--strict-length short distorted" 1 &&
    has_msg "--strict-length short distorted" "gpussim: error: the distorted input $TMP/dis_p3.y4m ended after 17 frames while the reference $TMP/ref.y4m has more; scored 17" &&
    $PY same "$TMP/strict_dis.json" "$TMP/short_dis.json" &&
    pass "--strict-length, shorter distorted input: exit 1, an error naming both, the same 17 frames kept"
run -r "$TMP/ref_late.y4m" -d "$TMP/dis_full.y4m" $FEAT -o "$TMP/short_ref.json"
status_is "short reference" 0 &&
    has_msg "short reference" "gpussim: warning: the reference $TMP/ref_late.y4m ended after 17 frames while the distorted input $TMP/dis_full.y4m has more; scored 17" &&
    [ "$($PY nframes "$TMP/short_ref.json")" = 17 ] && pass "shorter reference: exit 0, warned, both named, 17 frames written"
run -r "$TMP/ref_late.y4m" -d "$TMP/dis_full.y4m" $FEAT --strict-length -o "$TMP/strict_ref.json"
status_is "--strict-length short reference" 1 &&
    has_msg "--strict-length short reference" "gpussim: error: the reference $TMP/ref_late.y4m ended after 17 frames while the distorted input $TMP/dis_full.y4m has more; scored 17" &&
    $PY same "$TMP/strict_ref.json" "$TMP/short_ref.json" &&
    pass "--strict-length, shorter reference: exit 1, an error naming both, the same 17 frames kept"
if grep -q -F -- "--shortest" "$TMP/err"; then failed "the message still suggests --shortest"; else pass "no --shortest hint (it is the default)"; fi
# raw files: the longer one's count is known from its size
$PY gen "$TMP/ref.yuv" raw $W $H 8 0 20 0
$PY gen "$TMP/dis_p3.yuv" raw $W $H 8 3 17 5
RAW="-w $W -h $H -p 420 -b 8"
run -r "$TMP/ref.yuv" -d "$TMP/dis_p3.yuv" $RAW $FEAT -o "$TMP/short_raw.json"
status_is "raw short" 0 &&
    has_msg "raw short" "gpussim: warning: the distorted input $TMP/dis_p3.yuv ended after 17 frames while the reference $TMP/ref.yuv has more (20 frames); scored 17" &&
    pass "raw inputs: the longer one's count from its size"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --shortest -o "$TMP/shortest.json"
status_is "--shortest" 0 &&
    has_msg "--shortest" "gpussim: warning: the distorted input $TMP/dis_p3.y4m ended after 17 frames while the reference $TMP/ref.y4m has more; scored 17" &&
    $PY same "$TMP/shortest.json" "$TMP/short_dis.json" && pass "--shortest (the default, still accepted): exit 0, a warning, the same 17 frames"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --repeat-last -o "$TMP/repeat.json"
$PY gen "$TMP/dis_p3_rep.y4m" y4m $W $H 8 3 17 5 3   # its last frame written 3 more times
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3_rep.y4m" $FEAT -o "$TMP/repeat_file.json"
if status_is "repeat file" 0 &&
    run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --repeat-last -o "$TMP/repeat.json" && status_is "--repeat-last" 0 &&
    has_msg "--repeat-last" "gpussim: warning: the distorted input $TMP/dis_p3.y4m ended after 17 frames: its last frame was scored again for the 3 frame(s) the other input had left (--repeat-last); scored 20" &&
    $PY same "$TMP/repeat.json" "$TMP/repeat_file.json"; then
    pass "--repeat-last: exit 0, 3 repeats warned, == the file with its last frame repeated (20 frames)"
else
    failed "--repeat-last"
fi
run -r "$TMP/ref_late.y4m" -d "$TMP/dis_full.y4m" $FEAT --repeat-last -o "$TMP/repeat_ref.json"
status_is "--repeat-last reference" 0 &&
    has_msg "--repeat-last reference" "gpussim: warning: the reference $TMP/ref_late.y4m ended after 17 frames: its last frame was scored again for the 3 frame(s)" &&
    [ "$($PY nframes "$TMP/repeat_ref.json")" = 20 ] && pass "--repeat-last with the reference shorter: 20 frames"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" --repeat-last --shortest -o "$TMP/x.json"
refused "--repeat-last with --shortest" 2 "--repeat-last and --shortest contradict each other" "$TMP/x.json"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" --strict-length --repeat-last -o "$TMP/x.json"
refused "--repeat-last with --strict-length" 2 "gpussim: error: --repeat-last and --strict-length contradict each other: when one input ends first, the run either goes on with its last frame or ends there" "$TMP/x.json"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" --shortest --strict-length -o "$TMP/x.json"
refused "--shortest with --strict-length" 2 "gpussim: error: --shortest and --strict-length contradict each other" "$TMP/x.json"
# a ladder: per rendition
run -r "$TMP/ref.y4m" -d "$TMP/dis_full.y4m" -d "$TMP/dis_p3.y4m" $FEAT -o "$TMP/ladder_short.json"
status_is "ladder short" 0 &&
    has_msg "ladder short" "gpussim: warning: rendition 1 ($TMP/dis_p3.y4m) ended after 17 frames while the reference $TMP/ref.y4m has more; scored 17" &&
    [ "$($PY nframes "$TMP/ladder_short.json")" = "17,17" ] && pass "ladder: a short rendition named, warned, exit 0, 17 frames per rendition"
run -r "$TMP/ref.y4m" -d "$TMP/dis_full.y4m" -d "$TMP/dis_p3.y4m" $FEAT --strict-length -o "$TMP/ladder_strict.json"
status_is "ladder --strict-length" 1 &&
    has_msg "ladder --strict-length" "gpussim: error: rendition 1 ($TMP/dis_p3.y4m) ended after 17 frames while the reference $TMP/ref.y4m has more; scored 17" &&
    $PY samelog "$TMP/ladder_strict.json" "$TMP/ladder_short.json" && $PY same "$TMP/ladder_strict.json" "$TMP/short_dis.json" 1 &&
    pass "ladder --strict-length: exit 1, the same 17 frames per rendition"
run -r "$TMP/ref.y4m" -d "$TMP/dis_full.y4m" -d "$TMP/dis_p3.y4m" $FEAT --repeat-last -o "$TMP/ladder_rep.json"
status_is "ladder repeat" 0 &&
    has_msg "ladder repeat" "gpussim: warning: rendition 1 ($TMP/dis_p3.y4m) ended after 17 frames: its last frame was scored again for the 3 frame(s) the other inputs had left (--repeat-last); scored 20" &&
    $PY same "$TMP/ladder_rep.json" "$TMP/repeat_file.json" 1 && pass "ladder --repeat-last: rendition 1 == the repeated file"

# ---- -o never names an input ----------------------------------------------------------
cp "$TMP/dis_p3.y4m" "$TMP/victim.y4m"
ln -s "$TMP/victim.y4m" "$TMP/symlink.json"
ln "$TMP/victim.y4m" "$TMP/hardlink.json"
for out in "$TMP/victim.y4m" "$TMP/symlink.json" "$TMP/hardlink.json"; do
    run -r "$TMP/ref.y4m" -d "$TMP/victim.y4m" $FEAT -o "$out"
    status_is "-o $out" 2 && has_msg "-o $out" "gpussim: error: -o $out is the distorted input $TMP/victim.y4m (the same file): writing the scores there would destroy the input" &&
        cmp -s "$TMP/victim.y4m" "$TMP/dis_p3.y4m" && pass "-o $(basename "$out") (the distorted input): refused, exit 2, input unchanged"
done
"$CLI" -r - -d "$TMP/dis_p3.y4m" $FEAT -o "$TMP/victim.y4m" <"$TMP/victim.y4m" 2>"$TMP/err"
rc=$?
status_is "-o stdin" 2 && has_msg "-o stdin" "-o $TMP/victim.y4m is the reference stdin (the same file)" &&
    cmp -s "$TMP/victim.y4m" "$TMP/dis_p3.y4m" && pass "-o naming the file stdin reads: refused, input unchanged"
run -r "$TMP/victim.y4m" -d "$TMP/hardlink.json" $FEAT -o "$TMP/new.json"
status_is "-o new file" 0 && [ "$($PY nframes "$TMP/new.json")" = 17 ] &&
    pass "a hard link as an input, -o a new file: scored (17 frames)"

run -r "$TMP/ref.y4m" -r "$TMP/ref_late.y4m" -d "$TMP/dis_p3.y4m" -o "$TMP/x.json"
refused "-r twice" 2 "-r given twice ('$TMP/ref.y4m' and '$TMP/ref_late.y4m'): one reference per run" "$TMP/x.json"
run -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" -o "$TMP/x.json" -o "$TMP/y.json"
refused "-o twice" 2 "-o given twice ('$TMP/x.json' and '$TMP/y.json'): one output per run" "$TMP/x.json"

# ---- y4m fields given twice ------------------------------------------------------------
for f in "W176 H144 W160" "W176 H144 H120" "W176 H144 F25:1 F30:1" "W176 H144 C420jpeg C444" "W176 Ip H144 It" "A1:1 W176 H144 A4:3"; do
    tag=$(echo "$f" | awk '{ for (i = 1; i <= NF; i++) { t = substr($i, 1, 1); if (seen[t]++) { print t; exit } } }')
    { printf 'YUV4MPEG2 %s\nFRAME\n' "$f"; head -c $((W * H * 3 / 2)) "$TMP/ref.yuv"; } >"$TMP/dup.y4m"
    run -r "$TMP/dup.y4m" -d "$TMP/dis_p3.y4m" -o "$TMP/x.json"
    refused "y4m header '$f'" 2 "$TMP/dup.y4m: the y4m header gives the $tag field twice" "$TMP/x.json"
done
{ printf 'YUV4MPEG2 W176 H144 C420jpeg XYSCSS=420JPEG XCOLORRANGE=LIMITED\nFRAME\n'; head -c $((W * H * 3 / 2)) "$TMP/ref.yuv"; } >"$TMP/xx.y4m"
run -r "$TMP/xx.y4m" -d "$TMP/ref.y4m" $FEAT -o "$TMP/xx.json"
status_is "X twice" 0 && pass "y4m X fields may repeat"

# ---- files that are not YUV, refused by name ---------------------------------------------
nonyuv() { # NAME FILE BYTES(printf) TEXT
    { printf "$3"; head -c 4000 "$TMP/ref.yuv"; } >"$TMP/$2"
    run -r "$TMP/ref.y4m" -d "$TMP/$2" -o "$TMP/x.json"
    refused "$1" 2 "$TMP/$2 $4" "$TMP/x.json"
}
# (built with FFmpeg's libraries, gpussim decodes such files: these broken
# ones are refused with FFmpeg's reason instead of the ffmpeg | gpussim line)
if "$CLI" --version | grep -q 'decoding with FFmpeg'; then
    nonyuv "NUT" dis.nut 'nut/multimedia container\000' "is compressed video (NUT): FFmpeg's libraries cannot read it"
    nonyuv "PNG" dis.png '\211PNG\r\n\032\n' "is an image (PNG): no video frame could be decoded from its png stream"
else
    nonyuv "NUT" dis.nut 'nut/multimedia container\000' "is compressed video (NUT): gpussim reads only YUV4MPEG2 (.y4m) and raw planar YUV"
    grep -q -x -F "    ffmpeg -i $TMP/dis.nut -strict -1 -f yuv4mpegpipe - | gpussim -r $TMP/ref.y4m -d -" "$TMP/err" &&
        pass "  ... with the ffmpeg | gpussim line" || failed "  ... no ffmpeg line"
    nonyuv "PNG" dis.png '\211PNG\r\n\032\n' "is an image (PNG): gpussim reads only YUV4MPEG2"
fi
nonyuv "NUT content named .yuv" nut.yuv 'nut/multimedia container\000' "is compressed video (NUT)"
nonyuv "JPEG named .yuv" jpeg.yuv '\377\330\377\340' "is an image (JPEG)"
nonyuv "WAV" dis.wav 'RIFF\044\000\000\000WAVEfmt ' "is audio (WAV), not video: gpussim scores video frames"
nonyuv "FLAC named .yuv" flac.yuv 'fLaC' "is audio (FLAC), not video"
nonyuv "Ogg" dis.ogg 'OggS' "is compressed video (Ogg)"
python3 -c 'import sys; sys.stdout.buffer.write(b"".join(b"\x47\x40\x00\x10" + bytes(184) for _ in range(8)))' >"$TMP/ts.bin"
run -r "$TMP/ref.y4m" -d "$TMP/ts.bin" -o "$TMP/x.json"
refused "MPEG-TS by its sync bytes" 2 "$TMP/ts.bin is compressed video (MPEG-TS)" "$TMP/x.json"
# raw video that starts like a PNG: --force-raw reads it
{ printf '\211PNG\r\n\032\n'; tail -c +9 "$TMP/ref.yuv"; } >"$TMP/pnglike.yuv"
run -r "$TMP/ref.yuv" -d "$TMP/pnglike.yuv" $RAW $FEAT -o "$TMP/x.json"
refused "raw starting with PNG bytes, no --force-raw" 2 "$TMP/pnglike.yuv is an image (PNG)" "$TMP/x.json"
run -r "$TMP/ref.yuv" -d "$TMP/pnglike.yuv" $RAW $FEAT --force-raw -o "$TMP/forced.json"
status_is "--force-raw" 0 && [ "$($PY nframes "$TMP/forced.json")" = 20 ] && pass "--force-raw: the same bytes scored as raw (20 frames)"
# a flat raw frame of luma 0x47 is not MPEG-TS
python3 -c "import sys; sys.stdout.buffer.write(b'\x47' * ($W * $H) + b'\x80' * ($W * $H // 2))" >"$TMP/flat71.yuv"
run -r "$TMP/flat71.yuv" -d "$TMP/flat71.yuv" $RAW $FEAT -o "$TMP/flat.json"
status_is "flat 0x47" 0 && pass "a flat raw frame of 0x47 bytes is read as raw, not MPEG-TS"

# ---- one exit-status rule -----------------------------------------------------------------
# 0 scored (an input that ended first is warned); 1 the run began and stopped
# on an error (the output holds the frames scored); 2 nothing scored, the
# output not created
: >"$TMP/empty.yuv"
head -c 100 "$TMP/ref.yuv" >"$TMP/100.yuv"
head -c $((W * H * 3 / 2 * 5 + 77)) "$TMP/ref.yuv" >"$TMP/trunc.yuv"
exit_case() { # NAME STATUS TEXT ARGS...
    name=$1 want=$2 text=$3
    shift 3
    rm -f "$TMP/code.json"
    run "$@" -o "$TMP/code.json"
    if [ "$want" = 2 ]; then
        refused "exit $want: $name" 2 "$text" "$TMP/code.json"
    elif status_is "exit $want: $name" "$want" && has_msg "exit $want: $name" "$text" && [ -s "$TMP/code.json" ]; then
        pass "exit $want: $name (output written: $($PY nframes "$TMP/code.json") frames)"
    fi
}
exit_case "--skip 20 on 20 frames" 2 "--skip 20: the inputs hold only 20 frames" -r "$TMP/ref.y4m" -d "$TMP/dis_full.y4m" $FEAT --skip 20
exit_case "--skip 21 on 20 frames" 2 "--skip 21: the inputs hold only 20 frames" -r "$TMP/ref.y4m" -d "$TMP/dis_full.y4m" $FEAT --skip 21
exit_case "zero-byte raw input" 2 "no frame to score: the inputs hold no frames" -r "$TMP/empty.yuv" -d "$TMP/empty.yuv" $RAW $FEAT
exit_case "zero-byte distorted, full reference" 2 "gpussim: error: the distorted input $TMP/empty.yuv ended after 0 frames while the reference $TMP/ref.yuv has more (20 frames); scored 0" -r "$TMP/ref.yuv" -d "$TMP/empty.yuv" $RAW $FEAT
exit_case "100-byte raw input" 2 "$TMP/100.yuv: truncated input: its 100 bytes cannot hold one" -r "$TMP/100.yuv" -d "$TMP/100.yuv" $RAW $FEAT
exit_case "--skip-dis to the end with --repeat-last" 2 "no frame to score: the inputs hold no frames after those dropped before pairing" -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --skip-dis 17 --repeat-last
exit_case "unknown option" 2 "unknown option '--bogus'" -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" --bogus
exit_case "raw input truncated at frame 5" 1 "$TMP/trunc.yuv: truncated input: frame 5 has 77 of 38016 bytes" -r "$TMP/ref.yuv" -d "$TMP/trunc.yuv" $RAW $FEAT
exit_case "inputs of different length, --strict-length" 1 "gpussim: error: the distorted input $TMP/dis_p3.y4m ended after 17 frames" -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT --strict-length
exit_case "inputs of different length" 0 "gpussim: warning: the distorted input $TMP/dis_p3.y4m ended after 17 frames" -r "$TMP/ref.y4m" -d "$TMP/dis_p3.y4m" $FEAT
exit_case "zero-byte distorted, full reference, --repeat-last" 2 "gpussim: error: the distorted input $TMP/empty.yuv ended after 0 frames while the reference $TMP/ref.yuv has more (20 frames); scored 0" -r "$TMP/ref.yuv" -d "$TMP/empty.yuv" $RAW $FEAT --repeat-last
rm -f "$TMP/code.json"
run -r "$TMP/ref.y4m" -d "$TMP/dis_full.y4m" $FEAT -o "$TMP/code.json"
status_is "exit 0" 0 && [ "$($PY nframes "$TMP/code.json")" = 20 ] && pass "exit 0: scored to the end (20 frames)"
"$CLI" --help >"$TMP/help" 2>&1
missing=
for t in "--sync-window N" "--skip-ref N" "--skip-dis N" "--repeat-last" "--shortest" "the default, accepted for compatibility" "--strict-length" "--force-raw" "Exit status: 0 scored (also when an input ended first: warned); 1"; do
    grep -q -F -- "$t" "$TMP/help" || missing="$missing '$t'"
done
[ -z "$missing" ] && pass "--help documents the pairing options and the exit status" || failed "--help lacks$missing"

summary "test_cli_pairing"
