#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The generic parity harness (tests/parity/test_parity.c) for the HIP backend: CPU
# reference vs hip on generated inputs and the fixtures, spec §5.
# Exit 77 (skip) without an AMD GPU and the ROCm HIP runtime (everywhere the
# project runs today: the HIP backend has never run on AMD hardware; its
# kernels are the CUDA backend's, checked on the H100).
for bin in ./tests/parity/test_parity "$(dirname "$0")/test_parity"; do
    [ -x "$bin" ] && exec "$bin" hip "$@"
done
echo "SKIP: tests/parity/test_parity is not built"
exit 77
