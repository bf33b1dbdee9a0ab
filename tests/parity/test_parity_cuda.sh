#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The generic parity harness (tests/parity/test_parity.c) for the cuda backend:
# CPU reference vs CUDA on generated inputs and the fixtures, spec §5.
# Exit 77 (skip) when there is no CUDA device. make check runs it from the
# build directory; by hand: tests/parity/test_parity_cuda.sh [--quick|--full].
for d in ./tests/parity "$(dirname "$0")"; do
    if [ -x "$d/test_parity" ]; then
        exec "$d/test_parity" cuda "$@"
    fi
done
echo "SKIP: tests/parity/test_parity is not built"
exit 77
