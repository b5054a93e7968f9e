"""Prints the A/B table of this record: python3 table.py vm-argmax-2.jsonl xeon-argmax-2.jsonl xeon-argmax-16.jsonl"""
import collections
import json
import sys

for path in sys.argv[1:]:
    times, torch, read, moved = collections.defaultdict(list), collections.defaultdict(list), [], {}
    for line in open(path):
        r = json.loads(line)
        if r["case"] == "roofline/read/256MiB":
            read += r["seconds"]
        elif not r["case"].startswith("roofline"):
            times[(r["case"], r["lib"])] += r["hdml"]
            torch[r["case"]] += r.get("torch", [])
            moved[r["case"]] = r["bytes"]
    read_gbps = 256 * 2**20 / min(read) / 1e9
    print(f"{path}: read {read_gbps:.1f} GB/s")
    print("| case | cur ms | new ms | new / cur | new GB/s | % of read | new / PyTorch |")
    print("|---|---|---|---|---|---|---|")
    for case in sorted({c for c, _ in times}):
        cur, new = times[(case, "cur")], times[(case, "new")]
        spread = lambda v: f"{min(v) * 1e3:.2f}–{max(v) * 1e3:.2f}"
        gbps = moved[case] / min(new) / 1e9
        vs_torch = f"{min(torch[case]) / min(new):.1f}×" if torch[case] else "n/a"
        print(f"| {case} | {spread(cur)} | {spread(new)} | {min(cur) / min(new):.2f}× | {gbps:.1f} | "
              f"{gbps / read_gbps * 100:.0f}% | {vs_torch} |")
