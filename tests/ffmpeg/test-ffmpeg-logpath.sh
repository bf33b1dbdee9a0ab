#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The filter's log never destroys a file ffmpeg has open: log_path naming an
# input (itself, a symlink, a hard link) or the output is refused with a
# failing exit status and the file's bytes unchanged ("log_path=ref.y4m"
# used to truncate the input and exit 0). And the filter's chunk logs (trim)
# merge only when they tile the clip: given out of order they are sorted by
# their timestamps and merge to the whole run's log; overlapping chunks (60 +
# 45 frames of a 90-frame clip once merged into 105) or a gap are refused.
. "$(dirname "$0")/common.sh"

ff -f lavfi -i "testsrc2=s=192x192:r=25:d=3.6" -pix_fmt yuv420p "$work/ref.y4m" 2>/dev/null
ff -i "$work/ref.y4m" -vf "gblur=sigma=1.5" -pix_fmt yuv420p "$work/dis.y4m" 2>/dev/null
cp "$work/ref.y4m" "$work/ref.orig"
ln -s "$work/ref.y4m" "$work/sym.y4m"
ln "$work/ref.y4m" "$work/hard.y4m"
score="[1:v][0:v]gpussim=backend=cpu"

for target in ref.y4m sym.y4m hard.y4m; do
    expect_failure "log file '$work/$target' is a file this process has open for reading \(fd [0-9]+: an input\?\)" \
        -i "$work/ref.y4m" -i "$work/dis.y4m" -lavfi "$score:log_path=$work/$target" -f null -
    cmp -s "$work/ref.y4m" "$work/ref.orig" || fail "log_path=$target changed the input"
done
note "ok: log_path naming the input, a symlink or a hard link to it: refused, the input unchanged"
printf 'not to be overwritten\n' >"$work/out.y4m"
expect_failure "log file '$work/out.y4m' is a file this process has open for writing" \
    -i "$work/ref.y4m" -i "$work/dis.y4m" -lavfi "$score:log_path=$work/out.y4m" "$work/out.y4m"

have_cli || { note "no gpussim CLI: the merge checks are not run"; exit 0; }
# chunk START END LOG: frames START..END-1 of both inputs
chunk() {
    ff -i "$work/ref.y4m" -i "$work/dis.y4m" -lavfi "[0:v]trim=start_frame=$1:end_frame=$2[r];[1:v]trim=start_frame=$1:end_frame=$2[d];[d][r]gpussim=backend=cpu:log_path=$3" \
        -f null - 2>/dev/null || fail "chunk $1..$2 failed"
}
chunk 0 90 "$work/whole.json"
chunk 0 45 "$work/c0.json"
chunk 45 90 "$work/c1.json"
chunk 0 60 "$work/o0.json"
"$GPUSSIM_CLI" merge "$work/c1.json" "$work/c0.json" -o "$work/merged.json" 2>"$work/err" ||
    { cat "$work/err" >&2; fail "merging the chunks given out of order failed"; }
grep -q "info: merge: $work/c1.json (first frame at 1.800000 s) was given before $work/c0.json" "$work/err" ||
    { cat "$work/err" >&2; fail "no note of the order"; }
python3 - "$work/whole.json" "$work/merged.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert len(a["frames"]) == 90 and a["frames"] == b["frames"], "frames differ"
assert a["pooled_metrics"] == b["pooled_metrics"] and a["pool_state"] == b["pool_state"], "pools differ"
PY
note "ok: chunks 45..89, 0..44 given in that order: sorted by timestamp, merged == the whole run (90 frames)"
set +e
"$GPUSSIM_CLI" merge "$work/o0.json" "$work/c1.json" -o "$work/x.json" 2>"$work/err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "cannot merge: chunk $work/c1.json starts at 1.800000 s but $work/o0.json ends at 2.360000 s: the chunks overlap (frames 0..14 of" "$work/err" ||
    { cat "$work/err" >&2; fail "overlapping chunks (60 + 45 frames): exit $rc"; }
[ ! -e "$work/x.json" ] || fail "a merge was written for overlapping chunks"
note "ok: overlapping chunks refused: $(sed 's/^gpussim: error: //' "$work/err" | cut -c1-150)..."
chunk 50 90 "$work/g1.json"
set +e
"$GPUSSIM_CLI" merge "$work/c0.json" "$work/g1.json" -o "$work/x.json" 2>"$work/err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "a gap of 0.240000 s where the widest step between two frames of a chunk is 0.040000 s (about 5 frames are in no chunk)" "$work/err" ||
    { cat "$work/err" >&2; fail "chunks with a gap: exit $rc"; }
note "ok: a gap (frames 45..49 in no chunk) refused"
note PASS
