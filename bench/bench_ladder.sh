#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# One reference, 4 renditions (an ABR ladder): one ffmpeg with
# gpussim=inputs=5 against 4 ffmpeg runs of gpussim (one pair each), one
# after another. Wall time of whole ffmpeg commands; the reference is
# decoded once instead of 4 times, and the library computes its terms once.
#
#   bench/bench_ladder.sh [--sw] DIR
#       DIR: where the clips, logs and the table (ladder.txt) go.
#       Clips (made when missing): ref.mp4, 1920x1080 8-bit H.264 (libx264
#       -preset $PRESET, default veryfast), $FRAMES frames (default 600) of
#       testsrc2 at CRF 16; r1..r4.mp4, the same source at CRF 24, 30, 36
#       and 42 (same size: the renditions already scaled back).
#       Pipelines (feature=$FEATURE, default all):
#         ladder      ffmpeg, NVDEC on all 5 inputs -> gpussim=inputs=5
#         pairs       4 ffmpeg runs one after another, NVDEC on both
#                     inputs -> gpussim (rendition k, reference); wall time
#                     is the sum of the 4
#         dec-ladder  decoding only: the 5 inputs of the ladder run
#         dec-pairs   decoding only: the 2 inputs of each pair run, x 4
#         noop-ladder the ladder's 5 inputs through a 5-input filter that
#                     does nothing (streamselect): what any 5-input filter
#                     graph reaches under ffmpeg's scheduler
#       One untimed warm-up of each, then $ROUNDS rounds (default 3), the
#       pipelines in alternating order (reversed every other round); per
#       pipeline the median wall time and rendition-frames per second
#       (4 x frames / wall). Prints ladder fps / pairs fps (the target of
#       issue 13 is >= 1.5).
#       --sw: software decoding and backend=cpu (no GPU needed; use a small
#       $SIZE and $FRAMES, e.g. SIZE=320x240 FRAMES=48, to try it).
#   Environment: FFMPEG (default ffmpeg), SIZE (default 1920x1080), FRAMES,
#   PRESET, FEATURE, ROUNDS.
#
# Every run's log (-loglevel verbose) is checked; a run where an input fell
# back to software decoding ("Failed setup for format cuda", cuvidCreateDecoder
# errors, an output that is not CUDA frames), where gpussim did not run on the
# CUDA backend, that failed, or that did not pass every frame REFUSES the
# whole measurement (exit 1, no figures). The ladder's per-rendition pooled
# values (its log) must equal those of the pair runs, else exit 1.
set -u
set -f # filtergraphs in unquoted arguments: no globbing

sw=0
if [ "${1:-}" = --sw ]; then sw=1; shift; fi
dir=${1:-}
[ -n "$dir" ] || { sed -n '4,/^set -u/p' "$0" | sed '$d'; exit 2; }
ff=${FFMPEG:-ffmpeg}
size=${SIZE:-1920x1080}
frames=${FRAMES:-600}
preset=${PRESET:-veryfast}
feature=${FEATURE:-all}
rounds=${ROUNDS:-3}
mkdir -p "$dir" || exit 1
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed to compare the logs"; exit 2; }

# ---- clips ----------------------------------------------------------------------
src="testsrc2=s=$size:r=24,format=yuv420p"
make_clip() { # NAME CRF
    [ -f "$dir/$1.mp4" ] && return 0
    "$ff" -hide_banner -loglevel error -nostdin -y -f lavfi -i "$src" -frames:v "$frames" \
        -c:v libx264 -preset "$preset" -g 48 -crf "$2" "$dir/$1.mp4" || { echo "cannot make $1.mp4"; exit 1; }
}
make_clip ref 16
crfs=(0 24 30 36 42)
for k in 1 2 3 4; do make_clip "r$k" "${crfs[$k]}"; done

if [ $sw = 1 ]; then
    dec=""
    kind=sw
    backend=cpu
else
    dec="-hwaccel cuda -hwaccel_output_format cuda"
    kind=cuda
    backend=cuda
fi

# ---- checks -----------------------------------------------------------------------
. "$(dirname "$0")/ffmpeg_log_check.sh"

now() { date +%s.%N; }
refused=""

# run LABEL OUTPUTS ARGS...: one ffmpeg; adds its wall time to $wall
run() {
    local label=$1 nout=$2 t0 t1 rc why
    shift 2
    t0=$(now)
    "$ff" -hide_banner -nostdin -nostats -loglevel verbose "$@" > "$dir/$label.log" 2>&1
    rc=$?
    t1=$(now)
    wall=$(awk -v w="$wall" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", w + b - a }')
    why=$(ffmpeg_log_problems "$dir/$label.log" "$rc" "$kind" "$nout" "$frames" "$backend")
    if [ -n "$why" ]; then
        refused="$refused$label: $why (log $dir/$label.log)"$'\n'
    else
        rm -f "$dir/$label.log"
    fi
}

gs="gpussim=feature=$feature:backend=$backend"
pipeline() { # NAME ROUND: sets $wall
    local name=$1 r=$2 k maps
    wall=0
    case $name in
    ladder)
        run "ladder.r$r" 1 $dec -i "$dir/r1.mp4" $dec -i "$dir/r2.mp4" $dec -i "$dir/r3.mp4" \
            $dec -i "$dir/r4.mp4" $dec -i "$dir/ref.mp4" \
            -lavfi "[0:v][1:v][2:v][3:v][4:v]$gs:inputs=5:log_path=$dir/ladder.json" -f null - ;;
    pairs)
        for k in 1 2 3 4; do
            run "pair$k.r$r" 1 $dec -i "$dir/r$k.mp4" $dec -i "$dir/ref.mp4" \
                -lavfi "[0:v][1:v]$gs:log_path=$dir/pair$k.json" -f null -
        done ;;
    dec-ladder)
        maps=""
        for k in 0 1 2 3 4; do maps="$maps -map $k:v"; done
        run "dec-ladder.r$r" 5 $dec -i "$dir/r1.mp4" $dec -i "$dir/r2.mp4" $dec -i "$dir/r3.mp4" \
            $dec -i "$dir/r4.mp4" $dec -i "$dir/ref.mp4" $maps -f null - ;;
    noop-ladder)
        run "noop-ladder.r$r" 1 $dec -i "$dir/r1.mp4" $dec -i "$dir/r2.mp4" $dec -i "$dir/r3.mp4" \
            $dec -i "$dir/r4.mp4" $dec -i "$dir/ref.mp4" \
            -lavfi "[0:v][1:v][2:v][3:v][4:v]streamselect=inputs=5:map=4" -f null - ;;
    dec-pairs)
        for k in 1 2 3 4; do
            run "dec-pair$k.r$r" 2 $dec -i "$dir/r$k.mp4" $dec -i "$dir/ref.mp4" -map 0:v -map 1:v -f null -
        done ;;
    esac
}

median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

names=(ladder pairs dec-ladder dec-pairs noop-ladder)
declare -A walls
for r in $(seq 0 "$rounds"); do
    if [ $((r % 2)) = 1 ]; then order="noop-ladder dec-pairs dec-ladder pairs ladder"; else order="${names[*]}"; fi
    for p in $order; do
        pipeline "$p" "$r"
        [ "$r" = 0 ] || walls[$p]="${walls[$p]:-} $wall"
    done
done

res="$dir/ladder.txt"
{
    echo "# bench_ladder: $size, $frames frames, 4 renditions, feature=$feature, backend $backend," \
        "$([ $sw = 1 ] && echo "software decoding" || echo "NVDEC"); $rounds rounds (+1 warm-up), median wall"
    echo "# ffmpeg: $("$ff" -hide_banner -version | head -n 1)"
    if [ $kind = cuda ] && command -v nvidia-smi >/dev/null 2>&1; then
        echo "# GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)"
    fi
} > "$res"
if [ -n "$refused" ]; then
    { echo "REFUSED (no figures): runs that were not valid:"; printf '%s' "$refused"; } | tee -a "$res"
    exit 1
fi

# the ladder's pooled values are the pair runs'
if ! python3 - "$dir" <<'EOF' | tee -a "$res"
import json, sys
d = sys.argv[1]
lad = json.load(open(d + "/ladder.json"))
secs = lad["renditions"]
if len(secs) != 4:
    sys.exit("the ladder log has %d renditions, expected 4" % len(secs))
for k in range(4):
    pair = json.load(open("%s/pair%d.json" % (d, k + 1)))
    for key in ("pooled_metrics", "pool_state"):
        if secs[k][key] != pair[key]:
            sys.exit("rendition %d: %s differ between the ladder and the pair run" % (k + 1, key))
print("# pooled values: ladder == pair runs for all 4 renditions (e.g. float_ms_ssim means %s)" %
      ", ".join("%.6f" % secs[k]["pooled_metrics"]["float_ms_ssim"]["mean"] for k in range(4)
                if "float_ms_ssim" in secs[k]["pooled_metrics"]))
EOF
then
    echo "REFUSED: the ladder's pooled values differ from the pair runs'" | tee -a "$res"
    exit 1
fi

{
    printf '%-11s %10s %12s  %s\n' pipeline "wall s" "fps" "(rendition frames / s; all walls: s)"
    for p in "${names[@]}"; do
        med=$(echo "${walls[$p]}" | median)
        fps=$(awk -v n="$frames" -v w="$med" 'BEGIN { printf "%.1f", 4 * n / w }')
        eval "fps_${p//-/_}=$fps"
        printf '%-11s %10s %12s  %s\n' "$p" "$med" "$fps" "${walls[$p]}"
    done
    ratio=$(awk -v a="$fps_ladder" -v b="$fps_pairs" 'BEGIN { printf "%.2f", a / b }')
    dratio=$(awk -v a="$fps_dec_ladder" -v b="$fps_dec_pairs" 'BEGIN { printf "%.2f", a / b }')
    echo "ladder vs 4 pair runs: ${ratio}x the throughput (target >= 1.5); decoding alone: ${dratio}x"
    echo "ladder vs its own decoding alone: $(awk -v a="$fps_ladder" -v b="$fps_dec_ladder" \
        'BEGIN { printf "%.1f", 100 * a / b }') %; the 5-input no-op: $(awk -v a="$fps_noop_ladder" \
        -v b="$fps_dec_ladder" 'BEGIN { printf "%.1f", 100 * a / b }') %"
} | tee -a "$res"
