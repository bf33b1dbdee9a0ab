#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Bad input gets a clear message and a failing exit status, never a crash or
# a silent 0; and the log file stays complete when the input ends early.
. "$(dirname "$0")/common.sh"

src="testsrc2=s=352x288:r=25:d=0.2"
small="testsrc2=s=160x120:r=25:d=0.2"

# sizes differ
expect_failure "the distorted input is 320x240 but the reference is 352x288.*scale=352:288" \
    -f lavfi -i "$src" -lavfi "[0:v]split[a][b];[a]scale=320:240[d];[d][b]gpussim" -f null -
# pixel formats differ (no silent conversion of one input)
expect_failure "the distorted input is yuv420p10le but the reference is yuv420p.*same pixel format" \
    -f lavfi -i "$src" -lavfi "[0:v]split[a][b];[a]format=yuv420p10le[d];[b]format=yuv420p[r];[d][r]gpussim" -f null -
# MS-SSIM asked for explicitly on frames smaller than its 176x176 minimum
expect_failure "176" -f lavfi -i "$small" -lavfi "[0:v]split[a][b];[a][b]gpussim=feature=ms_ssim" -f null -
# a backend this build or machine does not have
expect_failure "built without the cuda backend|cuda backend has no usable device" \
    -f lavfi -i "$src" -lavfi "[0:v]split[a][b];[a][b]gpussim=backend=cuda" -f null -
# unknown feature name
expect_failure "unknown feature 'vmaf'" -f lavfi -i "$src" \
    -lavfi "[0:v]split[a][b];[a][b]gpussim=feature=float_ssim|vmaf" -f null -
# log file that cannot be written: refused before any frame is scored
expect_failure "cannot write log file '/nonexistent/dir/log.json'" -f lavfi -i "$src" \
    -lavfi "[0:v]split[a][b];[a][b]gpussim=log_path=/nonexistent/dir/log.json" -f null -

# a log that cannot be written while scoring (disk full): a failing exit, not a silent loss
if [ -w /dev/full ]; then
    expect_failure "cannot write log file '/dev/full'" -f lavfi -i "testsrc2=s=352x288:r=25:d=2" \
        -lavfi "[0:v]split[a][b];[a][b]gpussim=backend=cpu:lcs=1:log_path=/dev/full" -f null -
fi

# default features on a small frame: MS-SSIM is left out with a warning, the rest is scored
ff -f lavfi -i "$small" -lavfi "[0:v]split[a][b];[a][b]gpussim=backend=cpu,metadata=print:file=$work/small.txt" \
    -f null - 2> "$work/err-small"
grep -q "160x120 is below MS-SSIM's minimum of 176x176" "$work/err-small" || fail "no warning for the dropped MS-SSIM"
grep -q "lavfi.gpussim.float_ssim=1$" "$work/small.txt" || fail "identical inputs do not give float_ssim=1"
! grep -q "float_ms_ssim" "$work/small.txt" || fail "float_ms_ssim reported below 176x176"
note "ok: default features at 160x120 score without float_ms_ssim"

# The filter and the gpussim tool follow the library's one rule: at 100x100
# without a feature list, the same warning and the same scores; planes=all
# on gray, the same refusal.
tiny="testsrc2=s=100x100:r=25:d=0.2"
ff -f lavfi -i "$tiny" -lavfi "[0:v]split[a][b];[b]gblur=sigma=1[bd];[bd][a]gpussim=backend=cpu:log_path=$work/tiny-filter.json" \
    -f null - 2> "$work/err-tiny"
left_out="the frame size 100x100 is below MS-SSIM's minimum of 176x176: float_ms_ssim is not computed (left out of the default features; naming the feature makes this an error)"
grep -q -F "$left_out" "$work/err-tiny" || { cat "$work/err-tiny" >&2; fail "filter: no warning for the dropped MS-SSIM at 100x100"; }
if have_cli; then
    ff -f lavfi -i "$tiny" -strict -1 -f yuv4mpegpipe "$work/tiny-ref.y4m" 2> /dev/null
    ff -f lavfi -i "$tiny" -vf gblur=sigma=1 -strict -1 -f yuv4mpegpipe "$work/tiny-dis.y4m" 2> /dev/null
    "$GPUSSIM_CLI" -r "$work/tiny-ref.y4m" -d "$work/tiny-dis.y4m" --backend cpu -o "$work/tiny-cli.json" 2> "$work/err-tiny-cli" ||
        fail "the gpussim tool failed at 100x100 without --feature"
    grep -q -F "gpussim: warning: $left_out" "$work/err-tiny-cli" || { cat "$work/err-tiny-cli" >&2; fail "CLI: no warning"; }
    python3 - "$work/tiny-filter.json" "$work/tiny-cli.json" <<'PY'
import json, sys
f, c = (json.load(open(p)) for p in sys.argv[1:])
keys = list(f["frames"][0]["metrics"])
assert keys == ["float_ssim", "float_ansnr", "float_anpsnr", "ssim"], keys
assert [x["metrics"] for x in f["frames"]] == [x["metrics"] for x in c["frames"]], "the scores differ"
assert f["pooled_metrics"] == c["pooled_metrics"], "the pooled scores differ"
assert f["config"]["features"] == c["config"]["features"], (f["config"]["features"], c["config"]["features"])
assert all("timestamp" in x for x in f["frames"]) and f["frames"][1]["timestamp"] == 0.04, f["frames"][1]
print("test-ffmpeg-errors: filter == CLI at 100x100, default features: %d frames of %s" % (len(f["frames"]), ", ".join(keys)))
PY
fi
# The filter's logs of chunks (here trim; -ss/-frames:v alike) merge with
# `gpussim merge` into the whole run's log: frames, timestamps, pools.
if have_cli; then
    chunk() { ff -f lavfi -i "testsrc2=s=192x192:r=25:d=1" \
        -lavfi "[0:v]${1}split[a][b];[b]gblur=sigma=1.5[bd];[bd][a]gpussim=backend=cpu:log_path=$2" -f null - 2> /dev/null; }
    chunk "" "$work/fwhole.json"
    chunk "trim=end_frame=10," "$work/f0.json"
    chunk "trim=start_frame=10," "$work/f1.json"
    "$GPUSSIM_CLI" merge "$work/f0.json" "$work/f1.json" -o "$work/fmerged.json" || fail "merging the filter's chunk logs failed"
    python3 - "$work/fwhole.json" "$work/fmerged.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["frames"] == b["frames"], "frames differ"
assert a["pooled_metrics"] == b["pooled_metrics"] and a["pool_state"] == b["pool_state"], "pools differ"
print("test-ffmpeg-errors: filter chunks of 10 + 15 frames merged == the whole run (%d frames, timestamps included)" % len(a["frames"]))
PY
fi

gray_refusal="planes=all needs chroma planes; the format is gray"
expect_failure "$gray_refusal" -f lavfi -i "$src" \
    -lavfi "[0:v]format=gray,split[a][b];[a][b]gpussim=backend=cpu:planes=all" -f null -
if have_cli; then
    ff -f lavfi -i "$src" -vf format=gray -strict -1 -f yuv4mpegpipe "$work/gray.y4m" 2> /dev/null
    set +e
    "$GPUSSIM_CLI" -r "$work/gray.y4m" -d "$work/gray.y4m" --planes all > "$work/gray.json" 2> "$work/err-gray"
    rc=$?
    set -e
    [ $rc = 2 ] && grep -q -F "$gray_refusal" "$work/err-gray" ||
        { cat "$work/err-gray" >&2; fail "CLI: planes=all on gray not refused the same way (exit $rc)"; }
    note "ok: planes=all on gray refused by the filter and the CLI: $gray_refusal"
fi

# The output stops early (-frames:v 3 of 50): the log is valid JSON with every
# frame the library scored, their values equal to a complete run's.
long="testsrc2=s=352x288:r=25:d=2"
chain="[0:v]split[a][b];[b]gblur=sigma=2[bd];[a][bd]gpussim=backend=cpu"
ff -f lavfi -i "$long" -lavfi "$chain:log_path=$work/full.json" -f null - 2> /dev/null
ff -f lavfi -i "$long" -lavfi "$chain:log_path=$work/early.json" -frames:v 3 -f null - 2> /dev/null
$COMPARE "logcheck:$work/early.json"

# An error in the middle of the stream (the reference changes size at its
# 3rd frame) stops ffmpeg with a message naming the frame and saying that the
# size changed mid-stream; the log is valid JSON with exactly the frames
# before it (their number is the frame number in the message), equal to a
# complete run's.
expect_failure "reference frame [0-9]+ is 320x288, but earlier frames were 352x288: sizes changed mid-stream" -f lavfi -i "$long" \
    -lavfi "[0:v]split[a][b];[b]gblur=sigma=2,scale=w='if(gte(n\,3)\,320\,352)':h=288:eval=frame[bd];[a][bd]gpussim=backend=cpu:log_path=$work/mid.json" \
    -f null -
mid_n=$(sed -n 's/.*reference frame \([0-9]*\) is 320x288.*/\1/p' "$work/err" | head -n 1)
$COMPARE "logcheck:$work/mid.json"
python3 - "$work/early.json" "$work/mid.json" "$work/full.json" "$mid_n" <<'PY'
import json, sys
early, mid, full = (json.load(open(p))["frames"] for p in sys.argv[1:4])
mid_n = int(sys.argv[4])
assert 3 <= len(early) < len(full) == 50, (len(early), len(full))
assert early == full[:len(early)], "early-stop log differs from the full run"
print(f"early stop: log has {len(early)} of {len(full)} frames, equal to the full run's")
assert 2 <= mid_n <= 3 and len(mid) == mid_n, (mid_n, len(mid))
assert mid == full[:len(mid)], "log before the error differs from the full run"
print(f"error at frame {mid_n}: log has the {len(mid)} frames scored before it, equal to the full run's")
PY

# A decoded input that changes size (an MPEG-2 stream of 320x240 frames, then
# 256x192 ones): ffmpeg rebuilds the filter graph on such a change unless
# -reinit_filter 0; with it the filter sees the change, names the frame, and
# the log holds every frame before it.
ff -loglevel error -f lavfi -i "testsrc2=s=320x240:r=25:d=1" -c:v mpeg2video -q:v 2 -f mpegts "$work/a.ts"
ff -loglevel error -f lavfi -i "testsrc2=s=256x192:r=25:d=0.4" -c:v mpeg2video -q:v 2 -output_ts_offset 1 \
    -f mpegts "$work/b.ts"
cat "$work/a.ts" "$work/b.ts" > "$work/dis.ts"
ff -loglevel error -f lavfi -i "testsrc2=s=320x240:r=25:d=2" -pix_fmt yuv420p "$work/ref.y4m"
expect_failure "distorted frame [0-9]+ is 256x192, but earlier frames were 320x240: sizes changed mid-stream" \
    -reinit_filter 0 -i "$work/dis.ts" -i "$work/ref.y4m" \
    -lavfi "[0:v][1:v]gpussim=backend=cpu:feature=float_ssim:log_path=$work/dec.json" -f null -
dec_n=$(sed -n 's/.*distorted frame \([0-9]*\) is 256x192.*/\1/p' "$work/err" | head -n 1)
$COMPARE "logcheck:$work/dec.json"
python3 - "$work/dec.json" "$dec_n" <<'PY'
import json, sys
frames = json.load(open(sys.argv[1]))["frames"]
n = int(sys.argv[2])
# 25 frames of 320x240; the MPEG-2 decoder may hold back the last one at the splice
assert 24 <= n <= 25 and len(frames) == n, (n, len(frames))
assert [f["frameNum"] for f in frames] == list(range(n))
print(f"decoded size change at frame {n}: log has the {n} frames before it")
PY
note "PASS"
