#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Builds the libFuzzer targets of tests/fuzz/ with clang
# (-fsanitize=fuzzer,address,undefined) and runs each for SECONDS (default
# 60) from its seed corpus (tests/fuzz/corpus/TARGET, copied: the repository's
# seeds are not touched). New inputs go to $GPUSSIM_FUZZ_DIR/corpus-TARGET,
# crashes to $GPUSSIM_FUZZ_DIR/crash-TARGET-* (default build-fuzz/).
# Prints exec/s per target; fails when a target crashes.
# A unit running longer than GPUSSIM_FUZZ_TIMEOUT seconds (default 60) is a
# failure (a hang): fuzz_api's MS-SSIM-sized units take ~2 s under ASan on
# an idle core, and a 10 s limit fired on them on a loaded machine (nice 19).
#   scripts/fuzz.sh [SECONDS] [TARGET...]   targets: api input options pool log
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift || true
targets=${*:-api input options pool log}
out=${GPUSSIM_FUZZ_DIR:-$root/build-fuzz}
cc=${CLANG:-$(command -v clang-14 || command -v clang)}
mkdir -p "$out"

# arithmetic kernels with data-independent control flow: built without
# coverage feedback (its compare tracing in their inner loops cost 20x in
# exec/s and tells the fuzzer nothing), still with ASan and UBSan
hot="kernels/c/convert.c kernels/c/decimate.c kernels/c/ssim_window.c kernels/c/ansnr.c
     kernels/c/issim.c"
# what each target links: the library core with the CPU backend, i.e. the C
# files of libgpussim_la_SOURCES in Makefile.am and in the CPU backend's
# hwctx/cpu/cpu.am (read from there, so that a new source is never missing
# here) less the hot ones, and the pieces of the CLI or the tests it drives
lib=$(awk '/^libgpussim_la_SOURCES [+]?= /{on = 1; next} on && /^[^[:space:]]/{on = 0} on' \
          "$root/Makefile.am" "$root/hwctx/cpu/cpu.am" |
      grep -o '[^[:space:]\\]*\.c' |
      while read -r f; do case " $(echo $hot) " in *" $f "*) ;; *) echo "$f" ;; esac; done)
[ -n "$lib" ] || { echo "fuzz: no library sources found in Makefile.am" >&2; exit 1; }
declare -A extra=(
    [api]="tests/lib/naive_ref.c"
    [input]="tools/input.c tools/cli_msg.c tools/input_av.c tools/terminal.c"
    [options]="tools/options.c tools/cli_msg.c tools/input_av.c tools/terminal.c"
    [pool]=""
    [log]=""
)
# the library's own flags (configure.ac): reference float arithmetic, no FMA;
# GPUSSIM_NO_CLONES: clang 14 does not link target_clones (ifunc) kernels
# here, and the clones compute the same bits as the default version
common="-std=c11 -D_GNU_SOURCE -DGPUSSIM_NO_CLONES -g -O1 -ffp-contract=off -fno-math-errno -Wall -Wextra
        -fno-sanitize-recover=undefined -I$root/include -I$root/src -I$root -I$root/tools -I$root/tests -I$out"
printf '#define PACKAGE_VERSION "fuzz"\n' >"$out/config.h"

# compile SRC... into $out/obj-TARGET with FLAGS
compile() {
    local dir=$1 flags=$2
    shift 2
    for f in "$@"; do
        local o="$dir/$(echo "$f" | tr / _).o"
        (cd "$root" && $cc $common $flags -c "$f" -o "$o")
        objs="$objs $o"
    done
}

status=0
for t in $targets; do
    [ -n "${extra[$t]+x}" ] || { echo "unknown target '$t' (api input options pool log)"; exit 2; }
    rm -rf "$out/obj-$t"
    mkdir -p "$out/obj-$t"
    objs=
    cold=${extra[$t]}
    [ "$t" = api ] && cold="" # naive_ref.c: hot arithmetic too
    compile "$out/obj-$t" "-fsanitize=fuzzer-no-link,address,undefined" tests/fuzz/fuzz_$t.c $lib $cold
    compile "$out/obj-$t" "-O2 -fsanitize=address,undefined" $hot $([ "$t" = api ] && echo tests/lib/naive_ref.c)
    $cc -fsanitize=fuzzer,address,undefined $objs -o "$out/fuzz_$t" -lm -lpthread
    rm -rf "$out/corpus-$t"
    mkdir -p "$out/corpus-$t"
    cp "$root/tests/fuzz/corpus/$t/"* "$out/corpus-$t/" 2>/dev/null || true
    log="$out/fuzz_$t.log"
    rc=0
    # a smaller quarantine: fresh pages for every allocation cost ~25% exec/s
    ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16 UBSAN_OPTIONS=print_stacktrace=1 \
        "$out/fuzz_$t" -max_total_time="$secs" -max_len=65536 -timeout="${GPUSSIM_FUZZ_TIMEOUT:-60}" -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$out/crash-$t-" "$out/corpus-$t" >"$log" 2>&1 || rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    corpus=$(find "$out/corpus-$t" -type f | wc -l)
    if [ "$rc" -eq 0 ]; then
        echo "fuzz_$t: ${runs:-?} runs in ${secs} s, ${rate:-?} exec/s, $cov, corpus $corpus: no crash"
    else
        echo "fuzz_$t: CRASH (exit $rc) after ${runs:-?} runs; $log:"
        grep -E 'ERROR|SUMMARY|fuzz_[a-z]*:|runtime error|Test unit written' "$log" | head -20 || true
        status=1
    fi
done
exit "$status"
