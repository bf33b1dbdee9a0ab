#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The front door: generates a sample (a reference and a distorted rendition of
# FFmpeg's testsrc2 pattern, 960x540, 48 frames, y4m) and scores it with
#   ffmpeg -i dis.y4m -i ref.y4m -lavfi gpussim=feature=all -f null -
# The backend is chosen automatically (a GPU when the library has one and the
# machine has it, else the CPU); the summary lines are printed at the end.
# Usage: scripts/ffmpeg-demo.sh [FFMPEG] [WORKDIR]
set -eu
ffmpeg=${1:-_ffmpeg/ffmpeg}
dir=${2:-$(dirname "$ffmpeg")/demo}
mkdir -p "$dir"
if [ ! -f "$dir/ref.y4m" ] || [ ! -f "$dir/dis.y4m" ]; then
    echo "demo: generating $dir/ref.y4m and $dir/dis.y4m"
    "$ffmpeg" -hide_banner -loglevel error -nostdin -y -f lavfi -i testsrc2=s=960x540:r=24:d=2 \
        -filter_complex "[0:v]format=yuv420p,split[r][d0];[d0]scale=480:270,scale=960:540:flags=bilinear,noise=alls=6:allf=t:all_seed=1[d]" \
        -map '[r]' -c:v wrapped_avframe -f yuv4mpegpipe "$dir/ref.y4m" \
        -map '[d]' -c:v wrapped_avframe -f yuv4mpegpipe "$dir/dis.y4m"
fi
echo "demo: $ffmpeg -i $dir/dis.y4m -i $dir/ref.y4m -lavfi gpussim=feature=all -f null -"
set +e
"$ffmpeg" -hide_banner -nostdin -nostats -i "$dir/dis.y4m" -i "$dir/ref.y4m" -lavfi gpussim=feature=all -f null - 2> "$dir/demo.log"
rc=$?
set -e
grep -E '\] gpussim [a-z_.]+:|[Ee]rror' "$dir/demo.log" | sed 's/^\[Parsed_gpussim_0 @ [^]]*\] //'
exit $rc
