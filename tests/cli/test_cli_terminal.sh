#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# What the gpussim tool shows a person, and what it keeps out of the log.
#
# Not a terminal (files and pipes): with -o the log goes to the file, stdout
# stays empty, stderr ends with the pooled table (one row per score: mean,
# min, max, harmonic mean, each equal to the log's pooled_metrics printed
# with 6 decimals) and holds no progress line (no carriage return); without
# -o, and with -o -, stdout is exactly the JSON log and the table is on
# stderr; -q prints nothing; a ladder's table has a block per rendition
# named by its file.
# A terminal (python's pty module): stderr on a terminal shows the progress
# line with the frame count, the percentage and an ETA while the run lasts,
# erased before the table; stdout on a terminal without -o gets the table
# and a note instead of the JSON log (-o - still prints the log there).
#
# Environment: GPUSSIM_CLI, GPUSSIM_FIXTURES (see tests/lib/common.sh).

. "$(dirname "$0")/../lib/common.sh"
FIX=$FIXTURES/src01_576x324_3f

need_fixtures
need_tool python3 "to check the output and drive a terminal"
need_cli
make_tmp terminal

W=576
H=324
REF=$FIX/src01_hrc00_576x324_3f.yuv420p.yuv
DIS=$FIX/src01_hrc01_576x324_3f.yuv420p.yuv
RAW="-w $W -h $H -p 420 -b 8"
FEAT="--feature float_ssim --feature float_ms_ssim --feature float_ansnr --feature ssim --backend cpu"

# a longer pair for the progress line: the fixture's 3 frames, 40 times, as y4m
python3 - "$REF" "$DIS" "$TMP" $W $H <<'EOF'
import sys
ref, dis, tmp, w, h = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
fs = w * h * 3 // 2
for src, name in ((ref, "ref"), (dis, "dis")):
    data = open(src, "rb").read()
    frames = [data[i * fs:(i + 1) * fs] for i in range(3)]
    with open(f"{tmp}/{name}120.y4m", "wb") as out:
        out.write(b"YUV4MPEG2 W%d H%d F25:1 Ip C420jpeg\n" % (w, h))
        for k in range(120):
            out.write(b"FRAME\n" + frames[k % 3])
EOF

cat >"$TMP/check.py" <<'EOF'
import json, re, sys

def table(err, log):
    """stderr ends with the table; every row equals the log's pooled_metrics."""
    data = json.load(open(log))
    sections = data.get("renditions") or [data]
    lines = err.rstrip("\n").split("\n")
    heads = [i for i, l in enumerate(lines) if re.match(r"gpussim: \d+ frames? in [\d.]+ s \([\d.]+ fps\), backend \w+$", l)]
    if len(heads) != 1:
        sys.exit(f"no single table header line in stderr: {lines!r}")
    n = int(lines[heads[0]].split()[1])
    if n != len(sections[0]["frames"]):
        sys.exit(f"table says {n} frames, the log has {len(sections[0]['frames'])}")
    rows = lines[heads[0] + 1:]
    for k, sec in enumerate(sections):
        if len(sections) > 1:
            want = f"rendition {k}: {sys.argv[4 + k]}" if len(sys.argv) > 4 + k else f"rendition {k}:"
            if not rows or not rows[0].startswith(want):
                sys.exit(f"expected '{want}', got {rows[:1]!r}")
            rows = rows[1:]
        if not rows or rows[0].split() != ["metric", "mean", "min", "max", "harmonic_mean"]:
            sys.exit(f"no column header: {rows[:1]!r}")
        rows = rows[1:]
        for name, pm in sec["pooled_metrics"].items():
            if not rows:
                sys.exit(f"no row for {name}")
            f = rows[0].split()
            rows = rows[1:]
            want = [name] + ["%.6f" % pm[s] for s in ("mean", "min", "max", "harmonic_mean")]
            if f != want:
                sys.exit(f"row {f} != log {want}")
    if rows:
        sys.exit(f"lines after the table: {rows!r}")

def main():
    what = sys.argv[1]
    if what == "table":
        table(open(sys.argv[2]).read(), sys.argv[3])
    elif what == "json":  # the file is exactly one JSON document with frames
        d = json.load(open(sys.argv[2]))
        if len(d["frames"]) != int(sys.argv[3]):
            sys.exit(f"{len(d['frames'])} frames, expected {sys.argv[3]}")
    elif what == "pty":
        # pty MODE OUT.json|- CLI ARGS...: runs the CLI with stderr (MODE err)
        # or stdout and stderr (MODE both) on a terminal; prints the
        # transcript's bytes to the file TRANSCRIPT
        import os, pty, subprocess
        mode, transcript, cli = sys.argv[2], sys.argv[3], sys.argv[4:]
        master, slave = pty.openpty()
        out = subprocess.DEVNULL if mode == "err" else slave
        p = subprocess.Popen(cli, stdin=subprocess.DEVNULL, stdout=out, stderr=slave)
        os.close(slave)
        buf = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
        rc = p.wait()
        open(transcript, "wb").write(buf)
        sys.exit(rc)

main()
EOF
CHECK="python3 $TMP/check.py"

run() { # ARGS...: stdout in $TMP/out, stderr in $TMP/err, status in $rc
    "$CLI" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
}
ok() { # NAME CHECK...: status 0 and the check holds
    name=$1
    shift
    if [ "$rc" -ne 0 ]; then failed "$name: exit status $rc"; sed 's/^/    stderr: /' "$TMP/err"; return; fi
    if "$@"; then pass "$name"; else failed "$name"; sed 's/^/    stderr: /' "$TMP/err"; fi
}
no_cr() { ! grep -q "$(printf '\r')" "$1"; }
empty() { [ ! -s "$1" ]; }

# ---- not a terminal -------------------------------------------------------------
run -r "$REF" -d "$DIS" $RAW $FEAT -o "$TMP/o.json"
ok "-o FILE: the table on stderr equals the log's pooled_metrics" $CHECK table "$TMP/err" "$TMP/o.json"
ok "-o FILE: stdout empty" empty "$TMP/out"
ok "-o FILE, stderr not a terminal: no progress line (no CR)" no_cr "$TMP/err"

run -r "$REF" -d "$DIS" $RAW $FEAT
ok "no -o, stdout a file: stdout is exactly the JSON log (3 frames)" $CHECK json "$TMP/out" 3
cp "$TMP/out" "$TMP/stdout.json"
ok "  ... and the table on stderr" $CHECK table "$TMP/err" "$TMP/stdout.json"
if cmp -s "$TMP/stdout.json" "$TMP/o.json" ||
    python3 -c 'import json,sys; a,b=(json.load(open(p)) for p in sys.argv[1:]); sys.exit(a["frames"]!=b["frames"] or a["pooled_metrics"]!=b["pooled_metrics"])' "$TMP/stdout.json" "$TMP/o.json"; then
    pass "  ... the same frames and pooled metrics as -o FILE"
else failed "  ... stdout's log differs from -o's"; fi

"$CLI" -r "$REF" -d "$DIS" $RAW $FEAT -o - 2>"$TMP/err" | cat >"$TMP/out"
rc=$?
ok "-o - into a pipe: the pipe gets the JSON log alone" $CHECK json "$TMP/out" 3
ok "  ... the table on stderr" $CHECK table "$TMP/err" "$TMP/out"

"$CLI" -r "$REF" -d "$DIS" $RAW $FEAT --csv 2>"$TMP/err" | cat >"$TMP/out"
rc=$?
if head -n 1 "$TMP/out" | grep -q '^Frame,' && [ "$(wc -l <"$TMP/out")" -ge 4 ] &&
    ! grep -q "^gpussim: \|^  metric \|$(printf '\r')" "$TMP/out" && $CHECK table "$TMP/err" "$TMP/o.json"; then
    pass "--csv into a pipe: only CSV in the pipe, the table on stderr"
else failed "--csv into a pipe: $(head -c 200 "$TMP/out")"; fi

run -r "$REF" -d "$DIS" $RAW $FEAT -q -o "$TMP/q.json"
ok "-q -o: nothing on stderr" empty "$TMP/err"

run -r "$REF" -d "$DIS" -d "$REF" $RAW $FEAT -o "$TMP/ladder.json"
ok "ladder: a table block per rendition, named by its file" $CHECK table "$TMP/err" "$TMP/ladder.json" "$DIS" "$REF"

# ---- a terminal -----------------------------------------------------------------
R120="-r $TMP/ref120.y4m -d $TMP/dis120.y4m --threads 1"
$CHECK pty err "$TMP/tty.txt" "$CLI" $R120 $FEAT -o "$TMP/tty.json"
rc=$?
tr '\r' '\n' <"$TMP/tty.txt" | sed 's/ *$//' >"$TMP/tty.lines"
if [ $rc = 0 ] && grep -Eq '^gpussim: frame [0-9]+ of 120 \([0-9]+%\), [0-9.]+ fps, ETA [0-9]+:[0-9][0-9]$' "$TMP/tty.lines"; then
    pass "stderr a terminal: progress line with frame count, % and ETA ($(grep -E 'ETA [0-9]' "$TMP/tty.lines" | tail -n 1))"
else failed "no progress line with % and ETA (status $rc)"; sed 's/^/    tty: /' "$TMP/tty.lines"; fi
# the last progress line is erased (CR, spaces, CR) right before the table
if python3 - "$TMP/tty.txt" <<'EOF'
import re, sys
t = open(sys.argv[1], "rb").read().decode()
i = t.find("gpussim: 120 frames in")
sys.exit(not (i > 0 and re.search(r"\r +\r$", t[:i]) and "ETA" not in t[i:] and t.endswith("\n")))
EOF
then pass "  ... erased before the table, which ends the output cleanly"
else failed "  ... not erased before the table"; od -c "$TMP/tty.txt" | tail -n 20; fi
python3 -c 'import sys; t = open(sys.argv[1]).read(); print(t[t.find("gpussim: 120 frames in"):].replace("\r\n", "\n"), end="")' \
    "$TMP/tty.txt" >"$TMP/tty.table"
ok "  ... the table equals the log's pooled_metrics" $CHECK table "$TMP/tty.table" "$TMP/tty.json"

$CHECK pty both "$TMP/tty2.txt" "$CLI" -r "$REF" -d "$DIS" $RAW $FEAT
rc=$?
tr -d '\r' <"$TMP/tty2.txt" >"$TMP/tty2.lines"
if [ $rc = 0 ] && ! grep -q '"frames"\|pool_state' "$TMP/tty2.lines" &&
    grep -q '^gpussim: note: no log written: stdout is a terminal (-o FILE writes the log to FILE, -o - to stdout anyway)$' "$TMP/tty2.lines" &&
    grep -q '^  float_ms_ssim ' "$TMP/tty2.lines"; then
    pass "stdout a terminal, no -o: the table and a note, no JSON"
else failed "stdout a terminal, no -o (status $rc)"; sed 's/^/    tty: /' "$TMP/tty2.lines"; fi

$CHECK pty both "$TMP/tty3.txt" "$CLI" -r "$REF" -d "$DIS" $RAW $FEAT -q -o -
rc=$?
if [ $rc = 0 ] && tr -d '\r' <"$TMP/tty3.txt" | python3 -c 'import json,sys; sys.exit(len(json.load(sys.stdin)["frames"]) != 3)'; then
    pass "-o - on a terminal (-q): the JSON log is printed there"
else failed "-o - on a terminal (status $rc)"; fi

summary "test_cli_terminal"
