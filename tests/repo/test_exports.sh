#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# libgpussim.so exports exactly the functions the public headers mark
# GPUSSIM_API: no internal symbol leaks (the library is built with
# -fvisibility=hidden and an export list of gpussim_*).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
so=.libs/libgpussim.so
[ -f "$so" ] || { echo "SKIP: no shared library built"; exit 77; }
command -v nm >/dev/null || { echo "SKIP: no nm"; exit 77; }
want=$(sed -n 's/^GPUSSIM_API .*\b\(gpussim_[a-z0-9_]*\)(.*/\1/p' "$top"/include/gpussim/*.h | sort -u)
have=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TtWiD]$/ { print $3 }' | sort -u)
[ -n "$want" ] || { echo "FAIL: no GPUSSIM_API declaration found"; exit 1; }
if [ "$want" != "$have" ]; then
    t=$(mktemp -d)
    printf '%s\n' "$want" > "$t/want"
    printf '%s\n' "$have" > "$t/have"
    echo "FAIL: exported symbols differ from the public API"
    echo "  exported, not declared GPUSSIM_API:"; comm -13 "$t/want" "$t/have" | sed 's/^/    /'
    echo "  declared GPUSSIM_API, not exported:"; comm -23 "$t/want" "$t/have" | sed 's/^/    /'
    rm -rf "$t"
    exit 1
fi
echo "PASS: $(printf '%s\n' "$have" | wc -l) exported functions, exactly the public API"
