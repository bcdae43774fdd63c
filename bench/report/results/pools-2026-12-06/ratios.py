"""Ratios of wsq's time to its peers', per round, from rounds.txt.

For each scenario of BenchmarkPools, wsq's ns/task over the best pool's
(ants, pond, conc; not plain goroutines) in the same round; for each item
size of BenchmarkOrderedMap, wsq's ns/item over the faster of juniper and
rill in the same round. Prints the median of the rounds with the smallest
and largest ratio, and each contender's median time.
"""
import re
import statistics
import sys
from collections import defaultdict

rounds = defaultdict(dict)  # round -> name -> value
r = 0
for line in open(sys.argv[1]):
    if line.startswith("# round"):
        r = int(line.split()[2].rstrip(","))
        continue
    m = re.match(r"^Benchmark(\S+)-\d+\s+\d+\s+.*?([\d.]+) ns/(task|item)", line)
    if m:
        rounds[r][m.group(1)] = float(m.group(2))

def fmt(xs):
    return "%.2f (%.2f–%.2f)" % (statistics.median(xs), min(xs), max(xs))

def med(name):
    return statistics.median(v[name] for v in rounds.values() if name in v)

print("| scenario | wsq | ants | pond | conc | goroutines | wsq ÷ best pool |")
print("|---|---:|---:|---:|---:|---:|---:|")
for work in ["cpu", "block"]:
    for sub in [1, 4, 100]:
        base = "Pools/work=%s/submitters=%d/impl=" % (work, sub)
        ratios = []
        for v in rounds.values():
            pools = [v.get(base + p) for p in ["ants", "pond", "conc"]]
            if base + "wsq" in v and all(pools):
                ratios.append(v[base + "wsq"] / min(pools))
        cells = ["%.0f" % med(base + i) for i in ["wsq", "ants", "pond", "conc", "goroutines"]]
        print("| %s, %d submitters (ns/task) | %s | %s |" % (work, sub, " | ".join(cells), fmt(ratios)))
print()
print("| items | wsq | juniper | rill | wsq ÷ faster |")
print("|---|---:|---:|---:|---:|")
for item in ["1us", "100us"]:
    base = "OrderedMap/item=%s/impl=" % item
    ratios = []
    for v in rounds.values():
        if all(base + i in v for i in ["wsq", "juniper", "rill"]):
            ratios.append(v[base + "wsq"] / min(v[base + "juniper"], v[base + "rill"]))
    cells = ["%.0f" % med(base + i) for i in ["wsq", "juniper", "rill"]]
    print("| %s (ns/item) | %s | %s |" % (item, " | ".join(cells), fmt(ratios)))
