"""Prints the A/B table of this record: python3 table.py vm-scan-2.jsonl xeon-scan-2.jsonl xeon-scan-16.jsonl"""
import collections
import json
import sys

for path in sys.argv[1:]:
    times, torch, copy = collections.defaultdict(list), collections.defaultdict(list), []
    for line in open(path):
        r = json.loads(line)
        if r["case"] == "roofline/copy/256MiB":
            copy += r["seconds"]
        elif not r["case"].startswith("roofline"):
            times[(r["case"], r["lib"])] += r["hdml"]
            torch[r["case"]] += r.get("torch", [])
    moved = 2 * 256 * 2**20  # input read once, output written once
    print(f"{path}: copy {moved / min(copy) / 1e9:.1f} GB/s")
    print("| case | cur ms | new ms | new / cur | new GB/s | % of copy | new / PyTorch |")
    print("|---|---|---|---|---|---|---|")
    for case in sorted({c for c, _ in times}):
        cur, new = times[(case, "cur")], times[(case, "new")]
        spread = lambda v: f"{min(v) * 1e3:.1f}–{max(v) * 1e3:.1f}"
        vs_torch = f"{min(torch[case]) / min(new):.1f}×" if torch[case] else "n/a"
        print(f"| {case} | {spread(cur)} | {spread(new)} | {min(cur) / min(new):.2f}× | "
              f"{moved / min(new) / 1e9:.1f} | {min(copy) / min(new) * 100:.0f}% | {vs_torch} |")
