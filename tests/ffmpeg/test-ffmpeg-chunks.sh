#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# scripts/run-chunks.sh through FFmpeg's gpussim filter: H.264 clips scored
# whole and as chunks (input -ss half a frame early, -copyts,
# trim=end_frame), 2 processes, merged with `gpussim merge`: the merged
# log's frames (with their timestamps) and pooled values must be
# byte-identical to the whole run's. On the CPU backend here; with an NVIDIA
# GPU, also NVDEC-decoded CUDA frames, one process per GPU.
. "$(dirname "$0")/common.sh"

[ -x "$GPUSSIM_CLI" ] || skip "no gpussim CLI at $GPUSSIM_CLI (gpussim merge)"
"$GPUSSIM_CLI" merge --help >/dev/null 2>&1 || skip "this gpussim has no merge subcommand"
command -v bash >/dev/null 2>&1 || skip "bash not found"
script=$top_srcdir/scripts/run-chunks.sh

src="testsrc2=s=320x240:r=24:d=4"
ff -loglevel error -f lavfi -i "$src" -c:v libx264 -preset veryfast -crf 16 -pix_fmt yuv420p "$work/ref.mp4" ||
    fail "could not make the reference clip (libx264)"
ff -loglevel error -f lavfi -i "$src" -c:v libx264 -preset veryfast -crf 40 -pix_fmt yuv420p "$work/dis.mp4" ||
    fail "could not make the distorted clip"

# chunks NAME CHUNKS GPUS OPTIONS...
chunks() {
    name=$1 n=$2 gpus=$3
    shift 3
    if ! bash "$script" --ffmpeg "$FFMPEG" --gpussim "$GPUSSIM_CLI" --work "$work/$name" "$@" \
        "$work/ref.mp4" "$work/dis.mp4" "$n" "$gpus" >"$work/$name.out" 2>"$work/$name.err"; then
        cat "$work/$name.out" "$work/$name.err" >&2
        fail "$name: run-chunks.sh failed"
    fi
    ok=$(grep -c '^merged == whole: .* byte-identical' "$work/$name.out")
    [ "$ok" = 3 ] || { cat "$work/$name.out" >&2; fail "$name: $ok of 3 blocks byte-identical"; }
    grep -q '"timestamp"' "$work/$name/merged.json" || fail "$name: the merged log has no timestamps"
    note "$name: $n chunks over $gpus merged == the whole run ($(sed -n 's/^| whole input | [^|]*| \([0-9]*\) .*/\1/p' "$work/$name.out") frames)"
}

chunks cpu 4 0,1 --backend cpu --no-parallel
# a work folder with characters special to filtergraphs (quoted in log_path)
chunks "uneven, [5];" 5 0 --backend cpu --no-parallel

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU &&
    "$FFMPEG" -hide_banner -hwaccels 2>/dev/null | grep -qx cuda; then
    gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | tr -d ' ' | paste -sd, -)
    chunks nvdec 6 "$gpus" --nvdec --no-parallel
    cat "$work/nvdec.out"
else
    note "no NVIDIA GPU with FFmpeg's cuda hwaccel: the NVDEC case is not run"
fi
