#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
"""Reads a CUPTI trace (bench/trace/cupti_trace.c) of an ffmpeg run and prints
what decides its speed: per thread, the CUDA driver calls and their time
(the filter thread's host waits among them); per decoder thread (the threads
that copy decoded pictures out, cuMemcpy2DAsync), when its frames came out,
the gaps between them and its steady-state rate; the filter thread's graph
launches; GPU time per kernel and stream.

    bench/trace/timeline.py TRACE.csv CBID.csv [--steady A B]

CBID.csv maps CUPTI driver callback ids to names (build.sh writes it).
--steady A B: the frames whose span gives the steady-state rate (default
50 and frames - 50)."""
import collections
import sys


def main():
    args = sys.argv[1:]
    steady = None
    if "--steady" in args:
        i = args.index("--steady")
        steady = (int(args[i + 1]), int(args[i + 2]))
        del args[i:i + 3]
    if len(args) != 2:
        sys.exit(__doc__)
    names = {}
    for line in open(args[1]):
        n, name = line.strip().split(",", 1)
        names[int(n)] = name
    rows = [line.rstrip("\n").split(",", 6) for line in open(args[0])]
    t0 = min(int(r[1]) for r in rows)
    calls = collections.defaultdict(list)
    kernels = collections.defaultdict(lambda: [0, 0])
    for r in rows:
        s, e = int(r[1]) - t0, int(r[2]) - t0
        if r[0] == "A":
            calls[int(r[3])].append((s, e, names.get(int(r[5]), r[5])))
        elif r[0] == "K":
            k = kernels[(r[6][:48], r[3])]
            k[0] += 1
            k[1] += e - s
    ms = lambda ns: ns / 1e6
    print("== threads (CUDA driver calls)")
    for tid, cs in sorted(calls.items(), key=lambda kv: -len(kv[1])):
        if len(cs) < 100:
            continue
        per = collections.Counter(c for _, _, c in cs)
        tot = collections.Counter()
        for s, e, c in cs:
            tot[c] += e - s
        top = ", ".join("%s %d (%.1f ms)" % (c, n, ms(tot[c])) for c, n in per.most_common(6))
        print("thread %d: %d calls, %.1f ms in calls: %s" % (tid, len(cs), ms(sum(tot.values())), top))
    print("== decoder threads (one picture copied out per frame)")
    for tid, cs in calls.items():
        copies = [s for s, _, c in cs if c == "cuMemcpy2DAsync_v2"]
        if len(copies) < 100:
            continue
        # two planes per frame: the first copy of each pair
        frames = sorted(copies)[::2]
        gaps = sorted(b - a for a, b in zip(frames, frames[1:]))
        a, b = steady or (50, len(frames) - 50)
        rate = (b - a) / ((frames[b] - frames[a]) / 1e9)
        big = [(i + 1, round(ms(y - x), 1)) for i, (x, y) in enumerate(zip(frames, frames[1:]))
               if y - x > 8e6]
        print("thread %d: %d frames, first %.1f ms, last %.1f ms; gap median %.2f ms, p90 %.2f ms;"
              " steady rate (frames %d..%d) %.1f fps; gaps > 8 ms after frame: %s"
              % (tid, len(frames), ms(frames[0]), ms(frames[-1]), ms(gaps[len(gaps) // 2]),
                 ms(gaps[9 * len(gaps) // 10]), a, b, rate, big))
    for tid, cs in calls.items():
        g = sorted(s for s, _, c in cs if c == "cuGraphLaunch")
        if len(g) < 100:
            continue
        waits = [(e - s) for s, e, c in cs if c in ("cuEventSynchronize", "cuStreamSynchronize")]
        print("== filter thread %d: %d graph launches, first %.1f ms, last %.1f ms; host waits: %d, "
              "%.2f ms in all" % (tid, len(g), ms(g[0]), ms(g[-1]), len(waits), ms(sum(waits))))
    print("== GPU time per kernel and stream")
    for (name, stream), (n, t) in sorted(kernels.items(), key=lambda kv: -kv[1][1])[:16]:
        print("  %-48s stream %-4s %6d launches %8.1f ms" % (name, stream, n, ms(t)))


main()
