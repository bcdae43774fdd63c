# summarize.py: summary.md from the rounds of the two binaries, before and after.
import re, statistics, sys, collections
def parse(path, metric):
    cur=None; data=collections.defaultdict(lambda: collections.defaultdict(list))
    for line in open(path):
        m=re.match(r'== (\w+) round (\d+)', line)
        if m: cur=(m.group(1), int(m.group(2))); continue
        if line.startswith('Benchmark'):
            f=line.split()
            name=f[0]
            for i in range(2,len(f)-1):
                if f[i+1]==metric:
                    data[name][cur[0]].append((cur[1], float(f[i])))
    return data
def table(path, metric, title):
    d=parse(path, metric)
    print(f"\n{title} ({metric}); after ÷ before per round, median (min–max)\n")
    print("| benchmark | before | after | after ÷ before |\n|---|---:|---:|---:|")
    for name in sorted(d):
        b=dict(d[name]['before']); a=dict(d[name]['after'])
        rs=[a[r]/b[r] for r in sorted(set(a)&set(b))]
        if not rs: continue
        print(f"| {name} | {statistics.median(b.values()):,.0f} | {statistics.median(a.values()):,.0f} | {statistics.median(rs):.3f} ({min(rs):.3f}–{max(rs):.3f}) |")
import os
os.chdir(os.path.dirname(os.path.abspath(__file__)))
table('forkjoin-rounds.txt','ns/op','BenchmarkForkJoin')
table('pools-rounds.txt','ns/op','BenchmarkPools, wall')
table('pools-rounds.txt','cpu-ns/task','BenchmarkPools, processor time')
