#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# scripts/run-chunks.sh on the CPU backend: a generated 40-frame clip scored
# whole and as 4 chunks by 2 processes (xargs -P, and GNU parallel when it is
# installed) and by 1 process, merged with `gpussim merge`: the merged log's
# frames and pooled_metrics must be byte-identical to the whole run's (the
# script checks the bytes; python3 checks the values again here), and the
# merged log draws with `gpussim plot`.
#
# Environment (set by `make check`): GPUSSIM_CLI = the built tool. Exits 77
# (skip) without python3 or bash, or when the CLI has no `merge`.

. "$(dirname "$0")/../lib/common.sh"
SCRIPT=$TOP_SRCDIR/scripts/run-chunks.sh

need_tool python3
need_tool bash
need_cli
"$CLI" merge --help >/dev/null 2>&1 || skip "this gpussim has no merge subcommand"

make_tmp chunks
CHECK="python3 $HERE/plot_check.py"

cd "$TMP" || exit 1
$CHECK y4m ref.y4m 192 176 40 1 0 || exit 1
$CHECK y4m dis.y4m 192 176 40 2 6 5,17,30 || exit 1

# chunks NAME CHUNKS GPUS [OPTIONS]: the script succeeds, reports the three
# blocks byte-identical, and the values agree
chunks() {
    name=$1 n=$2 gpus=$3
    shift 3
    if ! bash "$SCRIPT" --backend cpu --threads 1 --gpussim "$CLI" --work "$TMP/$name" "$@" ref.y4m dis.y4m \
        "$n" "$gpus" >"$TMP/$name.out" 2>"$TMP/$name.err"; then
        failed "$name: run-chunks.sh failed"
        sed 's/^/    /' "$TMP/$name.out" "$TMP/$name.err"
        return
    fi
    sed -n 's/^/    /p' "$TMP/$name.out"
    ok=$(grep -c '^merged == whole: .* byte-identical' "$TMP/$name.out")
    if [ "$ok" -ne 3 ]; then
        failed "$name: $ok of 3 blocks reported byte-identical"
        return
    fi
    # each chunk ran --skip/--frames over its own frames, one process per GPU
    k=$(grep -c -- '--frames' "$TMP/$name.err")
    if [ "$k" -ne "$n" ]; then
        failed "$name: $k chunk commands, expected $n"
        return
    fi
    if $CHECK same_pooled "$TMP/$name/whole.json" "$TMP/$name/merged.json"; then
        pass "$name: $n chunks merged == the whole run (frames, pooled_metrics byte-identical)"
    else
        failed "$name: pooled values differ"
    fi
}

chunks xargs-2procs 4 0,1 --no-parallel
if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q GNU; then
    chunks parallel-2procs 4 0,1
    grep -q 'GNU parallel -j 2' "$TMP/parallel-2procs.out" || failed "parallel-2procs: GNU parallel was not used"
else
    echo "    (GNU parallel is not installed: its path is not tested)"
fi
chunks xargs-1proc 4 0 --no-parallel
# uneven chunks: 40 frames in 7
chunks uneven 7 0,1 --no-parallel

# the merged log draws: one line over the 40 frames, worst frames as in the whole run
if "$CLI" plot "$TMP/xargs-2procs/merged.json" -o merged.html 2>"$TMP/plot.err" &&
    $CHECK html merged.html 5 "" "$TMP/xargs-2procs/merged.json" >"$TMP/plot.out"; then
    pass "the merged log plots (40 points per chart)"
else
    failed "the merged log does not plot"
    cat "$TMP/plot.err" "$TMP/plot.out"
fi

# the chunk logs plot on one axis: chunk i's frames at their numbers in the
# whole input (config.first_frame), its worst frames named so
w=$TMP/xargs-2procs
if "$CLI" plot "$w/chunk_0.json" "$w/chunk_1.json" "$w/chunk_2.json" "$w/chunk_3.json" -o chunks.html \
    2>"$TMP/plot.err" &&
    $CHECK html chunks.html 5 "" "$w/chunk_0.json" "$w/chunk_1.json" "$w/chunk_2.json" "$w/chunk_3.json" \
        >"$TMP/plot.out" && grep -q 'data-frame="30"' chunks.html; then
    pass "the 4 chunk logs plot at their frames in the whole input (worst frames of chunk 3 from 30 up)"
else
    failed "the chunk logs do not plot at their frames in the whole input"
    cat "$TMP/plot.err" "$TMP/plot.out"
fi

# a bad chunk count is refused
if bash "$SCRIPT" --backend cpu --gpussim "$CLI" --work "$TMP/bad" ref.y4m dis.y4m 41 0 >/dev/null 2>"$TMP/bad.err"; then
    failed "41 chunks of 40 frames were accepted"
elif grep -q "40 frames cannot make 41 chunks" "$TMP/bad.err"; then
    pass "41 chunks of 40 frames: refused ($(cat "$TMP/bad.err" | tail -n 1))"
else
    failed "41 chunks: unexpected message"
    cat "$TMP/bad.err"
fi

# a merge that differs from the whole run is caught (a CLI whose merge
# changes one pooled mean)
cat >"$TMP/tampering-cli" <<EOT
#!/bin/sh
"$CLI" "\$@" || exit
if [ "\$1" = merge ]; then
    for last; do :; done
    sed -i '0,/"mean": 0\./s//"mean": 1./' "\$last"
fi
EOT
chmod +x "$TMP/tampering-cli"
if bash "$SCRIPT" --backend cpu --gpussim "$TMP/tampering-cli" --work "$TMP/tampered" --no-parallel ref.y4m dis.y4m 4 0 \
    >"$TMP/tampered.out" 2>"$TMP/tampered.err"; then
    failed "a changed pooled mean went unnoticed"
elif grep -q 'MISMATCH: "pooled_metrics"' "$TMP/tampered.err"; then
    pass "a changed pooled mean is reported (exit 1, MISMATCH: \"pooled_metrics\")"
else
    failed "a changed pooled mean: unexpected output"
    cat "$TMP/tampered.out" "$TMP/tampered.err"
fi

summary "run-chunks checks"
