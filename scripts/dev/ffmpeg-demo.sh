#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The front door: makes a sample like the files users have -- a reference
# and a distorted rendition of FFmpeg's testsrc2 pattern, 1280x720, 3 s,
# H.264 + AAC audio in MP4 -- and scores it with the README's pipeline,
# unchanged:
#   ffmpeg -i dis.mp4 -i ref.mp4 -lavfi gpussim=feature=all -f null -
# The backend is chosen automatically (a GPU when the library has one and the
# machine has it, else the CPU); the summary lines are printed at the end,
# then where the programs are and how to put them on PATH.
# Usage: scripts/dev/ffmpeg-demo.sh [FFMPEG] [WORKDIR]
set -eu
ffmpeg=${1:-_ffmpeg/ffmpeg}
dir=${2:-$(dirname "$ffmpeg")/demo}
mkdir -p "$dir"
if [ ! -f "$dir/ref.mp4" ] || [ ! -f "$dir/dis.mp4" ]; then
    echo "demo: making $dir/ref.mp4 and $dir/dis.mp4 (H.264 + AAC)"
    "$ffmpeg" -hide_banner -loglevel error -nostdin -y \
        -f lavfi -i testsrc2=s=1280x720:r=24:d=3 -f lavfi -i sine=frequency=440:d=3 \
        -filter_complex "[0:v]format=yuv420p,split[r][d0];[d0]scale=640:360,scale=1280:720:flags=bilinear[d]" \
        -map '[r]' -map 1:a -c:v libx264 -preset veryfast -crf 14 -c:a aac -shortest "$dir/ref.mp4" \
        -map '[d]' -map 1:a -c:v libx264 -preset veryfast -crf 32 -c:a aac -shortest "$dir/dis.mp4"
fi
echo "demo: $ffmpeg -i $dir/dis.mp4 -i $dir/ref.mp4 -lavfi gpussim=feature=all -f null -"
set +e
"$ffmpeg" -hide_banner -nostdin -nostats -i "$dir/dis.mp4" -i "$dir/ref.mp4" -lavfi gpussim=feature=all -f null - 2> "$dir/demo.log"
rc=$?
set -e
grep -E '\] gpussim [a-z_.]+:|[Ee]rror' "$dir/demo.log" | sed 's/^\[Parsed_gpussim_0 @ [^]]*\] //'
[ $rc = 0 ] || exit $rc

bin=$(cd "$(dirname "$ffmpeg")" && pwd)
cli=$(cd "$bin/.." && pwd)/gpussim
cat <<EOF

demo: done. The programs (each a self-contained binary: copy it to another machine as is):
  ffmpeg with the gpussim filter  $bin/ffmpeg   (and ffprobe beside it)
  the gpussim command line tool   $cli
To use them from any shell:
  export PATH="$bin:$(dirname "$cli"):\$PATH"
or install the library, its headers, gpussim.pc and the CLI: make -C $(dirname "$cli") install
EOF
# the CLI built with FFmpeg's libraries (make ffmpeg) scores the same files
if "$cli" --version 2>/dev/null | grep -q 'decoding with FFmpeg'; then
    cat <<EOF
The CLI reads the same files (any video FFmpeg decodes; a progress line, then the pooled table):
  $cli -r $dir/ref.mp4 -d $dir/dis.mp4 -o scores.json
EOF
fi
