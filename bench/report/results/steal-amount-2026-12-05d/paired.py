# Median of the paired ratios b/a per benchmark: python3 paired.py FILE A B
import collections, statistics, sys

f, a, b = sys.argv[1:4]
d = collections.defaultdict(dict)
for line in open(f):
    if line.startswith('#'):
        continue
    r, binary, name, v = line.split()
    d[(name, r)][binary] = float(v)
for name in sorted({k[0] for k in d}):
    pairs = [x for k, x in d.items() if k[0] == name and a in x and b in x]
    ratio = statistics.median(x[b] / x[a] for x in pairs)
    print(f"{name}  {b}/{a} {ratio:.3f}  ({len(pairs)} rounds)")
