#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The SPIR-V module the Level Zero backend embeds (built from
# kernels/ze/kernels.cl): it passes spirv-val, exports every kernel the
# plan launches (hwctx/ze/ze_plan.c), and every kernel with float arithmetic
# carries the ContractionOff execution mode (no FMA contraction on the
# device). Skips (77) when the backend or spirv-val/spirv-dis is absent.
spv=${GPUSSIM_ZE_SPV:-kernels/ze/kernels.spv}
[ -f "$spv" ] || { echo "SKIP: $spv not built (Level Zero backend not configured)"; exit 77; }
command -v spirv-val >/dev/null 2>&1 && command -v spirv-dis >/dev/null 2>&1 ||
    { echo "SKIP: spirv-val/spirv-dis not installed (spirv-tools)"; exit 77; }
fail=0
if spirv-val "$spv"; then echo "ok: spirv-val $spv"; else echo "FAIL: spirv-val $spv"; fail=1; fi
dis=$(spirv-dis --raw-id "$spv") || { echo "FAIL: spirv-dis"; exit 1; }
for k in unpack_plane_ze issim_hfilter_ze; do
    echo "$dis" | grep -q "OpEntryPoint Kernel %[0-9]* \"$k\"" && echo "ok: entry point $k" ||
        { echo "FAIL: no entry point $k"; fail=1; }
done
for k in convert_to_float_ze ssim_decimate_box_ze msssim_decimate_lpf_ze ssim_hfilter_ze \
         ssim_vfilter_terms_ze ansnr_filter_ze ansnr_row_sums_ze issim_vfilter_terms_ze; do
    id=$(echo "$dis" | sed -n "s/.*OpEntryPoint Kernel %\([0-9]*\) \"$k\".*/\1/p")
    if [ -z "$id" ]; then echo "FAIL: no entry point $k"; fail=1; continue; fi
    echo "$dis" | grep -q "OpExecutionMode %$id ContractionOff" &&
        echo "ok: entry point $k, ContractionOff" ||
        { echo "FAIL: $k lacks the ContractionOff execution mode"; fail=1; }
done
exit $fail
