import json, sys, glob
out = sys.argv[1]
runs = {}
for f in sorted(glob.glob(out + '/ab-*.json')):
    lib, r = f.split('/')[-1][3:-5].rsplit('-', 1)
    d = json.load(open(f))
    for row in d['rows']:
        key = (row['op'], row['dtype'], row['case'])
        h, t = row['hdml'], row.get('torch') or {}
        ms = h.get('cold_ms') or h.get('warm_ms')
        runs.setdefault(key, {}).setdefault(lib, []).append((ms, h.get('correct'), (t.get('cold_ms') or t.get('warm_ms')), d['copy_gbps'], row['bytes']))
for key, libs in runs.items():
    line = f"{key[0][:22]:22} {key[1]:4} {key[2][:42]:42}"
    for lib, v in sorted(libs.items()):
        ms = [x[0] for x in v]; tms = [x[2] for x in v if x[2]]
        best = min(ms)
        pct = v[0][4] / (best * 1e-3) / 1e9 / v[0][3] * 100
        line += f" | {lib}: {'/'.join(f'{m*1000:.1f}' for m in ms)}us {pct:.0f}% torch x{(min(tms)/best if tms else float('nan')):.2f} ok={all(x[1] for x in v)}"
    print(line)
