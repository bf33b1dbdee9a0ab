#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# The filter's logs in every format a tool reads, on one clip scored once per
# format (the CPU backend: every run gives the same bits):
# - log_path=x.csv without log_fmt writes CSV: every frame row (with its
#   timestamp) and every pooled row equal the JSON log's values;
# - log_path=x.xml writes libvmaf's XML layout, which python's xml.etree
#   parses, every frame's values and the pooled values equal the JSON's;
#   log_fmt=xml is accepted (log_path=x.log) and writes the same XML;
# - pool=mean+p5+median: the JSON's pooled_metrics carry median and p5, equal
#   to the percentiles of the pool state (decoded from its compact form) and
#   to the summary's; the compact pool_state decodes to the frames' values;
# - a ladder with names=a|b|c: the summary, the JSON's sections, the CSV's
#   name column, the XML's rendition names and `gpussim plot`'s legend name
#   the inputs; names= with the wrong count or an empty name is refused.
. "$(dirname "$0")/common.sh"

CHECK="python3 $here/../cli/log_formats_check.py"
src="testsrc2=s=176x176:r=25:d=0.8"
ff -loglevel error -f lavfi -i "$src" -pix_fmt yuv420p "$work/ref.y4m" ||
    fail "could not make the reference clip"
for k in 0 1 2; do
    ff -loglevel error -i "$work/ref.y4m" -vf "noise=alls=$((4 + 6 * k)):allf=t:all_seed=$((7 + k))" \
        -pix_fmt yuv420p "$work/d$k.y4m" || fail "could not make rendition $k"
done
FEAT="feature=float_ssim|float_ms_ssim|float_ansnr|ssim"

# pair LOG_OPTIONS TAG: one pair run of d0 against ref, stderr in $work/TAG.err
pair() {
    ff -i "$work/d0.y4m" -i "$work/ref.y4m" -lavfi "gpussim=backend=cpu:$FEAT:pool=mean+p5+median:$1" \
        -f null - 2>"$work/$2.err" || { cat "$work/$2.err" >&2; fail "$2: the run failed"; }
}

pair "log_path=$work/pair.json" json
pair "log_path=$work/pair.csv" csv
pair "log_path=$work/pair.xml" xml
pair "log_fmt=xml:log_path=$work/pair.log" logfmt

head -n 1 "$work/pair.csv" | grep -q '^Frame,timestamp,float_ssim,' ||
    fail "log_path=pair.csv did not write CSV: $(head -c 80 "$work/pair.csv")"
note "log_path=pair.csv writes CSV (timestamp column)"
$CHECK same "$work/pair.json" "$work/pair.csv" || fail "the CSV log differs from the JSON log"
head -n 1 "$work/pair.xml" | grep -q '^<VMAF version="gpussim ' ||
    fail "log_path=pair.xml did not write XML: $(head -c 80 "$work/pair.xml")"
$CHECK same "$work/pair.json" "$work/pair.xml" || fail "the XML log differs from the JSON log"
$CHECK same "$work/pair.json" "$work/pair.log" || fail "log_fmt=xml: not the XML log"
note "log_fmt=xml accepted: log_path=pair.log holds the same XML"
# the CSV's timestamps are the JSON's (pts x time base): 0, 0.04, ...
python3 - "$work/pair.json" <<'EOF' || fail "JSON timestamps are not 0.04 s apart"
import json, sys
fr = json.load(open(sys.argv[1]))["frames"]
assert len(fr) == 20 and all(abs(f["timestamp"] - 0.04 * i) < 1e-9 for i, f in enumerate(fr)), fr[:2]
EOF

$CHECK pooled "$work/pair.json" median p5 || fail "pool=mean+p5+median: the JSON's pooled_metrics"
$CHECK summary "$work/pair.json" "$work/json.err" median p5 mean ||
    fail "the summary's median/p5 differ from the log's"
$CHECK poolstate "$work/pair.json" || fail "the compact pool_state"
if [ -x "$GPUSSIM_CLI" ]; then
    "$GPUSSIM_CLI" merge "$work/pair.json" -o "$work/remerged.json" 2>"$work/merge.err" ||
        { cat "$work/merge.err" >&2; fail "gpussim merge of the filter's log"; }
    python3 - "$work/pair.json" "$work/remerged.json" <<'EOF' || fail "the merged filter log differs"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for k in ("frames", "pooled_metrics", "pool_state"):
    assert a[k] == b[k], k
EOF
    note "gpussim merge reads the filter's compact pool state and keeps median/p5"
fi

# ---- a ladder named by names= ----------------------------------------------------
ladder() {
    ff -i "$work/d0.y4m" -i "$work/d1.y4m" -i "$work/d2.y4m" -i "$work/ref.y4m" -lavfi \
        "gpussim=inputs=4:backend=cpu:$FEAT:pool=mean+p5:names=low.mp4|mid.mp4|high.mp4:log_path=$work/$1" \
        -f null - 2>"$work/$1.err" || { cat "$work/$1.err" >&2; fail "ladder $1: the run failed"; }
}
ladder ladder.json
ladder ladder.csv
ladder ladder.xml
for k in 0 1 2; do
    name=$(echo low.mp4 mid.mp4 high.mp4 | cut -d' ' -f$((k + 1)))
    pre=""
    [ $k -eq 0 ] || pre="r$k."
    grep -q "gpussim ${pre}float_ssim ($name): mean" "$work/ladder.json.err" ||
        { grep 'gpussim ' "$work/ladder.json.err" >&2; fail "the summary does not name rendition $k ($name)"; }
done
note "the summary names the renditions: $(grep -o 'gpussim r1.float_ssim ([^)]*)' "$work/ladder.json.err")"
for f in ladder.json ladder.csv ladder.xml; do
    $CHECK names "$work/$f" low.mp4 mid.mp4 high.mp4 || fail "$f does not name its renditions"
done
$CHECK same "$work/ladder.json" "$work/ladder.csv" || fail "the ladder's CSV differs from its JSON"
$CHECK same "$work/ladder.json" "$work/ladder.xml" || fail "the ladder's XML differs from its JSON"
$CHECK pooled "$work/ladder.json" p5 || fail "the ladder's p5"
if [ -x "$GPUSSIM_CLI" ]; then
    "$GPUSSIM_CLI" plot "$work/ladder.json" -o "$work/ladder.svg" 2>"$work/plot.err" ||
        { cat "$work/plot.err" >&2; fail "gpussim plot of the ladder log"; }
    for name in low.mp4 mid.mp4 high.mp4; do
        grep -q "class=\"legend-label\">$work/ladder.json: $name<" "$work/ladder.svg" ||
            fail "the plot's legend lacks $name"
    done
    note "gpussim plot's legend names the renditions"
fi

# ---- names= refused ----------------------------------------------------------------
expect_failure "names=a\|b: 2 name\(s\) for 3 distorted input\(s\)" \
    -i "$work/d0.y4m" -i "$work/d1.y4m" -i "$work/d2.y4m" -i "$work/ref.y4m" -lavfi \
    "gpussim=inputs=4:backend=cpu:names=a|b" -f null -
expect_failure "names=a\|\|c: name 2 is empty" \
    -i "$work/d0.y4m" -i "$work/d1.y4m" -i "$work/d2.y4m" -i "$work/ref.y4m" -lavfi \
    "gpussim=inputs=4:backend=cpu:names=a||c" -f null -
expect_failure "Unable to parse option value \"yaml\"|Undefined constant or missing '\(' in 'yaml'" \
    -i "$work/d0.y4m" -i "$work/ref.y4m" -lavfi "gpussim=backend=cpu:log_fmt=yaml:log_path=$work/x" -f null -
note "names= with the wrong count or an empty name refused; log_fmt=yaml refused"
note "PASS"
