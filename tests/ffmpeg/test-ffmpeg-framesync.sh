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
. "$(dirname "$0")/common.sh"

src="testsrc2=s=352x288:r=25:d=0.4"
run() { # name options expected-out expected-scored
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
    note "ok: $1: $out frames out in order, $scored scored"
}
run default "" 10 10
run shortest ":shortest=1" 5 5
run pass ":eof_action=pass" 10 5
run endall ":eof_action=endall" 5 5
note "PASS"
