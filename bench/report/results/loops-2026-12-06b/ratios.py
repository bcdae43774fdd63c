#!/usr/bin/env python3
"""ratios.py: summary.md from records.txt (round, workers, benchmark, ns/op).

For each workload and worker count: wsq's median time, and the median over
rounds of wsq's time over each other implementation's in the same round,
with the smallest and largest.

    python3 ratios.py records.txt > summary.md
"""
import collections
import statistics
import sys

d = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r, w, name, v = line.split()
    bench, impl = name.rsplit("/impl=", 1)
    d[(bench, int(w), int(r))][impl] = float(v)

for kind, others in [("Loop", ["serial", "chunks", "errgroup", "conc", "rayon", "rust-serial"]),
                     ("Sort", ["slices", "goroutines", "rayon", "slice"])]:
    print(f"\n| {kind.lower()} | workers | wsq median (ms) | " + " | ".join("wsq ÷ " + o for o in others) + " |")
    print("|---|---:|---:|" + "---:|" * len(others))
    keys = sorted({(b, w) for (b, w, r) in d if b.startswith("Benchmark" + kind)}, key=lambda k: (k[1], k[0]))
    for b, w in keys:
        rs = [x for (bb, ww, r), x in sorted(d.items()) if (bb, ww) == (b, w)]
        cells = []
        for o in others:
            xs = sorted(x["wsq"] / x[o] for x in rs if o in x and "wsq" in x)
            cells.append(f"**{statistics.median(xs):.2f}** ({xs[0]:.2f}–{xs[-1]:.2f})" if xs else "–")
        med = statistics.median(x["wsq"] for x in rs) / 1e6
        print(f"| {b.split('=')[1]} | {w} | {med:.1f} | " + " | ".join(cells) + " |")
