#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# NVDEC -> gpussim on CUDA frames, and the end-to-end fps comparison, for a
# machine with an NVIDIA GPU (preparing needs no GPU).
#
#   scripts/ffmpeg-gpu-demo.sh prepare DIR FFMPEG   (on the build machine)
#       copies the static ffmpeg into DIR and encodes two 1080p H.264 clips
#       (240 frames of testsrc2: ref at CRF 10, dis at CRF 32) with the
#       system's ffmpeg (Debian's, with libx264), so the GPU machine needs
#       nothing but the driver.
#   scripts/ffmpeg-gpu-demo.sh run DIR OUTDIR         (on the GPU machine)
#       runs, each on the same 240 frame pairs, wall time by `time` and
#       FFmpeg's -benchmark, and writes OUTDIR/results.txt + logs:
#         1 decode only          NVDEC both clips, frames stay on the GPU
#         2 nvdec+gpussim cuda   NVDEC -> gpussim=feature=ms_ssim on CUDA frames
#         3 nvdec+gpussim all    same, feature=all
#         4 sw decode+gpussim    software decode, backend=auto (library uploads)
#         5 sw decode+gpussim cpu  backend=cpu
#         6 sw decode+ssim       FFmpeg's own ssim filter (not libvmaf's SSIM)
#         7 vulkan               hwupload to Vulkan -> gpussim (Vulkan backend)
#       and checks that the CUDA/auto/Vulkan logs equal the CPU log within
#       the spec's 5e-5 (exactly where bit-identical), printing the largest
#       difference; then the 8/10-bit fixtures as CUDA frames (hwupload_cuda)
#       and as software frames on backend=cuda, against libvmaf's values.
#
# Copy DIR and this script to the GPU machine, then run there:
#   sh ffmpeg-gpu-demo.sh run DIR OUTDIR
set -eu

mode=${1:-}
dir=${2:-}
[ -n "$mode" ] && [ -n "$dir" ] || { sed -n '2,28p' "$0"; exit 2; }

if [ "$mode" = prepare ]; then
    src_ffmpeg=${3:?prepare needs the path of the static ffmpeg}
    sys_ffmpeg=${SYSTEM_FFMPEG:-/usr/bin/ffmpeg}
    mkdir -p "$dir"
    cp "$src_ffmpeg" "$dir/ffmpeg"
    strip "$dir/ffmpeg" 2>/dev/null || true
    cp "$0" "$dir/ffmpeg-gpu-demo.sh"
    cp "$(dirname "$0")/../tests/ffmpeg/compare.py" "$dir/compare.py"
    fix=${GPUSSIM_FIXTURES:-$(dirname "$0")/../tests/fixtures}/src01_576x324_3f
    [ -f "$fix/expected_8bit.json" ] ||
        { echo "no fixtures at $fix (tests/fixtures of the checkout, or GPUSSIM_FIXTURES)" >&2; exit 1; }
    mkdir -p "$dir/fixtures"
    cp "$fix"/expected_8bit.json "$fix"/expected_10bit.json "$fix"/*.yuv420p.yuv \
        "$fix"/*.yuv420p10le.yuv "$dir/fixtures/"
    for q in ref:10 dis:32; do
        name=${q%%:*} crf=${q##*:}
        [ -f "$dir/$name.mp4" ] && continue
        "$sys_ffmpeg" -hide_banner -loglevel error -nostdin -y -f lavfi -i testsrc2=s=1920x1080:r=24:d=10 \
            -vf format=yuv420p -c:v libx264 -preset veryfast -crf "$crf" -g 48 "$dir/$name.mp4"
    done
    ls -la "$dir"
    du -sh "$dir"
    exit 0
fi

[ "$mode" = run ] || { echo "unknown mode $mode" >&2; exit 2; }
out=${3:?run needs an output folder}
mkdir -p "$out"
ff=$dir/ffmpeg
res=$out/results.txt
frames=${FRAMES:-240} # frame pairs in ref.mp4/dis.mp4 (for the fps column)
: > "$res"
nv="-hwaccel cuda -hwaccel_output_format cuda"
vk="-init_hw_device vulkan=vk -filter_hw_device vk"

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$res" 2>&1 || true
"$ff" -hide_banner -h filter=gpussim > "$out/filter-help.txt" 2>&1 || true

step() { # name, then the ffmpeg arguments
    name=$1
    shift
    start=$(date +%s.%N)
    set +e
    "$ff" -hide_banner -nostdin -nostats -benchmark "$@" > "$out/$name.log" 2>&1
    rc=$?
    set -e
    end=$(date +%s.%N)
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
    fps=$(awk -v n="$frames" -v w="$wall" 'BEGIN { printf "%.1f", n / w }')
    summary=$(grep -E 'gpussim (float_ms_ssim|float_ssim):|SSIM Y:' "$out/$name.log" | sed 's/^\[[^]]*\] //' | head -n 2 | tr '\n' ' ')
    bench=$(grep -E '^bench: utime' "$out/$name.log" | tail -n 1)
    [ $rc = 0 ] || summary="FAILED: $(grep -iE 'error|fail|not ' "$out/$name.log" | head -n 2 | tr '\n' ' ')"
    printf '%-24s rc=%-3d wall %6.2f s  %7s fps (%d pairs)  %s | %s\n' "$name" $rc "$wall" "$fps" "$frames" "$bench" "$summary" >> "$res"
}

if [ "${FIXTURES_ONLY:-0}" != 1 ]; then
step 1-decode-only        $nv -i "$dir/dis.mp4" $nv -i "$dir/ref.mp4" -map 0:v -map 1:v -f null -
step 2-nvdec-gpussim-cuda $nv -i "$dir/dis.mp4" $nv -i "$dir/ref.mp4" \
    -lavfi "[0:v][1:v]gpussim=feature=ms_ssim:log_path=$out/cuda-ms.json" -f null -
step 3-nvdec-gpussim-all  $nv -i "$dir/dis.mp4" $nv -i "$dir/ref.mp4" \
    -lavfi "[0:v][1:v]gpussim=feature=all:log_path=$out/cuda-all.json" -f null -
step 4-sw-gpussim-auto    -i "$dir/dis.mp4" -i "$dir/ref.mp4" \
    -lavfi "[0:v][1:v]gpussim=feature=ms_ssim:log_path=$out/auto-ms.json" -f null -
step 5-sw-gpussim-cpu     -i "$dir/dis.mp4" -i "$dir/ref.mp4" \
    -lavfi "[0:v][1:v]gpussim=feature=ms_ssim:backend=cpu:log_path=$out/cpu-ms.json" -f null -
step 5b-sw-gpussim-cpu-all -i "$dir/dis.mp4" -i "$dir/ref.mp4" \
    -lavfi "[0:v][1:v]gpussim=feature=all:backend=cpu:log_path=$out/cpu-all.json" -f null -
step 6-sw-ffmpeg-ssim     -i "$dir/dis.mp4" -i "$dir/ref.mp4" -lavfi "[0:v][1:v]ssim" -f null -
step 7-vulkan-gpussim     $vk -i "$dir/dis.mp4" -i "$dir/ref.mp4" \
    -lavfi "[0:v]format=yuv420p,hwupload[d];[1:v]format=yuv420p,hwupload[r];[d][r]gpussim=feature=ms_ssim:log_path=$out/vk-ms.json" -f null -

fi

# The fixtures (576x324, libvmaf's values) as CUDA frames (hwupload_cuda) and
# as software frames on the CUDA backend: every value against libvmaf's.
for bpc in 8 10; do
    [ -f "$dir/fixtures/expected_${bpc}bit.json" ] || continue
    case $bpc in 8) pf=yuv420p ;; *) pf=yuv420p${bpc}le ;; esac
    raw="-f rawvideo -pixel_format $pf -video_size 576x324 -framerate 25"
    d=$dir/fixtures/src01_hrc01_576x324_3f.$pf.yuv r=$dir/fixtures/src01_hrc00_576x324_3f.$pf.yuv
    for mode in cudaframes swframes; do
        if [ $mode = cudaframes ]; then
            # hwupload on the one -filter_hw_device (each hwupload_cuda would open a CUDA
            # context of its own, and gpussim needs both inputs on one device)
            g="[0:v]hwupload[d];[1:v]hwupload[r];[d][r]gpussim=lcs=1,metadata=print:file=$out/fix-$mode-$bpc.txt"
        else
            g="[0:v][1:v]gpussim=lcs=1:backend=cuda,metadata=print:file=$out/fix-$mode-$bpc.txt"
        fi
        printf 'fixtures %2d-bit %-10s: ' $bpc $mode >> "$res"
        if "$ff" -hide_banner -nostdin -nostats -init_hw_device cuda=cu -filter_hw_device cu \
                $raw -i "$d" $raw -i "$r" -lavfi "$g" -f null - > "$out/fix-$mode-$bpc.log" 2>&1; then
            python3 "$dir/compare.py" "meta:$out/fix-$mode-$bpc.txt" "expected:$dir/fixtures/expected_${bpc}bit.json" \
                --tol 5e-5 >> "$res" 2>&1 || true
            printf 'fixtures %2d-bit %-10s (exact): ' $bpc $mode >> "$res"
            python3 "$dir/compare.py" "meta:$out/fix-$mode-$bpc.txt" "expected:$dir/fixtures/expected_${bpc}bit.json" \
                >> "$res" 2>&1 || true
        else
            echo "FAILED: $(grep -iE 'error|fail' "$out/fix-$mode-$bpc.log" | head -n 2 | tr '\n' ' ')" >> "$res"
        fi
    done
done

for pair in cuda-ms:cpu-ms cuda-all:cpu-all auto-ms:cpu-ms vk-ms:cpu-ms; do
    a=${pair%%:*} b=${pair##*:}
    if [ -f "$out/$a.json" ] && [ -f "$out/$b.json" ]; then
        printf '%s vs %s: ' "$a" "$b" >> "$res"
        python3 "$dir/compare.py" "log:$out/$a.json" "log:$out/$b.json" --tol 5e-5 >> "$res" 2>&1 || true
        printf '%s vs %s (exact): ' "$a" "$b" >> "$res"
        python3 "$dir/compare.py" "log:$out/$a.json" "log:$out/$b.json" >> "$res" 2>&1 || true
    fi
done
cat "$res"
