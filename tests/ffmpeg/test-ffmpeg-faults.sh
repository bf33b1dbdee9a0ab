#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# A device that fails in the middle of a run (the library's test aid
# GPUSSIM_TEST_FAULT_FRAME=10: collecting frame 10 fails with -EIO, as a
# device fault reported by the wait does): ffmpeg exits non-zero, the error
# names the frame and the backend, and the JSON log is valid and holds
# exactly the frames scored before the fault (0..9) with the values of a
# fault-free run (the frames in flight after it are not recorded). On the
# CPU backend always, on Vulkan frames where a Vulkan device exists
# (lavapipe here) and on the CUDA backend where an NVIDIA GPU is there. The
# library-level CUDA faults (a failing launch, copy, allocation, wait through
# the driver table) are tests/parity/test_cuda_faults.
. "$(dirname "$0")/common.sh"

src="testsrc2=s=320x240:r=25:d=1.6"
chain_of() { # backend: the graph for it
    case $1 in
    vulkan) echo "[0:v]split[a][b];[b]gblur=sigma=2,format=yuv420p,hwupload[bd];[a]format=yuv420p,hwupload[au];[au][bd]gpussim=backend=vulkan" ;;
    *) echo "[0:v]split[a][b];[b]gblur=sigma=2[bd];[a][bd]gpussim=backend=$1" ;;
    esac
}

faults() { # backend [ffmpeg options...]
    b=$1; shift
    chain=$(chain_of "$b")
    # fault-free
    ff "$@" -f lavfi -i "$src" -lavfi "$chain:log_path=$work/$b-ok.json" -f null - 2> "$work/$b-ok.err" ||
        { cat "$work/$b-ok.err" >&2; fail "$b: the fault-free run failed"; }
    # frame 10 fails
    set +e
    GPUSSIM_TEST_FAULT_FRAME=10 ff "$@" -f lavfi -i "$src" -lavfi "$chain:log_path=$work/$b-fault.json" \
        -f null - 2> "$work/$b-fault.err"
    rc=$?
    set -e
    is_crash $rc && { cat "$work/$b-fault.err" >&2; fail "$b: ffmpeg crashed (exit status $rc)"; }
    [ $rc -ne 0 ] || { cat "$work/$b-fault.err" >&2; fail "$b: ffmpeg exited 0 after a device fault"; }
    grep -q "frame 10 failed on backend $b: " "$work/$b-fault.err" ||
        { cat "$work/$b-fault.err" >&2; fail "$b: no error naming frame 10 and backend $b"; }
    python3 - "$work/$b-ok.json" "$work/$b-fault.json" "$b" <<'PY' || fail "$b: the log after the fault is wrong"
import json, math, sys
ok = {f["frameNum"]: f["metrics"] for f in json.load(open(sys.argv[1]))["frames"]}
log = json.load(open(sys.argv[2]))          # valid JSON, finished by the filter
got = {f["frameNum"]: f["metrics"] for f in log["frames"]}
b = sys.argv[3]
assert len(ok) == 40, f"{b}: the fault-free run scored {len(ok)} frames"
assert sorted(got) == list(range(10)), f"{b}: the log has frames {sorted(got)}, not 0..9"
for n, m in got.items():
    assert m == ok[n], f"{b}: frame {n} differs from the fault-free run"
# the pooled values are those of the frames in the log
for k, p in log["pooled_metrics"].items():
    v = [m[k] for m in got.values()]
    assert p["min"] == min(v) and p["max"] == max(v), f"{b}: pooled {k} is not over the logged frames"
print(f"{b}: exit non-zero, the log has frames 0..9, each equal to the fault-free run")
PY
    note "ok: $b: exit status $rc"
}

faults cpu

dev="-init_hw_device vulkan=vk -filter_hw_device vk"
# shellcheck disable=SC2086
if ff $dev -f lavfi -i "$src" -frames:v 1 -vf format=yuv420p,hwupload -f null - >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    faults vulkan $dev
else
    note "no Vulkan device: the Vulkan part is skipped"
fi
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    faults cuda
else
    note "no NVIDIA GPU: the CUDA part is skipped"
fi
# the CLI: the same fault, the same promise
if have_cli; then
    ff -f lavfi -i "$src" -pix_fmt yuv420p "$work/r.y4m" 2>/dev/null
    ff -i "$work/r.y4m" -vf gblur=sigma=2 "$work/d.y4m" 2>/dev/null
    set +e
    GPUSSIM_TEST_FAULT_FRAME=10 "$GPUSSIM_CLI" -r "$work/r.y4m" -d "$work/d.y4m" --backend cpu \
        -o "$work/cli.json" 2> "$work/cli.err"
    rc=$?
    set -e
    [ $rc -eq 1 ] || { cat "$work/cli.err" >&2; fail "CLI: exit status $rc after a device fault, expected 1"; }
    grep -q "stopped after frame 10 failed; writing the 10 frames scored before it" "$work/cli.err" ||
        { cat "$work/cli.err" >&2; fail "CLI: no message about the frames kept"; }
    python3 - "$work/cli.json" <<'PY' || fail "CLI: the log after the fault is wrong"
import json, sys
assert [f["frameNum"] for f in json.load(open(sys.argv[1]))["frames"]] == list(range(10))
PY
    note "ok: CLI: exit status 1, the log has frames 0..9"
fi
note "PASS"
