"""summarize.py FILE [MODE ...]: the tables of README.md from the
benchmark lines of FILE (bench.txt, array-items.txt): per mode and tree,
the medians over rounds of each search's time, and the median (smallest
to largest) over rounds of the ratios taken within one round."""
import re,sys,statistics as st
rows=[];r=0
for l in open(sys.argv[1]):
    if l.startswith('# round'): r=int(l.split()[2]); continue
    if l.startswith('#'): continue
    if not l.startswith('Bench'): continue
    f=l.split()
    name=f[0]; ns=float(f[2])
    m=re.match(r'BenchmarkUTS/mode=(\w+)/tree=(\w+)/impl=(\w+?)(-2)?$',name)
    mode,tree,impl,cpu=m.group(1),m.group(2),m.group(3),2 if m.group(4) else 1
    d={'r':r,'mode':mode,'tree':tree,'impl':impl,'cpu':cpu,'ms':ns/1e6}
    for i in range(4,len(f)-1,2):
        d[f[i+1]]=float(f[i])
    rows.append(d)
def get(r,mode,tree,impl,cpu):
    for d in rows:
        if (d['r'],d['mode'],d['tree'],d['impl'],d['cpu'])==(r,mode,tree,impl,cpu): return d
rounds=sorted(set(d['r'] for d in rows))
def fmt(v): return '%.2f (%.2f–%.2f)'%(st.median(v),min(v),max(v))
print('| mode | tree | serial ms | Run 1w | Run 2w | Pool 1w | Pool 2w | Run speedup (÷ serial) | Pool speedup (÷ serial) | Run 2w ÷ Pool 2w | idle % Run/Pool 2w |')
print('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for mode in (sys.argv[2:] or ['random','master']):
    for tree in ['T1','T3']:
        ser=[get(r,mode,tree,'serial',1)['ms'] for r in rounds]
        R1=[get(r,mode,tree,'run',1)['ms'] for r in rounds]
        R2=[get(r,mode,tree,'run',2)['ms'] for r in rounds]
        P1=[get(r,mode,tree,'pool',1)['ms'] for r in rounds]
        P2=[get(r,mode,tree,'pool',2)['ms'] for r in rounds]
        rs=[s/x for s,x in zip(ser,R2)]; ps=[s/x for s,x in zip(ser,P2)]
        rp=[a/b for a,b in zip(R2,P2)]
        ri=[get(r,mode,tree,'run',2)['idle-%'] for r in rounds]; pi=[get(r,mode,tree,'pool',2)['idle-%'] for r in rounds]
        print('| %s | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %s | %s | %s | %.2f / %.2f |'%(mode,tree,st.median(ser),st.median(R1),st.median(R2),st.median(P1),st.median(P2),fmt(rs),fmt(ps),fmt(rp),st.median(ri),st.median(pi)))
print()
print('speedup over own 1 worker: ')
for mode in (sys.argv[2:] or ['random','master']):
    for tree in ['T1','T3']:
        for impl in ['run','pool']:
            v=[get(r,mode,tree,impl,1)['ms']/get(r,mode,tree,impl,2)['ms'] for r in rounds]
            print(mode,tree,impl,fmt(v))
