#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# Every score belongs to the right pair of frames.
#
# 1. Files whose streams start apart, through the README's plain command
#      ffmpeg -i DIS -i REF -lavfi gpussim=feature=all:log_path=LOG -f null -
#    (audio tracks present, no -an, no setpts; showinfo on each input to see
#    the times): MKV HEVC 10-bit + Opus whose video starts 7 ms after its
#    audio against WebM VP9 10-bit + Opus, MPEG-TS H.264 + MP2 with video
#    100 ms late against MP4 H.264 + AAC, MKV FFV1 422 10-bit + Opus (20 ms)
#    against MOV ProRes 422 10-bit + PCM, MKV H.264 + Opus (7 ms) against MP4, and with
#    -copyts an MP4 against a TS reference at 1.5 s and against an MKV at 7 ms.
#    The premise is asserted (the first frames' times differ); every value of the filter's log must equal the
#    CLI's on the same decoded frames paired by index (floats exactly, integer
#    ssim within 1e-9), with no frame unscored. align=pts (FFmpeg's pairing)
#    on the 7 ms pair shows what it did before: frame 0 unscored, then one
#    frame off, counted in a warning.
# 2. -frames:v 3, five runs: exactly 3 frames in the output, the metadata and
#    the log, the same values every time.
# 3. Inputs of different length, both ways and in a ladder: the run ends with
#    the shorter input and warns with both counts; eof_action=repeat and pass
#    are opt-in and counted.
# 4. sync_window=5 finds a 3-frame offset either way and scores the aligned
#    pairs exactly as the CLI does; the log's config records it.
# 5. Nothing destroyed or lost: log_path naming an input is refused with the
#    input unchanged; a graph rebuild (a size change mid-stream) fails
#    instead of truncating the first part's log; device= with backend=cpu is
#    refused.
. "$(dirname "$0")/common.sh"

have_cli || skip "the gpussim CLI is not built"
W=320 H=240 N=48
src="testsrc2=s=${W}x$H:r=24:d=2"
aud="sine=frequency=440:sample_rate=48000:d=2"
FEATURES="--feature float_ssim --feature float_ms_ssim --feature float_ansnr --feature ssim"

# clip NAME VIDEO_ARGS AUDIO_ARGS [FILTER] [VIDEO_DELAY]: one clip of the
# pattern; VIDEO_DELAY (s) starts the video after the audio, as in captures
# and encodes with audio priming (written to NUT, then stream-copied into the
# container: its muxer keeps the delay)
clip() {
    out=$work/$1
    [ -z "${5:-}" ] || out=$work/delay.nut
    # shellcheck disable=SC2086
    ff -loglevel error -itsoffset "${5:-0}" -f lavfi -i "$src" -f lavfi -i "$aud" -vf "${4:-null}" \
        $2 $3 -fps_mode passthrough "$out" || fail "could not make $1"
    [ -z "${5:-}" ] || ff -loglevel error -i "$out" -c copy "$work/$1" || fail "could not remux $1"
}
nframes() { python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['frames']))" "$1"; }
y4m() { # FILE OUT [FILTER]: the decoded frames, by index
    ff -loglevel error -i "$1" -map 0:v -vf "${3:-null}" -fps_mode passthrough -f yuv4mpegpipe -strict -1 "$2" ||
        fail "y4m export of $1 failed"
}
cli() { # REF.y4m DIS.y4m OUT.json [args]
    r=$1 d=$2 o=$3
    shift 3
    # shellcheck disable=SC2086
    "$GPUSSIM_CLI" -q -r "$r" -d "$d" --backend cpu $FEATURES "$@" -o "$o" ||
        fail "the CLI failed on $d"
}
same_values() { # LOG CLI.json: floats exactly, integer ssim within 1e-9
    $COMPARE "log:$1" "log:$2" --keys float_ssim,float_ms_ssim,float_ansnr,float_anpsnr
    $COMPARE "log:$1" "log:$2" --keys ssim --tol 1e-9
}

# ---- 1. streams that start apart -------------------------------------------
x265='-c:v libx265 -preset ultrafast -pix_fmt yuv420p10le -x265-params log-level=error'
vp9='-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 0 -pix_fmt yuv420p10le'
x264='-c:v libx264 -preset veryfast -pix_fmt yuv420p'
clip dis-hevc.mkv "$x265 -crf 40" "-c:a libopus -b:a 64k" null 0.007
clip ref-vp9.webm "$vp9 -crf 12" "-c:a libopus -b:a 64k"
clip dis-h264.ts "$x264 -crf 40" "-c:a mp2 -b:a 128k" null 0.1
clip ref-h264.mp4 "$x264 -crf 16" "-c:a aac -b:a 96k"
clip dis-ffv1.mkv "-c:v ffv1 -pix_fmt yuv422p10le" "-c:a libopus -b:a 64k" "noise=alls=12:allf=t" 0.02
clip ref-prores.mov "-c:v prores_ks -pix_fmt yuv422p10le -profile:v 3" "-c:a pcm_s24le"
clip dis-h264.mkv "$x264 -crf 38" "-c:a libopus -b:a 64k" null 0.007
clip dis-h264.mp4 "$x264 -crf 40" "-c:a aac -b:a 96k"
clip ref-h264.ts "$x264 -crf 16" "-c:a mp2 -b:a 128k" null 0.1
clip ref-h264-late.mkv "$x264 -crf 16" "-c:a libopus -b:a 64k" null 0.007

# first frame's time (s) of each input as the filters see it: showinfo
first_pts() { sed -n "s/.*Parsed_showinfo_$1 .* pts_time:\([0-9.]*\).*/\1/p" "$2" | head -n 1; }
pair_case() { # NAME DIS REF [ffmpeg input options]
    name=$1 dis=$work/$2 ref=$work/$3 opts=${4:-}
    log=$work/$name.json
    # shellcheck disable=SC2086
    "$FFMPEG" -hide_banner -nostdin -y $opts -i "$dis" -i "$ref" \
        -lavfi "[0:v]showinfo[d];[1:v]showinfo[r];[d][r]gpussim=feature=all:log_path=$log" \
        -f null - > /dev/null 2> "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: ffmpeg failed"; }
    sd=$(first_pts 0 "$work/$name.err") sr=$(first_pts 1 "$work/$name.err")
    python3 -c "import sys; sys.exit(0 if abs(float(sys.argv[1]) - float(sys.argv[2])) > 1e-4 else 1)" "$sd" "$sr" ||
        fail "$name: premise: both inputs start at $sd s"
    grep -q 'Stream #0:1.*Audio' "$work/$name.err" || fail "$name: the distorted input has no audio"
    grep -Eq "\] the reference starts [0-9.]+ ms (after|before) the distorted input; aligned: each input is paired from its first frame \(align=start\)" \
        "$work/$name.err" || { grep gpussim "$work/$name.err" >&2; fail "$name: the start offset was not reported"; }
    ! grep -q 'unscored\|ended after' "$work/$name.err" ||
        { grep 'unscored\|ended after' "$work/$name.err" >&2; fail "$name: frames unscored or an input cut short"; }
    [ "$(nframes "$log")" = $N ] || fail "$name: $(nframes "$log") frames in the log, expected $N"
    y4m "$dis" "$work/$name-dis.y4m"
    y4m "$ref" "$work/$name-ref.y4m"
    cli "$work/$name-ref.y4m" "$work/$name-dis.y4m" "$work/$name-cli.json"
    printf '%s (first frames at: distorted %s s, reference %s s): ' "$name" "$sd" "$sr"
    same_values "$log" "$work/$name-cli.json"
}
pair_case mkv-vs-webm dis-hevc.mkv ref-vp9.webm
pair_case ts-vs-mp4 dis-h264.ts ref-h264.mp4
pair_case mkv-vs-mov dis-ffv1.mkv ref-prores.mov
pair_case mkv-vs-mp4 dis-h264.mkv ref-h264.mp4
# -copyts keeps the TS reference at its own 1.5 s
pair_case copyts-mp4-vs-ts dis-h264.mp4 ref-h264.ts -copyts

# align=pts: FFmpeg's timestamp pairing, opt-in; a reference starting 7 ms
# later (-copyts) leaves distorted frame 0 unscored and pairs i with i-1
log=$work/pts.json
ff -copyts -i "$work/dis-h264.mp4" -i "$work/ref-h264-late.mkv" \
    -lavfi "gpussim=feature=float_ssim:align=pts:log_path=$log" -f null - 2> "$work/pts.err" ||
    { cat "$work/pts.err" >&2; fail "align=pts: ffmpeg failed"; }
grep -q '\] 1 distorted frame(s) before the first frame of every other input were passed through unscored (align=pts' \
    "$work/pts.err" || { cat "$work/pts.err" >&2; fail "align=pts: no warning counting 1 unscored frame"; }
[ "$(nframes "$log")" = $((N - 1)) ] || fail "align=pts: $(nframes "$log") frames logged, expected $((N - 1))"
# log frame k is distorted frame k+1 against reference frame k
y4m "$work/dis-h264.mp4" "$work/pts-dis.y4m" "trim=start_frame=1"
y4m "$work/ref-h264-late.mkv" "$work/pts-ref.y4m" "trim=end_frame=$((N - 1))"
cli "$work/pts-ref.y4m" "$work/pts-dis.y4m" "$work/pts-cli.json" --feature float_ssim
printf 'align=pts (distorted i+1 against reference i): '
$COMPARE "log:$log" "log:$work/pts-cli.json" --keys float_ssim
# the same files by default: every frame, right pairs
pair_case copyts-mp4-vs-mkv dis-h264.mp4 ref-h264-late.mkv -copyts

# ---- 2. -frames:v 3, five times --------------------------------------------
for i in 1 2 3 4 5; do
    ff -i "$work/dis-h264.mp4" -i "$work/ref-h264.mp4" -frames:v 3 \
        -lavfi "[0:v][1:v]gpussim=feature=all:log_path=$work/f$i.json[o]" -map '[o]' -f framecrc "$work/f$i.crc" \
        2> "$work/f$i.err" || { cat "$work/f$i.err" >&2; fail "-frames:v 3 run $i failed"; }
    [ "$(grep -c '^0,' "$work/f$i.crc")" = 3 ] || fail "-frames:v 3 run $i: $(grep -c '^0,' "$work/f$i.crc") frames out"
    [ "$(nframes "$work/f$i.json")" = 3 ] || fail "-frames:v 3 run $i: $(nframes "$work/f$i.json") frames logged"
    grep -q 'gpussim float_ssim: .* frames 3,' "$work/f$i.err" || fail "-frames:v 3 run $i: the summary does not count 3 frames"
    python3 -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(0 if a['frames'] == b['frames'] and a['pooled_metrics'] == b['pooled_metrics'] else 1)" \
        "$work/f1.json" "$work/f$i.json" || fail "-frames:v 3: run $i logged other values than run 1"
done
y4m "$work/dis-h264.mp4" "$work/f-dis.y4m" "trim=end_frame=3"
y4m "$work/ref-h264.mp4" "$work/f-ref.y4m" "trim=end_frame=3"
cli "$work/f-ref.y4m" "$work/f-dis.y4m" "$work/f-cli.json"
printf -- '-frames:v 3 (5 runs, 3 frames each): '
same_values "$work/f1.json" "$work/f-cli.json"

# ---- 3. inputs of different length ------------------------------------------
short() { # NAME DIS_FRAMES REF_FRAMES OPTIONS OUT SCORED [WARNING-REGEX]
    name=$1
    ff -f lavfi -i "testsrc2=s=176x144:r=25" -lavfi \
        "[0:v]split[a][b];[a]trim=end_frame=$2[d];[b]trim=end_frame=$3,gblur=sigma=1[r];[d][r]gpussim=backend=cpu:feature=float_ssim:log_path=$work/$name.json$4,showinfo,metadata=print:file=$work/$name.txt" \
        -f null - 2> "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: ffmpeg failed"; }
    out=$(grep -c 'Parsed_showinfo.*n: *[0-9]* pts:' "$work/$name.err")
    scored=$(grep -c '^lavfi.gpussim.float_ssim=' "$work/$name.txt")
    [ "$out" = "$5" ] && [ "$scored" = "$6" ] && [ "$(nframes "$work/$name.json")" = "$6" ] ||
        fail "$name: $out frames out (want $5), $scored scored, $(nframes "$work/$name.json") logged (want $6)"
    if [ -n "${7:-}" ]; then
        grep -Eq "$7" "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: no warning /$7/"; }
    else
        ! grep -q 'ended after\|repeated last\|unscored' "$work/$name.err" || fail "$name: an unexpected warning"
    fi
    note "ok: $name: $out out, $6 scored${7:+, warned}"
}
short dis-short 20 30 "" 20 20 '\] the distorted input ended after 20 frames, the reference has more; scored 20'
short ref-short 30 20 "" 20 20 '\] the reference ended after 20 frames, the distorted input has more; scored 20'
short ref-short-shortest 30 20 ":shortest=1" 20 20 'the reference ended after 20 frames'
short ref-short-repeat 30 20 ":eof_action=repeat" 30 30 '\] 10 distorted frame\(s\) were scored against the reference.s repeated last frame'
short ref-short-repeatlast 30 20 ":repeatlast=1" 30 30 '\] 10 distorted frame\(s\) were scored against the reference.s repeated last frame'
short ref-short-pass 30 20 ":eof_action=pass" 30 20 '\] 10 distorted frame\(s\) after the end of a shorter input were passed through unscored'
short same-length 25 25 "" 25 25
# the values of the repeated frames: distorted 20..29 against reference 19
python3 - "$work/ref-short-repeat.json" <<'EOF' || fail "eof_action=repeat: wrong partner for the repeated frames"
import json, sys
f = json.load(open(sys.argv[1]))["frames"]
# testsrc2 moves every frame: frames 20..29 against one reference frame differ from each other
v = [x["metrics"]["float_ssim"] for x in f]
sys.exit(0 if len(v) == 30 and len(set(v[20:])) == 10 and v[19] > v[20] else 1)
EOF
# a ladder: rendition 1 shorter, then input 0 shorter
ladder() { # NAME N0 N1 NREF OUT WARNING
    name=$1
    ff -f lavfi -i "testsrc2=s=176x144:r=25" -lavfi \
        "[0:v]split=3[a][b][c];[a]trim=end_frame=$2[d0];[b]trim=end_frame=$3,gblur=sigma=2[d1];[c]trim=end_frame=$4,gblur=sigma=1[r];[d0][d1][r]gpussim=inputs=3:backend=cpu:feature=float_ssim:log_path=$work/$name.json,showinfo" \
        -f null - 2> "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: ffmpeg failed"; }
    out=$(grep -c 'Parsed_showinfo.*n: *[0-9]* pts:' "$work/$name.err")
    [ "$out" = "$5" ] || fail "$name: $out frames out, want $5"
    grep -Eq "$6" "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: no warning /$6/"; }
    note "ok: $name: $out out, warned"
}
ladder ladder-r1-short 30 20 30 20 '\] distorted input 1 \(rendition 1\) ended after 20 frames, distorted input 0 has more; scored 20'
ladder ladder-r0-short 20 30 30 20 '\] distorted input 0 ended after 20 frames, distorted input 1 \(rendition 1\) has more; scored 20'

# ---- 4. sync_window ------------------------------------------------------------
# the distorted encode lost its first 3 frames (offset +3), or the reference
# did (offset -3); both encodes keep their own timestamps from 0
clip off-ref.mp4 "$x264 -crf 16" "-c:a aac -b:a 96k"
clip off-dis3.mp4 "$x264 -crf 36" "-c:a aac -b:a 96k" "trim=start_frame=3,setpts=PTS-STARTPTS"
clip off-ref3.mp4 "$x264 -crf 16" "-c:a aac -b:a 96k" "trim=start_frame=3,setpts=PTS-STARTPTS"
clip off-dis.mp4 "$x264 -crf 36" "-c:a aac -b:a 96k"
y4m "$work/off-ref.mp4" "$work/off-ref.y4m"
y4m "$work/off-dis3.mp4" "$work/off-dis3.y4m"
y4m "$work/off-ref3.mp4" "$work/off-ref3.y4m"
y4m "$work/off-dis.mp4" "$work/off-dis.y4m"
sync_case() { # NAME DIS REF OFFSET FRAMES UNSCORED
    name=$1 log=$work/$1.json
    ff -i "$work/$2" -i "$work/$3" -lavfi "gpussim=feature=all:sync_window=5:log_path=$log,metadata=print:file=$work/$name.txt" \
        -f null - 2> "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: ffmpeg failed"; }
    grep -F "sync_window=5: the distorted input" "$work/$name.err" | grep -qF "(offset $4:" ||
        { cat "$work/$name.err" >&2; fail "$name: offset $4 not found"; }
    got=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['config'].get('sync_offset'))" "$log")
    [ "$got" = "$(echo "$4" | sed 's/^+//')" ] || fail "$name: the log's config says sync_offset $got"
    [ "$(nframes "$log")" = "$5" ] || fail "$name: $(nframes "$log") frames logged, want $5"
    if [ "$6" != 0 ]; then
        grep -q "\] $6 distorted frame(s) before the reference's first frame (sync offset) were passed through unscored" "$work/$name.err" ||
            { cat "$work/$name.err" >&2; fail "$name: no warning counting $6 unscored frames"; }
    fi
    note "ok: $name: offset $4, $5 frames scored"
}
sync_case sync-plus3 off-dis3.mp4 off-ref.mp4 +3 $((N - 3)) 0
# the aligned pairs: distorted i against reference i+3 (the CLI's --skip-ref)
y4m "$work/off-ref.mp4" "$work/off-ref-from3.y4m" "trim=start_frame=3"
cli "$work/off-ref-from3.y4m" "$work/off-dis3.y4m" "$work/sync-plus3-cli.json"
printf 'sync_window=5, offset +3: '
same_values "$work/sync-plus3.json" "$work/sync-plus3-cli.json"
sync_case sync-minus3 off-dis.mp4 off-ref3.mp4 -3 $((N - 3)) 3
y4m "$work/off-dis.mp4" "$work/off-dis-from3.y4m" "trim=start_frame=3"
cli "$work/off-ref3.y4m" "$work/off-dis-from3.y4m" "$work/sync-minus3-cli.json"
printf 'sync_window=5, offset -3: '
same_values "$work/sync-minus3.json" "$work/sync-minus3-cli.json"
sync_case sync-zero dis-h264.mp4 ref-h264.mp4 +0 $N 0

# ---- 5. nothing destroyed or lost -------------------------------------------------
cp "$work/ref-h264.mp4" "$work/keep.mp4"
expect_failure "log_path|same file|open" -i "$work/dis-h264.mp4" -i "$work/keep.mp4" \
    -lavfi "gpussim=feature=float_ssim:log_path=$work/keep.mp4" -f null -
cmp -s "$work/keep.mp4" "$work/ref-h264.mp4" || fail "log_path naming an input changed that input"

# a size change mid-stream: ffmpeg rebuilds the graph; the second gpussim
# instance must not truncate the first part's log
# (the first part is 50 frames: with 16 cores, a 10-frame part was still all
# inside the filters when the second part's first frame arrived)
ff -loglevel error -f lavfi -i "testsrc2=s=320x240:r=25:d=2" -c:v libx264 -f mpegts "$work/a.ts"
ff -loglevel error -f lavfi -i "testsrc2=s=160x120:r=25:d=0.4" -c:v libx264 -f mpegts "$work/b.ts"
cat "$work/a.ts" "$work/b.ts" > "$work/sizes.ts"
# (FFmpeg drops what its filters still hold when it rebuilds a graph: the
# first part's log holds what the first graph sent on, every frame of it)
expect_failure "log_path .* was written by an earlier gpussim instance of this run" -i "$work/sizes.ts" \
    -lavfi "[0:v]split[a][b];[a][b]gpussim=backend=cpu:feature=float_ssim:log_path=$work/rebuild.json,showinfo" -f null -
sent=$(sed -n '/Reconfiguring filter graph/q;p' "$work/err" | grep -c 'Parsed_showinfo.*n: *[0-9]* pts:' || true)
logged=$(nframes "$work/rebuild.json")
[ "$logged" -ge 1 ] && [ "$logged" = "$sent" ] ||
    fail "graph rebuild: the first part's log has $logged frames, the first graph sent $sent"
note "ok: graph rebuild: refused, the first part's $logged frame(s) kept in the log"

expect_failure "device=3: the cpu backend has no devices" -f lavfi -i testsrc2=s=64x64:d=0.1 -f lavfi \
    -i testsrc2=s=64x64:d=0.1 -lavfi "gpussim=backend=cpu:device=3" -f null -

# ---- 6. device frames: Vulkan (hwupload; lavapipe here), CUDA (NVDEC) ------------
# the start-offset pair, sync_window (the search downloads device frames) and
# -frames:v 3 on frames that live on a device; values within the spec's
# contract (section 5: floats 5e-5, integer ssim 1e-9) of the CLI by index
dev_case() { # NAME GLOBAL_OPTS PER_INPUT_OPTS UPLOAD BACKEND
    name=$1 glob=$2 inp=$3 up=$4 be=$5
    # shellcheck disable=SC2086
    ff $glob $inp -i "$work/dis-h264.mkv" $inp -i "$work/ref-h264.mp4" \
        -lavfi "[0:v]${up}[d];[1:v]${up}[r];[d][r]gpussim=feature=all:log_path=$work/$name.json" \
        -f null - 2> "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: ffmpeg failed"; }
    grep -q "backend $be" "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: not scored by $be"; }
    [ "$(nframes "$work/$name.json")" = $N ] || fail "$name: $(nframes "$work/$name.json") frames logged"
    printf '%s: ' "$name"
    $COMPARE "log:$work/$name.json" "log:$work/mkv-vs-mp4-cli.json" --keys float_ssim,float_ms_ssim,float_ansnr,float_anpsnr --tol 5e-5
    $COMPARE "log:$work/$name.json" "log:$work/mkv-vs-mp4-cli.json" --keys ssim --tol 1e-9
    # shellcheck disable=SC2086
    ff $glob $inp -i "$work/off-dis3.mp4" $inp -i "$work/off-ref.mp4" \
        -lavfi "[0:v]${up}[d];[1:v]${up}[r];[d][r]gpussim=feature=all:sync_window=5:log_path=$work/$name-sync.json" \
        -f null - 2> "$work/$name-sync.err" || { cat "$work/$name-sync.err" >&2; fail "$name: sync_window failed"; }
    grep -qF "(offset +3:" "$work/$name-sync.err" || { cat "$work/$name-sync.err" >&2; fail "$name: offset +3 not found"; }
    printf '%s, sync_window=5: ' "$name"
    $COMPARE "log:$work/$name-sync.json" "log:$work/sync-plus3-cli.json" --keys float_ssim,float_ms_ssim,float_ansnr,float_anpsnr --tol 5e-5
    for i in 1 2 3 4 5; do
        # shellcheck disable=SC2086
        ff $glob $inp -i "$work/dis-h264.mkv" $inp -i "$work/ref-h264.mp4" -frames:v 3 \
            -lavfi "[0:v]${up}[d];[1:v]${up}[r];[d][r]gpussim=feature=all:log_path=$work/$name-f$i.json[o]" \
            -map '[o]' -f null - 2> "$work/$name-f$i.err" || { cat "$work/$name-f$i.err" >&2; fail "$name: -frames:v 3 failed"; }
        [ "$(nframes "$work/$name-f$i.json")" = 3 ] || fail "$name: -frames:v 3 run $i logged $(nframes "$work/$name-f$i.json")"
    done
    note "ok: $name: start offset, sync_window and -frames:v 3 (x5) on $be"
}
vk="-init_hw_device vulkan=vk -filter_hw_device vk"
# shellcheck disable=SC2086
if ff $vk -f lavfi -i testsrc2=s=64x64:d=0.04 -vf format=yuv420p,hwupload,hwdownload,format=yuv420p \
        -f null - > /dev/null 2>&1; then
    dev_case vulkan-frames "$vk" "" "format=yuv420p,hwupload" vulkan
else
    note "no Vulkan device for FFmpeg here: Vulkan frames not tried"
fi
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU &&
        "$FFMPEG" -hide_banner -hwaccels 2>/dev/null | grep -qx cuda; then
    dev_case nvdec-frames "-init_hw_device cuda=gpu" "-hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda" null cuda
else
    note "no NVIDIA GPU: NVDEC frames not tried"
fi
note "PASS"
