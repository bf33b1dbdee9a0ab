#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The generic parity harness (tests/parity/test_parity.c) for the Level Zero backend:
# CPU reference vs ze on generated inputs and the fixtures, spec §5.
# Exit 77 (skip) without an Intel GPU and its Level Zero driver (everywhere
# the project runs today: the kernels themselves are checked on PoCL by
# tests/parity/test_opencl_kernels).
for bin in ./tests/parity/test_parity "$(dirname "$0")/test_parity"; do
    [ -x "$bin" ] && exec "$bin" ze "$@"
done
echo "SKIP: tests/parity/test_parity is not built"
exit 77
