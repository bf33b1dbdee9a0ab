#!/bin/sh
# Adds deb-src entries for Debian trixie and sid, derived from the archive
# URIs this machine's apt configuration already uses (deb822 *.sources files
# and one-line sources.list entries), so `apt-get source ffmpeg=7:8.1.x-y`
# works on a bookworm machine without naming any mirror in this repository.
#
# Only source indexes are added (Types: deb-src): no binary package can come
# from them. A pin with a negative priority for those releases is written as
# well, so that even a later hand-added binary entry cannot upgrade anything.
#
# Usage: scripts/apt-deb-src.sh [--update]   (needs root; idempotent)
set -eu

suites="trixie sid"
list=/etc/apt/sources.list.d/gpussim-deb-src.sources
pin=/etc/apt/preferences.d/gpussim-deb-src

if [ "$(id -u)" != 0 ]; then
    echo "apt-deb-src.sh: must run as root (it writes $list)" >&2
    exit 1
fi

# The archive URIs: deb822 "URIs:" fields and one-line "deb URI suite ..."
# entries. Security/updates archives have no trixie/sid sources of use here:
# keep the URIs whose path ends in /debian (the main archive layout).
uris=$(
    {
        for f in /etc/apt/sources.list.d/*.sources; do
            [ -f "$f" ] || continue
            awk 'BEGIN{IGNORECASE=1} /^[ \t]*URIs:/ { for (i = 2; i <= NF; i++) print $i }' "$f"
        done
        for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
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
    echo "apt-deb-src.sh: wrote $list"
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
    apt-get update -qq
fi
