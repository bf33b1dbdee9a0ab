#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Configures and builds libgpussim, the CLI and the tests in build/ (out of
# tree). Re-running rebuilds only what changed. Extra arguments go to
# configure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p m4
# autoreconf when configure is missing or older than any of its inputs
# (configure.ac, the Makefile.am fragments, the project's m4 macros)
[ -x configure ] && [ -z "$(find configure.ac Makefile.am m4/gpussim_*.m4 hwctx kernels -maxdepth 2 \
    \( -name configure.ac -o -name '*.am' -o -name 'gpussim_*.m4' \) -newer configure)" ] || autoreconf -fi
mkdir -p build
cd build
if [ ! -f Makefile ] || [ ../configure -nt config.status ] || [ $# -gt 0 ]; then
    ../configure --enable-silent-rules "$@"
fi
make -j"$(nproc)"
