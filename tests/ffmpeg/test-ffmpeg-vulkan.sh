#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Vulkan hardware frames end to end: both inputs are uploaded to a Vulkan
# device (lavapipe on a machine without a GPU) and scored by gpussim.
# Asserts one of:
#   - the library has a Vulkan backend: every value equals the CPU backend's
#     on the same frames within the spec's tolerance (5e-5; section 5), and
#     the summary names backend vulkan;
#   - it has none: ffmpeg exits non-zero (no crash) with the message that the
#     gpussim library was built without the vulkan backend.
# Also: Vulkan frames with a pixel format gpussim does not read fail clearly,
# and one software input with one Vulkan input fails asking for hwupload.
# Skips (77) when FFmpeg cannot open a Vulkan device.
. "$(dirname "$0")/common.sh"

dev="-init_hw_device vulkan=vk -filter_hw_device vk"
if ! ff $dev -f lavfi -i testsrc2=s=64x64:d=0.04 -vf format=yuv420p,hwupload,hwdownload,format=yuv420p \
        -f null - > /dev/null 2> "$work/probe-err"; then
    sed -n '1,5p' "$work/probe-err"
    skip "FFmpeg cannot create a Vulkan device here"
fi

src="testsrc2=s=352x288:r=25:d=0.2"
graph_for() { # backend-suffix upload-chain
    echo "[0:v]split[a][b];[b]gblur=sigma=1.2[bd];[a]format=yuv420p$2[r];[bd]format=yuv420p$2[d];[d][r]gpussim=$1,metadata=print:file=$work/meta-$3.txt"
}

ff -f lavfi -i "$src" -lavfi "$(graph_for backend=cpu '' cpu)" -f null - 2> "$work/err-cpu"
set +e
ff $dev -f lavfi -i "$src" -lavfi "$(graph_for backend=auto ',hwupload' vk)" -f null - 2> "$work/err-vk"
rc=$?
set -e
if [ $rc = 0 ]; then
    grep -q "backend vulkan" "$work/err-vk" || { cat "$work/err-vk" >&2; fail "summary does not name backend vulkan"; }
    $COMPARE "meta:$work/meta-vk.txt" "meta:$work/meta-cpu.txt" --tol 5e-5
    note "Vulkan frames scored by the Vulkan backend"
else
    ! is_crash $rc || { cat "$work/err-vk" >&2; fail "ffmpeg crashed (status $rc)"; }
    if grep -q "Vulkan frames need FFmpeg 8.0 or newer" "$work/err-vk"; then
        # FFmpeg 7.1: refused on purpose (see the filter), never a wrong number
        note "ok: FFmpeg 7.1 refuses Vulkan frames with a clear message"
    else
        grep -q "the gpussim library was built without the vulkan backend" "$work/err-vk" ||
            { cat "$work/err-vk" >&2; fail "Vulkan frames failed (status $rc) without the backend-missing message"; }
        note "ok: no Vulkan backend in libgpussim: exit status $rc, message: $(grep 'built without the vulkan backend' "$work/err-vk" | head -n 1 | sed 's/^\[[^]]*\] *//')"
    fi
fi

# a format gpussim does not read, on Vulkan frames
expect_failure "pixel format rgba is not supported" $dev -f lavfi -i "$src" \
    -lavfi "[0:v]split[a][b];[a]format=rgba,hwupload[d];[b]format=rgba,hwupload[r];[d][r]gpussim" -f null -
# software distorted, Vulkan reference
expect_failure "add hwupload to the distorted input" $dev -f lavfi -i "$src" \
    -lavfi "[0:v]split[a][b];[a]format=yuv420p[d];[b]format=yuv420p,hwupload[r];[d][r]gpussim" -f null -
# Vulkan frames with an explicit CPU backend
expect_failure "backend=cpu cannot read Vulkan frames" $dev -f lavfi -i "$src" \
    -lavfi "[0:v]split[a][b];[a]format=yuv420p,hwupload[d];[b]format=yuv420p,hwupload[r];[d][r]gpussim=backend=cpu" -f null -
note "PASS"
