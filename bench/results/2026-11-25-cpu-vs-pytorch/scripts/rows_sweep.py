#!/usr/bin/env python3
"""Summarises a rows sweep (hdml-tune-bench lines tagged with variant, threads, round):
best GB/s of rows=whole and of the plain kernel per row length, and their ratio.

    rows_sweep.py SWEEP.jsonl
"""
import collections
import json
import sys

best = collections.defaultdict(float)
for line in open(sys.argv[1]):
    r = json.loads(line)
    key = (r["threads"], r["case"], r["variant"])
    best[key] = max(best[key], r["bytes"] / min(r["seconds"]) / 1e9)
print("| threads | case | rows=whole GB/s | plain GB/s | plain / whole |")
print("|---|---|---|---|---|")
for threads in sorted({k[0] for k in best}):
    cases = sorted({k[1] for k in best if k[0] == threads},
                   key=lambda c: (c.rsplit("/", 1)[0], int(c.rsplit("rows", 1)[1])))
    for case in cases:
        whole, plain = best[(threads, case, "whole")], best[(threads, case, "plain")]
        print(f"| {threads} | {case} | {whole:.1f} | {plain:.1f} | {plain / whole:.2f}x |")
