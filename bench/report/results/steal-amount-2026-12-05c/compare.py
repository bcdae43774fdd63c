import collections,statistics,sys
d=collections.defaultdict(list)
for f in sys.argv[1:]:
  for l in open(f):
    if l.startswith('#'): continue
    p=l.split()
    if len(p)<4: continue
    b,n,v=p[0],p[1],p[3]
    parts=n.split('/')
    row=parts[1][5:]+' '+parts[2][5:]
    st=parts[3].split('-')[0][6:]
    ch=st if st!='auto' else b+'-auto'
    d[(row,ch)].append(float(v))
rows=sorted(set(r for r,_ in d))
chs=sorted(set(c for _,c in d))
fixed=[c for c in chs if not c.endswith('auto')]
autos=[c for c in chs if c.endswith('auto')]
print('%-22s %-5s %8s '%('row','best','ms')+' '.join('%9s'%c for c in autos+fixed))
miss=collections.Counter()
for r in rows:
  med={c:statistics.median(d[(r,c)]) for c in chs if d[(r,c)]}
  bf=min(fixed,key=lambda c:med[c])
  out=[]
  for c in autos+fixed:
    x=med[c]/med[bf]; out.append('%9.3f'%x)
    if c in autos and x>1.05: miss[c]+=1
  print('%-22s %-5s %8.2f '%(r,bf,med[bf]/1e6)+' '.join(out))
print('misses', dict(miss), 'n', {c:len(d[(rows[0],c)]) for c in chs})
