#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# Files like users have, through the README's pipeline unchanged:
#   ffmpeg -i DIS -i REF -lavfi gpussim=feature=all:log_path=LOG -f null -
# with an audio track in the inputs and no -an or -map: MP4 H.264 + AAC,
# MKV HEVC 10-bit + Opus, WebM VP9 + Opus, MP4 AV1 (dav1d) + AAC, MPEG-TS
# H.264 + MP2, MOV ProRes 422 10-bit + PCM, Y4M, a lower-resolution rendition
# scaled to the reference in the graph, and an encoder tuning loop that
# encodes and scores in one ffmpeg command (a loopback decoder).
#
# The clips are made here with the built ffmpeg's own encoders (libx264,
# libx265, libvpx, libaom, prores_ks, aac, libopus, mp2). For each case the
# decoded frames are exported as y4m by the same ffmpeg, scored by the gpussim
# CLI, and every value of the filter's log must equal the CLI's: the float
# metrics exactly, integer ssim within the spec's 1e-9 (the filter's
# backend=auto may pick a GPU). Each case also asserts that the input had an
# audio stream (where the container has one) that ffmpeg decoded and encoded
# for the null muxer, and that the expected decoder did the work.
. "$(dirname "$0")/common.sh"

have_cli || skip "the gpussim CLI is not built"
W=320 H=240 N=24
src="testsrc2=s=${W}x$H:r=24:d=1"
aud="sine=frequency=440:sample_rate=48000:d=1"

# make NAME EXT VIDEO_ARGS AUDIO_ARGS [FILTER]: the reference (high quality)
# and the distorted rendition (low quality) of the same pattern
make_pair() {
    name=$1 ext=$2 vargs_ref=$3 vargs_dis=$4 aargs=$5 vf=${6:-null}
    for which in ref dis; do
        eval "vargs=\$vargs_$which"
        [ $which = dis ] && f=$vf || f=null
        # shellcheck disable=SC2086
        ff -loglevel error -f lavfi -i "$src" -f lavfi -i "$aud" -vf "$f" \
            $vargs $aargs -shortest "$work/$name-$which.$ext" ||
            fail "$name: could not make the $which clip"
    done
}

# cli_compare NAME LOG: the CLI on $work/NAME-{ref,dis}.y4m, then every value
# of the filter's LOG against it (floats exactly, integer ssim within 1e-9)
cli_compare() {
    name=$1 log=$2
    "$GPUSSIM_CLI" -q -r "$work/$name-ref.y4m" -d "$work/$name-dis.y4m" --backend cpu \
        --feature float_ssim --feature float_ms_ssim --feature float_ansnr --feature ssim \
        -o "$work/$name-cli.json" || fail "$name: the CLI failed on the exported frames"
    frames=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['frames']))" "$log")
    [ "$frames" = $N ] || fail "$name: the filter scored $frames frames, expected $N"
    printf '%s (filter backend %s): ' "$name" "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['backend'])" "$log")"
    $COMPARE "log:$log" "log:$work/$name-cli.json" --keys float_ssim,float_ms_ssim,float_ansnr,float_anpsnr
    printf '%s: ' "$name"
    $COMPARE "log:$log" "log:$work/$name-cli.json" --keys ssim --tol 1e-9
}

# check NAME DIS REF DECODER [GRAPH_PREFIX] [EXPORT_FILTER]
check_case() {
    name=$1 dis=$2 ref=$3 decoder=$4 pre=${5:-} exportvf=${6:-null}
    log=$work/$name-filter.json
    if [ -n "$pre" ]; then
        graph="${pre}[d];[d][1:v]gpussim=feature=all:log_path=$log"
    else
        graph="gpussim=feature=all:log_path=$log"
    fi
    "$FFMPEG" -hide_banner -nostdin -y -i "$dis" -i "$ref" -lavfi "$graph" -f null - \
        > /dev/null 2> "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: the README pipeline failed"; }
    grep -q "($decoder)" "$work/$name.err" ||
        { grep 'Stream #' "$work/$name.err" >&2; fail "$name: the video was not decoded by $decoder"; }
    case $name in
    y4m) ;;
    *)
        grep -q 'Stream #0:1.*Audio' "$work/$name.err" || fail "$name: the distorted input has no audio stream"
        grep -Eq 'Stream #0:1 -> #0:[0-9]+ \(.* -> pcm_s16le' "$work/$name.err" ||
            { grep 'Stream #' "$work/$name.err" >&2; fail "$name: the audio was not decoded and passed to the null muxer"; }
        ;;
    esac
    # the same decoded frames, as y4m, through the CLI
    ff -loglevel error -i "$dis" -map 0:v -vf "$exportvf" -f yuv4mpegpipe -strict -1 "$work/$name-dis.y4m" ||
        fail "$name: y4m export of the distorted input failed"
    ff -loglevel error -i "$ref" -map 0:v -f yuv4mpegpipe -strict -1 "$work/$name-ref.y4m" ||
        fail "$name: y4m export of the reference failed"
    cli_compare "$name" "$log"
}

x264='-c:v libx264 -preset veryfast -pix_fmt yuv420p'
make_pair mp4-h264-aac mp4 "$x264 -crf 16" "$x264 -crf 40" "-c:a aac -b:a 96k"
check_case mp4-h264-aac "$work/mp4-h264-aac-dis.mp4" "$work/mp4-h264-aac-ref.mp4" h264

x265='-c:v libx265 -preset ultrafast -pix_fmt yuv420p10le -x265-params log-level=error'
make_pair mkv-hevc10-opus mkv "$x265 -crf 14" "$x265 -crf 40" "-c:a libopus -b:a 64k"
check_case mkv-hevc10-opus "$work/mkv-hevc10-opus-dis.mkv" "$work/mkv-hevc10-opus-ref.mkv" hevc
grep -q 'hevc (Main 10).*yuv420p10le' "$work/mkv-hevc10-opus.err" || fail "mkv-hevc10-opus: not a 10-bit HEVC stream"

vp9='-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 0 -pix_fmt yuv420p'
make_pair webm-vp9-opus webm "$vp9 -crf 12" "$vp9 -crf 55" "-c:a libopus -b:a 64k"
check_case webm-vp9-opus "$work/webm-vp9-opus-dis.webm" "$work/webm-vp9-opus-ref.webm" vp9

av1='-c:v libaom-av1 -usage realtime -cpu-used 8 -b:v 0 -pix_fmt yuv420p'
make_pair mp4-av1-aac mp4 "$av1 -crf 10" "$av1 -crf 55" "-c:a aac -b:a 96k"
check_case mp4-av1-aac "$work/mp4-av1-aac-dis.mp4" "$work/mp4-av1-aac-ref.mp4" libdav1d

make_pair ts-h264-mp2 ts "$x264 -crf 16" "$x264 -crf 40" "-c:a mp2 -b:a 128k"
check_case ts-h264-mp2 "$work/ts-h264-mp2-dis.ts" "$work/ts-h264-mp2-ref.ts" h264

prores='-c:v prores_ks -pix_fmt yuv422p10le'
make_pair mov-prores10-pcm mov "$prores -profile:v 3" "$prores -profile:v 0 -qscale:v 28" "-c:a pcm_s24le"
check_case mov-prores10-pcm "$work/mov-prores10-pcm-dis.mov" "$work/mov-prores10-pcm-ref.mov" prores
grep -q 'prores.*yuv422p10le' "$work/mov-prores10-pcm.err" || fail "mov-prores10-pcm: not 4:2:2 10-bit ProRes"

# Y4M (no audio in the format): the decoded H.264 frames
ff -loglevel error -i "$work/mp4-h264-aac-dis.mp4" -map 0:v -f yuv4mpegpipe "$work/in-dis.y4m"
ff -loglevel error -i "$work/mp4-h264-aac-ref.mp4" -map 0:v -f yuv4mpegpipe "$work/in-ref.y4m"
check_case y4m "$work/in-dis.y4m" "$work/in-ref.y4m" rawvideo

# a lower-resolution rendition, scaled to the reference in the graph
make_pair scaled-h264-aac mp4 "$x264 -crf 16" "$x264 -crf 30" "-c:a aac -b:a 96k" "scale=160:120"
up="scale=$W:$H:flags=bicubic"
check_case scaled-h264-aac "$work/scaled-h264-aac-dis.mp4" "$work/scaled-h264-aac-ref.mp4" h264 "[0:v]$up" "$up"

# an encoder tuning loop in one command: encode the reference, decode the
# encoder's output in the same ffmpeg (a loopback decoder, -dec) and score it
name=encode-and-score
log=$work/$name-filter.json
"$FFMPEG" -hide_banner -nostdin -y -i "$work/mp4-h264-aac-ref.mp4" \
    -map 0:v -c:v libx264 -preset veryfast -crf 36 -f mp4 "$work/$name-enc.mp4" \
    -dec 0:0 -filter_complex "[dec:0][0:v]gpussim=feature=all:log_path=$log[s]" -map '[s]' -f null - \
    > /dev/null 2> "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: ffmpeg failed"; }
ff -loglevel error -i "$work/$name-enc.mp4" -map 0:v -f yuv4mpegpipe "$work/$name-dis.y4m"
ff -loglevel error -i "$work/mp4-h264-aac-ref.mp4" -map 0:v -f yuv4mpegpipe "$work/$name-ref.y4m"
cli_compare "$name" "$log"
note "PASS"
