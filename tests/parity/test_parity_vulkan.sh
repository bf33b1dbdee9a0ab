#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Vulkan backend vs the CPU reference (spec §5), on whatever Vulkan device the
# loader offers (lavapipe in CI, the NVIDIA driver on the GPU machine):
#   1. tests/parity/test_parity vulkan: fixtures at 8/10/12/16 bit and generated
#      inputs at every depth, layout and size class (host pictures);
#   2. tests/parity/test_vulkan_frames: the same comparison on Vulkan frames (the
#      FFmpeg-frame path: adopted device, hwupload-like images, the
#      AVVkFrame sync contract), plus create/destroy cycles;
#   3. tests/parity/test_ladder: ladder frames, whose program has its own
#      schedule (no barriers inside a wave: vulkan_plan.c's schedule_steps)
#      and level-0 windows (ssim_lad_hv), equal to pairs;
#      only under the layer (without it, this would repeat the test that
#      make check runs on its own);
#   4. 1 and 3 with 16 KiB of shared memory a workgroup (Vulkan's minimum;
#      GPUSSIM_TEST_VK_SHARED_LIMIT): the two-pass forms of the SSIM windows
#      and of integer SSIM, which lavapipe's 32 KiB would not take.
# All run under the Khronos validation layer (with synchronization
# validation) when it is installed; any validation message fails the test
# (GPUSSIM_VK_VALIDATION=0: without it, as the sanitizer suite runs). Exit 77
# (skip) without a usable device.
# GPUSSIM_PARITY_ARGS: extra test_parity arguments (--quick, --full).
# On lavapipe with 2 cores the whole script takes about 155 s.
set -u
builddir=$(cd "$(dirname "$0")/../.." && pwd)
[ -x "$builddir/tests/parity/test_parity" ] || builddir=$(pwd)

if [ -z "${VK_INSTANCE_LAYERS:-}" ] && [ "${GPUSSIM_VK_VALIDATION:-1}" = 1 ]; then
    for d in /usr/share/vulkan/explicit_layer.d /usr/local/share/vulkan/explicit_layer.d \
             /etc/vulkan/explicit_layer.d; do
        if [ -f "$d/VkLayer_khronos_validation.json" ]; then
            VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
            export VK_INSTANCE_LAYERS
            # synchronization validation too: the frame program has
            # barriers only between dependent dispatches; a missing one is
            # a SYNC-HAZARD message
            : "${VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT}"
            export VK_LAYER_ENABLES
            echo "validation layer: on"
            break
        fi
    done
fi

args=${GPUSSIM_PARITY_ARGS:-}

status=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
run() {
    "$@" >"$out" 2>&1
    rc=$?
    cat "$out"
    if grep -q -E 'Validation (Error|Warning)|VUID-' "$out"; then
        echo "FAIL: validation layer messages in: $*"
        rc=1
    fi
    return $rc
}

# shellcheck disable=SC2086
run "$builddir/tests/parity/test_parity" vulkan $args
rc=$?
[ $rc -eq 77 ] && { echo "SKIP: no usable Vulkan device"; exit 77; }
[ $rc -ne 0 ] && status=1

run "$builddir/tests/parity/test_vulkan_frames"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 77 ] && status=1

# 4. the two-pass forms of the SSIM windows and of integer SSIM, which a
#    device with Vulkan's minimum shared memory (16 KiB) gets: pairs against
#    the CPU, ladders against pairs (test_ladder's own run takes the
#    one-dispatch forms lavapipe has room for)
# shellcheck disable=SC2086
run env GPUSSIM_TEST_VK_SHARED_LIMIT=16384 "$builddir/tests/parity/test_parity" vulkan $args
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 77 ] && status=1
run env GPUSSIM_TEST_VK_SHARED_LIMIT=16384 "$builddir/tests/parity/test_ladder"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 77 ] && status=1

if [ -n "${VK_INSTANCE_LAYERS:-}" ]; then
    run "$builddir/tests/parity/test_ladder"
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 77 ] && status=1
fi
exit $status
