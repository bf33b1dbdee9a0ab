#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# One reference, N renditions: gpussim=inputs=4 (3 H.264 renditions of
# different CRF, then the reference) must give, per rendition, per-frame
# scores (17 digits, from the log and from the frame metadata) and pooled
# values identical to 3 separate two-input runs; rendition 0 keeps the
# pair's keys, rendition k > 0 gets lavfi.gpussim.rK.*; the ladder log has
# one section per rendition and `gpussim plot` draws one line each. On the
# CPU backend; on Vulkan frames (hwupload) when FFmpeg can make a Vulkan
# device (lavapipe here); on NVDEC-decoded CUDA frames with an NVIDIA GPU.
# Errors: inputs=1, a rendition of another size or format or memory. A
# rendition or a reference shorter than input 0 ends the output there with a
# warning naming it; eof_action=repeat's repeated frames are counted once.
. "$(dirname "$0")/common.sh"

src="testsrc2=s=320x240:r=24:d=2"
ff -loglevel error -f lavfi -i "$src" -c:v libx264 -preset veryfast -crf 12 -pix_fmt yuv420p "$work/ref.mp4" ||
    fail "could not make the reference clip (libx264)"
for k in 0 1 2; do
    ff -loglevel error -i "$work/ref.mp4" -c:v libx264 -preset veryfast -crf $((28 + 8 * k)) "$work/r$k.mp4" ||
        fail "could not make rendition $k"
done
FEAT="feature=float_ssim\\\\:enable_lcs=1|float_ms_ssim|float_ansnr|ssim"

# ladder TAG BACKEND UPLOAD(0|1) DEV...: one inputs=4 run and 3 pair runs;
# $inopt (unquoted) goes before every input (NVDEC)
inopt=""
ladder() {
    tag=$1 backend=$2 up=$3
    shift 3
    pre=""
    if [ "$up" = 1 ]; then pre="format=yuv420p,hwupload,"; fi
    # shellcheck disable=SC2086
    ff "$@" $inopt -i "$work/r0.mp4" $inopt -i "$work/r1.mp4" $inopt -i "$work/r2.mp4" $inopt -i "$work/ref.mp4" -lavfi \
        "[0]${pre}null[a];[1]${pre}null[b];[2]${pre}null[c];[3]${pre}null[r];[a][b][c][r]gpussim=inputs=4:backend=$backend:$FEAT:log_path=$work/$tag-ladder.json,metadata=print:file=$work/$tag-meta.txt" \
        -f null - 2>"$work/$tag-ladder.err" || { cat "$work/$tag-ladder.err" >&2; fail "$tag: the inputs=4 run failed"; }
    for k in 0 1 2; do
        # shellcheck disable=SC2086
        ff "$@" $inopt -i "$work/r$k.mp4" $inopt -i "$work/ref.mp4" -lavfi \
            "[0]${pre}null[a];[1]${pre}null[r];[a][r]gpussim=backend=$backend:$FEAT:log_path=$work/$tag-pair$k.json" \
            -f null - 2>"$work/$tag-pair$k.err" || { cat "$work/$tag-pair$k.err" >&2; fail "$tag: pair run $k failed"; }
    done
    python3 - "$work" "$tag" <<'EOF' || fail "$tag: the ladder differs from the pair runs"
import json, sys
work, tag = sys.argv[1:3]
lad = json.load(open("%s/%s-ladder.json" % (work, tag)))
assert lad["config"]["renditions"] == 3 and len(lad["renditions"]) == 3, "not a 3-rendition log"
# the metadata print: frame -> {key: text}
meta, cur = [], None
for line in open("%s/%s-meta.txt" % (work, tag)):
    line = line.strip()
    if line.startswith("frame:"):
        cur = {}
        meta.append(cur)
    elif line.startswith("lavfi.gpussim.") and cur is not None:
        k, v = line.split("=", 1)
        cur[k] = v
for k in range(3):
    pair = json.load(open("%s/%s-pair%d.json" % (work, tag, k)))
    sec = lad["renditions"][k]
    assert sec["rendition"] == k
    for key in ("frames", "pooled_metrics", "pooled_metrics_frames_left_out", "pool_state"):
        if sec[key] != pair[key]:
            sys.exit("rendition %d: %s differ from the pair run" % (k, key))
    prefix = "lavfi.gpussim." + ("r%d." % k if k else "")
    if len(meta) != len(pair["frames"]):
        sys.exit("metadata has %d frames, the log %d" % (len(meta), len(pair["frames"])))
    for f, (m, fr) in enumerate(zip(meta, pair["frames"])):
        for name, v in fr["metrics"].items():
            got = m.get(prefix + name)
            if got is None:
                sys.exit("frame %d: no metadata key %s%s" % (f, prefix, name))
            if got != "%.17g" % v:
                sys.exit("frame %d: %s%s = %s, the pair run's log %.17g" % (f, prefix, name, got, v))
keys = sorted(meta[0])
assert all(not k.startswith("lavfi.gpussim.r0.") for k in keys), "rendition 0 must keep the pair's keys"
print("    %d frames x 3 renditions x %d scores identical to 3 pair runs (log frames, metadata, pooled, "
      "pool state); %d metadata keys per frame; float_ms_ssim means %s" %
      (len(meta), len(lad["renditions"][0]["frames"][0]["metrics"]), len(keys),
       ", ".join("%.17g" % lad["renditions"][k]["pooled_metrics"]["float_ms_ssim"]["mean"] for k in range(3))))
EOF
    # the end-of-run summary: one line per rendition and main score
    for key in "gpussim float_ms_ssim:" "gpussim r1.float_ms_ssim:" "gpussim r2.ssim:"; do
        grep -q "$key" "$work/$tag-ladder.err" || { cat "$work/$tag-ladder.err" >&2; fail "$tag: no summary line '$key'"; }
    done
    note "ok: $tag: inputs=4 == 3 pair runs, summary lines per rendition"
}

ladder cpu cpu 0

# gpussim plot: one line per rendition of the ladder log
if [ -x "$GPUSSIM_CLI" ] && "$GPUSSIM_CLI" plot --help >/dev/null 2>&1; then
    "$GPUSSIM_CLI" plot "$work/cpu-ladder.json" -o "$work/ladder.svg" 2>"$work/plot.err" ||
        { cat "$work/plot.err" >&2; fail "gpussim plot of the ladder log failed"; }
    for label in "cpu-ladder.json r1" "cpu-ladder.json r2"; do
        grep -q "$label" "$work/ladder.svg" || fail "the plot has no line '$label'"
    done
    note "ok: gpussim plot draws the 3 renditions"
fi

# ---- errors --------------------------------------------------------------------
expect_failure "Value 1.* for parameter 'inputs' out of range \[2 - 17\]" \
    -f lavfi -i "$src" -lavfi "[0]gpussim=inputs=1" -f null -
expect_failure "distorted input 1 \(rendition 1\) is 160x120 but the reference is 320x240: all must have the same size" \
    -f lavfi -i "$src" -f lavfi -i "$src,scale=160:120" -f lavfi -i "$src" -f lavfi -i "$src" \
    -lavfi "[0][1][2][3]gpussim=inputs=4:backend=cpu" -f null -
expect_failure "distorted input 2 \(rendition 2\) is yuv444p but the reference is yuv420p: all inputs must have the same pixel format" \
    -f lavfi -i "$src,format=yuv420p" -f lavfi -i "$src,format=yuv420p" -f lavfi -i "$src,format=yuv444p" \
    -f lavfi -i "$src,format=yuv420p" -lavfi "[0][1][2][3]gpussim=inputs=4:backend=cpu" -f null -
# a shorter rendition ends the output there, named, with both counts
ff -i "$work/r0.mp4" -i "$work/r1.mp4" -i "$work/ref.mp4" \
    -lavfi "[1]trim=end_frame=24[b];[0][b][2]gpussim=inputs=3:backend=cpu:log_path=$work/short1.json" \
    -f null - 2>"$work/short1.err" || { cat "$work/short1.err" >&2; fail "the shorter-rendition run failed"; }
grep -q "distorted input 1 (rendition 1) ended after 24 frames, distorted input 0 has more; scored 24" "$work/short1.err" ||
    { cat "$work/short1.err" >&2; fail "no warning naming rendition 1 and both counts"; }
[ "$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['renditions'][1]['frames']))" "$work/short1.json")" = 24 ] ||
    fail "the shorter-rendition run did not log 24 frames"
note "ok: a rendition 24 frames long: the output ends there, warned"

# a shorter reference: the default ends there; eof_action=repeat scores the
# rest against its last frame and the warning counts the ladder's frames once
ff -i "$work/r0.mp4" -i "$work/r1.mp4" -i "$work/ref.mp4" \
    -lavfi "[2]trim=end_frame=40[r];[0][1][r]gpussim=inputs=3:backend=cpu" -f null - 2>"$work/end.err" ||
    { cat "$work/end.err" >&2; fail "the shorter-reference run failed"; }
grep -q "the reference ended after 40 frames, distorted input 0 has more; scored 40" "$work/end.err" ||
    { cat "$work/end.err" >&2; fail "no warning that the reference ended after 40 frames"; }
ff -i "$work/r0.mp4" -i "$work/r1.mp4" -i "$work/ref.mp4" \
    -lavfi "[2]trim=end_frame=40[r];[0][1][r]gpussim=inputs=3:backend=cpu:eof_action=repeat" -f null - 2>"$work/rep.err" ||
    { cat "$work/rep.err" >&2; fail "the shorter-reference run failed"; }
grep -q "8 distorted frame(s) were scored against the reference's repeated last frame" "$work/rep.err" ||
    { cat "$work/rep.err" >&2; fail "no repeated-reference warning for 8 frames"; }
note "ok: a reference 8 frames short: ended there by default, warned once for the ladder with eof_action=repeat"

# ---- Vulkan frames (the library's pair fallback) -----------------------------------
dev="-init_hw_device vulkan=vk -filter_hw_device vk"
if ff $dev -f lavfi -i "$src" -frames:v 1 -vf format=yuv420p,hwupload -f null - >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    if ff $dev -f lavfi -i "$src" -f lavfi -i "$src" -frames:v 1 \
        -lavfi "[0]format=yuv420p,hwupload[a];[1]format=yuv420p,hwupload[r];[a][r]gpussim=backend=vulkan" \
        -f null - >/dev/null 2>&1; then
        # shellcheck disable=SC2086
        ladder vulkan vulkan 1 $dev
        # mixed memories: one rendition uploaded, the others in system memory
        # shellcheck disable=SC2086
        expect_failure "distorted input 1 \(rendition 1\) is vulkan \(yuv420p\) but the reference is yuv420p" \
            $dev -f lavfi -i "$src" -f lavfi -i "$src" -f lavfi -i "$src" \
            -lavfi "[1]format=yuv420p,hwupload[b];[0][b][2]gpussim=inputs=3" -f null -
    else
        note "this libgpussim scores no Vulkan frames: the Vulkan part is not run"
    fi
else
    note "FFmpeg cannot make a Vulkan device here: the Vulkan part is not run"
fi

# ---- NVDEC: CUDA frames on every input (the CUDA backend's pair fallback) ----------
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU &&
    "$FFMPEG" -hide_banner -hwaccels 2>/dev/null | grep -qx cuda; then
    inopt="-hwaccel cuda -hwaccel_output_format cuda"
    ladder nvdec cuda 0
    grep -q "backend cuda" "$work/nvdec-ladder.err" || fail "nvdec: the summary does not name backend cuda"
    inopt=""
else
    note "no NVIDIA GPU with FFmpeg's cuda hwaccel: the NVDEC part is not run"
fi
