#!/bin/sh
# The generic parity harness (tests/test_parity.c) for the cuda backend:
# CPU reference vs CUDA on generated inputs and the fixtures, spec §5.
# Exit 77 (skip) when there is no CUDA device.
dir=$(dirname "$0")
if [ ! -x "$dir/test_parity" ]; then
    echo "SKIP: tests/test_parity is not built"
    exit 77
fi
exec "$dir/test_parity" cuda "$@"
