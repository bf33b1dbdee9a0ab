#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Adds deb-src entries for Debian trixie and sid, derived from the archive
# URIs this machine's apt configuration already uses (deb822 *.sources files
# and one-line sources.list entries), so `apt-get source ffmpeg=7:8.1.x-y`
# works on a bookworm machine without naming any mirror in this repository.
#
# Only source indexes are added (Types: deb-src): no binary package can come
# from them. A pin with a negative priority for those releases is written as
# well, so that even a later hand-added binary entry cannot upgrade anything.
#
# Usage: scripts/apt-deb-src.sh [--update | --can-write]   (needs root; idempotent)
#
# Prints nothing on stdout (callers capture the stdout of scripts that run
# it): progress and errors go to stderr.
set -eu

suites="trixie sid"
# Where apt reads its configuration (APT_CONFIG may point elsewhere, as the
# pristine-machine test does)
eval "$(apt-config shell sources_parts Dir::Etc::sourceparts/d \
        sources_list Dir::Etc::sourcelist/f prefs_parts Dir::Etc::preferencesparts/d)"
sources_parts=${sources_parts%/}
prefs_parts=${prefs_parts%/}
list=$sources_parts/gpussim-deb-src.sources
pin=$prefs_parts/gpussim-deb-src

# --can-write: exit 0 when this script could write its entries (root, or a
# writable apt tree), else 1; writes nothing
if [ ! -w "$sources_parts" ] || [ ! -w "$prefs_parts" ]; then
    [ "${1:-}" = "--can-write" ] ||
        echo "apt-deb-src.sh: cannot write $sources_parts and $prefs_parts: run as root" >&2
    exit 1
fi
[ "${1:-}" != "--can-write" ] || exit 0

# The archive URIs: deb822 "URIs:" fields and one-line "deb URI suite ..."
# entries. Security/updates archives have no trixie/sid sources of use here:
# keep the URIs whose path ends in /debian (the main archive layout).
uris=$(
    {
        for f in "$sources_parts"/*.sources; do
            [ -f "$f" ] || continue
            awk 'BEGIN{IGNORECASE=1} /^[ \t]*URIs:/ { for (i = 2; i <= NF; i++) print $i }' "$f"
        done
        for f in "$sources_list" "$sources_parts"/*.list; do
            [ -f "$f" ] || continue
            awk '$1 == "deb" || $1 == "deb-src" {
                     i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                     print $i }' "$f"
        done
    } | grep -v "^#" | grep -E '/debian/?$' | sed 's:/*$::' | sort -u
)

if [ -z "$uris" ]; then
    echo "apt-deb-src.sh: no Debian archive URI found in the apt configuration" >&2
    exit 1
fi

keyring=/usr/share/keyrings/debian-archive-keyring.gpg
tmp=$(mktemp)
{
    echo "# Written by gpussim scripts/apt-deb-src.sh: source packages only."
    echo "Types: deb-src"
    echo "URIs: $(echo $uris)"
    echo "Suites: $suites"
    echo "Components: main"
    [ -f "$keyring" ] && echo "Signed-By: $keyring"
} > "$tmp"
if ! cmp -s "$tmp" "$list" 2>/dev/null; then
    mv "$tmp" "$list"
    chmod 644 "$list"
    echo "apt-deb-src.sh: wrote $list" >&2
else
    rm -f "$tmp"
fi

{
    for s in $suites; do
        echo "Package: *"
        echo "Pin: release n=$s"
        echo "Pin-Priority: -1"
        echo
    done
} > "$pin"
chmod 644 "$pin"

if [ "${1:-}" = "--update" ]; then
    apt-get update -qq >&2
fi
