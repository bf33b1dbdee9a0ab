#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Compiles one GLSL compute shader variant to SPIR-V (Vulkan 1.2 target),
# validates it, and embeds it as a C array header.
# usage: spv_embed.sh GLSLANG SPIRV_VAL SRCDIR OUTDIR NAME SOURCE [-DDEFINE...]
set -e
glslang=$1 spirv_val=$2 srcdir=$3 outdir=$4 name=$5 src=$6
shift 6
mkdir -p "$outdir"
spv="$outdir/$name.spv"
"$glslang" -V --target-env vulkan1.2 -I"$srcdir" -I"$outdir" "$@" -o "$spv" "$srcdir/$src" >"$outdir/$name.log" 2>&1 || {
    cat "$outdir/$name.log" >&2
    exit 1
}
rm -f "$outdir/$name.log"
if [ -n "$spirv_val" ]; then
    "$spirv_val" --target-env vulkan1.2 "$spv"
fi
{
    echo "/* Generated from kernels/vulkan/$src $* by spv_embed.sh. Do not edit. */"
    echo "static const uint32_t spv_$name[] = {"
    od -An -v -tx4 "$spv" | sed -e 's/ *\([0-9a-f]\{8\}\)/ 0x\1u,/g'
    echo "};"
} >"$outdir/spv_$name.h.tmp"
mv "$outdir/spv_$name.h.tmp" "$outdir/spv_$name.h"
