#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Replays every seed of tests/fuzz/corpus/TARGET through the fuzz targets as
# built by `make check` (normal compiler, tests/fuzz/standalone.c instead of
# libFuzzer): the harnesses keep building, their properties hold on the
# seeds, and an input that once crashed (kept as a seed) stays fixed. Under
# scripts/dev/check-sanitizers.sh this runs with ASan and UBSan.
here=$(cd "$(dirname "$0")" && pwd)
top=${GPUSSIM_BUILDDIR:-.}
status=0
for t in api input options pool log; do
    bin="$top/tests/fuzz/fuzz_$t"
    n=$(ls "$here/corpus/$t" | wc -l)
    if "$bin" "$here/corpus/$t" >/dev/null; then
        echo "PASS: fuzz_$t: $n seed(s)"
    else
        echo "FAIL: fuzz_$t on its seeds (exit $?)"
        status=1
    fi
done
exit $status
