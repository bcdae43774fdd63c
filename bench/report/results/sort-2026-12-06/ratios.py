#!/usr/bin/env python3
"""ratios.py: summary.md from records.txt (round, workers, benchmark, ns/op).

For each input and worker count: wsq's median time, and the median over
rounds of wsq's time over each other implementation's in the same round,
with the smallest and largest (below 1, wsq is faster).

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

order = ["random", "sorted", "reversed", "equal", "distinct16", "zipf"]


def key(k):
    b, w = k
    elem, kind = b.split("=", 1)[1].split("-", 1)
    return (elem, w, order.index(kind) if kind in order else 99)


for bench, title, others in [
    ("BenchmarkSort/", "Sort", ["slices", "goroutines", "rayon", "slice"]),
    ("BenchmarkSortStable/", "SortStableFunc", ["slices", "rayon", "slice"]),
]:
    print(f"\n| {title}: input | workers | wsq median (ms) | " + " | ".join("wsq ÷ " + o for o in others) + " |")
    print("|---|---:|---:|" + "---:|" * len(others))
    keys = sorted({(b, w) for (b, w, r) in d if b.startswith(bench)}, key=key)
    for b, w in keys:
        rs = [x for (bb, ww, r), x in sorted(d.items()) if (bb, ww) == (b, w)]
        cells = []
        for o in others:
            xs = sorted(x["wsq"] / x[o] for x in rs if o in x and "wsq" in x)
            cells.append(f"**{statistics.median(xs):.2f}** ({xs[0]:.2f}–{xs[-1]:.2f})" if xs else "–")
        med = statistics.median(x["wsq"] for x in rs if "wsq" in x) / 1e6
        print(f"| {b.split('=', 1)[1]} | {w} | {med:.1f} | " + " | ".join(cells) + " |")
