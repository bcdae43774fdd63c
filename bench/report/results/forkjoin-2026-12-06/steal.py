import collections,statistics,re,sys
d=collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    if line.startswith('#'): continue
    p=line.split()
    name=p[1]
    m=re.search(r'steal=(auto|one|0\.1|0\.5|0\.9)',name)
    key=name.replace(m.group(0),'steal=*')
    d[key][m.group(1)].append(float(p[3]))
ok=0;ahead=0
print("| workload | auto | one | 0.1 | 0.5 | 0.9 | auto ÷ best fixed (best) |")
print("|---|---:|---:|---:|---:|---:|---:|")
for k in sorted(d):
    med={c:statistics.median(v) for c,v in d[k].items()}
    best=min((v,c) for c,v in med.items() if c!='auto')
    r=med['auto']/best[0]
    ok+= r<=1.05; ahead+= r<=0.9
    print(f"| {k.replace('BenchmarkStealAmount/','').replace('/steal=*-2','')} | "+" | ".join(f"{med[c]/1e6:.2f}" for c in ['auto','one','0.1','0.5','0.9'])+f" | {r:.3f} ({best[1]}) |")
print(ok,"of",len(d),"within 5%;",ahead,"10% ahead")
