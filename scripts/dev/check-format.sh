#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Checks the formatting (.clang-format) of the C and C++ lines a branch
# changes, for CI:
#
#   scripts/dev/check-format.sh [BASE]     BASE defaults to main
#   scripts/dev/check-format.sh --all [BASE]   whole changed files, not only their changed lines
#   scripts/dev/check-format.sh --fix [BASE]   formats those lines in the working tree instead
#   scripts/dev/check-format.sh --since-rule   BASE: the commit that brought .clang-format (CI:
#                                              every line written since the rule is formatted)
#
# The files are those of `git diff --name-only BASE...HEAD` (changes since the
# branch left BASE), as committed at HEAD; by default only the lines the
# branch added or changed are checked, so older lines of a touched file do
# not fail it. Prints what clang-format would change and exits 1 when
# anything is off, 0 when all is formatted, 2 on a usage error or when no
# clang-format is found (CLANG_FORMAT=/path/to/clang-format picks one;
# clang-format-14 or later).
set -euo pipefail
cd "$(dirname "$0")/../.."

all=0 fix=0 base=
while [ $# -gt 0 ]; do
    case $1 in
    --all) all=1 ;;
    --fix) fix=1 ;;
    --since-rule) base=$(git log --diff-filter=A --format=%H -- .clang-format | tail -n 1) ;;
    *) base=$1 ;;
    esac
    shift
done
base=${base:-main}
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
    echo "check-format: unknown base '$base'" >&2
    exit 2
fi
cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
    for c in clang-format-14 clang-format; do
        if command -v "$c" >/dev/null; then cf=$c; break; fi
    done
fi
if [ -z "$cf" ] || ! command -v "$cf" >/dev/null; then
    echo "check-format: no clang-format found (set CLANG_FORMAT)" >&2
    exit 2
fi

# generated or third-party text is not ours to format; CUDA sources neither:
# clang-format 14 reads `__launch_bounds__(A * B)` as a declaration of a
# pointer and writes `A *B` (and the device code was split out of one file,
# so its moved lines look new to git)
# (-M: a moved file's old lines are not changed lines, only what the move edited)
files=$(git diff -M --name-only --diff-filter=ACMR "$base...HEAD" -- '*.c' '*.h' '*.cpp' |
        grep -v -e '^tests/fuzz/corpus/' -e '^kernels/vulkan/spv_' || true)
[ $all = 1 ] || hunks=$(git diff -M -U0 "$base...HEAD" |
                        awk '/^diff --git /{f = ""} /^\+\+\+ b\//{f = substr($0, 7)} f != "" && /^@@ /{print f, $0}')
bad=0
checked=0
for f in $files; do
    lines=()
    if [ $all = 0 ]; then
        # the hunks' new-side ranges: "@@ -a,b +start,count @@" (count 0: a deletion)
        while read -r start count; do
            count=${count:-1}
            [ "$count" -gt 0 ] || continue
            lines+=("--lines=$start:$((start + count - 1))")
        done < <(awk -v f="$f" '$1 == f' <<<"$hunks" |
                 sed -n 's/^[^ ]* @@ -[0-9,]* +\([0-9]*\),\{0,1\}\([0-9]*\) @@.*/\1 \2/p')
        [ ${#lines[@]} -gt 0 ] || continue
    fi
    checked=$((checked + 1))
    if [ $fix = 1 ]; then
        "$cf" -i "${lines[@]}" "$f"
        continue
    fi
    want=$(git show "HEAD:$f" | "$cf" --assume-filename="$f" "${lines[@]}")
    if ! diff -u --label "$f (HEAD)" --label "$f (clang-format)" <(git show "HEAD:$f") - \
            <<<"$want"; then
        bad=$((bad + 1))
    fi
done
if [ $bad -gt 0 ]; then
    echo "check-format: $bad of $checked file(s) changed since $base need formatting" \
         "(clang-format -i --lines=... or the diff above)" >&2
    exit 1
fi
echo "check-format: $checked file(s) changed since $base are formatted"
