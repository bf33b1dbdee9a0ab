#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The Python package (python/): installed as docs/python.md says, `pip install ./python`
# into a fresh venv made with --system-site-packages (Debian's python3-numpy and
# python3-pytest), then its pytest suite run against the installed package: every value
# equal to the gpussim tool's and libvmaf's, score_files() against the filter (when ffmpeg is
# built). Then an sdist and a wheel are built by the package's own backend, a wheel is built
# from the unpacked sdist, installed into a second venv, and checked with the sdist's tests.
# Nothing is downloaded (pip runs with --no-index: a download would be a bug).
# Exits 77 when /usr/bin/python3 (or GPUSSIM_PYTHON) lacks numpy, pytest or venv/ensurepip.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
builddir=${GPUSSIM_BUILDDIR:-$top/build}
PY=${GPUSSIM_PYTHON:-/usr/bin/python3}
skip() { echo "test_python: SKIP: $*"; exit 77; }
fail() { echo "test_python: FAIL: $*" >&2; exit 1; }

# the sanitizer run's libgpussim is instrumented: Debian's python3 is not, and
# the package is tested on the ordinary build (make check) already
[ -z "${GPUSSIM_SANITIZER_BUILD:-}" ] || skip "sanitizer build: python3 is not instrumented (the package is tested in make check)"
[ -x "$PY" ] || skip "no $PY (set GPUSSIM_PYTHON)"
missing=
"$PY" -c "import numpy" 2>/dev/null || missing="$missing python3-numpy"
"$PY" -c "import pytest" 2>/dev/null || missing="$missing python3-pytest"
"$PY" -c "import venv, ensurepip" 2>/dev/null || missing="$missing python3-venv"
[ -z "$missing" ] || skip "$PY lacks$missing (scripts/install-deps.sh installs them)"
lib=$builddir/.libs/libgpussim.so.0
[ -f "$lib" ] || skip "no shared library $lib (configured with --disable-shared?)"
[ -f "$top/tests/fixtures/src01_576x324_3f/expected_8bit.json" ] || fail "the fixtures are missing"

work=$(mktemp -d "${TMPDIR:-/tmp}/gpussim-test_python.XXXXXX")
trap 'rm -rf "$work"' EXIT
# pip's and Python's caches stay in the work folder (an empty HOME, as on a user's first run)
export HOME="$work/home" PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
mkdir -p "$HOME"
# the build folder of this run, when it is not the checkout's build/ that pip finds by itself
[ "$builddir" -ef "$top/build" ] || export GPUSSIM_LIBRARY="$lib"
[ -x "${GPUSSIM_FFMPEG_DIR:-/nonexistent}/ffmpeg" ] && export GPUSSIM_FFMPEG="$GPUSSIM_FFMPEG_DIR/ffmpeg"
export GPUSSIM_SOURCE_DIR="$top" GPUSSIM_CLI="${GPUSSIM_CLI:-$builddir/gpussim}"

echo "== pip install ./python into a venv (--system-site-packages)"
"$PY" -m venv --system-site-packages "$work/venv"
(cd "$top" && "$work/venv/bin/pip" install -q --no-index ./python) || fail "pip install ./python failed"
where=$(cd "$work" && "$work/venv/bin/python" -c "import gpussim; print(gpussim.__file__); print(gpussim.library_path)")
echo "$where"
case $where in
"$work/venv/"*"/gpussim/__init__.py"*) ;;
*) fail "gpussim was not imported from the venv: $where" ;;
esac
echo "$where" | grep -q "_lib/libgpussim.so.0" || fail "the installed package does not load its own libgpussim.so.0"

echo "== pytest (installed package)"
cd "$work"
PYTHON="$work/venv/bin/python" "$work/venv/bin/python" -m pytest -p no:cacheprovider -q -rs "$top/python/tests"

echo "== sdist and wheel (the package's own backend), a wheel built from the sdist"
"$PY" "$top/python/_backend/gpussim_build.py" sdist "$work/dist" > "$work/sdist.txt"
"$PY" "$top/python/_backend/gpussim_build.py" wheel "$work/dist" > "$work/wheel.txt"
sdist=$(cat "$work/sdist.txt")
wheel=$(cat "$work/wheel.txt")
"$PY" - "$sdist" "$wheel" <<'PYEOF'
import sys, tarfile, zipfile
sdist, wheel = sys.argv[1:]
names = tarfile.open(sdist).getnames()
assert "gpussim-0.1.0/pyproject.toml" in names and "gpussim-0.1.0/gpussim/_scorer.py" in names, names
assert not [n for n in names if n.endswith(".so.0") or "__pycache__" in n], names
w = zipfile.ZipFile(wheel).namelist()
assert "gpussim/_lib/libgpussim.so.0" in w and "gpussim-0.1.0.dist-info/RECORD" in w, w
print(f"sdist {len(names)} files, wheel {len(w)} files")
PYEOF
mkdir "$work/src"
tar -xzf "$sdist" -C "$work/src"
GPUSSIM_LIBRARY="$lib" "$work/venv/bin/pip" wheel -q --no-index --no-deps -w "$work/wheels" "$work/src/gpussim-0.1.0"
"$PY" -m venv --system-site-packages "$work/venv2"
"$work/venv2/bin/pip" install -q --no-index "$work"/wheels/gpussim-0.1.0-*.whl
echo "== pytest (wheel built from the sdist, the sdist's tests)"
# outside the checkout, the tests find the tool and the fixtures through the environment
GPUSSIM_FIXTURES="${GPUSSIM_FIXTURES:-$top/tests/fixtures}" PYTHON="$work/venv2/bin/python" \
    "$work/venv2/bin/python" -m pytest -p no:cacheprovider -q -rs "$work/src/gpussim-0.1.0/tests" \
    -k "fixtures or layout or strided"
