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
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] || autoreconf -fi
mkdir -p build
cd build
if [ ! -f Makefile ] || [ ../configure -nt config.status ] || [ $# -gt 0 ]; then
    ../configure --enable-silent-rules "$@"
fi
make -j"$(nproc)"
