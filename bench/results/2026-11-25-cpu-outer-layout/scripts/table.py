import json,collections,sys
d=sys.argv[1]; libs=sys.argv[2].split(',')
best=collections.defaultdict(lambda: collections.defaultdict(list))
for l in open(d+'/ab.jsonl'):
    r=json.loads(l); x=r['r']
    if 'seconds' not in x: print(r); continue
    best[(x['case'],r['threads'])][r['lib']].append(x['bytes']/min(x['seconds'])/1e9)
torch={}
for l in open(d+'/torch.jsonl'):
    r=json.loads(l)
    if 'gbps' in r: torch[(r['case'],r['threads'])]=r['gbps']
print("| case | threads | " + " | ".join(libs) + " | PyTorch | %s/%s | %s/PyTorch |" % (libs[-1], libs[0], libs[-1]))
print("|---|---|" + "---|"*(len(libs)+3))
for k in sorted(best, key=lambda k:(k[1],k[0])):
    v=[max(best[k][l]) for l in libs]; t=torch.get(k)
    print(f"| {k[0]} | {k[1]} | " + " | ".join(f"{x:.1f}" for x in v) + f" | {t:.1f} | {v[-1]/v[0]:.2f}x | {v[-1]/t:.2f}x |")
