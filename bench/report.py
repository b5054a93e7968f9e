#!/usr/bin/env python3
"""Turns a Google Benchmark JSON file from bench/reduce_bench into the markdown
table of bench/README.md: GB/s per implementation, % of the read bandwidth
measured in the same run (same size), and hdml's ratio to the best peer.

usage: bench/report.py results.json > table.md
"""
import json
import sys
from collections import OrderedDict

def main(path):
    data = json.load(open(path))
    bandwidth, rows = {}, OrderedDict()
    for b in data["benchmarks"]:
        name = b["name"].split("/min_time")[0].split("/real_time")[0]
        parts = name.split("/")
        gbs = b.get("bytes_per_second", 0) / 1e9 if not b.get("error_occurred") else None
        if parts[0] == "bandwidth":
            bandwidth[parts[2]] = gbs
            continue
        key, impl = "/".join(parts[:-1]), parts[-1]
        rows.setdefault(key, {})[impl] = gbs
    print("| op | dtype | axes | size | hdml GB/s | % of read bw | oneDNN GB/s | Eigen GB/s | hdml / best peer |")
    print("|---|---|---|---|---|---|---|---|---|")
    for key, impls in rows.items():
        _, fn, dtype, layout, size = key.split("/")
        hdml = impls.get("hdml")
        peers = [v for k, v in impls.items() if k != "hdml" and v]
        best = max(peers) if peers else None
        bw = bandwidth.get(size)
        fmt = lambda v: "n/a" if v is None else f"{v:.1f}"
        pct = f"{100 * hdml / bw:.0f}%" if hdml and bw else "n/a"
        ratio = f"{hdml / best:.2f}x" if hdml and best else "n/a"
        print(f"| {fn} | {dtype} | {layout} | {size} | {fmt(hdml)} | {pct} | {fmt(impls.get('onednn'))} | "
              f"{fmt(impls.get('eigen'))} | {ratio} |")
    print()
    print("Read bandwidth measured in the same run: " +
          ", ".join(f"{k}: {v:.1f} GB/s" for k, v in bandwidth.items() if v))

if __name__ == "__main__":
    main(sys.argv[1])
