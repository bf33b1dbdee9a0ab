#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# NVDEC -> gpussim, zero-copy: H.264, HEVC 10-bit and AV1 clips with audio,
# decoded with -hwaccel cuda -hwaccel_output_format cuda and scored in place
# by the CUDA backend, against the same files decoded in software and scored
# by the CPU backend: float metrics bit-identical, integer ssim within 1e-9.
# Asserts that the frames really were CUDA frames (the log's "cuda" backend
# and no "Failed setup for format cuda" / software fallback in the log).
# Skips (77) without an NVIDIA GPU (CI); run on the GPU machine.
. "$(dirname "$0")/common.sh"

command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU || skip "no NVIDIA GPU"
"$FFMPEG" -hide_banner -hwaccels 2>/dev/null | grep -qx cuda || skip "this ffmpeg has no CUDA hwaccel"

W=${NVDEC_W:-1280} H=${NVDEC_H:-720} N=48
src="testsrc2=s=${W}x$H:r=24:d=2"
aud="sine=frequency=440:sample_rate=48000:d=2"

# clip NAME EXT VIDEO_ARGS (reference and a distorted rendition, with audio)
clip() {
    for q in ref dis; do
        [ $q = ref ] && extra=$4 || extra=$5
        # shellcheck disable=SC2086
        ff -loglevel error -f lavfi -i "$src" -f lavfi -i "$aud" $3 $extra -c:a aac -shortest \
            "$work/$1-$q.$2" || fail "$1: could not make the $q clip"
    done
}

# run NAME DIS REF DECODER_OPTION [GRAPH_PREFIX [GLOBAL_OPTIONS]]
run_case() {
    name=$1 dis=$2 ref=$3 dec=$4 pre=${5:-} glob=${6:-}
    # software decode, CPU backend: the reference numbers
    "$FFMPEG" -hide_banner -nostdin -y -i "$dis" -i "$ref" \
        -lavfi "gpussim=feature=all:backend=cpu:log_path=$work/$name-cpu.json" -f null - \
        > /dev/null 2> "$work/$name-cpu.err" || { cat "$work/$name-cpu.err" >&2; fail "$name: software run failed"; }
    # NVDEC, CUDA frames in place (or, with a graph prefix, CUDA frames made
    # from software-decoded ones)
    if [ -n "$pre" ]; then
        global="-init_hw_device cuda=gpu -filter_hw_device gpu" hw=
        graph="$pre;[d][r]gpussim=feature=all:log_path=$work/$name-cuda.json"
    else
        global=$glob hw="-hwaccel cuda -hwaccel_output_format cuda $dec"
        graph="gpussim=feature=all:log_path=$work/$name-cuda.json"
    fi
    # shellcheck disable=SC2086
    "$FFMPEG" -hide_banner -nostdin -y $global $hw -i "$dis" $hw -i "$ref" \
        -lavfi "$graph" -f null - \
        > /dev/null 2> "$work/$name-cuda.err" || { cat "$work/$name-cuda.err" >&2; fail "$name: NVDEC run failed"; }
    if grep -Ei 'Failed setup for format cuda|hwaccel initialisation returned error|cuvidCreateDecoder.*failed' "$work/$name-cuda.err"; then
        fail "$name: NVDEC set-up failed (above): a software fallback is not an NVDEC result"
    fi
    python3 - "$work/$name-cuda.json" "$N" <<'EOF' || fail "$name: the NVDEC run did not score CUDA frames on the CUDA backend"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["backend"] == "cuda", d["config"]["backend"]
assert len(d["frames"]) == int(sys.argv[2]), len(d["frames"])
EOF
    printf '%s CUDA frames vs software+CPU: ' "$name"
    $COMPARE "log:$work/$name-cuda.json" "log:$work/$name-cpu.json" \
        --keys float_ssim,float_ms_ssim,float_ansnr,float_anpsnr
    printf '%s CUDA frames vs software+CPU: ' "$name"
    $COMPARE "log:$work/$name-cuda.json" "log:$work/$name-cpu.json" --keys ssim --tol 1e-9
}

clip h264 mp4 "-c:v libx264 -preset veryfast -pix_fmt yuv420p" "-crf 16" "-crf 38"
run_case h264 "$work/h264-dis.mp4" "$work/h264-ref.mp4" ""
clip hevc10 mkv "-c:v libx265 -preset ultrafast -pix_fmt yuv420p10le -x265-params log-level=error" "-crf 14" "-crf 38"
run_case hevc10 "$work/hevc10-dis.mkv" "$work/hevc10-ref.mkv" ""
clip av1 mp4 "-c:v libaom-av1 -usage realtime -cpu-used 8 -b:v 0 -pix_fmt yuv420p" "-crf 12" "-crf 50"
# libdav1d is FFmpeg's preferred AV1 decoder and has no hwaccel: NVDEC needs
# the native av1 decoder. Not every NVDEC decodes AV1 (NVIDIA's NVDEC matrix:
# none before GA10x, and not GA100 or Hopper): there, AV1 is decoded by dav1d
# and uploaded to CUDA frames, which the CUDA backend scores in place.
if "$FFMPEG" -hide_banner -nostdin -hwaccel cuda -hwaccel_output_format cuda -c:v av1 \
        -i "$work/av1-ref.mp4" -frames:v 1 -f null - > /dev/null 2> "$work/av1-probe.err" &&
   ! grep -Eq 'lacking required capabilities|support hardware accelerated AV1' "$work/av1-probe.err"; then
    run_case av1 "$work/av1-dis.mp4" "$work/av1-ref.mp4" "-c:v av1"
else
    note "this GPU's NVDEC has no AV1 ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)): AV1 decoded by dav1d, scored as CUDA frames (hwupload)"
    run_case av1-dav1d-hwupload "$work/av1-dis.mp4" "$work/av1-ref.mp4" "" \
        "[0:v]hwupload[d];[1:v]hwupload[r]"
fi
# "-hwaccel_device 0" before each input makes FFmpeg open a device per input
# (two CUDA contexts on one GPU): refused, the message giving the fix; with
# one named device for both inputs the same clips score as before
expect_failure "two different cuda devices.*-init_hw_device cuda=gpu.*-hwaccel_device gpu" \
    -hwaccel cuda -hwaccel_device 0 -hwaccel_output_format cuda -i "$work/h264-dis.mp4" \
    -hwaccel cuda -hwaccel_device 0 -hwaccel_output_format cuda -i "$work/h264-ref.mp4" \
    -lavfi gpussim -f null -
run_case h264-named-device "$work/h264-dis.mp4" "$work/h264-ref.mp4" "-hwaccel_device gpu" "" \
    "-init_hw_device cuda=gpu:0"
note "PASS"
