import json, sys, statistics
rows=[json.loads(l) for l in open(sys.argv[1])]
by={}
read=None
for r in rows:
    if r['case'].startswith('roofline/read'): read=r; continue
    if 'hdml' not in r: continue
    by.setdefault(r['case'],{}).setdefault(r['lib'],[]).append((min(r['hdml']), r['bytes'], r.get('torch')))
for case, libs in by.items():
    o=[x[0] for x in libs.get('old',[])]; n=[x[0] for x in libs.get('new',[])]
    if not o or not n: continue
    b=libs['old'][0][1]
    t=[min(x[2]) for x in libs['old']+libs['new'] if x[2]]
    print(f"{case:26} old {b/min(o)/1e9:6.1f} GB/s new {b/min(n)/1e9:6.1f} GB/s  new/old {min(o)/min(n):.3f} (rounds {' '.join(f'{a/c:.2f}' for a,c in zip(o,n))})  torch {b/min(t)/1e9 if t else 0:6.1f}")
