import sys,statistics,collections
def load(fn,metric):
    d=collections.defaultdict(dict)
    for line in open(fn):
        if line.startswith('#') or line.startswith('done'): continue
        p=line.split()
        v,r,name=p[0],p[1],p[2]
        for i,x in enumerate(p):
            if x==metric: d[(name,r)][v]=float(p[i-1])
    return d
for fn,metric in [(a.split(':')[0],a.split(':')[1]) for a in sys.argv[1:]]:
    d=load(fn,metric)
    rat=collections.defaultdict(list); vals=collections.defaultdict(lambda: collections.defaultdict(list))
    for (name,r),vs in d.items():
        for k,x in vs.items(): vals[name][k].append(x)
        if 'old' in vs and 'new' in vs: rat[name].append(vs['new']/vs['old'])
    for name in sorted(rat):
        xs=sorted(rat[name])
        print(f"{name:62s} old {statistics.median(vals[name]['old']):10.4g} new {statistics.median(vals[name]['new']):10.4g} {metric}  new/old {statistics.median(xs):.3f} ({xs[0]:.2f}-{xs[-1]:.2f}) n={len(xs)}")
