#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Pairing across frame rates (align=start: the nearest reference frame on
# each input's own timeline, ties to the earlier one). A 25 fps input is made
# of a 50 fps one's even frames (select, timestamps kept), so exact values
# (1.0 for identical frames) tell which frames were paired:
#   50 fps distorted, 25 fps reference: frame 2k and 2k+1 against reference
#     frame k (2k is identical: float_ssim 1; 2k+1 is not)
#   25 fps distorted, 50 fps reference: frame k against reference frame 2k (all 1)
#   a 25 fps reference over half the time of a 50 fps distorted input: the
#     output ends with the reference, 50 frames, with a warning naming both
#     counts
# and that the pipelined frames leave in order with their own timestamps.
. "$(dirname "$0")/common.sh"

run() { # NAME DIS_FILTER REF_FILTER EXPECT_OUT
    name=$1
    ff -f lavfi -i "testsrc2=s=176x144:r=50:d=2" -lavfi \
        "[0:v]split[a][b];[a]$2[d];[b]$3[r];[d][r]gpussim=backend=cpu:feature=float_ssim:log_path=$work/$name.json,showinfo" \
        -f null - 2> "$work/$name.err" || { cat "$work/$name.err" >&2; fail "$name: ffmpeg failed"; }
    pts=$(grep -o 'Parsed_showinfo.*n: *[0-9]* pts: *[0-9]*' "$work/$name.err" | sed 's/.*pts: *//' | tr '\n' ' ')
    [ "$pts" = "$5" ] || fail "$name: output pts '$pts', want '$5'"
    [ "$(echo "$pts" | wc -w)" = "$4" ] || fail "$name: $(echo "$pts" | wc -w) frames out, want $4"
}
even="select='not(mod(n\\,2))'"
values() { python3 -c "
import json, sys
print(' '.join('1' if f['metrics']['float_ssim'] == 1.0 else 'x' for f in json.load(open(sys.argv[1]))['frames']))" "$1"; }

run dis50-ref25 null "$even" 100 "$(seq 0 99 | tr '\n' ' ')"
want=$(python3 -c "print(' '.join('1' if i % 2 == 0 else 'x' for i in range(100)))")
[ "$(values "$work/dis50-ref25.json")" = "$want" ] || fail "dis50-ref25: frames 2k+1 not paired with reference frame k"
! grep -q 'ended after\|unscored\|repeated' "$work/dis50-ref25.err" || fail "dis50-ref25: unexpected warning"
note "ok: 50 fps against 25 fps: 100 frames, 2k and 2k+1 against reference frame k"

run dis25-ref50 "$even" null 50 "$(seq 0 2 98 | tr '\n' ' ')"
want=$(python3 -c "print(' '.join('1' for i in range(50)))")
[ "$(values "$work/dis25-ref50.json")" = "$want" ] || fail "dis25-ref50: frame k not paired with reference frame 2k"
! grep -q 'ended after\|unscored\|repeated' "$work/dis25-ref50.err" || fail "dis25-ref50: unexpected warning"
note "ok: 25 fps against 50 fps: 50 frames, each against reference frame 2k"

run halfshort null "$even,trim=end=1" 50 "$(seq 0 49 | tr '\n' ' ')"
grep -q '\] the reference ended after 25 frames, the distorted input has more; scored 50' "$work/halfshort.err" ||
    { cat "$work/halfshort.err" >&2; fail "halfshort: no warning with both counts"; }
note "ok: a 25 fps reference over 1 s of 2 s at 50 fps: 50 frames scored, warned"
note "PASS"
