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
        grep -q -E '^(FAIL|ERROR)' "${f%.log}.trs" 2>/dev/null && { echo "==== $f"; tail -40 "$f"; }
    done
fi
echo "${pass:-0} passed, $(( ${fail:-0} + ${error:-0} )) failed, ${skip:-0} skipped"
exit "$status"
