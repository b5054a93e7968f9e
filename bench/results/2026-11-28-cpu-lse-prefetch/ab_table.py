#!/usr/bin/env python3
"""Per-case GB/s of each library, round by round, from bench/cpu/device_run.sh ab files (ab-<threads>.jsonl).

    python3 ab_table.py xeon-inner-all-ab-16.jsonl xeon-inner-all-ab-2.jsonl
"""
import collections
import json
import sys

for path in sys.argv[1:]:
    runs, read = collections.defaultdict(lambda: collections.defaultdict(list)), []
    for line in open(path):
        j = json.loads(line)
        if "hdml" not in j:
            if j["case"].startswith("roofline/read"):
                read.append(j["bytes"] / min(j["seconds"]) / 1e9)
            continue
        runs[j["case"]][j["lib"]].append(j["bytes"] / j["hdml"][0] / 1e9)
    print(f"{path}: read roofline {min(read):.0f}-{max(read):.0f} GB/s")
    for case, by_lib in sorted(runs.items()):
        median = {lib: sorted(v)[len(v) // 2] for lib, v in by_lib.items()}
        cells = "  ".join(f"{lib}: " + " ".join(f"{x:6.1f}" for x in v) for lib, v in by_lib.items())
        ratio = f"  new/def {median['new'] / median['def']:.2f}" if {"new", "def"} <= median.keys() else ""
        print(f"  {case:34s} {cells}{ratio}")
