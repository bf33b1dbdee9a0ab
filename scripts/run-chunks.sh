#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# Scores a pair of videos in chunks, one process per GPU, merges the chunk
# logs with `gpussim merge`, and checks the merged log against one run over
# the whole input: the "frames" and "pooled_metrics" blocks must be
# byte-identical. Prints the commands it runs (docs/scaling.md shows the same
# ones) and a table: whole run vs chunked run, frames per second.
#
#   scripts/run-chunks.sh [options] REF DIS CHUNKS GPUS
#
#   REF, DIS   the reference and the distorted video. Without --ffmpeg: .y4m or
#              raw files read by the gpussim CLI (chunks: --skip/--frames).
#              With --ffmpeg: anything FFmpeg decodes, scored by its gpussim
#              filter (chunks: input -ss and trim=end_frame).
#   CHUNKS     number of consecutive chunks (equal sizes, +-1 frame)
#   GPUS       comma-separated GPU indices, one process on each at a time
#              (0,1: two processes). With --backend cpu they only set the
#              number of processes.
#
# Options:
#   --backend B      auto (default), cpu, cuda, vulkan, hip, ze
#   --feature F      the CLI's --feature / the filter's feature= (default: all
#                    the frame size allows)
#   --ffmpeg PATH    score through FFmpeg with the gpussim filter
#   --nvdec          with --ffmpeg: decode on each process's GPU (NVDEC:
#                    -init_hw_device cuda=gpu:N, then -hwaccel cuda
#                    -hwaccel_device gpu on both inputs; CUDA frames in place)
#   --fps R          with --ffmpeg: the frame rate (default: FFmpeg's report)
#   --gpussim PATH   the CLI (default: build/gpussim of this checkout, else PATH)
#   --threads N      CLI worker threads per process (default: the CLI's)
#   --work DIR       logs and timings go here (default: ./run-chunks)
#   --no-parallel    use xargs -P even when GNU parallel is installed
#
# Exit status: 0 merged == whole, 1 they differ or a run failed, 2 usage.
set -euo pipefail
shopt -s extglob

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
    sed -n '/^#   scripts/,/^# Exit/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}
die() {
    echo "run-chunks: $*" >&2
    exit 1
}

backend=auto feature= ffmpeg= nvdec=0 fps= cli= threads= work=run-chunks use_parallel=1
role=main role_arg= slot=
args=("$@")
pos=()
while [ $# -gt 0 ]; do
    case $1 in
    --backend) backend=${2:?}; shift 2 ;;
    --feature) feature=${2:?}; shift 2 ;;
    --ffmpeg) ffmpeg=${2:?}; shift 2 ;;
    --nvdec) nvdec=1; shift ;;
    --fps) fps=${2:?}; shift 2 ;;
    --gpussim) cli=${2:?}; shift 2 ;;
    --threads) threads=${2:?}; shift 2 ;;
    --work) work=${2:?}; shift 2 ;;
    --no-parallel) use_parallel=0; shift ;;
    # internal: the per-GPU worker (xargs) and the per-chunk job (parallel)
    --worker | --job) role=${1#--}; role_arg=${2:?}; shift 2 ;;
    --slot) slot=${2:?}; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "run-chunks: unknown option $1" >&2; usage ;;
    *) pos+=("$1"); shift ;;
    esac
done
[ ${#pos[@]} -eq 4 ] || usage
ref=${pos[0]} dis=${pos[1]} chunks=${pos[2]} gpus_csv=${pos[3]}
[[ $chunks == +([0-9]) ]] && [ "$chunks" -ge 1 ] || die "CHUNKS must be a positive number, not '$chunks'"
IFS=, read -r -a gpus <<<"$gpus_csv"
[ ${#gpus[@]} -ge 1 ] || die "GPUS is a comma-separated list of GPU indices (e.g. 0,1)"
for g in "${gpus[@]}"; do [[ $g == +([0-9]) ]] || die "GPUS: '$g' is not a GPU index"; done
[ $nvdec = 0 ] || [ -n "$ffmpeg" ] || die "--nvdec needs --ffmpeg"
if [ -z "$cli" ]; then
    if [ -x "$root/build/gpussim" ]; then cli=$root/build/gpussim; else cli=$(command -v gpussim) || die "no gpussim CLI: build it (scripts/build.sh) or give --gpussim PATH"; fi
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

# show CMD...: prints the command as a shell line, then runs it; its stderr
# goes to LOG ($log), so that parallel processes do not mix their messages
show_run() {
    local line
    printf -v line '%q ' "$@"
    echo "+ ${line% }" >&2
    "$@" 2>>"$log"
}

# score DEVICE FIRST COUNT OUT: frames [FIRST, FIRST+COUNT) (COUNT 0: to the end)
score() {
    local dev=$1 first=$2 count=$3 out=$4
    if [ -z "$ffmpeg" ]; then
        local a=(-r "$ref" -d "$dis" --backend "$backend" -q -o "$out")
        [ "$backend" = cpu ] || a+=(--device "$dev")
        [ -z "$feature" ] || a+=(--feature "$feature")
        [ -z "$threads" ] || a+=(--threads "$threads")
        [ "$first" = 0 ] || a+=(--skip "$first")
        [ "$count" = 0 ] || a+=(--frames "$count")
        show_run "$cli" "${a[@]}"
        return
    fi
    # quoted for the filtergraph (commas, spaces, brackets); what the
    # option parser would still split on is refused in main
    local glob=() in=() opts="log_path='$out'" graph
    if [ $nvdec = 1 ]; then
        # one named device for both inputs: "-hwaccel_device N" on each
        # would open a device (a CUDA context) per input, which the filter
        # refuses
        glob=(-init_hw_device "cuda=gpu:$dev")
        in=(-hwaccel cuda -hwaccel_device gpu -hwaccel_output_format cuda)
    else
        [ "$backend" = cpu ] || opts+=":device=$dev"
    fi
    [ "$backend" = auto ] || opts+=":backend=$backend"
    [ -z "$feature" ] || opts+=":feature=$feature"
    # the chunk starts half a frame before its first frame: the decoder drops
    # every frame before the seek point, and rounding cannot lose the first
    local seek=()
    [ "$first" = 0 ] || seek=(-ss "$(awk -v f="$first" -v r="$fps" 'BEGIN { printf "%.6f", (f - 0.5) / r }')")
    if [ "$count" = 0 ]; then
        graph="[0:v][1:v]gpussim=$opts"
    else
        graph="[0:v]trim=end_frame=$count[d];[1:v]trim=end_frame=$count[r];[d][r]gpussim=$opts"
    fi
    # the filter's inputs: the distorted video first, the reference last;
    # -copyts keeps the source's timestamps after -ss, so each frame's
    # "timestamp" in a chunk log is the one of the whole run
    show_run "$ffmpeg" -hide_banner -nostdin -y -loglevel error -copyts "${glob[@]}" "${in[@]}" "${seek[@]}" -i "$dis" \
        "${in[@]}" "${seek[@]}" -i "$ref" -lavfi "$graph" -f null -
}

# chunk I's first frame and frame count, from $total and $chunks
chunk_first() { echo $(($1 * total / chunks)); }
chunk_count() { echo $((($1 + 1) * total / chunks - $1 * total / chunks)); }

run_chunk() { # I DEVICE
    log=$work/chunk_$1.err
    : >"$log"
    if ! score "$2" "$(chunk_first "$1")" "$(chunk_count "$1")" "$work/chunk_$1.json"; then
        echo "run-chunks: chunk $1 on GPU $2 failed:" >&2
        sed 's/^/    /' "$log" >&2
        return 1
    fi
}

# ---- internal roles: re-invoked by xargs / parallel with the same arguments ----
if [ "$role" != main ]; then
    total=$(cat "$work/total")
    [ -z "$ffmpeg" ] || fps=$(cat "$work/fps")
    if [ "$role" = worker ]; then
        # worker K: GPU gpus[K], chunks K, K+G, K+2G, ... one after another
        for ((i = role_arg; i < chunks; i += ${#gpus[@]})); do run_chunk "$i" "${gpus[$role_arg]}" || exit 1; done
    else
        # job I in GNU parallel's slot S (1..G): the slot names the GPU
        run_chunk "$role_arg" "${gpus[$((slot - 1))]}"
    fi
    exit
fi

# ---- main -------------------------------------------------------------------
[ -e "$ref" ] || die "$ref: no such file"
[ -e "$dis" ] || die "$dis: no such file"
if [ -n "$ffmpeg" ] && [ -z "$fps" ]; then
    # (ffmpeg -i without an output exits 1 after printing the streams)
    fps=$({ "$ffmpeg" -hide_banner -nostdin -i "$dis" 2>&1 || true; } |
        sed -n 's/.*Video:.*, \([0-9.]*\) fps,.*/\1/p' | head -n 1)
    [ -n "$fps" ] || die "cannot read the frame rate of $dis: give --fps"
fi
case $work in
*[:\\\']*) [ -z "$ffmpeg" ] || die "--work $work: FFmpeg's filter options cannot take a path with ':', '\\' or a quote" ;;
esac
[ -z "$ffmpeg" ] || echo "$fps" >"$work/fps"
rm -f "$work"/chunk_*.json "$work"/chunk_*.err

# 1. the whole input in one process on the first GPU: the reference log and the frame count
echo "== whole input, one process on GPU ${gpus[0]}" >&2
log=$work/whole.err
: >"$log"
t0=$(now)
score "${gpus[0]}" 0 0 "$work/whole.json" || { sed 's/^/    /' "$log" >&2; die "the whole run failed"; }
t1=$(now)
total=$(grep -c '"frameNum"' "$work/whole.json") || true
[ "$total" -ge "$chunks" ] || die "$total frames cannot make $chunks chunks"
echo "$total" >"$work/total"

# 2. the chunks, one process per GPU
procs=${#gpus[@]}
echo "== $chunks chunks of ~$((total / chunks)) frames, $procs processes (GPUs $gpus_csv)" >&2
t2=$(now)
if [ $use_parallel = 1 ] && command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q GNU; then
    how="GNU parallel -j $procs"
    seq 0 $((chunks - 1)) | parallel --will-cite -q --halt now,fail=1 -j "$procs" "$self" "${args[@]}" --job {} --slot {%} ||
        die "a chunk failed (above)"
else
    how="xargs -P $procs"
    seq 0 $((procs - 1)) | xargs -P "$procs" -I{} "$self" "${args[@]}" --worker {} || die "a chunk failed (above)"
fi
t3=$(now)

# 3. merge, in chunk order
logs=()
for ((i = 0; i < chunks; i++)); do logs+=("$work/chunk_$i.json"); done
log=$work/merge.err
: >"$log"
show_run "$cli" merge "${logs[@]}" -o "$work/merged.json" || { cat "$log" >&2; die "gpussim merge failed"; }
t4=$(now)

# NVDEC: the frames must have been decoded on the GPU and scored there, not a
# software fallback
if [ $nvdec = 1 ]; then
    if grep -l -E 'Failed setup for format cuda|hwaccel initiali[sz]ation returned error|cuvidCreateDecoder' \
        "$work"/*.err >&2; then
        die "NVDEC set-up failed in the runs above (a software fallback is not an NVDEC result)"
    fi
    for f in "$work/whole.json" "${logs[@]}"; do
        grep -q '"backend": "cuda"' "$f" || die "$f was not scored on the cuda backend"
    done
fi

# 4. merged == whole: the frames and the pooled values, byte for byte
block() { awk -v k="  \"$2\": " 'index($0, k) == 1 { p = 1 } p { print } p && /^  []}],?$/ { exit }' "$1"; }
status=0
for b in frames pooled_metrics pooled_metrics_frames_left_out; do
    block "$work/whole.json" "$b" >"$work/whole.$b"
    block "$work/merged.json" "$b" >"$work/merged.$b"
    if [ ! -s "$work/whole.$b" ]; then
        echo "run-chunks: the whole log has no \"$b\" block" >&2
        status=1
    elif cmp -s "$work/whole.$b" "$work/merged.$b"; then
        echo "merged == whole: \"$b\" byte-identical ($(wc -c <"$work/whole.$b") bytes)"
    else
        echo "MISMATCH: \"$b\" of merged.json differs from the whole run's:" >&2
        diff "$work/whole.$b" "$work/merged.$b" | head -n 20 >&2
        status=1
    fi
done

whole_s=$(elapsed "$t0" "$t1") chunk_s=$(elapsed "$t2" "$t3") merge_s=$(elapsed "$t3" "$t4")
fps_of() { awk -v n="$total" -v s="$1" 'BEGIN { printf "%.1f", (s > 0 ? n / s : 0) }'; }
echo
echo "| run | processes | frames | seconds | fps |"
echo "| --- | --- | --- | --- | --- |"
echo "| whole input | 1 (GPU ${gpus[0]}) | $total | $whole_s | $(fps_of "$whole_s") |"
echo "| $chunks chunks ($how) | $procs (GPUs $gpus_csv) | $total | $chunk_s | $(fps_of "$chunk_s") |"
echo "| merge | 1 | $total | $merge_s | |"
echo "speed-up of the chunked run: $(awk -v a="$whole_s" -v b="$chunk_s" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')x;" \
    "backend $backend${ffmpeg:+, FFmpeg filter}$([ $nvdec = 1 ] && echo ', NVDEC'); logs in $work"
exit $status
