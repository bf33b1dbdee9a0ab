#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# tests/unit/test_alloc_fail under valgrind: besides the hook's own count of the
# library's allocations, no block may be lost (definitely or indirectly) and
# no invalid read or write may happen on any of the failure paths.
# Skips (77) without valgrind, and in sanitizer builds (GPUSSIM_NO_VALGRIND).
if [ -n "${GPUSSIM_NO_VALGRIND:-}" ]; then
    echo "SKIP: GPUSSIM_NO_VALGRIND is set (sanitizer build)"
    exit 77
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind is not installed"
    exit 77
fi
top=${GPUSSIM_BUILDDIR:-.}
exec "$top/libtool" --mode=execute valgrind -q --leak-check=full \
    --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
    --error-exitcode=99 "$top/tests/unit/test_alloc_fail"
