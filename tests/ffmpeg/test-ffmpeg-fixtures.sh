#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The built ffmpeg scores the fixture frames (rawvideo input, 8/10/12/16 bit)
# on the CPU backend. Asserts, exactly (==):
#   - per-frame metadata (metadata=print) == libvmaf's expected JSON, every key
#     (float_ssim + l/c/s, float_ms_ssim + 15 per-scale terms, float_ansnr,
#     float_anpsnr, ssim);
#   - the filter's JSON log == the metadata, and == the gpussim CLI's JSON on
#     the same files (when the CLI is built);
#   - the CSV log == the metadata;
#   - ffprobe -show_frames shows the same tags;
#   - the INFO summary line for each metric, its statistics == the log's
#     pooled_metrics (to the 6 digits printed);
#   - the identity pair (reference against itself) == expected_8bit_identity.json.
NEED_FIXTURES=yes
. "$(dirname "$0")/common.sh"

for bpc in 8 10 12 16; do
    case $bpc in 8) pf=yuv420p ;; *) pf=yuv420p${bpc}le ;; esac
    ref=$FIX/src01_hrc00_576x324_3f.$pf.yuv
    dis=$FIX/src01_hrc01_576x324_3f.$pf.yuv
    raw="-f rawvideo -pixel_format $pf -video_size 576x324 -framerate 25"
    ff $raw -i "$dis" $raw -i "$ref" \
        -lavfi "[0:v][1:v]gpussim=backend=cpu:lcs=1:log_path=$work/log$bpc.json:pool=mean+harmonic_mean+min+max,metadata=print:file=$work/meta$bpc.txt" \
        -f null - 2> "$work/err$bpc"
    $COMPARE "meta:$work/meta$bpc.txt" "expected:$FIX/expected_${bpc}bit.json" --allow-extra
    $COMPARE "log:$work/log$bpc.json" "meta:$work/meta$bpc.txt"
    $COMPARE "logcheck:$work/log$bpc.json"
    for m in float_ssim float_ms_ssim float_ansnr float_anpsnr ssim; do
        grep -Eq "gpussim $m: mean [0-9.]+ harmonic_mean [0-9.]+ min [0-9.]+ max [0-9.]+ frames 3, backend cpu, fps [0-9.]+" "$work/err$bpc" ||
            { cat "$work/err$bpc" >&2; fail "$bpc bit: no summary line for $m"; }
    done
    # the summary's statistics are the log's pooled values (the filter pools
    # through the log while it writes one)
    python3 - "$work/log$bpc.json" "$work/err$bpc" <<'PY' || fail "$bpc bit: the summary differs from the log's pooled_metrics"
import json, re, sys
log = json.load(open(sys.argv[1]))
err = open(sys.argv[2]).read()
for m in ('float_ssim', 'float_ms_ssim', 'float_ansnr', 'float_anpsnr', 'ssim'):
    p = log['pooled_metrics'][m]
    got = re.search(r'gpussim %s: mean (\S+) harmonic_mean (\S+) min (\S+) max (\S+)' % m, err)
    want = ['%.6f' % p[k] for k in ('mean', 'harmonic_mean', 'min', 'max')]
    if not got or list(got.groups()) != want:
        sys.exit('%s: summary %s, log %s' % (m, got and got.groups(), want))
PY
    if have_oracle; then
        score_oracle "$ref" "$dis" 576 324 420 $bpc luma "$work/oracle$bpc.json"
        printf '%s: ' "$(oracle_name)"
        $COMPARE "log:$work/log$bpc.json" "log:$work/oracle$bpc.json"
    fi
done
have_oracle || note "neither the gpussim CLI nor score_raw is built: comparison with the library not run"
grep "gpussim float_ms_ssim:" "$work/err8" | sed 's/^\[[^]]*\] *//'

# CSV log: same numbers
pf=yuv420p
raw="-f rawvideo -pixel_format $pf -video_size 576x324 -framerate 25"
ff $raw -i "$FIX/src01_hrc01_576x324_3f.$pf.yuv" $raw -i "$FIX/src01_hrc00_576x324_3f.$pf.yuv" \
    -lavfi "gpussim=backend=cpu:feature=float_ssim|ms_ssim:log_fmt=csv:log_path=$work/log.csv,metadata=print:file=$work/meta-csv.txt" \
    -f null - 2> "$work/err-csv"
$COMPARE "csv:$work/log.csv" "meta:$work/meta-csv.txt"
$COMPARE "meta:$work/meta-csv.txt" "expected:$FIX/expected_8bit.json" --keys float_ssim,float_ms_ssim

# identity pair
ff $raw -i "$FIX/src01_hrc00_576x324_3f.$pf.yuv" $raw -i "$FIX/src01_hrc00_576x324_3f.$pf.yuv" \
    -lavfi "gpussim=backend=cpu:lcs=1,metadata=print:file=$work/meta-id.txt" -f null - 2> "$work/err-id"
$COMPARE "meta:$work/meta-id.txt" "expected:$FIX/expected_8bit_identity.json" --allow-extra

# ffprobe -show_frames through a lavfi graph (y4m copies of the raw frames)
ff $raw -i "$FIX/src01_hrc01_576x324_3f.$pf.yuv" -c:v wrapped_avframe -f yuv4mpegpipe "$work/dis.y4m" 2> /dev/null
ff $raw -i "$FIX/src01_hrc00_576x324_3f.$pf.yuv" -c:v wrapped_avframe -f yuv4mpegpipe "$work/ref.y4m" 2> /dev/null
"$FFPROBE" -v error -f lavfi -i "movie=$work/dis.y4m[d];movie=$work/ref.y4m[r];[d][r]gpussim=backend=cpu" \
    -show_frames -show_entries frame=pts:frame_tags -of json > "$work/probe.json"
$COMPARE "probe:$work/probe.json" "expected:$FIX/expected_8bit.json" \
    --keys float_ssim,float_ms_ssim,float_ansnr,float_anpsnr,ssim
note "PASS"
