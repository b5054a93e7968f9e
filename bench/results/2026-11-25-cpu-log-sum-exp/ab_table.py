#!/usr/bin/env python3
"""Before/after table from cpu_bench.py lines tagged with "variant" and
"round" (vm-lse.jsonl, xeon-lse.jsonl): the median GB/s of every timing of each variant,
the roofline's best read, PyTorch's median and the spread of the timings."""
import json
import statistics
import sys

for path in sys.argv[1:]:
    cases, read = {}, {}
    for line in open(path):
        r = json.loads(line)
        gbs = lambda times: [r["bytes"] / t / 1e9 for t in times]
        if r["case"] == "roofline/read/256MiB":
            read[r["threads"]] = max(read.get(r["threads"], 0), *gbs(r["seconds"]))
        elif "hdml" in r:
            c = cases.setdefault((r["threads"], r["case"]), {"before": [], "after": [], "torch": []})
            c[r["variant"]] += gbs(r["hdml"])
            c["torch"] += gbs(r["torch"]) if r.get("torch") else []
    print(f"\n{path}: read roofline " + ", ".join(f"{t} threads {bw:.1f} GB/s" for t, bw in sorted(read.items())))
    print("| threads | case | before GB/s | after GB/s | after / before | % of read | PyTorch GB/s | after / PyTorch | spread before | spread after |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (threads, case), c in sorted(cases.items(), key=lambda kv: (-kv[0][0], kv[0][1])):
        b, a = statistics.median(c["before"]), statistics.median(c["after"])
        torch = f"{statistics.median(c['torch']):.1f}" if c["torch"] else "n/a"
        ratio = f"{a / statistics.median(c['torch']):.2f}x" if c["torch"] else "—"
        print(f"| {threads} | {case} | {b:.1f} | {a:.1f} | {a / b:.2f}x | "
              f"{100 * a / read[threads]:.0f}% | {torch} | {ratio} | {min(c['before']):.1f}–{max(c['before']):.1f} | "
              f"{min(c['after']):.1f}–{max(c['after']):.1f} |")
