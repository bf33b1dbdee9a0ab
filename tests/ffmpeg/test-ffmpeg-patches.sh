#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Every patch series in patches/ applies cleanly (patch --dry-run) to the
# FFmpeg release listed for it in patches/versions.txt (7.1.5, 8.1.2, 9.0.2),
# fetched as upstream tarballs through apt (cached in GPUSSIM_FFMPEG_DIR/downloads).
# Skips (77) when the tarballs cannot be fetched (no apt or no network).
NEED_FFMPEG=no
. "$(dirname "$0")/common.sh"

dl=$GPUSSIM_FFMPEG_DIR/downloads
mkdir -p "$dl" 2>/dev/null || dl=$work/downloads
n=0
while read -r series version; do
    case $series in ''|'#'*) continue ;; esac
    t=$("$top_srcdir/scripts/dev/ffmpeg-fetch.sh" ffmpeg "$version" "$dl" 2> "$work/fetch.err") ||
        { cat "$work/fetch.err"; skip "cannot fetch FFmpeg $version"; }
    d=$work/ffmpeg-$version
    mkdir -p "$d"
    # the files the series' patches change
    files=$(sed -n 's|^+++ b/\([^[:space:]]*\).*|*/\1|p' "$top_srcdir/patches/$series"/*.patch | sort -u)
    [ -n "$files" ] || fail "patches/$series names no file"
    set -f # tar's patterns, not the shell's
    tar xf "$t" -C "$d" --strip-components=1 --wildcards $files
    set +f
    for p in "$top_srcdir/patches/$series"/*.patch; do
        out=$(patch -d "$d" -p1 --dry-run < "$p" 2>&1) || { echo "$out"; fail "$(basename "$p") does not apply to FFmpeg $version"; }
        if echo "$out" | grep -Eq 'offset|fuzz|Reversed|FAILED'; then
            echo "$out"
            fail "$(basename "$p") applies to FFmpeg $version only with offset/fuzz"
        fi
        note "patches/$series/$(basename "$p") applies cleanly to FFmpeg $version"
        n=$((n + 1))
    done
done < "$top_srcdir/patches/versions.txt"
[ $n -ge 6 ] || fail "expected 2 patches in each of 3 series, checked $n"
note "PASS"
