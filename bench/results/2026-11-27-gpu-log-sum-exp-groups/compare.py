# Compares bench/cuda/gpu_bench.py JSONs of libraries run alternately: compare.py DIR LIB1 LIB2 (files DIR/lse-LIB-N.json).
import json, sys, math, glob, os
d = sys.argv[1]; libs = sys.argv[2:]
res = {}; copy = {}
for lib in libs:
    for f in sorted(glob.glob(f'{d}/lse-{lib}-*.json')):
        j = json.load(open(f)); copy[lib] = j['copy_gbps']
        for v in j['rows']:
            res.setdefault((v['dtype'], v['case']), {}).setdefault(lib, []).append((v['hdml']['warm_ms'], v['hdml']['warm_gbps'] / j['copy_gbps'], v['hdml'].get('correct'), v['torch']['warm_ms']))
print('copy GB/s', copy)
print('| type | case | ' + ' | '.join(f'{l} ms (% copy)' for l in libs) + ' | ' + ' | '.join(f'{l}/{libs[0]}' for l in libs[1:]) + ' | PyTorch ms |')
print('|---|---|' + '---|' * (2 * len(libs)))
g = {l: [] for l in libs[1:]}
for k, v in res.items():
    best = {l: min(x[0] for x in v[l]) for l in libs}
    pct = {l: max(x[1] for x in v[l]) for l in libs}
    for l in libs[1:]: g[l].append(best[libs[0]] / best[l])
    ok = all(x[2] for l in libs for x in v[l])
    print(f"| {k[0]} | {k[1]} | " + ' | '.join(f'{best[l]:.4f} ({pct[l]*100:.0f}%)' for l in libs) + ' | ' + ' | '.join(f'{best[libs[0]]/best[l]:.2f}x' for l in libs[1:]) + f" | {min(x[3] for l in libs for x in v[l]):.4f} |" + ('' if ok else ' WRONG'))
for l in libs[1:]: print(l, 'geomean speed-up over', libs[0], math.exp(sum(map(math.log, g[l])) / len(g[l])))
