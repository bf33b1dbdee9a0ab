# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Shared setup for the FFmpeg filter tests (sourced, POSIX sh).
# Environment (set by make check; each has a default for running by hand):
#   GPUSSIM_FFMPEG_DIR  folder with the built ffmpeg/ffprobe (BUILDDIR/_ffmpeg)
#   GPUSSIM_FIXTURES    the libvmaf fixtures (tests/fixtures)
# A test that sets NEED_FIXTURES=yes before sourcing this fails, before any
# skip, when the fixture files are missing.
#   GPUSSIM_CLI         the gpussim command line tool (optional for some checks)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "$here/../.." && pwd)
: "${GPUSSIM_FFMPEG_DIR:=$PWD/_ffmpeg}"
: "${GPUSSIM_FIXTURES:=$top_srcdir/tests/fixtures}"
: "${GPUSSIM_CLI:=$PWD/gpussim}"
: "${GPUSSIM_SCORE_RAW:=$PWD/tests/ffmpeg/score_raw}"
FFMPEG=$GPUSSIM_FFMPEG_DIR/ffmpeg
FFPROBE=$GPUSSIM_FFMPEG_DIR/ffprobe
COMPARE="python3 $here/compare.py"
FIX=$GPUSSIM_FIXTURES/src01_576x324_3f
test_name=$(basename "$0" .sh)

skip() { echo "$test_name: SKIP: $*"; exit 77; }
fail() { echo "$test_name: FAIL: $*" >&2; exit 1; }
note() { echo "$test_name: $*"; }

[ "${NEED_FIXTURES:-no}" = no ] || [ -f "$FIX/expected_8bit.json" ] ||
    fail "the fixtures are missing: no $FIX/expected_8bit.json (tests/fixtures of the checkout, or GPUSSIM_FIXTURES)"
[ "${NEED_FFMPEG:-yes}" = no ] || [ -x "$FFMPEG" ] || skip "no ffmpeg built at $FFMPEG (make ffmpeg)"
command -v python3 >/dev/null 2>&1 || skip "python3 not found"

work=$(mktemp -d "${TMPDIR:-/tmp}/gpussim-$test_name.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ffmpeg quietly, but with the filter's messages (info level) in $work/err
ff() { "$FFMPEG" -hide_banner -nostdin -y "$@"; }

is_crash() { case $1 in 132|134|135|136|137|139) return 0 ;; esac; return 1; }

# Runs ffmpeg expecting failure; $work/err gets stderr.
# Usage: expect_failure "message regex" ffmpeg-args...
expect_failure() {
    pattern=$1
    shift
    set +e
    "$FFMPEG" -hide_banner -nostdin -y "$@" > "$work/out" 2> "$work/err"
    rc=$?
    set -e
    if [ $rc = 0 ]; then
        cat "$work/err" >&2
        fail "expected ffmpeg to fail with /$pattern/, it exited 0"
    fi
    # FFmpeg exits with its error code (234 for EINVAL, 218 for ENOSYS...);
    # a crash is a death by signal: SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGKILL, SIGSEGV
    if is_crash $rc; then
        cat "$work/err" >&2
        fail "ffmpeg crashed (exit status $rc) instead of failing with /$pattern/"
    fi
    if ! grep -Eq "$pattern" "$work/err"; then
        cat "$work/err" >&2
        fail "ffmpeg failed (status $rc) but without the message /$pattern/"
    fi
    note "ok: exit status $rc, message: $(grep -E "$pattern" "$work/err" | head -n 1 | sed 's/^\[[^]]*\] *//')"
}

have_cli() { [ -x "$GPUSSIM_CLI" ]; }

# The reference the filter's numbers are compared with: the gpussim CLI when
# it is built, else tests/ffmpeg/score_raw (the library called directly).
# Both score every metric with the lcs terms on the CPU backend.
have_oracle() { have_cli || [ -x "$GPUSSIM_SCORE_RAW" ]; }
oracle_name() { if have_cli; then echo "gpussim CLI"; else echo "libgpussim (score_raw)"; fi; }
# score_oracle REF DIS WIDTH HEIGHT CHROMA(420|422|444|400) BITDEPTH PLANES(luma|all) OUT.json
score_oracle() {
    if have_cli; then
        "$GPUSSIM_CLI" -q -r "$1" -d "$2" -w "$3" -h "$4" -p "$5" -b "$6" --backend cpu \
            --planes "$7" --feature float_ssim=enable_lcs=1 --feature float_ms_ssim=enable_lcs=1 \
            --feature float_ansnr --feature ssim -o "$8"
    else
        "$GPUSSIM_SCORE_RAW" "$1" "$2" "$3" "$4" "$5" "$6" "$7" > "$8"
    fi
}
