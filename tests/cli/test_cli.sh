#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# End-to-end tests of the gpussim command line tool.
#
# Scores the libvmaf fixtures through the CLI (raw and y4m, every bit depth,
# gray/4:2:2/4:4:4 relayouts, stdin, CSV) and asserts every printed value is
# exactly libvmaf's; checks pooling against python's math.fsum; and checks
# each error path: message on stderr, non-zero exit without a crash, and the
# frames scored before the error present in valid JSON.
#
# Environment (set by `make check`): GPUSSIM_CLI = the built tool,
# GPUSSIM_FIXTURES = the fixtures folder (default tests/fixtures). Fails
# without the fixtures; exits 77 (skip) without python3.

. "$(dirname "$0")/../lib/common.sh"
FIX=$FIXTURES/src01_576x324_3f

need_fixtures
need_tool python3 "to parse the JSON output"
need_cli

make_tmp cli
CHECK="python3 $HERE/cli_check.py"

W=576
H=324
FS8=$((W * H * 3 / 2))   # bytes of one 8-bit 4:2:0 frame
FS16=$((FS8 * 2))        # ... of one 10/12/16-bit frame
MSKEYS=float_ms_ssim
for t in l c s; do for s in 0 1 2 3 4; do MSKEYS="$MSKEYS,float_ms_ssim_${t}_scale$s"; done; done
FEATS="--feature float_ssim=enable_lcs=true --feature float_ms_ssim=enable_lcs=true --feature float_ansnr --feature ssim"

pixfmt() { case $1 in 8) echo yuv420p ;; *) echo "yuv420p${1}le" ;; esac; }
ref() { echo "$FIX/src01_hrc00_576x324_3f.$(pixfmt "$1").yuv"; }
dis() { echo "$FIX/src01_hrc01_576x324_3f.$(pixfmt "$1").yuv"; }
bps() { if [ "$1" = 8 ]; then echo 1; else echo 2; fi; }

# run_cli ARGS...: runs the CLI, stdout in $TMP/out, stderr in $TMP/err, status in $rc
run_cli() {
    "$CLI" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
}

# expect_ok NAME CHECK-ARGS...: the last run exited 0 and the check holds
expect_ok() {
    name=$1
    shift
    if [ "$rc" -ne 0 ]; then
        failed "$name: exit status $rc"
        sed 's/^/    stderr: /' "$TMP/err"
        return
    fi
    if $CHECK "$@"; then pass "$name"; else failed "$name"; fi
}

# expect_error NAME STATUS MESSAGE: the last run exited with STATUS (1: after
# scoring began, 2: setup; 0 for a warning) — never a signal — and stderr
# holds MESSAGE
expect_error() {
    if [ "$rc" -ne "$2" ]; then
        failed "$1: exit status $rc, expected $2"
        sed 's/^/    stderr: /' "$TMP/err"
        return 1
    fi
    if ! grep -F -q -- "$3" "$TMP/err"; then
        failed "$1: stderr lacks '$3'"
        sed 's/^/    stderr: /' "$TMP/err"
        return 1
    fi
    printf '    stderr: %s\n' "$(grep -F -- "$3" "$TMP/err" | head -n 1)"
    return 0
}

# setup errors write nothing to the output
expect_setup_error() {
    if expect_error "$1" 2 "$2"; then
        if [ -s "$TMP/out" ]; then failed "$1: output written on a setup error"; else pass "$1"; fi
    fi
}

# errors after scoring began still write the frames before them
expect_partial() {
    name=$1
    shift
    if expect_error "$name" 1 "$1"; then
        shift
        if $CHECK "$@"; then pass "$name"; else failed "$name"; fi
    fi
}

# expect_warned NAME MESSAGE CHECK-ARGS...: the last run exited 0 with MESSAGE
# (a warning) on stderr, and the check holds
expect_warned() {
    name=$1
    shift
    if expect_error "$name" 0 "$1"; then
        shift
        if $CHECK "$@"; then pass "$name"; else failed "$name"; fi
    fi
}

# ---- libvmaf values through raw input, every bit depth ----------------------
for b in 8 10 12 16; do
    run_cli -r "$(ref $b)" -d "$(dis $b)" -w $W -h $H -p 420 -b $b $FEATS
    expect_ok "raw ${b}-bit: all 23 keys == libvmaf" expect "$TMP/out" "$FIX/expected_${b}bit.json"
done
run_cli -r "$(ref 8)" -d "$(ref 8)" -w $W -h $H -p 420 -b 8 $FEATS
expect_ok "raw 8-bit identity == libvmaf" expect "$TMP/out" "$FIX/expected_8bit_identity.json"

# ---- the same through y4m, header fields in varied order and forms -----------
$CHECK y4m "$(ref 8)" "$TMP/ref8.y4m" $W $H 420 1 "YUV4MPEG2 W576 H324 F25:1 Ip A1:1 C420jpeg XYSCSS=420JPEG"
$CHECK y4m "$(dis 8)" "$TMP/dis8.y4m" $W $H 420 1 "YUV4MPEG2 H324 W576 C420mpeg2 F25:1"
$CHECK y4m "$(ref 10)" "$TMP/ref10.y4m" $W $H 420 2 "YUV4MPEG2 C420p10 XYSCSS=420P10 H324 W576 Ip F30000:1001 A0:0" "FRAME Ip"
$CHECK y4m "$(dis 10)" "$TMP/dis10.y4m" $W $H 420 2 "YUV4MPEG2 W576 H324 C420p10" "FRAME"
$CHECK y4m "$(ref 12)" "$TMP/ref12.y4m" $W $H 420 2 "YUV4MPEG2 W576 H324 C420p12"
$CHECK y4m "$(dis 12)" "$TMP/dis12.y4m" $W $H 420 2 "YUV4MPEG2 W576 H324 C420p12 I?" "FRAME XTAG=1"
$CHECK y4m "$(ref 16)" "$TMP/ref16.y4m" $W $H 420 2 "YUV4MPEG2 C420p16 W576 H324 F24:1"
$CHECK y4m "$(dis 16)" "$TMP/dis16.y4m" $W $H 420 2 "YUV4MPEG2 W576 C420p16 H324 A1:1 Ip"
for b in 8 10 12 16; do
    run_cli -r "$TMP/ref$b.y4m" -d "$TMP/dis$b.y4m" $FEATS
    expect_ok "y4m ${b}-bit: all 23 keys == libvmaf" expect "$TMP/out" "$FIX/expected_${b}bit.json"
done
# no C field: 4:2:0 8-bit by definition
$CHECK y4m "$(ref 8)" "$TMP/ref8_noc.y4m" $W $H 420 1 "YUV4MPEG2 W576 H324"
run_cli -r "$TMP/ref8_noc.y4m" -d "$TMP/dis8.y4m" $FEATS
expect_ok "y4m without C field (420jpeg 8-bit default)" expect "$TMP/out" "$FIX/expected_8bit.json"
# a raw input takes its format from the y4m one
run_cli -r "$TMP/ref10.y4m" -d "$(dis 10)" $FEATS
expect_ok "y4m ref + raw dis (format from the y4m header)" expect "$TMP/out" "$FIX/expected_10bit.json"
# stdin, and a y4m named .yuv (detected by its signature)
cp "$TMP/dis12.y4m" "$TMP/dis12_y4m.yuv"
"$CLI" -r - -d "$TMP/dis12_y4m.yuv" $FEATS <"$TMP/ref12.y4m" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_ok "y4m from stdin + y4m content named .yuv" expect "$TMP/out" "$FIX/expected_12bit.json"

# ---- other layouts: luma scores must not move -------------------------------
$CHECK relayout "$(ref 8)" "$TMP/ref8_gray.yuv" $W $H 1 400
$CHECK relayout "$(dis 8)" "$TMP/dis8_gray.yuv" $W $H 1 400
run_cli -r "$TMP/ref8_gray.yuv" -d "$TMP/dis8_gray.yuv" -w $W -h $H -p 400 -b 8 $FEATS
expect_ok "raw gray (-p 400) 8-bit == libvmaf" expect "$TMP/out" "$FIX/expected_8bit.json"
for b in 10 16; do
    $CHECK relayout "$(ref $b)" "$TMP/ref${b}_gray.yuv" $W $H 2 400
    $CHECK relayout "$(dis $b)" "$TMP/dis${b}_gray.yuv" $W $H 2 400
    $CHECK y4m "$TMP/ref${b}_gray.yuv" "$TMP/ref${b}_mono.y4m" $W $H 400 2 "YUV4MPEG2 W576 H324 Cmono$b"
    $CHECK y4m "$TMP/dis${b}_gray.yuv" "$TMP/dis${b}_mono.y4m" $W $H 400 2 "YUV4MPEG2 W576 H324 Cmono$b"
    run_cli -r "$TMP/ref${b}_mono.y4m" -d "$TMP/dis${b}_mono.y4m" $FEATS
    expect_ok "y4m Cmono$b == libvmaf" expect "$TMP/out" "$FIX/expected_${b}bit.json"
done
$CHECK relayout "$(ref 10)" "$TMP/ref10_444.yuv" $W $H 2 444
$CHECK relayout "$(dis 10)" "$TMP/dis10_444.yuv" $W $H 2 444
run_cli -r "$TMP/ref10_444.yuv" -d "$TMP/dis10_444.yuv" -w $W -h $H -p 444 -b 10 $FEATS
expect_ok "raw 4:4:4 10-bit == libvmaf" expect "$TMP/out" "$FIX/expected_10bit.json"
$CHECK relayout "$(ref 12)" "$TMP/ref12_422.yuv" $W $H 2 422
$CHECK relayout "$(dis 12)" "$TMP/dis12_422.yuv" $W $H 2 422
$CHECK y4m "$TMP/ref12_422.yuv" "$TMP/ref12_422.y4m" $W $H 422 2 "YUV4MPEG2 W576 H324 C422p12"
$CHECK y4m "$TMP/dis12_422.yuv" "$TMP/dis12_422.y4m" $W $H 422 2 "YUV4MPEG2 W576 H324 C422p12"
run_cli -r "$TMP/ref12_422.y4m" -d "$TMP/dis12_422.y4m" $FEATS
expect_ok "y4m C422p12 == libvmaf" expect "$TMP/out" "$FIX/expected_12bit.json"
$CHECK relayout "$(ref 8)" "$TMP/ref8_444.yuv" $W $H 1 444
$CHECK relayout "$(dis 8)" "$TMP/dis8_444.yuv" $W $H 1 444
$CHECK y4m "$TMP/ref8_444.yuv" "$TMP/ref8_444.y4m" $W $H 444 1 "YUV4MPEG2 W576 H324 C444"
$CHECK y4m "$TMP/dis8_444.yuv" "$TMP/dis8_444.y4m" $W $H 444 1 "YUV4MPEG2 W576 H324 C444"
run_cli -r "$TMP/ref8_444.y4m" -d "$TMP/dis8_444.y4m" $FEATS
expect_ok "y4m C444 8-bit == libvmaf" expect "$TMP/out" "$FIX/expected_8bit.json"

# ---- a longer run: more frames than the library keeps in flight (-EAGAIN path),
# per-feature dB and lcs options in one context, one worker thread
for i in 1 2 3 4 5 6 7 8 9 10; do cat "$(ref 8)"; done >"$TMP/ref8_30f.yuv"
for i in 1 2 3 4 5 6 7 8 9 10; do cat "$(dis 8)"; done >"$TMP/dis8_30f.yuv"
run_cli -r "$TMP/ref8_30f.yuv" -d "$TMP/dis8_30f.yuv" -w $W -h $H -p 420 -b 8 --threads 1 $FEATS
expect_ok "30 frames, --threads 1: every frame == libvmaf" expect "$TMP/out" "$FIX/expected_8bit.json" 30
run_cli -r "$TMP/ref8_30f.yuv" -d "$TMP/dis8_30f.yuv" -w $W -h $H -p 420 -b 8 --threads 1 \
    --feature float_ssim=enable_lcs=true:enable_db=true --feature float_ms_ssim=enable_lcs=true --feature float_ansnr
expect_ok "30 frames, per-feature options: float_ms_ssim/ansnr == libvmaf" values "$TMP/out" "$FIX/expected_8bit.json" 30 "$MSKEYS,float_ansnr,float_anpsnr,float_ssim_l,float_ssim_c,float_ssim_s"

# ---- which keys each feature prints --------------------------------------------
R8="-r $(ref 8) -d $(dis 8) -w $W -h $H -p 420 -b 8"
run_cli $R8
expect_ok "no --feature: all metrics, no lcs keys" keys "$TMP/out" float_ssim,float_ms_ssim,float_ansnr,float_anpsnr,ssim
run_cli $R8 --feature float_ssim=enable_lcs=true --feature float_ms_ssim
expect_ok "float_ssim lcs + plain float_ms_ssim: no per-scale keys" keys "$TMP/out" float_ssim,float_ssim_l,float_ssim_c,float_ssim_s,float_ms_ssim
expect_ok "  ... values == libvmaf" expect "$TMP/out" "$FIX/expected_8bit.json" all float_ssim,float_ssim_l,float_ssim_c,float_ssim_s,float_ms_ssim
run_cli $R8 --feature ms_ssim=enable_lcs=1 --feature ssim
expect_ok "ms_ssim alias with lcs + ssim: no float_ssim keys" keys "$TMP/out" "$MSKEYS,ssim"
expect_ok "  ... values == libvmaf" expect "$TMP/out" "$FIX/expected_8bit.json" all "$MSKEYS,ssim"
run_cli $R8 --feature ansnr
expect_ok "ansnr alias: float_ansnr + float_anpsnr" expect "$TMP/out" "$FIX/expected_8bit.json" all float_ansnr,float_anpsnr
run_cli $R8 --feature all --feature float_ssim=enable_lcs=true
expect_ok "all + float_ssim options" keys "$TMP/out" float_ssim,float_ssim_l,float_ssim_c,float_ssim_s,float_ms_ssim,float_ansnr,float_anpsnr,ssim
run_cli $R8 --feature float_ssim=scale=1:enable_lcs=false
expect_ok "float_ssim scale=1 (auto is 1 at 576x324)" expect "$TMP/out" "$FIX/expected_8bit.json" all float_ssim

# ---- dB options ---------------------------------------------------------------
run_cli $R8 --feature float_ssim=enable_db=true
expect_ok "float_ssim enable_db" db "$TMP/out" "$FIX/expected_8bit.json" float_ssim noclip $W $H 8
run_cli $R8 --feature float_ms_ssim=enable_db=true:clip_db=true
expect_ok "float_ms_ssim enable_db clip_db" db "$TMP/out" "$FIX/expected_8bit.json" float_ms_ssim clip $W $H 8
run_cli -r "$(ref 10)" -d "$(ref 10)" -w $W -h $H -p 420 -b 10 --feature float_ssim=enable_db=true:clip_db=true
expect_ok "identity 10-bit clip_db: finite ceiling" db "$TMP/out" "$FIX/expected_8bit_identity.json" float_ssim clip $W $H 10
run_cli -r "$(ref 8)" -d "$(ref 8)" -w $W -h $H -p 420 -b 8 --feature float_ssim=enable_db=true
expect_ok "identity without clip_db: infinite dB printed as null" db "$TMP/out" "$FIX/expected_8bit_identity.json" float_ssim noclip $W $H 8
# different dB options per feature: one context, float_ms_ssim with its own options
run_cli $R8 --feature float_ssim=enable_db=true --feature float_ms_ssim=enable_lcs=true --feature ssim
expect_ok "float_ssim in dB, float_ms_ssim plain (per-feature options, one context)" db "$TMP/out" "$FIX/expected_8bit.json" float_ssim noclip $W $H 8
expect_ok "  ... float_ms_ssim, its scales and ssim == libvmaf" values "$TMP/out" "$FIX/expected_8bit.json" all "$MSKEYS,ssim"
expect_ok "  ... keys in libvmaf's order" keys "$TMP/out" "float_ssim,$MSKEYS,ssim"

# ---- CSV, -o, --planes all -------------------------------------------------------
run_cli $R8 $FEATS
cp "$TMP/out" "$TMP/ref8.json"
run_cli $R8 $FEATS --csv -o "$TMP/out.csv"
if [ "$rc" -eq 0 ] && [ ! -s "$TMP/out" ]; then
    expect_ok "CSV (-o file) == JSON values, 17 digits" csv "$TMP/out.csv" "$TMP/ref8.json"
else
    failed "CSV -o: exit $rc or data on stdout"
fi
run_cli $R8 $FEATS -q -o "$TMP/out.json"
expect_ok "-o file JSON == libvmaf" expect "$TMP/out.json" "$FIX/expected_8bit.json"
if [ -s "$TMP/err" ] || [ -s "$TMP/out" ]; then failed "-q -o: stderr or stdout not empty"; else pass "-q -o: nothing on stdout/stderr"; fi
run_cli $R8 --feature float_ssim --feature float_ansnr --feature ssim --planes all
expect_ok "--planes all: luma == libvmaf, .u/.v present" same_luma "$TMP/out" "$FIX/expected_8bit.json" float_ssim,float_ansnr,float_anpsnr,ssim
cp "$TMP/out" "$TMP/planes_all.json"
for p in 1 2; do
    sfx=$([ $p = 1 ] && echo .u || echo .v)
    $CHECK plane "$(ref 8)" "$TMP/ref8_p$p.yuv" $W $H 1 $p
    $CHECK plane "$(dis 8)" "$TMP/dis8_p$p.yuv" $W $H 1 $p
    run_cli -r "$TMP/ref8_p$p.yuv" -d "$TMP/dis8_p$p.yuv" -w $((W / 2)) -h $((H / 2)) -p 400 -b 8 --feature float_ssim --feature float_ansnr --feature ssim
    expect_ok "--planes all: $sfx == that plane scored alone as gray" suffix_equal "$TMP/planes_all.json" "$TMP/out" $sfx float_ssim,float_ansnr,float_anpsnr,ssim
done
# raw input from stdin
"$CLI" -r "$(ref 8)" -d - -w $W -h $H -p 420 -b 8 $FEATS <"$(dis 8)" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_ok "raw distorted from stdin == libvmaf" expect "$TMP/out" "$FIX/expected_8bit.json"
# stderr is not a terminal here: no progress line (the table is there:
# tests/cli/test_cli_terminal.sh)
run_cli $R8 $FEATS
if grep -q "$(printf '\r')\|^gpussim: frame " "$TMP/err"; then failed "progress printed to a non-terminal stderr"; else pass "no progress on a non-terminal stderr"; fi

# ---- errors after scoring began: frames before the error are written -----------
head -c $((2 * FS8 + FS8 / 2)) "$(ref 8)" >"$TMP/ref8_trunc.yuv"
run_cli -r "$TMP/ref8_trunc.yuv" -d "$(dis 8)" -w $W -h $H -p 420 -b 8 $FEATS
expect_partial "raw reference with a partial last frame" "truncated" expect "$TMP/out" "$FIX/expected_8bit.json" 2
head -c $((2 * FS16 + 7)) "$(dis 16)" >"$TMP/dis16_trunc.yuv"
run_cli -r "$(ref 16)" -d "$TMP/dis16_trunc.yuv" -w $W -h $H -p 420 -b 16 $FEATS -o "$TMP/trunc.json"
expect_partial "raw 16-bit distorted truncated (-o file)" "truncated" expect "$TMP/trunc.json" "$FIX/expected_16bit.json" 2
Y4M10=$(wc -c <"$TMP/dis10.y4m")
head -c $((Y4M10 - 1000)) "$TMP/dis10.y4m" >"$TMP/dis10_trunc.y4m"
run_cli -r "$TMP/ref10.y4m" -d "$TMP/dis10_trunc.y4m" $FEATS
expect_partial "y4m distorted with a partial last frame" "truncated" expect "$TMP/out" "$FIX/expected_10bit.json" 2
# a FRAME marker cut in half
head -c $((Y4M10 - 2 * (FS16 + 6) + 3)) "$TMP/dis10.y4m" >"$TMP/dis10_cutmark.y4m"
run_cli -r "$TMP/ref10.y4m" -d "$TMP/dis10_cutmark.y4m" $FEATS
expect_partial "y4m ending inside a FRAME header" "inside a FRAME header" expect "$TMP/out" "$FIX/expected_10bit.json" 1
head -c $((2 * FS8)) "$(dis 8)" >"$TMP/dis8_2f.yuv"
run_cli -r "$(ref 8)" -d "$TMP/dis8_2f.yuv" -w $W -h $H -p 420 -b 8 $FEATS
expect_warned "distorted has fewer frames: warned, exit 0" "gpussim: warning: the distorted input $TMP/dis8_2f.yuv ended after 2 frames while the reference" expect "$TMP/out" "$FIX/expected_8bit.json" 2
head -c $((1 * FS8)) "$(ref 8)" >"$TMP/ref8_1f.yuv"
run_cli -r "$TMP/ref8_1f.yuv" -d "$(dis 8)" -w $W -h $H -p 420 -b 8 $FEATS
expect_warned "reference has fewer frames: warned, exit 0" "gpussim: warning: the reference $TMP/ref8_1f.yuv ended after 1 frame while the distorted input $(dis 8) has more (3 frames); scored 1" expect "$TMP/out" "$FIX/expected_8bit.json" 1
{ printf 'YUV4MPEG2 W576 H324 C420jpeg\nFRAME\n'; head -c $FS8 "$(dis 8)"; printf 'FRAMX\n'; head -c $FS8 "$(dis 8)"; } >"$TMP/dis8_badframe.y4m"
run_cli -r "$TMP/ref8.y4m" -d "$TMP/dis8_badframe.y4m" $FEATS
expect_partial "corrupt second FRAME header" "expected a y4m FRAME header" expect "$TMP/out" "$FIX/expected_8bit.json" 1
: >"$TMP/empty.yuv"
run_cli -r "$TMP/empty.yuv" -d "$TMP/empty.yuv" -w $W -h $H -p 420 -b 8
expect_setup_error "empty inputs: no frame to score, exit 2, nothing written" "no frame to score: the inputs hold no frames"

# ---- setup errors: clear message, exit 2, nothing written --------------------------
bad_y4m() { # NAME HEADER MESSAGE
    { printf '%s\nFRAME\n' "$2"; head -c $FS8 "$(ref 8)"; } >"$TMP/bad.y4m"
    run_cli -r "$TMP/bad.y4m" -d "$TMP/dis8.y4m"
    expect_setup_error "$1" "$3"
}
bad_y4m "y4m without H" "YUV4MPEG2 W576 C420jpeg" "no H (height) field"
bad_y4m "y4m interlaced (It)" "YUV4MPEG2 W576 H324 It C420jpeg" "interlaced y4m (It) is not supported"
bad_y4m "y4m mixed interlacing (Im)" "YUV4MPEG2 W576 H324 Im" "interlaced y4m (Im) is not supported"
bad_y4m "y4m C411" "YUV4MPEG2 W576 H324 C411" "colorspace C411 is not supported"
bad_y4m "y4m C444alpha" "YUV4MPEG2 W576 H324 C444alpha" "alpha plane"
bad_y4m "y4m C420p9" "YUV4MPEG2 W576 H324 C420p9" "unsupported bit depth 9"
bad_y4m "y4m Cmono14" "YUV4MPEG2 W576 H324 Cmono14" "unsupported bit depth 14"
bad_y4m "y4m bad width" "YUV4MPEG2 Wabc H324" "bad y4m width 'abc'"
printf 'YUV4MPEG W576 H324\n' >"$TMP/nosig.y4m"
run_cli -r "$TMP/nosig.y4m" -d "$TMP/dis8.y4m"
expect_setup_error "y4m name without signature" "not a YUV4MPEG2 file"
run_cli -r "$(ref 8)" -d "$(dis 8)" -p 420 -b 8
expect_setup_error "raw without -w/-h" "missing: -w -h"
run_cli -r "$(ref 8)" -d "$(dis 8)" -w $W -h $H
expect_setup_error "raw without -p/-b" "missing: -p -b"
run_cli -r "$(ref 8)" -d "$(dis 8)" -w $W -h $H -p 420 -b 9
expect_setup_error "raw -b 9" "unsupported bit depth '9'"
run_cli -r "$TMP/ref8.y4m" -d "$TMP/dis10.y4m"
expect_setup_error "y4m 8-bit vs 10-bit" "reference $TMP/ref8.y4m is 576x324 4:2:0 8-bit, distorted $TMP/dis10.y4m is 576x324 4:2:0 10-bit"
run_cli -r "$TMP/ref8.y4m" -d "$TMP/dis8.y4m" -w 576 -h 320
expect_setup_error "y4m header vs -h" "contradicts -w/-h/-p/-b"
head -c $((100 * 100 * 3 / 2 * 2)) "$(ref 8)" >"$TMP/small.yuv"
run_cli -r "$TMP/small.yuv" -d "$TMP/small.yuv" -w 100 -h 100 -p 420 -b 8 --feature float_ms_ssim
expect_setup_error "100x100 MS-SSIM (library refuses)" "MS-SSIM needs at least 176x176"
run_cli -r "$TMP/small.yuv" -d "$TMP/small.yuv" -w 10 -h 10 -p 420 -b 8 --feature float_ssim
expect_setup_error "10x10 float_ssim (library refuses)" "smaller than the 11x11 window"
head -c $((352 * 200 * 3 / 2 * 2)) "$(ref 8)" >"$TMP/352x200.yuv"
run_cli -r "$TMP/352x200.yuv" -d "$TMP/352x200.yuv" -w 352 -h 200 -p 420 -b 8 --planes all --feature float_ms_ssim
expect_setup_error "--planes all: 176x100 chroma too small for MS-SSIM" "the U plane is 176x100"
run_cli -r "$TMP/ref8_gray.yuv" -d "$TMP/dis8_gray.yuv" -w $W -h $H -p 400 -b 8 --planes all
expect_setup_error "--planes all on gray" "needs chroma planes"
run_cli $R8 --feature psnr
expect_setup_error "unknown feature" "unknown feature 'psnr'"
run_cli $R8 --feature float_ssim=enable_lcs=maybe
expect_setup_error "bad option value" "enable_lcs must be true, false, 1 or 0"
run_cli $R8 --feature float_ansnr=enable_lcs=true
expect_setup_error "option the feature lacks" "unknown option 'enable_lcs'"
run_cli $R8 --feature float_ssim=scale=11
expect_setup_error "float_ssim scale out of range" "scale must be 0 to 10"
run_cli $R8 --feature float_ssim --feature float_ssim=enable_lcs=true
expect_setup_error "one feature with two option sets" "given twice with different options"
run_cli $R8 --backend opencl
expect_setup_error "unknown backend" "unknown backend 'opencl'"
run_cli -r "$TMP/does-not-exist.yuv" -d "$(dis 8)" -w $W -h $H -p 420 -b 8
expect_setup_error "missing input file" "cannot open"
run_cli -d "$(dis 8)" -w $W -h $H -p 420 -b 8
expect_setup_error "no -r" "both -r REF and -d DIS are required"

# ---- reliability: output opened first, streamed, signals ---------------------------
# an unwritable -o is a setup error found before any frame is read (this
# input would fail with "truncated" at frame 2 if scoring had begun)
run_cli -r "$TMP/ref8_trunc.yuv" -d "$(dis 8)" -w $W -h $H -p 420 -b 8 -o /nonexistent/dir/x.json
if expect_setup_error "-o in a missing directory: exit 2 before any work" \
    "cannot write log file '/nonexistent/dir/x.json': No such file or directory"; then
    if grep -q "truncated input" "$TMP/err"; then failed "  ... frames were read before -o was opened"; else pass "  ... no frame read"; fi
fi
# the raw size check warns at the start, naming the frame that will be cut
run_cli -r "$TMP/ref8_trunc.yuv" -d "$(dis 8)" -w $W -h $H -p 420 -b 8 $FEATS
expect_partial "raw size not a whole number of frames: warned up front" \
    "$TMP/ref8_trunc.yuv: its 699840 bytes are not a whole number of 279936-byte frames (576x324 4:2:0 8-bit): frame 2 will be truncated (139968 bytes); are -w/-h/-p/-b right?" \
    expect "$TMP/out" "$FIX/expected_8bit.json" 2

# a stop signal on a running CLI: endless inputs through FIFOs; once the file
# holds frames, the signal; the file is then complete and the status 128+N
stop_test() { # NAME SIGNAL STATUS MODE [CLI-ARGS]
    name=$1 sig=$2 want=$3 mode=$4
    shift 4
    rm -f "$TMP/rf" "$TMP/df" "$TMP/sig.out"
    mkfifo "$TMP/rf" "$TMP/df" || { failed "$name: mkfifo"; return; }
    $CHECK repeat "$(ref 8)" >"$TMP/rf" 2>/dev/null &
    g1=$!
    $CHECK repeat "$(dis 8)" >"$TMP/df" 2>/dev/null &
    g2=$!
    "$CLI" -r "$TMP/rf" -d "$TMP/df" -w $W -h $H -p 420 -b 8 --threads 1 $FEATS -o "$TMP/sig.out" "$@" 2>"$TMP/err" &
    pid=$!
    i=0
    # at least 3 frames written: JSON "frameNum" keys, or CSV lines after the header
    needle=frameNum
    [ "$mode" = csv ] && needle='
'
    until $CHECK count "$TMP/sig.out" "$needle" 4 2>/dev/null || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
    kill -s "$sig" $pid
    wait $pid
    rc=$?
    kill $g1 $g2 2>/dev/null
    wait $g1 $g2 2>/dev/null
    if [ "$rc" -ne "$want" ]; then
        failed "$name: exit status $rc, expected $want"
        sed 's/^/    stderr: /' "$TMP/err"
        return
    fi
    if [ "$mode" = csv ]; then
        if python3 - "$TMP/sig.out" "$FIX/expected_8bit.json" <<'PYEOF'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
exp = json.load(open(sys.argv[2]))["frames"]
assert rows[0][:2] == ["Frame", "timestamp"] and len(rows) > 1, "no rows"
frames = [r for r in rows[1:] if r[0].isdigit()]
# the log was closed: the pooled rows follow the frames
assert [r[0] for r in rows[1 + len(frames):]] == ["min", "max", "mean", "harmonic_mean"], rows[-1][0]
for i, row in enumerate(frames):
    assert int(row[0]) == i, row[0]
    for k, cell in zip(rows[0][2:], row[2:]):
        assert float(cell) == exp[i % len(exp)][k], (i, k, cell)
print("    %d CSV rows equal libvmaf, then the pooled rows" % len(frames))
PYEOF
        then pass "$name"; else failed "$name"; fi
        return
    fi
    if $CHECK prefix "$TMP/sig.out" "$FIX/expected_8bit.json" "$mode" >"$TMP/prefix"; then
        sed -n 's/^    /    /p' "$TMP/prefix"
        n=$(sed -n 's/^FRAMES=//p' "$TMP/prefix")
        if [ "$mode" = killed ] || grep -q -F "stopped by SIG$sig after $n frames; the output is complete for them" "$TMP/err"; then
            pass "$name"
        else
            failed "$name: stderr lacks 'stopped by SIG$sig after $n frames'"
            sed 's/^/    stderr: /' "$TMP/err"
        fi
    else
        failed "$name"
    fi
}
if command -v mkfifo >/dev/null 2>&1; then
    stop_test "SIGINT: exit 130, complete JSON of the frames scored" INT 130 complete
    stop_test "SIGTERM: exit 143, complete JSON of the frames scored" TERM 143 complete
    stop_test "SIGKILL: the cut-off JSON repaired as docs/cli.md says holds the frames" KILL 137 killed
    stop_test "SIGTERM with --csv: every row written equals libvmaf" TERM 143 csv --csv
else
    echo "SKIP: signal tests (no mkfifo)"
fi

# ---- default features: what the frame size allows ------------------------------
run_cli -r "$TMP/small.yuv" -d "$TMP/small.yuv" -w 100 -h 100 -p 420 -b 8
expect_ok "100x100, no --feature: MS-SSIM left out" keys "$TMP/out" float_ssim,float_ansnr,float_anpsnr,ssim
if grep -q -F "gpussim: warning: the frame size 100x100 is below MS-SSIM's minimum of 176x176: float_ms_ssim is not computed (left out of the default features; naming the feature makes this an error)" "$TMP/err"; then
    pass "  ... with a warning naming it and why"
else
    failed "  ... warning missing"; sed 's/^/    stderr: /' "$TMP/err"
fi
cp "$TMP/out" "$TMP/small_default.json"
run_cli -r "$TMP/small.yuv" -d "$TMP/small.yuv" -w 100 -h 100 -p 420 -b 8 --feature float_ssim --feature ansnr --feature ssim
expect_ok "  ... values == the same features named" same "$TMP/small_default.json" "$TMP/out"
run_cli -r "$TMP/small.yuv" -d "$TMP/small.yuv" -w 100 -h 100 -p 420 -b 8 --feature all
expect_setup_error "100x100 --feature all: still an error" "MS-SSIM needs at least 176x176"
run_cli -r "$TMP/352x200.yuv" -d "$TMP/352x200.yuv" -w 352 -h 200 -p 420 -b 8 --planes all
expect_ok "352x200 --planes all, no --feature: MS-SSIM left out for the chroma size" keys "$TMP/out" float_ssim,float_ansnr,float_anpsnr,ssim,float_ssim.u,float_ansnr.u,float_anpsnr.u,ssim.u,float_ssim.v,float_ansnr.v,float_anpsnr.v,ssim.v
if grep -q -F "the chroma plane size (planes=all) 176x100 is below MS-SSIM's minimum of 176x176" "$TMP/err"; then pass "  ... warned"; else failed "  ... no warning"; fi
head -c $((8 * 8 * 3 / 2)) "$(ref 8)" >"$TMP/8x8.yuv"
run_cli -r "$TMP/8x8.yuv" -d "$TMP/8x8.yuv" -w 8 -h 8 -p 420 -b 8
expect_ok "8x8, no --feature: only what fits (float_ansnr, ssim)" keys "$TMP/out" float_ansnr,float_anpsnr,ssim
if grep -q -F "the frame size 8x8 is below float_ssim's 11x11 window of 11x11: float_ssim is not computed" "$TMP/err"; then pass "  ... float_ssim left out with a warning"; else failed "  ... no float_ssim warning"; sed 's/^/    stderr: /' "$TMP/err"; fi

# ---- NaN scores: libvmaf's arithmetic, kept; warned and counted -------------------
$CHECK noise "$TMP/noise_r.y4m" 176 176 6 1
$CHECK noise "$TMP/noise_d.y4m" 176 176 6 2
run_cli -r "$TMP/noise_r.y4m" -d "$TMP/noise_d.y4m" --feature float_ms_ssim --feature float_ssim
expect_ok "176x176 noise: float_ms_ssim NaN on 5 frames, pooled over the 6th" nan "$TMP/out" float_ms_ssim 0,1,2,3,4 6
if grep -q -F "gpussim: warning: float_ms_ssim is NaN (not a number) on 5 of 6 frames (frames 0, 1, 2, 3, 4): those frames are left out of its pooled statistics (pooled_metrics_frames_left_out)" "$TMP/err"; then
    pass "  ... warning with the count and the frames"
else
    failed "  ... warning missing"; sed 's/^/    stderr: /' "$TMP/err"
fi

# ---- samples above the bit depth: refused, never a silently different number ------
cp "$(ref 10)" "$TMP/ref10_hot.yuv"
$CHECK poke16 "$TMP/ref10_hot.yuv" $((FS16 + (2 * W + 5) * 2)) 1024
run_cli -r "$TMP/ref10_hot.yuv" -d "$(dis 10)" -w $W -h $H -p 420 -b 10 $FEATS
expect_partial "10-bit sample 1024 in frame 1: refused, frame 0 kept" \
    "$TMP/ref10_hot.yuv: frame 1: 1 sample(s) above the 10-bit maximum 1023 (the first: 1024 in plane Y at x=5 y=2): this is not 10-bit little-endian video" \
    expect "$TMP/out" "$FIX/expected_10bit.json" 1
$CHECK y4m "$(dis 12)" "$TMP/dis12_hot.y4m" $W $H 420 2 "YUV4MPEG2 W576 H324 C420p12"
# frame 0's U plane, x=3 y=1 (after the header line and "FRAME\n")
hdr=$(( $(head -n 1 "$TMP/dis12_hot.y4m" | wc -c) + 6 ))
$CHECK poke16 "$TMP/dis12_hot.y4m" $((hdr + W * H * 2 + (W / 2 + 3) * 2)) 4103
$CHECK poke16 "$TMP/dis12_hot.y4m" $((hdr + W * H * 2 + (W / 2 + 4) * 2)) 65535
run_cli -r "$TMP/ref12.y4m" -d "$TMP/dis12_hot.y4m" $FEATS
expect_setup_error "12-bit y4m, two samples above 4095 in U: refused at frame 0 (nothing scored: exit 2)" \
    "$TMP/dis12_hot.y4m: frame 0: 2 sample(s) above the 12-bit maximum 4095 (the first: 4103 in plane U at x=3 y=1)"

# ---- compressed input: say what gpussim reads, show the FFmpeg line ----------------
# (a gpussim built with FFmpeg's libraries decodes such files: these broken
# ones are then refused with FFmpeg's reason; tests/cli/test_cli_any.sh scores
# real ones)
printf '\000\000\000\040ftypisom\000\000\002\000isomiso2avc1mp41' >"$TMP/dis.mp4"
run_cli -r "$TMP/ref8.y4m" -d "$TMP/dis.mp4"
if "$CLI" --version | grep -q 'decoding with FFmpeg'; then
    expect_setup_error "MP4 header alone, FFmpeg's libraries built in: refused with their reason" \
        "$TMP/dis.mp4 is compressed video (MP4/QuickTime): FFmpeg's libraries cannot read it: Invalid data found"
    head -c 5000 "$(ref 8)" >"$TMP/ref.mkv"
    run_cli -r "$TMP/ref.mkv" -d "$TMP/dis.mp4" -w $W -h $H -p 420 -b 8
    expect_setup_error "raw data named .mkv: refused with FFmpeg's reason" \
        "$TMP/ref.mkv is compressed video (Matroska): FFmpeg's libraries cannot read it"
elif expect_setup_error "MP4 input: refused with advice" \
    "$TMP/dis.mp4 is compressed video (MP4/QuickTime): gpussim reads only YUV4MPEG2 (.y4m) and raw planar YUV."; then
    if grep -q -x -F "    ffmpeg -i $TMP/dis.mp4 -strict -1 -f yuv4mpegpipe - | gpussim -r $TMP/ref8.y4m -d -" "$TMP/err"; then
        pass "  ... with the ffmpeg | gpussim line"
    else failed "  ... no ffmpeg line"; sed 's/^/    stderr: /' "$TMP/err"; fi
    if grep -q -x -F "gpussim reads such files itself when built with FFmpeg's libraries: run 'make ffmpeg' in the build folder (gpussim --version says which it has)" "$TMP/err"; then
        pass "  ... and how to make gpussim read it"
    else failed "  ... no make ffmpeg line"; fi
    head -c 5000 "$(ref 8)" >"$TMP/ref.mkv"
    run_cli -r "$TMP/ref.mkv" -d "$TMP/dis.mp4" -w $W -h $H -p 420 -b 8
    if expect_setup_error "two compressed inputs (.mkv by name, MP4 by content)" "$TMP/ref.mkv is compressed video (Matroska)"; then
        if grep -q -x -F "    ffmpeg -i $TMP/dis.mp4 -strict -1 -f yuv4mpegpipe - | gpussim -r ref.y4m -d -" "$TMP/err"; then
            pass "  ... converting one to a file, piping the other"
        else failed "  ... wrong advice"; sed 's/^/    stderr: /' "$TMP/err"; fi
    fi
fi

# ---- device, one stream twice, CR LF, control bytes ------------------------------
run_cli $R8 --backend cpu --device 7
expect_setup_error "--backend cpu --device 7: refused" "--device 7: the cpu backend has no devices"
run_cli $R8 --device 1000 --feature float_ssim
expect_ok "--device 1000 on auto: scored (on the CPU)" expect "$TMP/out" "$FIX/expected_8bit.json" all float_ssim
if grep -q -F "gpussim: warning: --device 1000 is ignored: no GPU backend could use it, so the frames are scored on the cpu backend" "$TMP/err"; then
    pass "  ... with a warning"
else failed "  ... no warning"; sed 's/^/    stderr: /' "$TMP/err"; fi
cat "$TMP/ref8.y4m" | "$CLI" -r - -d /dev/stdin >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_setup_error "-r - -d /dev/stdin on a pipe: one stream twice" \
    "the reference (stdin) and the distorted input (/dev/stdin) are the same stream (a pipe or device): only one input can be read from stdin or a pipe"
"$CLI" -r - -d /dev/stdin --feature float_ssim <"$TMP/ref8.y4m" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_ok "-r - -d /dev/stdin on a regular file: two opens, identity" expect "$TMP/out" "$FIX/expected_8bit_identity.json" all float_ssim
{ printf 'YUV4MPEG2 W576 H324 C420jpeg\r\nFRAME\r\n'; head -c $FS8 "$(ref 8)"; } >"$TMP/crlf.y4m"
run_cli -r "$TMP/crlf.y4m" -d "$TMP/dis8.y4m"
expect_setup_error "CR LF y4m header: named visibly" \
    "$TMP/crlf.y4m: the y4m header line ends with CR LF (\\r\\n), not LF: the file went through a text-mode (DOS line ending) conversion"
{ printf 'YUV4MPEG2 W576 H324 C420jpeg\nFRAME\n'; head -c $FS8 "$(dis 8)"; printf 'FRAME\r\n'; head -c $FS8 "$(dis 8)"; } >"$TMP/crlf_frame.y4m"
run_cli -r "$TMP/ref8.y4m" -d "$TMP/crlf_frame.y4m" $FEATS
expect_partial "CR LF FRAME header at frame 1" "$TMP/crlf_frame.y4m: frame 1: the FRAME header ends with CR LF (\\r\\n)" \
    expect "$TMP/out" "$FIX/expected_8bit.json" 1
{ printf 'YUV4MPEG2 W576 H324 C420jpeg\nFRAME\n'; head -c $FS8 "$(dis 8)"; printf 'FRAM\001\377\033[31mRED\n'; } >"$TMP/binframe.y4m"
run_cli -r "$TMP/ref8.y4m" -d "$TMP/binframe.y4m" $FEATS
expect_partial "binary bytes in a FRAME line: escaped" \
    "$TMP/binframe.y4m: frame 1: expected a y4m FRAME header, found 'FRAM\\x01\\xff\\x1b[31mRED'" \
    expect "$TMP/out" "$FIX/expected_8bit.json" 1
if $CHECK printable "$TMP/err"; then pass "  ... no raw control byte reaches the terminal"; else failed "  ... raw bytes in stderr"; fi
{ printf 'YUV4MPEG2 W576 H324 X\033]0;title\007 C420jpeg\n'; } >"$TMP/binhdr.y4m"
run_cli -r "$TMP/binhdr.y4m" -d "$TMP/dis8.y4m"
expect_setup_error "control bytes in a y4m header: escaped" \
    "$TMP/binhdr.y4m: the y4m header holds a control byte 0x1b at offset 21: 'W576 H324 X\\x1b]0;title\\x07 C420jpeg'"

# ---- a size change mid-stream (concatenated y4m): the frame where it happens -----
{ cat "$TMP/ref8.y4m"; printf 'YUV4MPEG2 W352 H288 C420jpeg\nFRAME\n'; head -c $((352 * 288 * 3 / 2)) "$(ref 8)"; } >"$TMP/concat.y4m"
{ cat "$TMP/dis8.y4m"; tail -c $((FS8 + 6)) "$TMP/dis8.y4m"; } >"$TMP/dis8_4f.y4m"
run_cli -r "$TMP/concat.y4m" -d "$TMP/dis8_4f.y4m" $FEATS
expect_partial "concatenated y4m with a size change at frame 3" \
    "$TMP/concat.y4m: frame 3: a new y4m stream header ('YUV4MPEG2 W352 H288 C420jpeg') where a FRAME header was expected: concatenated y4m streams (a format or size change mid-stream) are not supported; the stream so far is 576x324 4:2:0 8-bit" \
    expect "$TMP/out" "$FIX/expected_8bit.json" 3
run_cli -r "$(ref 8)" -d "$TMP/dis8_2f.yuv" -w $W -h $H -p 420 -b 8 $FEATS
expect_warned "raw inputs of different lengths: both counts named, warned, exit 0" \
    "gpussim: warning: the distorted input $TMP/dis8_2f.yuv ended after 2 frames while the reference $(ref 8) has more (3 frames); scored 2" \
    expect "$TMP/out" "$FIX/expected_8bit.json" 2
run_cli -r "$(ref 8)" -d "$TMP/dis8_2f.yuv" -w $W -h $H -p 420 -b 8 $FEATS --strict-length
expect_partial "raw inputs of different lengths, --strict-length: an error, exit 1, the frames kept" \
    "gpussim: error: the distorted input $TMP/dis8_2f.yuv ended after 2 frames while the reference $(ref 8) has more (3 frames); scored 2" \
    expect "$TMP/out" "$FIX/expected_8bit.json" 2

# ---- a ladder: -d repeated ------------------------------------------------------------
RAW8="-w $W -h $H -p 420 -b 8"
run_cli -r "$(ref 8)" -d "$(dis 8)" $RAW8 $FEATS -o "$TMP/pair.json"
run_cli -r "$(ref 8)" -d "$(dis 8)" -d "$(ref 8)" $RAW8 $FEATS -o "$TMP/ladder.json"
if [ "$rc" -eq 0 ] && python3 - "$TMP/pair.json" "$TMP/ladder.json" <<'EOF2'
import json, sys
pair, lad = (json.load(open(p)) for p in sys.argv[1:3])
r = lad["renditions"]
assert len(r) == 2 and lad["config"]["renditions"] == 2, "not a 2-rendition log"
for key in ("frames", "pooled_metrics", "pool_state"):
    assert r[0][key] == pair[key], "rendition 0's %s differ from the pair run" % key
assert all(f["metrics"]["float_ssim"] == 1 for f in r[1]["frames"]), "the identity rendition is not 1"
print("    rendition 0 == the pair run (%d frames), rendition 1 (the reference itself) float_ssim 1" % len(r[0]["frames"]))
EOF2
then pass "ladder: -d DIS -d REF: rendition 0 == the pair run, rendition 1 identity"; else failed "ladder log"; fi
run_cli -r "$(ref 8)" -d "$(dis 8)" -d "$TMP/dis8_2f.yuv" $RAW8 $FEATS
if expect_error "ladder: a rendition shorter than the reference" 0 \
    "gpussim: warning: rendition 1 ($TMP/dis8_2f.yuv) ended after 2 frames while the reference $(ref 8) has more (3 frames); scored 2"; then
    if python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["renditions"]; sys.exit(not (len(r) == 2 and all(len(x["frames"]) == 2 for x in r)))' "$TMP/out"; then
        pass "ladder: a rendition shorter than the reference (the 2 frames before it written for both renditions)"
    else
        failed "ladder: the partial log does not hold 2 frames per rendition"
    fi
fi
run_cli -r "$(ref 8)" -d "$(dis 8)" -d - $RAW8 -d - </dev/null
expect_setup_error "ladder: two distorted inputs from stdin" "only one input can be read from stdin"
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do set -- "$@" -d "$(dis 8)"; done
run_cli -r "$(ref 8)" "$@" $RAW8
expect_setup_error "ladder: 17 distorted inputs" "-d: at most 16 distorted inputs per reference"

summary
