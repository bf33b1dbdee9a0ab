#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Fetches an upstream source tarball through apt's source packages.
#
#   scripts/dev/ffmpeg-fetch.sh PACKAGE UPSTREAM_VERSION DESTDIR
#
# Picks the Debian source version whose upstream part is UPSTREAM_VERSION
# (ffmpeg 8.1.2 -> 7:8.1.2-2) among the deb-src entries apt knows (run
# scripts/apt-deb-src.sh once, as root, to add trixie/sid sources derived from
# this machine's own apt configuration), downloads it into DESTDIR, checks it,
# and prints the path of the upstream tarball (*.orig.tar.*).
#
# Only the upstream tarball is downloaded, with apt's own transport and the
# hash apt lists for it (the Debian packaging is not needed, and some source
# packages are published incomplete, which made `apt-get source` print errors
# on a build that then succeeded).
#
# Stdout carries the tarball path and nothing else (callers capture it);
# progress and errors go to stderr. Set APT_CONFIG to work against another apt
# state (the tests do, to rehearse a pristine machine).
set -eu

[ $# = 3 ] || { echo "usage: $0 PACKAGE UPSTREAM_VERSION DESTDIR" >&2; exit 2; }
pkg=$1
upver=$2
dest=$3
here=$(cd "$(dirname "$0")/.." && pwd)

say() { echo "ffmpeg-fetch: $*" >&2; }

if ! command -v apt-get >/dev/null 2>&1; then
    say "apt-get not found: download $pkg $upver yourself and pass it as a tarball or source directory"
    exit 1
fi

find_version() {
    apt-cache showsrc "$pkg" 2>/dev/null | awk -v v="$upver" '
        /^Version:/ { x = $2; u = x; sub(/^[0-9]+:/, "", u); sub(/-[^-]*$/, "", u);
                      if (u == v) print x }' | sort -V | tail -n 1
}

mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
# already fetched and verified earlier?
for f in "$dest/${pkg}_$upver.orig.tar."*; do
    case $f in *.asc) continue ;; esac
    if [ -f "$f" ] && [ -f "$dest/.ok-${pkg}_$upver" ]; then
        echo "$f"
        exit 0
    fi
done

debver=$(find_version)
if [ -z "$debver" ] && "$here/apt-deb-src.sh" --can-write 2>/dev/null; then
    say "no source package $pkg $upver known to apt: adding deb-src entries (scripts/apt-deb-src.sh)"
    "$here/apt-deb-src.sh" --update >&2
    debver=$(find_version)
fi
if [ -z "$debver" ]; then
    say "apt knows no source package $pkg with upstream version $upver."
    say "Run (as root) scripts/apt-deb-src.sh --update, or pass an FFmpeg source tree/tarball."
    exit 1
fi
say "$pkg $upver: source package $pkg=$debver"

cd "$dest"
# apt lists only the files it has not fetched (and verified) yet: no tarball
# line means it is already here.
line=$(apt-get source --print-uris -qq "$pkg=$debver" | grep "\.orig\.tar\.[a-z0-9]*' " | head -n 1 || true)
if [ -n "$line" ]; then
    uri=$(echo "$line" | awk '{ gsub(/'\''/, "", $1); print $1 }')
    file=$(echo "$line" | awk '{ print $2 }')
    hash=$(echo "$line" | awk '{ print $4 }')
    # as root, apt would drop to its sandbox user, which cannot write an
    # arbitrary DESTDIR, and warn: download as the caller instead
    /usr/lib/apt/apt-helper -o APT::Sandbox::User="$(id -un)" download-file "$uri" "$file" "$hash" >&2 ||
        { say "downloading $file failed"; exit 1; }
fi

for f in "${pkg}_$upver.orig.tar."*; do
    case $f in *.asc) continue ;; esac
    if [ -f "$f" ]; then
        : > ".ok-${pkg}_$upver"
        echo "$dest/$f"
        exit 0
    fi
done
say "download of $pkg $upver produced no upstream tarball"
exit 1
