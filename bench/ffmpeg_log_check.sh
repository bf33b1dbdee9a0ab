# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Sourced by the FFmpeg benchmarks (bench_ffmpeg_e2e.sh, bench_ladder.sh):
# what makes one ffmpeg run's figures invalid.
#
# ffmpeg_log_problems LOG RC KIND OUTPUTS FRAMES BACKEND
#   prints why the run is not valid, nothing when it is: a non-zero exit
#   status; a decoder set-up failure or a fallback to software decoding; an
#   output that does not carry the KIND of frames expected (cuda|sw); gpussim
#   (when the graph has it) on another backend than BACKEND; an output that
#   did not pass all FRAMES frames.
ffmpeg_log_problems() {
    local log=$1 rc=$2 kind=$3 nout=$4 frames=$5 backend=$6 bad n
    [ "$rc" = 0 ] || { echo "exit status $rc: $(grep -m1 -iE 'error|fail' "$log")"; return; }
    bad=$(grep -m1 -E 'Failed setup for format|hwaccel initiali[sz]ation returned error|cuvidCreateDecoder|No decoder surfaces left|decode surfaces might cause nvdec to fail|[Ee]rror while (decoding|filtering)' "$log")
    [ -z "$bad" ] || { echo "$bad"; return; }
    # the outputs' stream lines: "Video: wrapped_avframe, ..., cuda(progressive), ..."
    if [ "$kind" = cuda ]; then
        n=$(grep 'Video: wrapped_avframe' "$log" | grep -c ' cuda(')
        [ "$n" = "$nout" ] || { echo "$n of $nout outputs carry CUDA frames (software decoding?)"; return; }
    else
        n=$(grep 'Video: wrapped_avframe' "$log" | grep -vc ' cuda(')
        [ "$n" = "$nout" ] || { echo "$n of $nout outputs carry software frames"; return; }
    fi
    if grep -q 'Parsed_gpussim' "$log"; then
        grep -qE "Parsed_gpussim.*backend $backend" "$log" || { echo "gpussim did not run on the $backend backend"; return; }
    fi
    n=$(grep -cE "Output stream #0:[0-9]+ \(video\): $frames frames encoded" "$log")
    [ "$n" = "$nout" ] || echo "$n of $nout outputs passed all $frames frames"
}
