#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# End-to-end frame rate of gpussim inside FFmpeg against decoding alone, on
# an NVIDIA machine: does the metric overlap hardware (NVDEC) and software
# decoding? Wall time of whole ffmpeg commands.
#
#   bench/bench_ffmpeg_e2e.sh clips DIR
#       makes the clips with $FFMPEG (default: ffmpeg) into DIR (those not
#       there yet):
#         h264_1080p_{ref,dis}.mp4    1920x1080 8-bit H.264 (libx264
#                                     $PRESET_1080, default medium),
#                                     $FRAMES_1080 frames (default 1200) of
#                                     testsrc2; ref CRF $REF_CRF_1080 (default
#                                     20), dis = 960x540 rescaled, CRF 32
#         hevc10_2160p_{ref,dis}.mp4  3840x2160 10-bit HEVC (hevc_nvenc when
#                                     the machine has it, else libx265),
#                                     $FRAMES_2160 frames (default 600)
#         h264_2160p_{ref,dis}.mp4    3840x2160 8-bit H.264 (libx264
#                                     veryfast), $FRAMES_2160 frames
#         av1_2160p_{ref,dis}.mkv     3840x2160 8-bit AV1 (libaom realtime,
#                                     cpu-used 8), $FRAMES_AV1 frames
#                                     (default 240)
#       $CLIPS: which of them (default "h264 hevc10"; also h264_2160p, av1).
#   bench/bench_ffmpeg_e2e.sh run DIR OUTDIR [SET...]
#       SETs (default: all of them, in this order):
#         h264-1080p     NVDEC both inputs, CUDA frames: decode only vs
#                        gpussim=feature=all
#         hevc10-2160p   the same on the 2160p 10-bit HEVC clips
#         h264-2160p     the same on the 2160p 8-bit H.264 clips
#         av1-2160p      AV1 decoded by dav1d (software), hwupload to CUDA
#                        on both inputs: decode + upload only vs gpussim
#         sw-1080p       software decoding: decode only vs
#                        gpussim=feature=all (backend auto: the library
#                        uploads the frames to the GPU)
#         procs4-1080p   4 ffmpeg processes at once, each as in h264-1080p;
#                        aggregate fps
#         procs8-1080p   the same with 8 processes
#       Each set: one untimed warm-up run of each pipeline, then $ROUNDS
#       rounds (default 3) running the pipelines alternately (order reversed
#       every other round); per pipeline the median wall time, the fps
#       (frame pairs x processes / wall) and the ratio to decode only.
#       Every set also runs the two streams through a no-op two-input
#       filter (streamselect); "vs 2-in" is gpussim's fps over that one's
#       ($TWO_INPUT_BASELINE=0 leaves it out).
#       $FEATURES: the gpussim feature= values measured, one pipeline each
#       (default "all").
#       $FFMPEG_BASE: a second ffmpeg (e.g. linked with another libgpussim)
#       whose gpussim pipeline is measured alongside ("base" rows).
#       $LOOP: -stream_loop $LOOP on every input (each clip played
#       LOOP + 1 times: longer runs, and a decoder restart at every loop).
#       $DEC_ARGS: extra decoder options for every input (e.g.
#       "-extra_hw_frames 8", to reproduce NVDEC's set-up failure).
#   bench/bench_ffmpeg_e2e.sh surfaces DIR OUTDIR
#       NVDEC's decoder surfaces: for each clip, the largest -extra_hw_frames
#       with which the decoder still sets up (frame threads as FFmpeg picks
#       them, and -threads 1), and what happens to one pair of runs above it.
#
# Every run's log (-loglevel verbose) is checked; a set with any run where an
# input fell back to software decoding ("Failed setup for format cuda",
# cuvidCreateDecoder errors, an output that is not CUDA frames), that failed,
# or that did not pass every frame is REFUSED: no figure is printed for it and
# the exit status is 1. Kept in OUTDIR: the table (e2e.txt), the log of each
# refused run and of the first process of each warm-up run.
set -u

mode=${1:-}
dir=${2:-}
ff=${FFMPEG:-ffmpeg}
[ -n "$mode" ] && [ -n "$dir" ] || { sed -n '4,/^set -u/p' "$0" | sed '$d'; exit 2; }

if [ "$mode" = clips ]; then
    set -e
    n1=${FRAMES_1080:-1200} n2=${FRAMES_2160:-600}
    mkdir -p "$dir"
    src1="testsrc2=s=1920x1080:r=24,format=yuv420p"
    x264="-c:v libx264 -preset ${PRESET_1080:-medium} -g 48"
    clips=${CLIPS:-h264 hevc10}
    [ "${clips#*h264}" = "$clips" ] || [ -f "$dir/h264_1080p_ref.mp4" ] ||
        "$ff" -hide_banner -loglevel error -nostdin -y -f lavfi -i "$src1" -frames:v "$n1" \
            $x264 -crf "${REF_CRF_1080:-20}" "$dir/h264_1080p_ref.mp4"
    [ "${clips#*h264}" = "$clips" ] || [ -f "$dir/h264_1080p_dis.mp4" ] ||
        "$ff" -hide_banner -loglevel error -nostdin -y -f lavfi -i "$src1" -frames:v "$n1" \
            -vf scale=960:540:flags=bicubic,scale=1920:1080:flags=bicubic $x264 -crf 32 \
            "$dir/h264_1080p_dis.mp4"
    src3="testsrc2=s=3840x2160:r=30,format=yuv420p"
    if [ "${clips#*h264_2160p}" != "$clips" ]; then
        x264u="-c:v libx264 -preset veryfast -g 60"
        [ -f "$dir/h264_2160p_ref.mp4" ] ||
            "$ff" -hide_banner -loglevel error -nostdin -y -f lavfi -i "$src3" -frames:v "$n2" \
                $x264u -crf 20 "$dir/h264_2160p_ref.mp4"
        [ -f "$dir/h264_2160p_dis.mp4" ] ||
            "$ff" -hide_banner -loglevel error -nostdin -y -f lavfi -i "$src3" -frames:v "$n2" \
                -vf scale=1920:1080:flags=bicubic,scale=3840:2160:flags=bicubic $x264u -crf 32 \
                "$dir/h264_2160p_dis.mp4"
    fi
    if [ "${clips#*av1}" != "$clips" ]; then
        n3=${FRAMES_AV1:-240}
        aom="-c:v libaom-av1 -usage realtime -cpu-used 8 -row-mt 1 -tiles 4x4 -g 60"
        [ -f "$dir/av1_2160p_ref.mkv" ] ||
            "$ff" -hide_banner -loglevel error -nostdin -y -f lavfi -i "$src3" -frames:v "$n3" \
                $aom -crf 24 -b:v 0 "$dir/av1_2160p_ref.mkv"
        [ -f "$dir/av1_2160p_dis.mkv" ] ||
            "$ff" -hide_banner -loglevel error -nostdin -y -f lavfi -i "$src3" -frames:v "$n3" \
                -vf scale=1920:1080:flags=bicubic,scale=3840:2160:flags=bicubic $aom -crf 40 -b:v 0 \
                "$dir/av1_2160p_dis.mkv"
    fi
    [ "${clips#*hevc10}" != "$clips" ] || { ls -la "$dir"; exit 0; }
    src2="testsrc2=s=3840x2160:r=30,format=p010le"
    if "$ff" -hide_banner -loglevel error -f lavfi -i "$src2" -frames:v 1 -c:v hevc_nvenc \
            -f null - 2>/dev/null; then
        enc="-c:v hevc_nvenc -profile:v main10 -preset p5 -bf 3 -g 60 -rc constqp"
        qr="-qp 20" qd="-qp 34"
    else
        enc="-c:v libx265 -preset ultrafast -g 60 -pix_fmt yuv420p10le"
        qr="-crf 20" qd="-crf 32"
    fi
    [ -f "$dir/hevc10_2160p_ref.mp4" ] ||
        "$ff" -hide_banner -loglevel error -nostdin -y -f lavfi -i "$src2" -frames:v "$n2" \
            $enc $qr -tag:v hvc1 "$dir/hevc10_2160p_ref.mp4"
    [ -f "$dir/hevc10_2160p_dis.mp4" ] ||
        "$ff" -hide_banner -loglevel error -nostdin -y -f lavfi -i "$src2" -frames:v "$n2" \
            -vf scale=1920:1080:flags=bicubic,scale=3840:2160:flags=bicubic $enc $qd -tag:v hvc1 \
            "$dir/hevc10_2160p_dis.mp4"
    echo "clips: $enc"
    ls -la "$dir"
    exit 0
fi

out=${3:?$mode needs an output folder}
set -f # filtergraphs in unquoted arguments: no globbing
mkdir -p "$out"
nv="-hwaccel cuda -hwaccel_output_format cuda"
dec=${DEC_ARGS:-}
rounds=${ROUNDS:-3}
status=0

# frame pairs in a clip (the video stream's frame count in the mp4 header)
count_frames() {
    "$ff" -hide_banner -nostdin -i "$1" -map 0:v -c copy -f null - 2>&1 |
        sed -n 's/.*frame= *\([0-9][0-9]*\).*/\1/p' | tail -n 1
}

. "$(dirname "$0")/ffmpeg_log_check.sh"

now() { date +%s.%N; }

# runs one pipeline with $procs processes at once; sets $wall and $why
# $1 label, $2 ffmpeg binary, $3 kind, $4 outputs, $5 frames, rest: arguments
run_once() {
    local label=$1 bin=$2 kind=$3 nout=$4 frames=$5 t0 t1 i rc r
    shift 5
    why=
    t0=$(now)
    for i in $(seq 1 "$procs"); do
        "$bin" -hide_banner -nostdin -nostats -loglevel verbose "$@" > "$out/$label.$i.log" 2>&1 &
        pids[$i]=$!
    done
    for i in $(seq 1 "$procs"); do
        wait "${pids[$i]}"
        rc[$i]=$?
    done
    t1=$(now)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
    for i in $(seq 1 "$procs"); do
        r=$(ffmpeg_log_problems "$out/$label.$i.log" "${rc[$i]}" "$kind" "$nout" "$frames" cuda)
        if [ -n "$r" ]; then
            why="process $i: $r (log $out/$label.$i.log)"
            return
        fi
        # the warm-up's first log stays, to be read
        case $label in *.r0) [ "$i" = 1 ] || rm -f "$out/$label.$i.log" ;; *) rm -f "$out/$label.$i.log" ;; esac
    done
}

median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# one set: $1 name, $2 processes, then pipelines as "label|bin|kind|outputs|args"
run_set() {
    local set=$1 p i r label bin kind nout args refused='' order
    procs=$2
    shift 2
    local -a pipes=("$@") walls
    for p in "${!pipes[@]}"; do walls[$p]=""; done
    order=$(seq 0 $((${#pipes[@]} - 1)))
    for r in $(seq 0 "$rounds"); do # round 0: warm-up
        [ $((r % 2)) = 0 ] && list=$(echo "$order" | tac) || list=$order
        for p in $list; do
            IFS='|' read -r label bin kind nout args <<<"${pipes[$p]}"
            # shellcheck disable=SC2086
            run_once "$set.$(tr -c 'A-Za-z0-9\n' _ <<<"$label").r$r" "$bin" "$kind" "$nout" "$frames" $args
            if [ -n "$why" ]; then
                refused="$label, round $r: $why"
                break 2
            fi
            [ "$r" = 0 ] || walls[$p]="${walls[$p]} $wall"
        done
    done
    if [ -n "$refused" ]; then
        printf '%-13s %5s  REFUSED: %s\n' "$set" "$procs" "$refused" | tee -a "$res"
        status=1
        return
    fi
    local base_fps= two_fps=
    for p in "${!pipes[@]}"; do
        IFS='|' read -r label bin kind nout args <<<"${pipes[$p]}"
        local med fps vs2=-
        med=$(echo "${walls[$p]}" | median)
        fps=$(awk -v n="$frames" -v k="$procs" -v w="$med" 'BEGIN { printf "%.1f", n * k / w }')
        [ -n "$base_fps" ] || base_fps=$fps
        case $label in *"2-input no-op") two_fps=$fps ;; esac
        case $label in *gpussim*) [ -z "$two_fps" ] ||
            vs2="$(awk -v a="$fps" -v b="$two_fps" 'BEGIN { printf "%.1f %%", 100 * a / b }')" ;; esac
        printf '%-13s %5s  %-34s %8.3f s %9s %7s %%  %8s   %s\n' "$set" "$procs" "$label" "$med" "$fps" \
            "$(awk -v a="$fps" -v b="$base_fps" 'BEGIN { printf "%.1f", 100 * a / b }')" \
            "$vs2" "${walls[$p]# }" | tee -a "$res"
    done
}

if [ "$mode" = surfaces ]; then
    res=$out/surfaces.txt
    : > "$res"
    for clip in h264_1080p hevc10_2160p; do
        for thr in auto 1; do
            last_ok=none
            for x in 0 2 4 6 8 10 12 14 16 20 24 28; do
                "$ff" -hide_banner -nostdin -nostats -threads "$thr" $nv -extra_hw_frames "$x" \
                    -i "$dir/${clip}_ref.mp4" -frames:v 5 -f null - > "$out/s.log" 2>&1
                if grep -qE 'Failed setup for format|cuvidCreateDecoder' "$out/s.log"; then
                    echo "$clip threads=$thr: extra_hw_frames $x fails: $(grep -m1 -E 'decode surfaces|cuvidCreateDecoder' "$out/s.log")" >> "$res"
                    break
                fi
                last_ok=$x
            done
            echo "$clip threads=$thr: largest extra_hw_frames that sets up: $last_ok" >> "$res"
        done
        # what the filter sees when the decoder cannot be set up
        "$ff" -hide_banner -nostdin -nostats -loglevel verbose $nv -extra_hw_frames 28 -i "$dir/${clip}_dis.mp4" \
            $nv -extra_hw_frames 28 -i "$dir/${clip}_ref.mp4" -frames:v 48 \
            -lavfi "[0:v][1:v]gpussim=feature=all" -f null - > "$out/fallback-$clip.log" 2>&1
        echo "$clip, -extra_hw_frames 28 on both inputs -> gpussim: exit $?;" \
            "$(grep -cE 'Failed setup for format' "$out/fallback-$clip.log") failed set-up(s);" \
            "gpussim: $(grep -m1 -oE 'Parsed_gpussim[^]]*\] [0-9]+x[0-9]+ .*' "$out/fallback-$clip.log")" >> "$res"
    done
    rm -f "$out/s.log"
    cat "$res"
    exit 0
fi

[ "$mode" = run ] || { echo "unknown mode $mode" >&2; exit 2; }
shift 3
sets=${*:-h264-1080p hevc10-2160p sw-1080p procs4-1080p procs8-1080p}
res=$out/e2e.txt
{
    echo "# $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)," \
        "$(nproc) CPUs, ffmpeg: $("$ff" -hide_banner -version | head -n 1)"
    echo "# rounds $rounds (+1 warm-up), median wall time; DEC_ARGS='$dec'"
    printf '%-13s %5s  %-34s %10s %9s %9s  %8s   %s\n' set procs pipeline wall fps "vs dec" "vs 2-in" "walls"
} | tee "$res"

for set in $sets; do
    case $set in
    h264-1080p | procs*-1080p) clip=h264_1080p ;;
    hevc10-2160p) clip=hevc10_2160p ;;
    h264-2160p) clip=h264_2160p ;;
    av1-2160p) clip=av1_2160p ;;
    sw-1080p) clip=h264_1080p ;;
    *) echo "unknown set $set" >&2; exit 2 ;;
    esac
    ext=mp4
    [ "$clip" != av1_2160p ] || ext=mkv
    d=$dir/${clip}_dis.$ext r=$dir/${clip}_ref.$ext
    frames=$(count_frames "$r")
    loop=
    if [ -n "${LOOP:-}" ]; then
        loop="-stream_loop $LOOP"
        frames=$((frames * (LOOP + 1)))
    fi
    n=1
    case $set in procs*) n=${set#procs}; n=${n%%-*} ;; esac
    up=
    if [ "$set" = sw-1080p ]; then
        k=sw in="$loop $dec -i $d $loop $dec -i $r" name=sw
    elif [ "$set" = av1-2160p ]; then
        # dav1d on the CPU, then each input uploaded to CUDA frames
        k=cuda in="-init_hw_device cuda=gpu -filter_hw_device gpu $loop -c:v libdav1d $dec -i $d"
        in="$in $loop -c:v libdav1d $dec -i $r" name=dav1d+upload
        up="[0:v]hwupload[u0];[1:v]hwupload[u1];"
    else
        k=cuda in="$loop $nv $dec -i $d $loop $nv $dec -i $r" name=nvdec
    fi
    pre="[0:v][1:v]"
    [ -z "$up" ] || pre="${up}[u0][u1]"
    if [ -n "$up" ]; then
        pipes=("$name decode only|$ff|$k|2|$in -lavfi [0:v]hwupload[o0];[1:v]hwupload[o1] -map [o0] -map [o1] -f null -")
    else
        pipes=("$name decode only|$ff|$k|2|$in -map 0:v -map 1:v -f null -")
    fi
    # the same two streams through a two-input filter that does nothing
    # (streamselect passes input 0 on): what any two-input filter can reach
    # under ffmpeg's scheduler, which feeds a filter graph only from the
    # input it currently waits for
    [ "${TWO_INPUT_BASELINE:-1}" = 0 ] ||
        pipes+=("$name -> 2-input no-op|$ff|$k|1|$in -lavfi ${pre}streamselect=inputs=2:map=0 -f null -")
    for f in ${FEATURES:-all}; do
        g="${pre}gpussim=feature=$f"
        pipes+=("$name -> gpussim $f|$ff|$k|1|$in -lavfi $g -f null -")
        [ -z "${FFMPEG_BASE:-}" ] ||
            pipes+=("base: $name -> gpussim $f|$FFMPEG_BASE|$k|1|$in -lavfi $g -f null -")
    done
    run_set "$set" "$n" "${pipes[@]}"
done
exit $status
