#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# The source tree stands alone: a clone (or the release tarball) is all a
# user has. Asserts:
#   - no file of the tree refers to a folder beside the checkout (the shared
#     folder of the project's development machines): tracked files in a git
#     checkout, every file of the tree otherwise;
#   - every fixture file the tests read is there, at its exact size (a Git LFS
#     pointer or a truncated copy is not a fixture), with its README and
#     license;
#   - every "spec §N" / "spec §N.M" cited in the tree names a section or item
#     that docs/METRICS.md has;
#   - Makefile.am's EXTRA_DIST carries the fixtures and the documentation.
# Prints one line per failure and the counts.
set -u
. "$(dirname "$0")/../lib/common.sh"
top=$TOP_SRCDIR

# the list of files: git's when this is a checkout, else the whole tree
# (without build outputs)
list=$(mktemp "${TMPDIR:-/tmp}/gpussim-standalone.XXXXXX") || exit 1
trap 'rm -f "$list"' EXIT INT TERM
# (a checkout's own root only: an unpacked tarball may sit inside another one)
gittop=$(git -C "$top" rev-parse --show-toplevel 2>/dev/null) || gittop=
if [ -n "$gittop" ] && [ "$(cd "$gittop" && pwd -P)" = "$(cd "$top" && pwd -P)" ]; then
    git -C "$top" ls-files > "$list"
    how="tracked files"
else
    (cd "$top" && find . -type f ! -path './.git/*' ! -path './build*' ! -path './_ffmpeg/*' \
        ! -path './autom4te.cache/*' | sed 's#^\./##') > "$list"
    how="files of the tree"
fi
nfiles=$(wc -l < "$list")
if [ "$nfiles" -gt 100 ]; then
    pass "$nfiles $how listed"
else
    failed "only $nfiles $how found under $top"
fi

# 1. nothing refers outside the tree (spelled so that this file does not match)
word=shared
outside="../$word"
hits=$(cd "$top" && tr '\n' '\0' < "$list" | xargs -0 grep -I -n -F -- "$outside" 2>/dev/null)
if [ -z "$hits" ]; then
    pass "no file mentions $outside"
else
    echo "$hits" | sed 's/^/    /'
    failed "$(echo "$hits" | wc -l) line(s) mention $outside, a folder a user's clone does not have"
fi

# 2. the fixtures, at their sizes
fix=$top/tests/fixtures/src01_576x324_3f
nmissing=0
for spec in \
    src01_hrc00_576x324_3f.yuv420p.yuv:839808 src01_hrc01_576x324_3f.yuv420p.yuv:839808 \
    src01_hrc00_576x324_3f.yuv420p10le.yuv:1679616 src01_hrc01_576x324_3f.yuv420p10le.yuv:1679616 \
    src01_hrc00_576x324_3f.yuv420p12le.yuv:1679616 src01_hrc01_576x324_3f.yuv420p12le.yuv:1679616 \
    src01_hrc00_576x324_3f.yuv420p16le.yuv:1679616 src01_hrc01_576x324_3f.yuv420p16le.yuv:1679616 \
    expected_8bit.json: expected_10bit.json: expected_12bit.json: expected_16bit.json: \
    expected_8bit_identity.json: LICENSE: ../README.md: ../regen-expected.sh: ../libvmaf_dump.c:; do
    f=${spec%%:*} size=${spec#*:}
    if [ ! -f "$fix/$f" ]; then
        echo "    missing: tests/fixtures/src01_576x324_3f/$f"
        nmissing=$((nmissing + 1))
    elif [ -n "$size" ] && [ "$(wc -c < "$fix/$f")" -ne "$size" ]; then
        echo "    tests/fixtures/src01_576x324_3f/$f: $(wc -c < "$fix/$f") bytes, not $size"
        nmissing=$((nmissing + 1))
    fi
done
for f in "$fix"/expected_*.json; do
    [ -f "$f" ] || continue
    n=$(grep -c '^   "ssim": [0-9]' "$f")
    [ "$n" = 3 ] || { echo "    $f: $n integer ssim values, not 3"; nmissing=$((nmissing + 1)); }
done
if [ $nmissing = 0 ]; then
    pass "the fixtures are all there"
else
    failed "$nmissing fixture file(s) missing or wrong"
fi

# 3. the spec's citations: "spec §N[.M]" (and any further "§" on that line)
# must name a section (## N.) or an item (N. of that section) of docs/METRICS.md
spec=$top/docs/METRICS.md
if [ ! -f "$spec" ]; then
    failed "docs/METRICS.md is missing"
else
    have=$(awk '
        /^## [0-9]+\./ { sec = $2; sub(/\.$/, "", sec); print sec; next }
        /^```/ { code = !code; next }
        !code && sec != "" && /^[0-9]+\. / { item = $1; sub(/\.$/, "", item); print sec "." item }
    ' "$spec")
    cited=$(cd "$top" && grep -v '^docs/METRICS.md$' "$list" | tr '\n' '\0' |
        xargs -0 grep -I -h -E 'spec §|METRICS\.md`? §' 2>/dev/null |
        grep -o -E '§[0-9]+(\.[0-9]+)?(-[0-9]+(\.[0-9]+)?)?' | tr -d '§' | tr '-' '\n' | sort -u)
    nbad=0
    for c in $cited; do
        echo "$have" | grep -qx -F "$c" && continue
        echo "    §$c is cited but docs/METRICS.md has no such section or item"
        nbad=$((nbad + 1))
    done
    ncited=$(echo "$cited" | grep -c .)
    if [ "$ncited" -gt 10 ] && [ $nbad = 0 ]; then
        pass "$ncited cited sections and items are in docs/METRICS.md"
    else
        failed "$nbad of $ncited cited sections or items missing from docs/METRICS.md"
    fi
fi

# 4. the tarball carries the fixtures and the documentation
if [ -f "$top/Makefile.am" ]; then
    dist=$(sed -n '/^EXTRA_DIST *+\{0,1\}=/,/[^\\]$/p' "$top/Makefile.am")
    for want in tests/fixtures docs README.md tests/repo/test_standalone.sh; do
        if echo "$dist" | tr ' \t\\' '\n\n\n' | grep -qx -F "$want"; then
            pass "EXTRA_DIST has $want"
        else
            failed "Makefile.am's EXTRA_DIST lacks $want"
        fi
    done
fi

summary test_standalone
