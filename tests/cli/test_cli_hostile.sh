#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# What the CLI reads is hostile: a y4m header (or -w/-h/-p/-b) can ask for a
# frame of up to 32768x32768 16-bit 4:4:4 (6 GiB). A file too short for one
# such frame is refused before the frame buffer is allocated (exit 2, a
# message naming the sizes; the process stays small), and from a pipe under
# a 2 GiB address-space limit the allocation failure is an error naming the
# size, not a crash. Skips (77) without python3.
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
CLI=${GPUSSIM_CLI:-./gpussim}
[ -x "$CLI" ] || { echo "FAIL: GPUSSIM_CLI ($CLI) is not an executable"; exit 1; }
exec python3 - "$CLI" <<'PY'
import os, resource, subprocess, sys, tempfile
cli = sys.argv[1]
failed = 0
def check(ok, what):
    global failed
    print(("PASS: " if ok else "FAIL: ") + what)
    failed += not ok

with tempfile.TemporaryDirectory() as tmp:
    big = os.path.join(tmp, "big.y4m")
    with open(big, "wb") as f:
        f.write(b"YUV4MPEG2 W32768 H32768 F25:1 C444p16\nFRAME\n" + b"\0" * 4096)
    raw = os.path.join(tmp, "small.yuv")
    with open(raw, "wb") as f:
        f.write(b"\0" * 100000)

    def run(args, data=None, limit_kib=None):
        def pre():
            if limit_kib:
                resource.setrlimit(resource.RLIMIT_AS, (limit_kib * 1024, limit_kib * 1024))
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        p = subprocess.run([cli, "-q", "-o", os.path.join(tmp, "out.json")] + args, input=data,
                           capture_output=True, preexec_fn=pre)
        return p.returncode, p.stderr.decode(errors="replace").strip(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss

    rc, err, rss = run(["-r", big, "-d", big, "--backend", "cpu"])
    print("   ", err.splitlines()[0] if err else "(no message)")
    check(rc == 2 and "cannot hold one 32768x32768 4:4:4 16-bit frame (6442450950 bytes)" in err,
          f"y4m file whose header asks for 6 GiB frames: exit {rc}, refused with the sizes")
    check(rss < 64 * 1024, f"... and the process stayed small (max RSS {rss} KiB)")

    rc, err, rss = run(["-r", raw, "-d", raw, "-w", "32768", "-h", "32768", "-p", "444", "-b", "16",
                        "--backend", "cpu"])
    print("   ", err.splitlines()[-1] if err else "(no message)")
    check(rc == 2 and "cannot hold one 32768x32768" in err and "-w/-h/-p/-b" in err,
          f"raw file with -w/-h asking for 6 GiB frames: exit {rc}, refused with the sizes")

    # from a pipe (stdin): the size is unknown, the allocation is tried.
    # Not under ASan (scripts/dev/check-sanitizers.sh): its shadow memory needs
    # terabytes of address space, and its allocator aborts on 6 GiB.
    checks = 3
    if os.environ.get("ASAN_OPTIONS") is not None:
        print("SKIP: the address-space limit case under AddressSanitizer")
    else:
        checks += 1
        with open(big, "rb") as f:
            header = f.read()
        rc, err, rss = run(["-r", "-", "-d", big, "--backend", "cpu"], data=header,
                           limit_kib=2 * 1024 * 1024)
        print("   ", err.splitlines()[0] if err else "(no message)")
        check(rc == 2 and "stdin: cannot allocate a 6442450944-byte frame buffer" in err,
              f"the same header on stdin under a 2 GiB address-space limit: exit {rc}, a clear error")

print(f"{checks - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
