# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Shared setup of the shell tests (tests/cli/test_*.sh, tests/repo/test_standalone.sh;
# sourced, POSIX sh).
# Defines only: each script calls the checks it needs, in its own order.
# Environment (set by `make check`; each has a default for running by hand
# from the source tree or from the build folder):
#   GPUSSIM_CLI       the built gpussim tool (default: GPUSSIM_BUILDDIR/gpussim,
#                     ./gpussim, or build/gpussim of the source tree)
#   GPUSSIM_FIXTURES  the libvmaf fixtures (default: tests/fixtures of the source
#                     tree; a test that needs them fails when they are missing)

HERE=$(cd "$(dirname "$0")" && pwd)
TOP_SRCDIR=$(cd "$HERE/../.." && pwd)
if [ -n "${GPUSSIM_CLI:-}" ]; then
    CLI=$GPUSSIM_CLI
elif [ -n "${GPUSSIM_BUILDDIR:-}" ]; then
    CLI=$GPUSSIM_BUILDDIR/gpussim
elif [ -x "$PWD/gpussim" ]; then
    CLI=$PWD/gpussim
else
    CLI=$TOP_SRCDIR/build/gpussim
fi
FIXTURES=${GPUSSIM_FIXTURES:-$TOP_SRCDIR/tests/fixtures}

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

# need_tool TOOL [WHAT FOR]: skip without TOOL
need_tool() {
    command -v "$1" >/dev/null 2>&1 || skip "$1 is needed${2:+ $2}"
}

# need_fixtures: fail without the fixture files (part of every checkout)
need_fixtures() {
    [ -f "$FIXTURES/src01_576x324_3f/expected_8bit.json" ] ||
        fail "the fixtures are missing: no $FIXTURES/src01_576x324_3f/expected_8bit.json (tests/fixtures of the checkout, or GPUSSIM_FIXTURES)"
}

# need_cli: fail when the tool is not built
need_cli() {
    [ -x "$CLI" ] || fail "GPUSSIM_CLI ($CLI) is not an executable"
}

# make_tmp NAME: $TMP, a fresh folder removed on exit
make_tmp() {
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpussim-$1.XXXXXX") || exit 1
    trap 'rm -rf "$TMP"' EXIT INT TERM
}

# pass NAME / failed NAME: count one check and print it; summary [WHAT]
# prints the counts and is the script's exit status (its last command)
npass=0
nfail=0
pass() { npass=$((npass + 1)); echo "PASS: $1"; }
failed() { nfail=$((nfail + 1)); echo "FAIL: $1"; }
summary() {
    echo "${1:+$1: }$npass passed, $nfail failed"
    [ "$nfail" -eq 0 ]
}
