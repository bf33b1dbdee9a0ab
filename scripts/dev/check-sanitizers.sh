#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# ASan + UBSan run of the test suite: configures a second build directory
# (build-asan/, or $GPUSSIM_ASAN_BUILDDIR) with
#   CFLAGS=-fsanitize=address,undefined -fno-sanitize-recover=undefined
# builds the library, the CLI and the tests there and runs `make check`:
# the CPU backend, Vulkan on lavapipe, the Level Zero kernels on PoCL, the
# CLI end to end, the allocation-failure walk. CUDA and HIP are left out (no
# device runs them here, and their device code is not instrumented).
#
# Every sanitizer report fails the run, also one from a test whose own
# checks passed: reports go to files (log_path) that are collected at the
# end. LeakSanitizer reads tests/lib/lsan.supp (PoCL/LLVM's kernel-compiler
# allocations only); POCL_CACHE_DIR is a fresh directory so that the cold
# PoCL compile that suppression covers is what always runs.
#
# Libraries opened at run time stay loaded until exit during the tests: a
# small preloaded library (built here, into the build directory) makes
# dlclose() a no-op. The Vulkan loader (1.3.239 in Debian 12, which has no
# VK_LOADER_DISABLE_DYNAMIC_LIBRARY_UNLOADING) unloads every driver and
# implicit layer at vkDestroyInstance; what a driver kept in its globals
# (allocated once, held until exit, no leak) then loses its only reference
# when the mapping goes away, and LeakSanitizer reports it as a leak
# "from an unloaded module" whose stack cannot be symbolized, so no
# suppression can name it. With the driver still mapped at exit, such memory
# is reachable again, and a real leak in a driver shows its function names
# (what tests/lib/lsan.supp needs to name it).
# Extra arguments go to configure. Prints the elapsed time.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mkdir -p m4
[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] || autoreconf -fi
build=${GPUSSIM_ASAN_BUILDDIR:-$root/build-asan}
jobs=${JOBS:-$(nproc)}
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
start=$(date +%s)

mkdir -p "$build"
cd "$build"
if [ ! -f Makefile ] || [ "$root/configure" -nt config.status ] || [ $# -gt 0 ]; then
    "$root/configure" --enable-silent-rules --disable-cuda --disable-hip \
        CFLAGS="-g -O1 $san" CXXFLAGS="-g -O1 $san" LDFLAGS="$san" "$@"
fi
make -j"$jobs"
built=$(date +%s)

# dlclose() that unloads nothing (see above); preloaded ahead of the ASan
# runtime, hence verify_asan_link_order=0 (it defines dlclose only, no
# allocator function and no constructor, so the order does not matter)
keep_loaded=$build/san-keep-loaded.so
printf '%s\n' '/* built by scripts/dev/check-sanitizers.sh: libraries stay loaded until exit */' \
    'int dlclose(void *handle);' \
    'int dlclose(void *handle) { (void)handle; return 0; }' > "$build/san-keep-loaded.c"
${CC:-cc} -shared -fPIC -O1 -o "$keep_loaded" "$build/san-keep-loaded.c"

reports=$(mktemp -d "${TMPDIR:-/tmp}/gpussim-san.XXXXXX")
pocl_cache=$(mktemp -d "${TMPDIR:-/tmp}/gpussim-pocl.XXXXXX")
trap 'rm -rf "$reports" "$pocl_cache"' EXIT
export LD_PRELOAD="$keep_loaded${LD_PRELOAD:+:$LD_PRELOAD}"
export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:halt_on_error=1:strict_string_checks=1:detect_invalid_pointer_pairs=0:verify_asan_link_order=0"
export UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/tests/lib/lsan.supp:print_suppressions=0"
export POCL_CACHE_DIR="$pocl_cache"
export GPUSSIM_NO_VALGRIND=1 # valgrind cannot run ASan binaries
export GPUSSIM_SANITIZER_BUILD=1 # tests that load the library into an uninstrumented host skip
# tests/parity/test_parity_vulkan.sh without the Khronos validation layer
# here: the layer keeps its own bookkeeping (about 800 KB in C++ objects
# with no gpussim frame) past exit, which LeakSanitizer reports. The plain
# suite runs the same test under the layer (synchronization validation on).
export GPUSSIM_VK_VALIDATION=0

status=0
make -j"$jobs" check || status=$?
sed -n 's/^# \(TOTAL\|PASS\|SKIP\|FAIL\|ERROR\): */\1 /p' test-suite.log | tr '\n' ' '
echo
if [ "$status" -ne 0 ]; then
    for f in $(find . -name '*.trs' -newer Makefile); do
        grep -q -E '^:test-result: (FAIL|ERROR)' "$f" && { echo "==== ${f%.trs}.log"; tail -40 "${f%.trs}.log"; }
    done
fi
if [ -n "$(ls -A "$reports")" ]; then
    echo "==== sanitizer reports"
    for f in "$reports"/*; do
        echo "---- $f"
        cat "$f"
    done
    status=1
fi
end=$(date +%s)
echo "sanitizers: build $((built - start)) s, make check $((end - built)) s," \
     "$([ "$status" -eq 0 ] && echo "no report" || echo FAILED)"
exit "$status"
