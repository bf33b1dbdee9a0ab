#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# framesync's options with a reference shorter than the distorted input
# (10 distorted frames, 5 reference frames). Asserts the number of output
# frames and of scored frames (metadata and log), and that the pipelined
# frames keep their order and timestamps:
#   default (repeatlast=1, eof_action=repeat): 10 out, 10 scored
#   shortest=1:                                 5 out,  5 scored
#   eof_action=pass:                           10 out,  5 scored
#   eof_action=endall:                          5 out,  5 scored
# and the warning at the end that counts the distorted frames scored against
# the reference's repeated last frame (default: 5; the others: none); a
# reference at half the frame rate over the same time repeats no frame past
# its end, so it gets no warning.
. "$(dirname "$0")/common.sh"

src="testsrc2=s=352x288:r=25:d=0.4"
run() { # name options expected-out expected-scored expected-repeated
    ff -f lavfi -i "$src" -lavfi "[0:v]split[a][b];[b]trim=end_frame=5,gblur=sigma=1[r];[a][r]gpussim=backend=cpu:feature=float_ssim:log_path=$work/$1.json$2,showinfo,metadata=print:file=$work/$1.txt" \
        -f null - 2> "$work/$1.err" || { cat "$work/$1.err" >&2; fail "$1: ffmpeg failed"; }
    out=$(grep -c 'Parsed_showinfo.*n: *[0-9]* pts:' "$work/$1.err")
    scored=$(grep -c '^lavfi.gpussim.float_ssim=' "$work/$1.txt")
    logged=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['frames']))" "$work/$1.json")
    pts=$(grep -o 'Parsed_showinfo.*n: *[0-9]* pts: *[0-9]*' "$work/$1.err" | sed 's/.*pts: *//' | tr '\n' ' ')
    [ "$out" = "$3" ] && [ "$scored" = "$4" ] && [ "$logged" = "$4" ] ||
        fail "$1: $out frames out (want $3), $scored with metadata and $logged in the log (want $4)"
    expect_pts=$(seq 0 $(($3 - 1)) | tr '\n' ' ')
    [ "$pts" = "$expect_pts" ] || fail "$1: output pts '$pts', want '$expect_pts'"
    if [ "$5" = 0 ]; then
        ! grep -q "repeated last frame" "$work/$1.err" || fail "$1: warns of repeated reference frames"
    else
        grep -q "\] $5 distorted frame(s) were scored against the reference's repeated last frame.*use shortest=1 or eof_action=endall" \
            "$work/$1.err" || { grep -i repeat "$work/$1.err" >&2; fail "$1: no warning counting $5 repeated reference frames"; }
    fi
    note "ok: $1: $out frames out in order, $scored scored, $5 against a repeated reference frame"
}
run default "" 10 10 5
run shortest ":shortest=1" 5 5 0
run pass ":eof_action=pass" 10 5 0
run endall ":eof_action=endall" 5 5 0

# a reference at half the frame rate over the same time: its frames serve two
# distorted frames each, none past its end (no warning); over half the time
# (1 s of 2 s at 50 fps): the 50 distorted frames after its end are counted
for c in "half:25:2:0" "halfshort:25:1:50"; do
    IFS=: read -r name rate dur want <<EOC
$c
EOC
    ff -f lavfi -i "testsrc2=s=176x144:r=50:d=2" -f lavfi -i "testsrc2=s=176x144:r=$rate:d=$dur" \
        -lavfi "[0:v][1:v]gpussim=backend=cpu:feature=float_ssim" -f null - 2> "$work/$name.err" ||
        { cat "$work/$name.err" >&2; fail "$name: ffmpeg failed"; }
    got=$(sed -n 's/.*\] \([0-9]*\) distorted frame(s) were scored against the reference.s repeated last frame.*/\1/p' "$work/$name.err")
    [ "${got:-0}" = "$want" ] || fail "$name: ${got:-no} repeated reference frames reported, want $want"
    note "ok: reference at $rate fps for $dur s against 2 s at 50 fps: $want repeated frame(s) reported"
done
note "PASS"
