#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The CLI's logs in every format a tool reads (tests/cli/log_formats_check.py
# compares them with the JSON log of the same run, bit for bit):
# - -o x.csv / x.xml / x.json picks the format by the extension; --json,
#   --csv, --xml override it; two of them are refused;
# - the CSV: an empty timestamp column (no frame rate known), every frame row
#   and the pooled rows equal the JSON's; the XML: libvmaf's layout, parsed by
#   python's xml.etree, every frame and pooled value equal the JSON's;
# - --pool median+p5: pooled_metrics carry median and p5, equal to the
#   percentiles of the decoded pool state; an unknown statistic is refused;
# - the compact pool_state decodes to the frames' values;
# - a ladder (-d three times) names its renditions by the -d paths in the
#   JSON sections, the CSV's name column and the XML's rendition elements;
#   brackets in a name are escaped in the JSON (\u005b), read back as given.
#
# Environment (set by `make check`): GPUSSIM_CLI = the built tool. Exits 77
# (skip) without python3.

. "$(dirname "$0")/../lib/common.sh"
need_tool python3 "to make the clip and parse the logs"
need_cli
make_tmp logformats
CHECK="python3 $HERE/log_formats_check.py"

# check NAME COMMAND...: pass when COMMAND succeeds
check() {
    name=$1
    shift
    if "$@"; then pass "$name"; else failed "$name"; fi
}

# a 176x176 4:2:0 clip of 16 frames and three distorted versions of it
python3 - "$TMP" <<'EOF'
import random, sys
tmp = sys.argv[1]
w = h = 176
for name, amp in (("ref", 0), ("low", 12), ("mid", 6), ("high", 2)):
    rnd = random.Random(amp)
    with open("%s/%s.y4m" % (tmp, name), "wb") as f:
        f.write(b"YUV4MPEG2 W176 H176 F25:1 Ip C420jpeg\n")
        for k in range(16):
            y = bytearray(((x * 3 + r * 2 + k * 5) ^ (r >> 3)) & 255 for r in range(h) for x in range(w))
            for i in range(0, w * h, 3) if amp else ():
                y[i] = min(255, max(0, y[i] + rnd.randrange(-amp, amp + 1)))
            c = bytes(((x + r + k) & 127) + 64 for r in range(h // 2) for x in range(w // 2))
            f.write(b"FRAME\n" + bytes(y) + c + c)
EOF
cd "$TMP" || exit 1
FEAT="--feature float_ssim=enable_lcs=true --feature float_ms_ssim --feature float_ansnr --feature ssim"

for ext in json csv xml; do
    "$CLI" -r ref.y4m -d mid.y4m $FEAT -q --pool median+p5 -o "pair.$ext" 2>err ||
        { failed "-o pair.$ext: exit $?"; sed 's/^/    stderr: /' err; }
done
check "-o pair.csv writes CSV (header Frame,timestamp,...)" grep -q '^Frame,timestamp,float_ssim,' pair.csv
check "-o pair.xml writes XML (<VMAF version=\"gpussim ...)" grep -q '^<VMAF version="gpussim ' pair.xml
check "CSV: every frame row and pooled row == the JSON log" $CHECK same pair.json pair.csv
check "XML (libvmaf's layout, xml.etree): every frame and pooled value == the JSON log" $CHECK same pair.json pair.xml
check "--pool median+p5: pooled median and p5 == the decoded pool's percentiles" $CHECK pooled pair.json median p5
check "compact pool_state: decodes to the frames' values, its CRC the text form's" $CHECK poolstate pair.json

"$CLI" -r ref.y4m -d mid.y4m $FEAT -q --pool median+p5 --xml -o pair_xml.log 2>err &&
    "$CLI" -r ref.y4m -d mid.y4m $FEAT -q --pool median+p5 --json -o pair_json.csv 2>>err
rc=$?
# pair_json.csv must be JSON (json.load) and pair_xml.log XML (xml.etree)
if [ $rc -eq 0 ] && $CHECK same pair_json.csv pair_xml.log; then
    pass "--json -o pair_json.csv writes JSON, --xml -o pair_xml.log XML (the option wins over the extension)"
else
    failed "--json/--xml with another extension (exit $rc)"
fi

"$CLI" -r ref.y4m -d mid.y4m -q --csv --xml -o x.csv 2>err
rc=$?
if [ $rc -eq 2 ] && grep -q -- '--xml: only one of --json, --csv and --xml' err && [ ! -e x.csv ]; then
    pass "--csv --xml refused (exit 2, nothing written)"
else
    failed "--csv --xml: exit $rc, $(cat err)"
fi
"$CLI" -r ref.y4m -d mid.y4m -q --pool mean+p50 -o x.json 2>err
rc=$?
if [ $rc -eq 2 ] && grep -q -- "--pool: unknown statistic 'p50' in 'mean+p50'" err && [ ! -e x.json ]; then
    pass "--pool mean+p50 refused naming p50 (exit 2, nothing written)"
else
    failed "--pool mean+p50: exit $rc, $(cat err)"
fi

# ---- a ladder named by its -d paths ------------------------------------------------
for ext in json csv xml; do
    "$CLI" -r ref.y4m -d low.y4m -d mid.y4m -d high.y4m $FEAT -q --pool p1 -o "ladder.$ext" 2>err ||
        { failed "ladder -o ladder.$ext: exit $?"; sed 's/^/    stderr: /' err; }
    check "ladder.$ext names its renditions low.y4m, mid.y4m, high.y4m" \
        $CHECK names "ladder.$ext" low.y4m mid.y4m high.y4m
done
check "ladder CSV (rendition and name columns) == the ladder JSON" $CHECK same ladder.json ladder.csv
check "ladder XML (<rendition index name> sections) == the ladder JSON" $CHECK same ladder.json ladder.xml
check "ladder --pool p1: every section's p1 == its decoded pool's" $CHECK pooled ladder.json p1
# a name with brackets and braces (a file name): escaped (\u005b...) so that a
# reader counting brackets to close a cut-off log is not misled; read back as is
cp mid.y4m 'mid[1]{b}.y4m'
"$CLI" -r ref.y4m -d low.y4m -d 'mid[1]{b}.y4m' --feature ssim -q -o brackets.json 2>err ||
    failed "ladder with 'mid[1]{b}.y4m': exit $?"
if $CHECK names brackets.json low.y4m 'mid[1]{b}.y4m' &&
    grep -F -q '"name": "mid\u005b1\u005d\u007bb\u007d.y4m"' brackets.json; then
    pass "a rendition named 'mid[1]{b}.y4m': written with its brackets escaped, read back as is"
else
    failed "a rendition name with brackets: $(grep '"name"' brackets.json)"
fi
# rendition 0 where a pair log is expected: the documented one-liner
python3 - <<'EOF'
import json, sys
lad, pair = json.load(open("ladder.json")), json.load(open("pair.json"))
r1 = (lad.get("renditions") or [lad])[1]
r0 = (lad.get("renditions") or [lad])[0]
p = (pair.get("renditions") or [pair])[0]
assert p is pair and r1["name"] == "mid.y4m", "the one-liner"
assert [f["metrics"] for f in r1["frames"]] == [f["metrics"] for f in pair["frames"]], "rendition 1 != the pair run"
assert r0["name"] == "low.y4m" and len(r0["frames"]) == 16
print("    (log.get(\"renditions\") or [log])[k]: rendition 1 (mid.y4m) == the pair run's frames")
EOF
[ $? -eq 0 ] && pass "the documented one-liner reads a ladder's rendition and a pair log alike" ||
    failed "the one-liner on ladder and pair logs"

summary "test_log_formats"
