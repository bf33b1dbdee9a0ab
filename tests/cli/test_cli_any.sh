#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The gpussim tool reads any video FFmpeg decodes, and scores it as the
# FFmpeg filter does.
#
# Clips like a user's (tests/ffmpeg/test-ffmpeg-pairing.sh's `clip`): audio
# tracks, video starting after the audio (7 ms in an MKV), MP4, MKV, WebM,
# 8 and 10 bits. Each case runs `gpussim -r REF -d DIS` and the filter
# (ffmpeg -i DIS -i REF -lavfi gpussim=feature=all:log_path=LOG) on the same
# files and asserts the two logs agree on every value (floats exactly,
# integer ssim within 1e-9; the pooled metrics too), the frame count and each
# frame's timestamp (1 us):
#   1. H.264 MP4 reference, H.264 MKV (7 ms late) and VP9 WebM distorted
#   2. 10-bit HEVC MKV against 10-bit VP9 WebM: scored in 10 bits, no note
#   3. the distorted input from a pipe (-d -)
#   4. --scale auto: a 640x360 rendition of a 1280x720 reference equals the
#      filter with [0:v]scale=1280:720:flags=bicubic; --scale 1280x720 the same;
#      a ladder (640x360 MKV, 960x540 WebM) scaled: each rendition equals its
#      pair run
#   5. NV12 sources (raw video in NUT) are read as they are (no conversion
#      note; the filter's numbers, which reads NV12 too) and score like
#      their yuv420p twins; an RGB source is converted to the reference's
#      format, with a note. (P010 shares the NV12 path; no container here
#      stores it.)
#   6. a shorter distorted input with --shortest: the filter's frame count
#   7. paired by time as the filter: 30 fps against 24 fps both ways, a
#      distorted input missing a frame, and a ladder of the three against
#      the filter's inputs=4
#   8. refusals (exit 2, nothing written): sizes that differ without
#      --scale (the message names --scale auto), --sync-window (frame
#      offsets) at another frame rate, an audio-only file, a file FFmpeg
#      cannot read
# Skips (77) when FFmpeg is not built (GPUSSIM_FFMPEG_DIR, make ffmpeg); fails
# when it is but the tool was built without its libraries.

. "$(dirname "$0")/../lib/common.sh"
need_tool python3 "to compare the logs"
need_cli
FFDIR=${GPUSSIM_FFMPEG_DIR:-$TOP_SRCDIR/build/_ffmpeg}
FFMPEG=$FFDIR/ffmpeg
[ -x "$FFMPEG" ] || skip "no ffmpeg built at $FFMPEG (make ffmpeg)"
"$CLI" --version | grep -q 'decoding with FFmpeg' ||
    fail "ffmpeg is built ($FFMPEG) but $CLI has no FFmpeg libraries: $("$CLI" --version)"
make_tmp cliany

ff() { "$FFMPEG" -hide_banner -nostdin -y -loglevel error "$@"; }
W=320 H=240 N=48
src="testsrc2=s=${W}x$H:r=24:d=2"
aud="sine=frequency=440:sample_rate=48000:d=2"

# clip NAME VIDEO_ARGS AUDIO_ARGS [FILTER] [VIDEO_DELAY] [SOURCE]
clip() {
    out=$TMP/$1
    [ -z "${5:-}" ] || out=$TMP/delay.nut
    # shellcheck disable=SC2086
    ff -itsoffset "${5:-0}" -f lavfi -i "${6:-$src}" -f lavfi -i "$aud" -vf "${4:-null}" \
        $2 $3 -fps_mode passthrough "$out" || fail "could not make $1"
    [ -z "${5:-}" ] || ff -i "$out" -c copy "$TMP/$1" || fail "could not remux $1"
}

cat >"$TMP/same.py" <<'EOF'
import json, math, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def close(k, x, y):
    if x is None or y is None:
        return x is None and y is None
    return x == y if not k.startswith("ssim") else abs(x - y) <= 1e-9
fa, fb = a["frames"], b["frames"]
if len(fa) != len(fb) or not fa:
    sys.exit(f"frames: filter {len(fa)}, CLI {len(fb)}")
n = 0
for i, (x, y) in enumerate(zip(fa, fb)):
    if sorted(x["metrics"]) != sorted(y["metrics"]):
        sys.exit(f"frame {i}: keys differ: {sorted(x['metrics'])} vs {sorted(y['metrics'])}")
    for k, v in x["metrics"].items():
        if not close(k, v, y["metrics"][k]):
            sys.exit(f"frame {i} {k}: filter {v!r} != CLI {y['metrics'][k]!r}")
        n += 1
    tx, ty = x.get("timestamp"), y.get("timestamp")
    if tx is None or ty is None or abs(tx - ty) > 1e-6:
        sys.exit(f"frame {i}: timestamp filter {tx!r}, CLI {ty!r}")
for k, st in a["pooled_metrics"].items():
    for s, v in st.items():
        if not close(k, v, b["pooled_metrics"][k][s]):
            sys.exit(f"pooled {k} {s}: filter {v!r} != CLI {b['pooled_metrics'][k][s]!r}")
print(f"{n} values, {len(fa)} frames and their timestamps equal", end="")
EOF

# same ID NAME DIS REF [CLI args] [filter before gpussim on DIS]: ID names the
# files ($TMP/ID.filter.json, ID.cli.json, ID.err)
same() {
    id=$1 name=$2 dis=$TMP/$3 ref=$TMP/$4 args=${5:-} pre=${6:-null}
    graph="[0:v]$pre[d];[d][1:v]gpussim=feature=all:log_path=$TMP/$id.filter.json"
    ff -i "$dis" -i "$ref" -lavfi "$graph" -f null - || { failed "$name: ffmpeg failed"; return; }
    # shellcheck disable=SC2086
    if ! "$CLI" -r "$ref" -d "$dis" --feature all --backend cpu $args -o "$TMP/$id.cli.json" 2>"$TMP/$id.err"; then
        failed "$name: gpussim failed"
        sed 's/^/    stderr: /' "$TMP/$id.err"
        return
    fi
    if msg=$(python3 "$TMP/same.py" "$TMP/$id.filter.json" "$TMP/$id.cli.json" 2>&1); then
        pass "$name: $msg"
    else
        failed "$name: $msg"
    fi
}
x264='-c:v libx264 -preset veryfast -pix_fmt yuv420p'

# ---- 1. MP4, MKV, WebM with audio, video starting late --------------------------
clip ref.mp4 "$x264 -crf 16" "-c:a aac -b:a 96k"
clip dis.mkv "$x264 -crf 38" "-c:a libopus -b:a 64k" null 0.007
clip dis.webm "-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 0 -crf 45 -pix_fmt yuv420p" "-c:a libopus -b:a 64k"
same mkv "MP4 ref vs MKV (7 ms late, Opus)" dis.mkv ref.mp4
same webm "MP4 ref vs WebM (VP9, Opus)" dis.webm ref.mp4
if [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["frames"][0]["timestamp"])' "$TMP/mkv.cli.json")" = 0.007 ]; then
    pass "  ... the MKV's first frame is logged at 0.007 s, as the filter logs it"
else failed "  ... the MKV's first timestamp is not 0.007"; fi
if [ -s "$TMP/mkv.err" ] && ! grep -q 'note:\|warning:' "$TMP/mkv.err"; then
    pass "  ... no conversion note, no warning"
else failed "  ... unexpected messages: $(cat "$TMP/mkv.err")"; fi

# ---- 2. 10-bit -------------------------------------------------------------------
clip ref10.mkv "-c:v libx265 -preset ultrafast -crf 12 -pix_fmt yuv420p10le -x265-params log-level=error" "-c:a libopus -b:a 64k" null 0.007
clip dis10.webm "-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 0 -crf 50 -pix_fmt yuv420p10le" "-c:a libopus -b:a 64k"
same ten "10-bit HEVC MKV ref vs 10-bit VP9 WebM" dis10.webm ref10.mkv
if python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["config"]; sys.exit(c["bit_depth"] != 10)' "$TMP/ten.cli.json" &&
    ! grep -q 'note:' "$TMP/ten.err"; then
    pass "  ... scored in 10 bits as decoded (config bit_depth 10, no conversion note)"
else failed "  ... not scored as 10-bit"; fi

# ---- 3. from a pipe --------------------------------------------------------------
if "$CLI" -r "$TMP/ref.mp4" -d - --feature all --backend cpu -o "$TMP/pipe.json" <"$TMP/dis.mkv" 2>"$TMP/pipe.err" &&
    cat "$TMP/dis.mkv" | "$CLI" -r "$TMP/ref.mp4" -d - --feature all --backend cpu -o "$TMP/pipe2.json" 2>>"$TMP/pipe.err" &&
    msg=$(python3 "$TMP/same.py" "$TMP/mkv.filter.json" "$TMP/pipe2.json" 2>&1); then
    pass "-d - (the MKV through a pipe): $msg"
else failed "-d - from a pipe: ${msg:-} $(cat "$TMP/pipe.err")"; fi

# ---- 4. --scale ------------------------------------------------------------------
clip ref720.mp4 "$x264 -crf 16" "-c:a aac -b:a 96k" null "" "testsrc2=s=1280x720:r=24:d=1"
clip dis360.mkv "$x264 -crf 30" "-c:a libopus -b:a 64k" "scale=640:360" 0.007 "testsrc2=s=1280x720:r=24:d=1"
same scale "--scale auto: 640x360 MKV rendition of a 1280x720 MP4" dis360.mkv ref720.mp4 "--scale auto" "scale=1280:720:flags=bicubic"
same scalewh "--scale 1280x720" dis360.mkv ref720.mp4 "--scale 1280x720" "scale=1280:720:flags=bicubic"
# a ladder of two renditions, each scaled: rendition k equals its pair run
clip dis540.webm "-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 0 -crf 40 -pix_fmt yuv420p" "-c:a libopus -b:a 64k" \
    "scale=960:540" "" "testsrc2=s=1280x720:r=24:d=1"
"$CLI" -q -r "$TMP/ref720.mp4" -d "$TMP/dis540.webm" --feature all --backend cpu --scale auto -o "$TMP/pair540.json"
if "$CLI" -r "$TMP/ref720.mp4" -d "$TMP/dis360.mkv" -d "$TMP/dis540.webm" --feature all --backend cpu --scale auto \
    -o "$TMP/ladder.json" 2>"$TMP/ladder.err" &&
    python3 - "$TMP/ladder.json" "$TMP/scale.cli.json" "$TMP/pair540.json" <<'EOF'
import json, sys
lad = json.load(open(sys.argv[1]))["renditions"]
for k, p in enumerate(sys.argv[2:]):
    want = [f["metrics"] for f in json.load(open(p))["frames"]]
    got = [f["metrics"] for f in lad[k]["frames"]]
    if got != want or not got:
        sys.exit(f"rendition {k} differs from its pair run")
EOF
then pass "a ladder of a 640x360 MKV and a 960x540 WebM, --scale auto: each rendition equals its pair run"
else failed "ladder with --scale auto: $(cat "$TMP/ladder.err")"; fi
if grep -q "note: $TMP/dis360.mkv: its 640x360 yuv420p frames are scaled (bicubic) to 1280x720 4:2:0 8-bit (yuv420p) with libswscale" \
    "$TMP/scale.err"; then
    pass "  ... with a note saying what was scaled"
else failed "  ... no scale note: $(cat "$TMP/scale.err")"; fi

# ---- 5. pixel formats ------------------------------------------------------------
clip ref-planar.mkv "-c:v ffv1 -pix_fmt yuv420p" "-c:a libopus -b:a 64k"
clip dis-nv12.nut "-c:v rawvideo -pix_fmt nv12" "-c:a pcm_s16le" "noise=alls=12:allf=t"
clip dis-planar.nut "-c:v rawvideo -pix_fmt yuv420p" "-c:a pcm_s16le" "noise=alls=12:allf=t"
clip ref-nv12.nut "-c:v rawvideo -pix_fmt nv12" "-c:a pcm_s16le"
same nv12 "NV12 sources, read as they are" dis-nv12.nut ref-nv12.nut
"$CLI" -r "$TMP/ref-planar.mkv" -d "$TMP/dis-planar.nut" --feature all --backend cpu -o "$TMP/planar.json" 2>"$TMP/planar.err"
if ! grep -q 'note:' "$TMP/nv12.err" &&
    python3 -c 'import json,sys; a,b=(json.load(open(p))["frames"] for p in sys.argv[1:]); sys.exit([f["metrics"] for f in a] != [f["metrics"] for f in b])' \
        "$TMP/nv12.cli.json" "$TMP/planar.json"; then
    pass "  ... no conversion note; NV12 scores exactly as its yuv420p twin (the same frames in yuv420p)"
else failed "  ... NV12 converted or scored differently"; fi
clip dis-rgb.mkv "-c:v ffv1 -pix_fmt bgr0" "-c:a libopus -b:a 64k"
if "$CLI" -r "$TMP/ref-planar.mkv" -d "$TMP/dis-rgb.mkv" --backend cpu -o "$TMP/rgb.json" 2>"$TMP/rgb.err" &&
    grep -q "note: $TMP/dis-rgb.mkv: its 320x240 bgr0 frames are converted to 320x240 4:2:0 8-bit (yuv420p) with libswscale" "$TMP/rgb.err"; then
    pass "an RGB source: converted to the reference's 4:2:0 8-bit, with a note"
else failed "RGB source: $(cat "$TMP/rgb.err")"; fi

# ---- 6. a shorter input ----------------------------------------------------------
clip dis-short.mkv "$x264 -crf 38" "-c:a libopus -b:a 64k" "trim=end_frame=36" 0.007
same short "a 36-frame distorted MKV against the 48-frame MP4 (--shortest)" dis-short.mkv ref.mp4 "--shortest"
if grep -q "ended after 36 frames" "$TMP/short.err"; then
    pass "  ... with the warning naming 36 frames"
else failed "  ... no warning: $(cat "$TMP/short.err")"; fi

# ---- 7. paired by time ------------------------------------------------------------
# frame rates that differ, both ways, and a frame dropped from the distorted
# input (its timestamps kept): each distorted frame gets the reference frame
# nearest in time, as in the filter
clip dis30.mkv "$x264 -crf 30" "-c:a libopus -b:a 64k" "fps=30" 0.007
clip ref30.mp4 "$x264 -crf 16" "-c:a aac -b:a 96k" "fps=30"
ff -i "$TMP/dis.mkv" -map 0 -c:a copy -vf "select='not(eq(n\,10))'" -fps_mode passthrough \
    -c:v libx264 -preset veryfast "$TMP/dis-drop.mkv" || fail "could not make dis-drop.mkv"
same rate30 "a 30 fps distorted MKV against a 24 fps MP4" dis30.mkv ref.mp4
same rate24 "a 24 fps distorted MKV against a 30 fps MP4" dis.mkv ref30.mp4
same drop "a distorted MKV missing frame 10 (timestamps kept)" dis-drop.mkv ref.mp4 "--shortest"
# a ladder: the first rendition leads, the others and the reference follow
# its time (the filter's input 0)
ff -i "$TMP/dis.mkv" -i "$TMP/dis30.mkv" -i "$TMP/dis-drop.mkv" -i "$TMP/ref.mp4" \
    -lavfi "gpussim=inputs=4:feature=all:log_path=$TMP/ladder-f.json" -f null - || failed "ladder: ffmpeg failed"
"$CLI" -r "$TMP/ref.mp4" -d "$TMP/dis.mkv" -d "$TMP/dis30.mkv" -d "$TMP/dis-drop.mkv" --feature all --backend cpu \
    -o "$TMP/ladder-c.json" 2>"$TMP/ladder-c.err"
if python3 - "$TMP/ladder-f.json" "$TMP/ladder-c.json" <<'EOF'
import json, sys
a, b = (json.load(open(p))["renditions"] for p in sys.argv[1:])
if len(a) != 3 or len(b) != 3:
    sys.exit("not 3 renditions")
for k, (x, y) in enumerate(zip(a, b)):
    fx, fy = [f["metrics"] for f in x["frames"]], [f["metrics"] for f in y["frames"]]
    if len(fx) != 48 or len(fy) != 48:
        sys.exit(f"rendition {k}: {len(fx)} and {len(fy)} frames")
    for i, (p, q) in enumerate(zip(fx, fy)):
        for key, v in p.items():
            if (v != q[key]) if not key.startswith("ssim") else abs(v - q[key]) > 1e-9:
                sys.exit(f"rendition {k} frame {i} {key}: filter {v!r} != CLI {q[key]!r}")
EOF
then pass "a ladder (24 fps, 30 fps, a missing frame) equals the filter's (inputs=4), every rendition"
else failed "ladder against the filter: $(cat "$TMP/ladder-c.err")"; fi

# ---- 8. refusals -----------------------------------------------------------------
refused() { # NAME MESSAGE ARGS...
    name=$1 msg=$2
    shift 2
    rm -f "$TMP/x.json"
    "$CLI" "$@" -o "$TMP/x.json" >/dev/null 2>"$TMP/x.err"
    rc=$?
    if [ $rc = 2 ] && grep -q -F -- "$msg" "$TMP/x.err" && [ ! -e "$TMP/x.json" ]; then
        pass "$name: exit 2, nothing written"
    else
        failed "$name: status $rc"
        sed 's/^/    stderr: /' "$TMP/x.err"
    fi
}
refused "640x360 against 1280x720 without --scale" \
    "distorted $TMP/dis360.mkv is 640x360 4:2:0 8-bit (--scale auto scales a decoded input to the reference's size)" \
    -r "$TMP/ref720.mp4" -d "$TMP/dis360.mkv"
refused "--sync-window with a 30 fps distorted input of a 24 fps reference" \
    "the reference $TMP/ref.mp4 is 24 fps, $TMP/dis30.mkv 30 fps: with --sync-window frame i is paired with frame i" \
    -r "$TMP/ref.mp4" -d "$TMP/dis30.mkv" --sync-window 2
ff -f lavfi -i "$aud" -c:a pcm_s16le "$TMP/audio.wav"
refused "an audio file" "$TMP/audio.wav is audio (WAV), not video" -r "$TMP/ref.mp4" -d "$TMP/audio.wav"
head -c 3000 "$TMP/ref.mp4" >"$TMP/cut.mp4"
refused "an MP4 cut before its video" "$TMP/cut.mp4 is compressed video (MP4/QuickTime): " -r "$TMP/ref.mp4" -d "$TMP/cut.mp4"

summary "test_cli_any"
