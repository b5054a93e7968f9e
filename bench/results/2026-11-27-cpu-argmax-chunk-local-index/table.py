"""Prints this record's table: python3 table.py vm-arg-reduce-bench-2.txt
(best and worst time of each library over its rounds; new / cur of the best)."""
import collections
import sys

times = collections.defaultdict(list)
for line in open(sys.argv[1]):
    if not line.startswith("#"):
        _, lib, name, ns = line.split()
        times[(name.split("/min_time")[0], lib)].append(float(ns) / 1e6)
print("| case | cur ms | new ms | new / cur |\n|---|---|---|---|")
for name in sorted({n for n, _ in times}):
    cur, new = times[(name, "cur")], times[(name, "new")]
    print(f"| {name} | {min(cur):.3f}–{max(cur):.3f} | {min(new):.3f}–{max(new):.3f} | {min(cur) / min(new):.2f}× |")
