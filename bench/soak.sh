#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Soak: scores FRAMES frame pairs in one run and samples the process's host
# memory (VmRSS from /proc/PID/status) and, on the GPU, its device memory
# (nvidia-smi: the process's, and the whole GPU's) every INTERVAL seconds:
# memory must stay flat after warm-up.
#
#   bench/soak.sh MODE [FRAMES] [OUTDIR]        FRAMES default 100000
#     cpu          the gpussim CLI, --backend cpu, on two y4m streams
#                  generated on the fly into named pipes (no file on disk)
#     cuda         the same with --backend cuda (host pictures uploaded)
#     ffmpeg-cuda  ffmpeg: testsrc2 -> hwupload (one CUDA device for both
#                  inputs) -> gpussim=backend=cuda
#                  on CUDA frames (the reference blurred as the distorted)
#     ffmpeg-cpu   the same filter graph on software frames, backend=cpu
# Environment: GPUSSIM_CLI (default build/gpussim), FFMPEG (default
# build/_ffmpeg/ffmpeg), SOAK_SIZE (176: the smallest size with MS-SSIM),
# SOAK_INTERVAL (5 s), SOAK_THREADS (CPU workers, default 2).
# Every metric is scored (feature all). The scores go to OUTDIR/scores.csv
# (one row per frame: the frames-done column counts its rows); the samples
# to OUTDIR/samples.txt, a table printed as it goes, and a summary at the
# end: RSS after warm-up (the first sample past 10 % of the frames) and at
# the end, its growth, the device memory likewise, and frames/s. Fails when
# the run fails or does not score FRAMES frames.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-}
frames=${2:-100000}
out=${3:-$(mktemp -d "${TMPDIR:-/tmp}/gpussim-soak.XXXXXX")}
size=${SOAK_SIZE:-176}
interval=${SOAK_INTERVAL:-5}
threads=${SOAK_THREADS:-2}
cli=${GPUSSIM_CLI:-$root/build/gpussim}
ffmpeg=${FFMPEG:-$root/build/_ffmpeg/ffmpeg}
case $mode in cpu|cuda|ffmpeg-cpu|ffmpeg-cuda) ;; *) sed -n '4,/^set -e/p' "$0" | sed '$d'; exit 2 ;; esac
mkdir -p "$out"
rm -f "$out/ref.y4m" "$out/dis.y4m" "$out/scores.csv"

# N frames of 8-bit 4:2:0 y4m, cycling over 16 distinct frames (textured
# content; the distorted: the same plus noise)
gen() { # ref|dis N
    python3 - "$1" "$2" "$size" <<'PY'
import random, sys
kind, n, s = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
out = sys.stdout.buffer
out.write(b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n" % (s, s))
cs = (s + 1) // 2
frames = []
for i in range(16):
    r = random.Random(i)
    y = bytearray((x * 2 + yy * 3 + 5 * i + r.randrange(24)) & 255 for yy in range(s) for x in range(s))
    c = bytearray(r.randrange(256) for _ in range(2 * cs * cs))
    if kind == "dis":
        q = random.Random(1000 + i)
        y = bytearray(max(0, min(255, v + q.randrange(-10, 11))) for v in y)
    frames.append(b"FRAME\n" + bytes(y) + bytes(c))
try:
    for k in range(n):
        out.write(frames[k % 16])
    out.flush()
except BrokenPipeError:
    pass
PY
}

pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

if [ "${mode%-*}" = ffmpeg ]; then
    [ -x "$ffmpeg" ] || { echo "soak: no ffmpeg at $ffmpeg (FFMPEG=...)"; exit 2; }
    if [ "$mode" = ffmpeg-cuda ]; then
        hw=(-init_hw_device cuda=cu -filter_hw_device cu)
        up=hwupload
    else
        hw=()
        up=null
    fi
    "$ffmpeg" -hide_banner -nostdin -y -loglevel warning "${hw[@]}" \
        -f lavfi -i "testsrc2=s=${size}x${size}:r=25,trim=end_frame=$frames,format=yuv420p" \
        -lavfi "[0:v]split[a][b];[b]gblur=sigma=1.5,$up[d];[a]$up[r];[d][r]gpussim=backend=${mode#ffmpeg-}:log_fmt=csv:log_path=$out/scores.csv" \
        -f null - 2> "$out/run.err" &
    pid=$!
else
    [ -x "$cli" ] || { echo "soak: no gpussim CLI at $cli (GPUSSIM_CLI=...)"; exit 2; }
    mkfifo "$out/ref.y4m" "$out/dis.y4m"
    gen ref "$frames" > "$out/ref.y4m" &
    pids+=($!)
    gen dis "$frames" > "$out/dis.y4m" &
    pids+=($!)
    "$cli" -q -r "$out/ref.y4m" -d "$out/dis.y4m" --backend "$mode" --threads "$threads" --csv \
        -o "$out/scores.csv" 2> "$out/run.err" &
    pid=$!
fi
pids+=("$pid")

gpu_mem() { # MiB used by $pid on the GPU (- where nvidia-smi does not see the process, as in
            # a container), then the device's whole used memory (GPU 0)
    command -v nvidia-smi >/dev/null 2>&1 || { echo "- -"; return; }
    local p d
    p=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null |
        awk -F', *' -v p="$pid" '$1 == p { m = $2 } END { print (m == "" ? "-" : m) }')
    d=$(nvidia-smi -i 0 --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -n 1)
    echo "$p ${d:--}"
}

start=$(date +%s.%N)
printf '%8s %10s %10s %12s %12s\n' seconds frames rss_kib gpu_mib gpu_used_mib | tee "$out/samples.txt"
while kill -0 "$pid" 2>/dev/null; do
    sleep "$interval"
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$rss" ] || break
    rows=1
    [ ! -f "$out/scores.csv" ] || rows=$(wc -l < "$out/scores.csv")
    t=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')
    read -r gp gd <<< "$(gpu_mem)"
    printf '%8s %10s %10s %12s %12s\n' "$t" "$((rows > 0 ? rows - 1 : 0))" "$rss" "$gp" "$gd" |
        tee -a "$out/samples.txt"
done
rc=0
wait "$pid" || rc=$?
end=$(date +%s.%N)
if [ "$rc" -ne 0 ]; then
    tail -n 20 "$out/run.err"
    echo "soak: $mode run failed (exit $rc)"
    exit 1
fi
# frame rows start with their number; the pooled rows (min, max, ...) follow them
done_frames=$(grep -c '^[0-9]' "$out/scores.csv")
[ "$done_frames" -eq "$frames" ] || { echo "soak: $done_frames of $frames frames scored"; exit 1; }
# the pools keep every value (exact median/percentiles): 8 bytes per score per frame
nb_scores=$(head -n 1 "$out/scores.csv" | tr ',' '\n' | grep -cv '^\(Frame\|timestamp\)$')
awk -v total="$frames" -v secs="$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" -v mode="$mode" \
    -v size="$size" -v nb_scores="$nb_scores" '
    NR > 1 {
        if (!warm && $2 >= total / 10) { warm = 1; w_rss = $3; w_gpu = $4; w_dev = $5; w_frames = $2 }
        if ($3 > max_rss) max_rss = $3
        last_rss = $3; last_gpu = $4; last_dev = $5; last_frames = $2
    }
    END {
        printf "soak %s %dx%d: %d frames in %.0f s = %.0f frames/s\n", mode, size, size, total, secs, total / secs
        if (warm) {
            printf "host RSS: %d KiB after warm-up (%d frames), %d KiB at the end (%d frames): %+d KiB; max %d KiB\n",
                w_rss, w_frames, last_rss, last_frames, last_rss - w_rss, max_rss
            pool = (last_frames - w_frames) * nb_scores * 8 / 1024
            printf "of which the pools keep the values (%d scores x 8 bytes per frame): %.0f KiB; the rest: %+.0f KiB\n",
                nb_scores, pool, last_rss - w_rss - pool
            if (w_gpu != "-")
                printf "device memory of the process: %s MiB after warm-up, %s MiB at the end\n", w_gpu, last_gpu
            if (w_dev != "-")
                printf "device memory used (whole GPU 0): %s MiB after warm-up, %s MiB at the end\n", w_dev, last_dev
        } else
            print "too few samples for a warm-up figure (lower SOAK_INTERVAL)"
    }' "$out/samples.txt" | tee "$out/summary.txt"
