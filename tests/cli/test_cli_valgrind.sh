#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The gpussim CLI under valgrind (memcheck) for one normal run: every metric
# with the lcs terms, luma and chroma planes, on a generated 8-bit 4:4:4 y4m
# pair (176x176, 3 frames, 2 worker threads), JSON to a file. Any invalid
# read or write, use of an uninitialised value, or block lost (definitely or
# indirectly) fails it (valgrind exits 99); the scores must equal those of
# the same run without valgrind.
# Skips (77) without valgrind or python3, and in sanitizer builds
# (GPUSSIM_NO_VALGRIND).
if [ -n "${GPUSSIM_NO_VALGRIND:-}" ]; then
    echo "SKIP: GPUSSIM_NO_VALGRIND is set (sanitizer build)"
    exit 77
fi
command -v valgrind >/dev/null 2>&1 || { echo "SKIP: valgrind is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
CLI=${GPUSSIM_CLI:-./gpussim}
[ -x "$CLI" ] || { echo "FAIL: GPUSSIM_CLI ($CLI) is not an executable"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpussim-vg.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

python3 - "$tmp" <<'PY'
import random, sys
w = h = 176
rnd = random.Random(12)
for name, noise in (("ref", 0), ("dis", 12)):
    r = random.Random(7)
    with open(f"{sys.argv[1]}/{name}.y4m", "wb") as f:
        f.write(b"YUV4MPEG2 W176 H176 F25:1 Ip A1:1 C444\n")
        for n in range(3):
            f.write(b"FRAME\n")
            base = bytes((x * 3 + y * 5 + n * 7 + r.randrange(16)) & 255
                         for y in range(h) for x in range(w)) + bytes(r.randrange(256) for _ in range(w * h * 2))
            if noise:
                base = bytes(max(0, min(255, v + rnd.randrange(-noise, noise + 1))) for v in base)
            f.write(base)
PY
args="-q -r $tmp/ref.y4m -d $tmp/dis.y4m --backend cpu --threads 2 --planes all
      --feature float_ssim=enable_lcs=1 --feature float_ms_ssim=enable_lcs=1 --feature float_ansnr --feature ssim"
# shellcheck disable=SC2086
"$CLI" $args -o "$tmp/plain.json" || { echo "FAIL: the run without valgrind failed"; exit 1; }
# shellcheck disable=SC2086
valgrind -q --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
    --track-origins=yes --error-exitcode=99 "$CLI" $args -o "$tmp/vg.json" 2> "$tmp/vg.err"
rc=$?
cat "$tmp/vg.err"
if [ $rc -ne 0 ]; then
    echo "FAIL: gpussim under valgrind exited $rc (99: memcheck errors or leaks, above)"
    exit 1
fi
if grep -q "==[0-9]*==" "$tmp/vg.err"; then
    echo "FAIL: valgrind reported something (above)"
    exit 1
fi
python3 - "$tmp/plain.json" "$tmp/vg.json" <<'PY' || exit 1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
fa, fb = a["frames"], b["frames"]
assert len(fa) == len(fb) == 3, (len(fa), len(fb))
assert [f["metrics"] for f in fa] == [f["metrics"] for f in fb], "scores differ under valgrind"
n = len(fa[0]["metrics"])
print(f"PASS: gpussim under valgrind: no error, no leak; 3 frames x {n} scores equal to the plain run's")
PY
