#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The first FFmpeg build on a machine that has never run it: apt knows no
# deb-src entries yet. The fetch script must add them itself (to the apt
# configuration in force), download the upstream tarball, and print its path
# as the only line on stdout -- a stray message there once became part of the
# path ffmpeg-build.sh extracted, and a fresh machine's first build failed.
#
# Rehearsed against a temporary apt tree (APT_CONFIG) holding this machine's
# own sources without gpussim's entries and with no package lists at all, so
# it catches that class of failure even on a machine that already has them.
# Needs the Debian archive (network); skips (77) when the machine's own
# sources cannot be reached at all.
set -eu
NEED_FFMPEG=no
. "$(dirname "$0")/common.sh"

command -v apt-get >/dev/null 2>&1 || skip "not an apt-based system"

eval "$(apt-config shell sys_parts Dir::Etc::sourceparts/d sys_list Dir::Etc::sourcelist/f \
        sys_prefs Dir::Etc::preferencesparts/d)"
apt_root=$work/apt
mkdir -p "$apt_root/sources.list.d" "$apt_root/preferences.d" "$apt_root/lists/partial" \
    "$apt_root/cache/archives/partial" "$work/dl"
# laid out like /var/lib/apt: apt's sandbox user must reach its partial folders
chmod 755 "$work" "$apt_root"
if id _apt >/dev/null 2>&1; then
    chown _apt "$apt_root/lists/partial" "$apt_root/cache/archives/partial"
fi
for f in "$sys_parts"*.sources "$sys_parts"*.list; do
    [ -f "$f" ] || continue
    case $(basename "$f") in gpussim-*) continue ;; esac
    cp "$f" "$apt_root/sources.list.d/"
done
[ ! -f "$sys_list" ] || cp "$sys_list" "$apt_root/sources.list"
cat > "$apt_root/apt.conf" <<EOF
Dir::Etc::SourceList "$apt_root/sources.list";
Dir::Etc::SourceParts "$apt_root/sources.list.d";
Dir::Etc::Preferences "$apt_root/preferences";
Dir::Etc::PreferencesParts "$apt_root/preferences.d";
Dir::State::Lists "$apt_root/lists";
Dir::Cache "$apt_root/cache";
EOF
export APT_CONFIG=$apt_root/apt.conf
sys_before=$(ls "$sys_parts" "$sys_prefs")

# pristine: no deb-src entry of ours and no source index
if apt-cache showsrc nv-codec-headers 2>/dev/null | grep -q '^Version:'; then
    fail "the temporary apt state is not pristine: it already knows nv-codec-headers sources"
fi
[ -z "$(ls "$apt_root/sources.list.d" | grep gpussim || true)" ] || fail "gpussim entries leaked into the copy"
apt-get update -qq > "$work/update.out" 2>&1 ||
    skip "apt-get update fails with this machine's own sources (no network?): $(tail -n 1 "$work/update.out")"

set +e
"$top_srcdir/scripts/dev/ffmpeg-fetch.sh" nv-codec-headers 12.1.14.0 "$work/dl" > "$work/out" 2> "$work/err"
rc=$?
set -e
cat "$work/err" | sed 's/^/  stderr: /'
[ $rc = 0 ] || fail "ffmpeg-fetch.sh failed on a pristine apt state (exit $rc)"

# stdout: exactly one line, the tarball
[ "$(wc -l < "$work/out")" = 1 ] || { sed 's/^/  stdout: /' "$work/out"; fail "stdout has $(wc -l < "$work/out") lines, expected 1 (the tarball path)"; }
tarball=$(cat "$work/out")
case $tarball in
"$work/dl/nv-codec-headers_12.1.14.0.orig.tar."*) ;;
*) fail "stdout is '$tarball', not the tarball's path in $work/dl" ;;
esac
[ -f "$tarball" ] || fail "$tarball does not exist"
tar tf "$tarball" | grep -q 'include/ffnvcodec/nvEncodeAPI.h' || fail "$tarball is not nv-codec-headers"
note "ok: stdout is the tarball path alone: $(basename "$tarball")"

# nothing alarming on stderr: apt errors or warnings on a successful fetch
if grep -E '^(E|W): ' "$work/err"; then
    fail "a successful first fetch printed apt errors/warnings (above)"
fi
note "ok: no apt E:/W: lines on a successful first fetch"

# the entries went to the apt configuration in force, not the machine's
[ -f "$apt_root/sources.list.d/gpussim-deb-src.sources" ] || fail "no deb-src entries were written to the temporary apt tree"
grep -q '^Types: deb-src$' "$apt_root/sources.list.d/gpussim-deb-src.sources" || fail "the written entries are not source-only"
[ "$(ls "$sys_parts" "$sys_prefs")" = "$sys_before" ] || fail "the machine's own apt configuration was changed"
note "ok: deb-src entries written to the apt tree in force (source-only), the machine's own left alone"

# a second run: the same single line, nothing downloaded again
"$top_srcdir/scripts/dev/ffmpeg-fetch.sh" nv-codec-headers 12.1.14.0 "$work/dl" > "$work/out2" 2> "$work/err2"
cmp -s "$work/out" "$work/out2" || fail "a second run printed '$(cat "$work/out2")'"
note "ok: a second run prints the same path"

# the shell-level contract for every other captured script: apt-deb-src.sh
# prints nothing on stdout, whatever it does
"$top_srcdir/scripts/apt-deb-src.sh" --update > "$work/out3" 2> /dev/null
[ ! -s "$work/out3" ] || fail "apt-deb-src.sh printed on stdout: $(head -n 1 "$work/out3")"
note "ok: apt-deb-src.sh keeps stdout empty"
