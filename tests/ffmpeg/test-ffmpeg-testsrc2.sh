#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# FATE-style: testsrc2 -> split -> distortion (blur + seeded noise) -> gpussim
# -> metadata=print, in every layout and depth the filter maps, compared to
# the gpussim CLI (or, without it, the library called directly by
# tests/ffmpeg/score_raw; without either, to the filter's planar run) on the very
# same frames, which the same graph dumps as raw planar video. Asserts every
# value (all metrics, lcs terms, planes=all chroma keys) is exactly equal.
# Semi-planar layouts (NV12, P010...) are scored from a lossless repack of
# the planar frames, so they must give the planar numbers bit for bit.
. "$(dirname "$0")/common.sh"

W=704 H=576
# layout  planar-equivalent  CLI -p  CLI -b
cases="
yuv420p     yuv420p      420 8
yuv422p     yuv422p      422 8
yuv444p     yuv444p      444 8
gray        gray         400 8
yuv420p10le yuv420p10le  420 10
yuv422p12le yuv422p12le  422 12
yuv444p16le yuv444p16le  444 16
yuv420p16le yuv420p16le  420 16
yuv422p10le yuv422p10le  422 10
yuv444p10le yuv444p10le  444 10
gray10le    gray10le     400 10
gray16le    gray16le     400 16
nv12        yuv420p      420 8
nv21        yuv420p      420 8
nv16        yuv422p      422 8
nv24        yuv444p      444 8
p010le      yuv420p10le  420 10
p016le      yuv420p16le  420 16
p210le      yuv422p10le  422 10
p410le      yuv444p10le  444 10
"

echo "$cases" | while read -r pf planar cp cb; do
    [ -n "$pf" ] || continue
    if ! "$FFMPEG" -hide_banner -pix_fmts 2>/dev/null | grep -q " $pf "; then
        note "$pf: not in this FFmpeg, skipped"
        continue
    fi
    meta=$work/meta-$pf.txt
    planes=all
    [ "$cp" != 400 ] || planes=luma # gray has no chroma: planes=all is refused there
    ff -f lavfi -i "testsrc2=s=${W}x$H:r=25:d=0.2" -filter_complex "
        [0:v]split[a][b];
        [b]gblur=sigma=1.2,noise=alls=10:allf=t:all_seed=4242[bd];
        [a]format=$planar,split[r1][r2];
        [bd]format=$planar,split[d1][d2];
        [r1]format=$pf[rs];
        [d1]format=$pf[ds];
        [ds][rs]gpussim=backend=cpu:lcs=1:planes=$planes,metadata=print:file=$meta[out]" \
        -map '[out]' -f null - \
        -map '[r2]' -c:v rawvideo -f rawvideo "$work/ref-$pf.raw" \
        -map '[d2]' -c:v rawvideo -f rawvideo "$work/dis-$pf.raw" 2> "$work/err-$pf" ||
        { cat "$work/err-$pf" >&2; fail "$pf: ffmpeg failed"; }
    [ "$(grep -c '^frame:' "$meta")" = 5 ] || fail "$pf: expected 5 frames of metadata"
    if have_oracle; then
        score_oracle "$work/ref-$pf.raw" "$work/dis-$pf.raw" $W $H $cp $cb $planes "$work/oracle-$pf.json"
        printf '%s vs %s: ' "$pf" "$(oracle_name)"
        $COMPARE "meta:$meta" "log:$work/oracle-$pf.json"
    elif [ "$pf" != "$planar" ]; then
        printf '%s: ' "$pf"
        $COMPARE "meta:$meta" "meta:$work/meta-$planar.txt"
    fi
done
have_oracle || note "neither the gpussim CLI nor score_raw is built: semi-planar layouts compared to the planar runs only"
note "PASS"
