#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The main job on a fresh Debian machine: installs dependencies, builds
# libgpussim and a static ffmpeg with the gpussim filter (FFmpeg 8.1 via
# apt-get source), then scores a generated sample with
#   ffmpeg -i dis -i ref -lavfi gpussim=feature=all -f null -
# on the best available backend (a GPU when there is one, else the CPU) and
# prints the summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
make -C "$root/build" ffmpeg
exec "$root/scripts/dev/ffmpeg-demo.sh" "$root/build/_ffmpeg/ffmpeg"
