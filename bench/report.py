#!/usr/bin/env python3
"""Turns Google Benchmark JSON files from hdml's bench executables into the
markdown tables of bench/README.md: GB/s per implementation, hdml's % of the
read bandwidth measured in the same run (same size; 256 MiB when the case
names none), and hdml's ratio to the best peer.

usage: bench/report.py results.json [more.json ...]
"""
import json
import sys
from collections import OrderedDict

SIZES = ("4KiB", "4MiB", "256MiB")

def table(path):
    data = json.load(open(path))
    bandwidth, rows, peers = {}, OrderedDict(), []
    for b in data["benchmarks"]:
        name = b["name"].split("/min_time")[0].split("/real_time")[0]
        parts = name.split("/")
        gbs = None if b.get("error_occurred") else b.get("bytes_per_second", 0) / 1e9
        if parts[0] == "bandwidth":
            bandwidth[parts[2]] = gbs
            continue
        key, impl = "/".join(parts[:-1]), parts[-1]
        rows.setdefault(key, {})[impl] = gbs
        if impl != "hdml" and impl not in peers:
            peers.append(impl)
    fmt = lambda v: "n/a" if v is None else f"{v:.1f}"
    print("| case | hdml GB/s | % of same-run bw | " + " | ".join(f"{p} GB/s" for p in peers) + " | hdml / best peer |")
    print("|---" * (len(peers) + 3) + "|---|")
    for key, impls in rows.items():
        size = next((s for s in SIZES if s in key.split("/")), "256MiB")
        hdml, bw = impls.get("hdml"), bandwidth.get(size)
        best = max([v for k, v in impls.items() if k != "hdml" and v] or [0]) or None
        pct = f"{100 * hdml / bw:.0f}%" if hdml and bw else "n/a"
        ratio = f"{hdml / best:.2f}x" if hdml and best else "n/a"
        print(f"| {key} | {fmt(hdml)} | {pct} | " + " | ".join(fmt(impls.get(p)) for p in peers) + f" | {ratio} |")
    print()
    print("Read bandwidth measured in the same run: " +
          ", ".join(f"{k}: {v:.1f} GB/s" for k, v in bandwidth.items() if v))
    print()

if __name__ == "__main__":
    for path in sys.argv[1:]:
        table(path)
