#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# Builds cupti_trace.so (next to this script) on a machine with CUDA's CUPTI
# headers and library (the GPU machine: the development machine has neither),
# and cbid.csv, the driver callback names timeline.py reads.
#
#   bench/trace/build.sh [CUDA_DIR]          (default /usr/local/cuda)
#   CUDA_INJECTION64_PATH=$PWD/bench/trace/cupti_trace.so TRACE_OUT=t.csv ffmpeg ...
#   bench/trace/timeline.py t.csv bench/trace/cbid.csv
#
# Why not nsys: on the GPU machine nsys records a .qdstrm but cannot import
# it into a report (its QdstrmImporter lacks libdw there). The CUDA driver
# loads this library at cuInit (CUDA_INJECTION64_PATH), which works for the
# static ffmpeg too: kernels, copies, memsets, synchronisations and driver
# calls with their streams and threads, as CSV.
set -e
cd "$(dirname "$0")"
cuda=${1:-/usr/local/cuda}
inc=$cuda/include
[ -f "$inc/cupti.h" ] || inc=$(dirname "$(find "$cuda/" -name cupti.h | head -n 1)")
lib=$(dirname "$(find "$cuda/" -name 'libcupti.so' | head -n 1)")
# the newest version of each activity record this CUPTI has
pick() { grep -ho "$1[0-9]*\b" "$inc"/cupti_activity*.h | sort -V | uniq | tail -n 1; }
gcc -O2 -shared -fPIC -o cupti_trace.so cupti_trace.c -I"$inc" \
    -DKERNEL_T="$(pick CUpti_ActivityKernel)" -DMEMCPY_T="$(pick CUpti_ActivityMemcpy)" \
    -DMEMSET_T="$(pick CUpti_ActivityMemset)" -DSYNC_T="$(pick CUpti_ActivitySynchronization)" \
    -L"$lib" -lcupti -Wl,-rpath,"$lib"
sed -n 's/^ *CUPTI_DRIVER_TRACE_CBID_\([A-Za-z0-9_]*\) *= *\([0-9]*\).*/\2,\1/p' \
    "$inc/cupti_driver_cbid.h" > cbid.csv
echo "bench/trace: cupti_trace.so, cbid.csv ($(wc -l < cbid.csv) driver calls)"
