"""Ratios of wsq's cost to its peers', per round, from rounds.txt.

For each scenario of BenchmarkPools, wsq's time per task over the best
pool's (ants, pond, conc; not plain goroutines) in the same round; for
each item size of BenchmarkOrderedMap, wsq's time per item over the faster
of juniper and rill in the same round. Prints the median of the rounds
with the smallest and largest ratio, and each contender's median: first
for the wall time (ns/task, ns/item), then for the process's processor
time (cpu-ns/task, cpu-ns/item), which other jobs on the machine do not
stretch.
"""
import re
import statistics
import sys
from collections import defaultdict

wall = defaultdict(dict)  # round -> name -> ns per task or item
cpu = defaultdict(dict)
r = 0
for line in open(sys.argv[1]):
    if line.startswith("# round"):
        r = int(line.split()[2].rstrip(","))
        continue
    if not line.startswith("Benchmark"):
        continue
    name = re.match(r"^Benchmark(\S+)-\d+\s", line).group(1)
    m = re.search(r"([\d.]+) ns/(task|item)", line)
    if m:
        wall[r][name] = float(m.group(1))
    m = re.search(r"([\d.]+) cpu-ns/(task|item)", line)
    if m:
        cpu[r][name] = float(m.group(1))


def fmt(xs):
    if not xs:
        return "–"
    return "%.2f (%.2f–%.2f)" % (statistics.median(xs), min(xs), max(xs))


def med(rounds, name):
    xs = [v[name] for v in rounds.values() if name in v]
    return "%.0f" % statistics.median(xs) if xs else "–"


def tables(rounds, unit):
    print("| scenario (%s per task) | wsq | ants | pond | conc | goroutines | wsq ÷ best pool |" % unit)
    print("|---|---:|---:|---:|---:|---:|---:|")
    for work in ["cpu", "block"]:
        for sub in [1, 4, 100]:
            base = "Pools/work=%s/submitters=%d/impl=" % (work, sub)
            ratios = []
            for v in rounds.values():
                pools = [v.get(base + p) for p in ["ants", "pond", "conc"]]
                if base + "wsq" in v and all(pools):
                    ratios.append(v[base + "wsq"] / min(pools))
            cells = [med(rounds, base + i) for i in ["wsq", "ants", "pond", "conc", "goroutines"]]
            print("| %s, %d submitters | %s | %s |" % (work, sub, " | ".join(cells), fmt(ratios)))
    print()
    print("| items (%s per item) | wsq | juniper | rill | wsq ÷ faster |" % unit)
    print("|---|---:|---:|---:|---:|")
    for item in ["1us", "100us"]:
        base = "OrderedMap/item=%s/impl=" % item
        ratios = []
        for v in rounds.values():
            if all(base + i in v for i in ["wsq", "juniper", "rill"]):
                ratios.append(v[base + "wsq"] / min(v[base + "juniper"], v[base + "rill"]))
        cells = [med(rounds, base + i) for i in ["wsq", "juniper", "rill"]]
        print("| %s | %s | %s |" % (item.replace("us", " µs"), " | ".join(cells), fmt(ratios)))


print("Wall time:\n")
tables(wall, "ns")
if cpu:
    print("\nProcessor time of the process:\n")
    tables(cpu, "cpu-ns")
