import collections,statistics,re,sys
d=collections.defaultdict(dict)
r=0
for line in open(sys.argv[1]):
    if line.startswith('#'): r+=1; continue
    p=line.split()
    name=re.sub(r'-2$','',p[0])
    m=re.search(r'queue=(bq|cl-ub)$',name) or re.search(r'impl=(?:pool|join)-(bq|cl-ub)$',name)
    key=name[:m.start(1)]+'*'
    ns=float(p[2]); share=None
    for i,x in enumerate(p):
        if x=='idle-share': share=float(p[i-1])
    d[key][(m.group(1),r)]=(ns,share)
print("| benchmark | bq (ms) | cl-ub (ms) | bq ÷ cl-ub: median (min–max) | idle-share bq / cl-ub |")
print("|---|---:|---:|---:|---:|")
for k in sorted(d):
    v=d[k]; rs=sorted({r for (_,r) in v})
    rat=sorted(v[('bq',r)][0]/v[('cl-ub',r)][0] for r in rs if ('bq',r) in v and ('cl-ub',r) in v)
    bqs=statistics.median(v[('bq',r)][0] for r in rs)/1e6; cls=statistics.median(v[('cl-ub',r)][0] for r in rs)/1e6
    sh=[v[('bq',r)][1] for r in rs if v[('bq',r)][1] is not None]; shc=[v[('cl-ub',r)][1] for r in rs if v[('cl-ub',r)][1] is not None]
    shs=f"{statistics.median(sh):.3f} / {statistics.median(shc):.3f}" if sh else "–"
    print(f"| {k.replace('Benchmark','')} | {bqs:.1f} | {cls:.1f} | {statistics.median(rat):.3f} ({rat[0]:.3f}–{rat[-1]:.3f}) | {shs} |")
