#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# Installs what building and testing gpussim needs on Debian 12 (or newer):
# the autotools, Vulkan headers + glslang + lavapipe (the Vulkan backend is
# tested on Mesa's software device), PoCL (the Level Zero kernels are tested
# on a CPU OpenCL device), FFmpeg's build tools, and Chromium (headless, for
# tests/cli/test_plot.sh). Idempotent; needs root (or sudo) unless everything is
# already there.
set -euo pipefail

pkgs=(
    build-essential autoconf automake libtool pkg-config python3 xxd
    glslang-tools spirv-tools libvulkan-dev mesa-vulkan-drivers vulkan-tools vulkan-validationlayers
    ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clang llvm-14 llvm-spirv-14 libclc-14 libze-dev
    hipcc
    nasm dpkg-dev xz-utils ccache meson ninja-build
    valgrind libclang-rt-14-dev
    # scripts/dev/check-format.sh (.clang-format), a step of scripts/test.sh
    clang-format-14
    # the Python package's tests (tests/repo/test_python.sh): a venv seeing Debian's numpy
    python3-numpy python3-pytest python3-venv python3-pip
    # headless browser of tests/cli/test_plot.sh (renders `gpussim plot` reports)
    chromium
    # codec libraries linked statically into the gpussim ffmpeg (their -dev
    # packages ship the .a archives): H.264/HEVC/VP9/AV1 encode and decode,
    # Opus/Vorbis/MP3 audio; dav1d is built from source (no static archive
    # in Debian 12)
    libx264-dev libx265-dev libnuma-dev libvpx-dev libaom-dev
    libopus-dev libvorbis-dev libogg-dev libmp3lame-dev zlib1g-dev
)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: everything is installed"
    exit 0
fi
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}"
# apt and dpkg talk a lot (and warn about things that do not matter here):
# their output goes to a log, shown only when something fails
log=$(mktemp "${TMPDIR:-/tmp}/gpussim-install-deps.XXXXXX.log")
if ! { $SUDO apt-get update -qq &&
       DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; } > "$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "install-deps: apt-get failed (whole log: $log)" >&2
    exit 1
fi
echo "install-deps: done (apt's log: $log)"
