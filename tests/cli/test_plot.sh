#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Tests of `gpussim plot`: scores two small generated clips with the CLI,
# draws the logs as HTML and SVG, and checks that each chart has one line per
# log with one point per frame (a gap at each null frame), that the marked
# and listed worst frames are the lowest values of the JSON (computed here
# with python3), that the tables carry the logs' pooled values and null
# counts, that the SVG is well-formed XML, and that the errors are clear.
# Then headless Chromium loads both: no console message or script error, the
# script ran, the browser's DOM holds the lines, and the screenshot is a PNG
# of the requested size showing the lines' colours.
#
# Environment (set by `make check`): GPUSSIM_CLI = the built tool. Exits 77
# (skip) without python3, or, after the other checks passed, without
# chromium.

. "$(dirname "$0")/../lib/common.sh"

need_tool python3 "to make inputs and parse the reports"
need_cli
make_tmp plot
CHECK="python3 $HERE/plot_check.py"

# check NAME CMD...: the command (a plot_check.py check) holds
check() {
    name=$1
    shift
    if "$@"; then pass "$name"; else failed "$name"; fi
}
# run_ok NAME CMD...: the command exits 0
run_ok() {
    name=$1
    shift
    if "$@" >"$TMP/out" 2>"$TMP/err"; then
        return 0
    fi
    failed "$name: exit status $?"
    sed 's/^/    stderr: /' "$TMP/err"
    return 1
}
# expect_error NAME MESSAGE CMD...: exit status 2, MESSAGE on stderr, no report written
expect_error() {
    name=$1
    msg=$2
    shift 2
    rm -f "$TMP/bad.html"
    "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [ "$rc" -ne 2 ]; then
        failed "$name: exit status $rc, expected 2"
    elif ! grep -F -q -- "$msg" "$TMP/err"; then
        failed "$name: stderr lacks '$msg'"
        sed 's/^/    stderr: /' "$TMP/err"
    elif [ -e "$TMP/bad.html" ]; then
        failed "$name: a report was written"
    else
        printf '    stderr: %s\n' "$(head -n 1 "$TMP/err")"
        pass "$name"
    fi
}

# ---- logs: 12 frames of 192x176 (MS-SSIM's minimum is 176), two renditions ----
W=192
H=176
N=12
cd "$TMP" || exit 1
$CHECK y4m ref.y4m $W $H $N 1 0 || exit 1
$CHECK y4m low.y4m $W $H $N 2 10 3,9 || exit 1
$CHECK y4m high.y4m $W $H $N 3 4 7 || exit 1
FEATS="--feature float_ssim=enable_lcs=true --feature float_ms_ssim --feature float_ansnr --feature ssim"
run_ok "score low" "$CLI" -r ref.y4m -d low.y4m $FEATS --backend cpu -q -o low.json || exit 1
run_ok "score high" "$CLI" -r ref.y4m -d high.y4m $FEATS --backend cpu -q -o high.json || exit 1
# a third log with two null frames (gaps), timestamps at 25 fps and no pooled values
$CHECK edit high.json gaps.json 4,5,10 -25 || exit 1

# ---- HTML ---------------------------------------------------------------------
MAIN=float_ssim,float_ms_ssim,float_ansnr,float_anpsnr,ssim
if run_ok "plot html" "$CLI" plot low.json high.json gaps.json -o report.html; then
    check "html: a chart per main score (not float_ssim_l/c/s), one line per log, one point per frame, gaps at nulls, worst 5 marked" \
        $CHECK html report.html 5 "" low.json high.json gaps.json
    # the pooled row is the log's own pooled_metrics
    mean=$(python3 -c 'import json,sys; print("%.7g" % json.load(open("low.json"))["pooled_metrics"]["float_ssim"]["mean"])')
    check "html: pooled table row of low.json (12 frames, 0 null, mean $mean)" \
        $CHECK table report.html float_ssim 0 12 0 "$mean"
    # without pooled_metrics the mean is pooled from the frames that have a value
    mean=$(python3 -c 'import json; v=[f["metrics"]["float_ssim"] for f in json.load(open("gaps.json"))["frames"]]; v=[x for x in v if x is not None]; import math; print("%.7g" % (math.fsum(v)/len(v)))')
    worst=$(python3 -c 'import json; fr=json.load(open("gaps.json"))["frames"]; v=min((f["metrics"]["float_ssim"],f["frameNum"]) for f in fr if f["metrics"]["float_ssim"] is not None); t=v[1]/25; print("0:%02d.%03d" % (int(t), round(t*1000)%1000))')
    check "html: gaps.json row (3 null frames, mean $mean from the frames) and its worst frame at $worst" \
        $CHECK table report.html float_ssim 2 12 3 "$mean" "$worst"
fi
run_ok "plot html --metric" "$CLI" plot low.json high.json -o picked.html --metric float_ssim_l -m ssim --worst 2 &&
    check "html --metric float_ssim_l -m ssim --worst 2: those two charts, 2 worst frames each" \
        $CHECK html picked.html 2 float_ssim_l,ssim low.json high.json
# one frame: a dot, and the single frame is the worst
$CHECK y4m ref1.y4m $W $H 1 1 0 && $CHECK y4m dis1.y4m $W $H 1 2 5 &&
    run_ok "score 1 frame" "$CLI" -r ref1.y4m -d dis1.y4m --backend cpu -q -o one.json &&
    run_ok "plot 1 frame" "$CLI" plot one.json -o one.html &&
    check "html of a 1-frame log: one point, worst frame 0" $CHECK html one.html 5 "" one.json
# a long log is decimated to min/max per bucket: its dip stays on the line
python3 - <<'EOF'
import json
fr = [{"frameNum": i, "metrics": {"float_ssim": 0.9 + (i % 7) * 0.001}} for i in range(100000)]
fr[61234]["metrics"]["float_ssim"] = 0.25
json.dump({"version": "t", "frames": fr}, open("long.json", "w"))
EOF
if run_ok "plot 100000 frames" "$CLI" plot long.json -o long.html --worst 1; then
    check "html of 100000 frames: decimated line, worst frame 61234 marked" \
        $CHECK html long.html 1 "" long.json
    # the line passes through the marked worst point
    if python3 -c 'import re,sys; t=open("long.html").read(); d=re.search(r"class=\"series\"[^>]* d=\"([^\"]*)\"", t).group(1); pts=re.findall(r"(-?[\d.]+),(-?[\d.]+)", d); cx,cy=re.search(r"<circle cx=\"([\d.]+)\" cy=\"([\d.]+)\"", t).groups(); sys.exit(not (len(pts) <= 4000 and (cx, cy) in pts))'; then
        pass "html of 100000 frames: at most 4000 points, the line passes through the dip at frame 61234"
    else
        failed "html of 100000 frames: too many points or the dip is not on the line"
    fi
fi

# ---- a ladder log: one line per rendition -----------------------------------------
# low and high scored as renditions of one reference: the same lines as the
# two pair logs, labelled by the log and the rendition's name (its -d path):
# "ladder.json: low.y4m" and "ladder.json: high.y4m"
if run_ok "score ladder" "$CLI" -r ref.y4m -d low.y4m -d high.y4m $FEATS --backend cpu -q -o ladder.json &&
    run_ok "plot ladder svg" "$CLI" plot ladder.json -o ladder.svg &&
    run_ok "plot pairs svg" "$CLI" plot low.json high.json -o pairs.svg; then
    if python3 - <<'EOF2'
import re, sys
def series(path):
    t = open(path).read()
    return re.findall(r'class="series"[^>]* d="([^"]*)"', t), t
lad, lt = series("ladder.svg")
pair, _ = series("pairs.svg")
if not lad or lad != pair:
    sys.exit("ladder lines (%d) differ from the pair logs' lines (%d)" % (len(lad), len(pair)))
legend = re.findall(r'class="legend-label">([^<]*)<', lt)
if legend[:2] != ["ladder.json: low.y4m", "ladder.json: high.y4m"]:
    sys.exit("legend %s, expected the renditions' names 'ladder.json: low.y4m', 'ladder.json: high.y4m'" % legend)
print("    %d lines, identical to the two pair logs' lines; legend %s" % (len(lad), legend[:2]))
EOF2
    then pass "svg of a 2-rendition ladder log: one line per rendition named by its input, the pair logs' points"
    else failed "svg of a ladder log"
    fi
fi

# ---- SVG ----------------------------------------------------------------------
run_ok "plot svg" "$CLI" plot low.json high.json gaps.json -o report.svg &&
    check "svg: well-formed XML, the same charts, lines, points and worst frames" \
        $CHECK svg report.svg 5 "" low.json high.json gaps.json

# ---- errors -------------------------------------------------------------------
expect_error "a missing log" "cannot open log 'nosuch.json'" "$CLI" plot nosuch.json -o bad.html
printf '{"frames": [{"frameNum": 0, "metrics": {"float_ssim": 0.5,}}]}' >broken.json
expect_error "malformed JSON (place named)" "at line 1, column 59" "$CLI" plot broken.json -o bad.html
expect_error "an unknown --metric (lists the scores)" "no log has the score 'vmaf'; they have: float_ssim" \
    "$CLI" plot low.json -m vmaf -o bad.html
expect_error "no -o" "plot needs -o" "$CLI" plot low.json
expect_error "an output name of no known kind" "say which format" "$CLI" plot low.json -o bad.png
expect_error "no logs" "at least one JSON log" "$CLI" plot -o bad.html
printf '{"version": "x"}' >nolog.json
expect_error "JSON that is not a score log" "'nolog.json' is not a usable gpussim log" "$CLI" plot nolog.json -o bad.html

echo "plot checks: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ] || exit 1

# ---- in a browser -------------------------------------------------------------
BROWSER=
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then
        BROWSER=$b
        break
    fi
done
if [ -z "$BROWSER" ]; then
    echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it): the page was not loaded in a browser"
    exit 77
fi
# browse FILE WxH OUT.png: screenshot, DOM and console of FILE in headless chromium
browse() {
    # the page's console messages and script errors reach stderr as ":CONSOLE" lines
    timeout 120 "$BROWSER" --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir="$TMP/profile" \
        --enable-logging=stderr --v=0 --window-size="$2" --screenshot="$TMP/$3" "file://$TMP/$1" \
        >"$TMP/browser.out" 2>"$TMP/browser.err"
    shot=$?
    timeout 120 "$BROWSER" --headless --disable-gpu --no-sandbox --no-first-run --user-data-dir="$TMP/profile" \
        --enable-logging=stderr --v=0 --dump-dom "file://$TMP/$1" >"$TMP/dom.html" 2>>"$TMP/browser.err"
    dom=$?
    if [ $shot -ne 0 ] || [ $dom -ne 0 ]; then
        failed "$1 in $BROWSER: exit status $shot (screenshot), $dom (DOM)"
        tail -n 5 "$TMP/browser.err" | sed 's/^/    browser: /'
        return 1
    fi
    if grep -E ':CONSOLE|Uncaught|SyntaxError|Failed to load' "$TMP/browser.err" >"$TMP/console"; then
        failed "$1 in $BROWSER: the page logged errors or messages"
        sed 's/^/    /' "$TMP/console"
        return 1
    fi
    pass "$1 loads in $BROWSER without console messages or errors"
}
if browse report.html 1000,1600 report.png; then
    check "html in the browser: its script ran, the DOM has the 15 lines (5 charts x 3 logs)" \
        $CHECK dom "$TMP/dom.html" 15 1
    check "html screenshot: a 1000x1600 PNG, not blank, the three lines' colours drawn" \
        $CHECK png report.png 1000 1600 '#1f77b4' '#d62728' '#2ca02c'
fi
if browse report.svg 1000,900 report_svg.png; then
    check "svg in the browser: the DOM has the 15 lines" $CHECK dom "$TMP/dom.html" 15 0
    check "svg screenshot: a 1000x900 PNG, not blank, the three lines' colours drawn" \
        $CHECK png report_svg.png 1000 900 '#1f77b4' '#d62728' '#2ca02c'
fi

summary "plot checks"
