#!/usr/bin/env python3
"""A/B table from cpu_bench.py lines tagged "lib" and "round" (vm-sj.jsonl, xeon-sj.jsonl; also
2026-11-26-cpu-log-sum-exp-max-pass/):
ab_table.py BEFORE AFTER FILE...: medians of every timing of the two libs (or overlays),
the run's best roofline (copy for data movement and scans, read otherwise), PyTorch's median."""
import json, statistics, sys
before, after = sys.argv[1], sys.argv[2]
for path in sys.argv[3:]:
    cases, roof = {}, {}
    for line in open(path):
        r = json.loads(line)
        gbs = lambda times: [r["bytes"] / t / 1e9 for t in times]
        if r["case"].startswith("roofline/"):
            k = (r["threads"], r["case"].split("/")[1])
            roof[k] = max(roof.get(k, 0), *gbs(r["seconds"]))
        elif "hdml" in r:
            c = cases.setdefault((r["threads"], r["case"]), {before: [], after: [], "torch": []})
            if r["lib"] in c: c[r["lib"]] += gbs(r["hdml"])
            c["torch"] += gbs(r["torch"]) if r.get("torch") and r["lib"] == after else []
    print(f"\n{path}: " + ", ".join(f"{t} threads {k} {bw:.1f} GB/s" for (t, k), bw in sorted(roof.items())))
    print(f"| threads | case | {before} GB/s | {after} GB/s | {after} / {before} | % of roofline | PyTorch GB/s | {after} / PyTorch | spread {before} | spread {after} |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (threads, case), c in sorted(cases.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        kind = "copy" if any(w in case for w in ("split", "join", "cum", "gather")) else "read"
        b, a = statistics.median(c[before]), statistics.median(c[after])
        t = statistics.median(c["torch"]) if c["torch"] else None
        print(f"| {threads} | {case} | {b:.1f} | {a:.1f} | {a / b:.2f}x | {100 * a / roof[(threads, kind)]:.0f}% {kind} | "
              f"{t and f'{t:.1f}' or 'n/a'} | {t and f'{a / t:.2f}x' or '—'} | {min(c[before]):.1f}–{max(c[before]):.1f} | {min(c[after]):.1f}–{max(c[after]):.1f} |")
