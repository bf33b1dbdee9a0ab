#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The test command: installs dependencies, builds everything (library, CLI,
# FFmpeg with the filter) and runs the whole suite (make check). Backends
# without a device are skipped (exit 77), never reported as passed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cd build
# FFmpeg 8.1 with the filter (fetched with apt-get source, built once; the
# FFmpeg tests skip only when GPUSSIM_SKIP_FFMPEG=1 leaves it out)
[ "${GPUSSIM_SKIP_FFMPEG:-0}" = 1 ] || make ffmpeg
status=0
make -j"$(nproc)" check || status=$?
# one closing line for CI, from automake's summary
pass=$(sed -n 's/^# PASS: *//p' test-suite.log 2>/dev/null | head -1)
fail=$(sed -n 's/^# FAIL: *//p' test-suite.log 2>/dev/null | head -1)
skip=$(sed -n 's/^# SKIP: *//p' test-suite.log 2>/dev/null | head -1)
error=$(sed -n 's/^# ERROR: *//p' test-suite.log 2>/dev/null | head -1)
if [ "$status" -ne 0 ]; then
    for f in $(find . -name '*.log' -newer Makefile | grep -v test-suite.log); do
        grep -q -E '^:test-result: (FAIL|ERROR)' "${f%.log}.trs" 2>/dev/null && { echo "==== $f"; tail -40 "$f"; }
    done
fi
pass=${pass:-0} fail=$(( ${fail:-0} + ${error:-0} )) skip=${skip:-0}

# Reliability steps after the suite (GPUSSIM_CI_RELIABILITY=0 leaves them
# out), each counted in the closing line as one test:
#   sanitizers  scripts/dev/check-sanitizers.sh: the suite again under ASan+UBSan
#   fuzz        scripts/fuzz.sh: each libFuzzer target for GPUSSIM_FUZZ_SECONDS
#               (default 30) from its seed corpus; a crash fails it
#   format      scripts/dev/check-format.sh --since-rule: every C and C++
#               line written since .clang-format came in is formatted by it
# (valgrind on the CLI and on the allocation-failure walk are make check tests.)
step() { # name command...: exit 0 = pass, 77 = skip, else fail
    local name=$1 rc=0 t0=$SECONDS
    shift
    echo "==== $name: $*"
    "$@" >"$name.step.log" 2>&1 || rc=$?
    tail -n 12 "$name.step.log"
    case $rc in
        0) pass=$((pass + 1)); echo "PASS: $name ($((SECONDS - t0)) s)" ;;
        77) skip=$((skip + 1)); echo "SKIP: $name" ;;
        *) fail=$((fail + 1)); status=1; echo "FAIL: $name (exit $rc, $((SECONDS - t0)) s; build/$name.step.log)" ;;
    esac
}
have_clang() { command -v clang-14 >/dev/null 2>&1 || command -v clang >/dev/null 2>&1; }
fuzz_step() {
    have_clang || { echo "SKIP: no clang for libFuzzer"; return 77; }
    "$root/scripts/fuzz.sh" "${GPUSSIM_FUZZ_SECONDS:-30}"
}
if [ "${GPUSSIM_CI_RELIABILITY:-1}" != 0 ]; then
    step sanitizers "$root/scripts/dev/check-sanitizers.sh"
    step fuzz fuzz_step
    step format "$root/scripts/dev/check-format.sh" --since-rule
fi
echo "$pass passed, $fail failed, $skip skipped"
exit "$status"
