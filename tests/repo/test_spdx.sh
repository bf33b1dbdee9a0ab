#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
#
# Every source file of the project names its license: BSD-2-Clause, except the
# FFmpeg filter and the FFmpeg patches (LGPL-2.1-or-later, like FFmpeg). Fails
# naming each file without the right SPDX line. Skips (77) outside a git
# checkout (a release tarball has no file list to check against).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v git >/dev/null 2>&1 && git -C "$top" rev-parse --git-dir >/dev/null 2>&1 ||
    { echo "test_spdx: SKIP: not a git checkout"; exit 77; }
bad=0
n=0
for f in $(git -C "$top" ls-files); do
    case $f in
    *.md | .gitignore | LICENSE | COPYING.*) continue ;;
    # binary seed inputs of the fuzz targets: licensed by their folder's README.md
    tests/fuzz/corpus/*/*) continue ;;
    # fixture frames (their LICENSE beside them) and measured values:
    # tests/fixtures/README.md
    tests/fixtures/src01_576x324_3f/*) continue ;;
    vf_gpussim/* | patches/*.patch | patches/*/*.patch) want=LGPL-2.1-or-later ;;
    *) want=BSD-2-Clause ;;
    esac
    n=$((n + 1))
    if ! head -n 12 "$top/$f" | grep -q "SPDX-License-Identifier: $want\( \|\$\)"; then
        echo "test_spdx: $f: no 'SPDX-License-Identifier: $want' in its first lines"
        bad=$((bad + 1))
    fi
done
[ -f "$top/LICENSE" ] && [ -f "$top/COPYING.LGPLv2.1" ] || { echo "test_spdx: LICENSE or COPYING.LGPLv2.1 missing"; exit 1; }
echo "test_spdx: $n files checked, $bad without their license line"
[ $bad = 0 ]
