#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# ffmpeg stopped in the middle of a long run (SIGINT, SIGTERM, 'q' on stdin)
# leaves a valid JSON log with every frame scored so far: frameNum 0..n-1,
# n > 0, at least every frame that left the filter, the pooled statistics
# over exactly those frames (compare.py logcheck).
. "$(dirname "$0")/common.sh"

long="testsrc2=s=320x240:r=25:d=600"
chain="[0:v]split[a][b];[b]gblur=sigma=2[bd];[a][bd]gpussim=backend=cpu:feature=float_ssim|ssim"

check_log() { # name
    $COMPARE "logcheck:$work/$1.json" > "$work/$1.check" || { cat "$work/$1.check" >&2; fail "$1: invalid log"; }
    out=$(tr '\r' '\n' < "$work/$1.err" | sed -n 's/^frame= *\([0-9]*\) .*/\1/p' | tail -n 1)
    python3 - "$work/$1.json" "${out:-0}" "$1" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
frames, out, name = log["frames"], int(sys.argv[2]), sys.argv[3]
n = len(frames)
assert n > 0, f"{name}: no frame in the log"
assert [f["frameNum"] for f in frames] == list(range(n)), f"{name}: frame numbers are not 0..{n - 1}"
assert n >= out, f"{name}: {out} frames left the filter but the log has {n}"
assert n < 15000, f"{name}: the run was not stopped ({n} frames)"
print(f"{name}: log has {n} frames (0..{n - 1}), {out} left the filter before the stop")
PY
}

for sig in INT TERM; do
    name=sig$sig
    "$FFMPEG" -hide_banner -nostdin -y -f lavfi -i "$long" -lavfi "$chain:log_path=$work/$name.json" \
        -f null - 2> "$work/$name.err" &
    pid=$!
    # stop once some frames are through (the progress line counts them)
    i=0
    while [ $i -lt 100 ]; do
        sleep 0.2
        n=$(tr '\r' '\n' < "$work/$name.err" | sed -n 's/^frame= *\([0-9]*\) .*/\1/p' | tail -n 1)
        [ "${n:-0}" -ge 25 ] && break
        i=$((i + 1))
    done
    kill -s "$sig" $pid
    set +e
    wait $pid
    rc=$?
    set -e
    is_crash $rc && { cat "$work/$name.err" >&2; fail "$name: ffmpeg crashed (exit status $rc)"; }
    grep -q "received signal" "$work/$name.err" || fail "$name: ffmpeg did not report the signal"
    check_log $name
    note "ok: SIG$sig: exit status $rc, $(tail -n 1 "$work/$name.check")"
done

# 'q' on stdin (ffmpeg reads keys from a pipe too)
(sleep 2; printf q) | "$FFMPEG" -hide_banner -y -f lavfi -i "$long" -lavfi "$chain:log_path=$work/q.json" \
    -f null - 2> "$work/q.err" || { cat "$work/q.err" >&2; fail "q: ffmpeg failed"; }
check_log q
note "ok: q: exit status 0, $(tail -n 1 "$work/q.check")"
note "PASS"
