"""Prints this record's table: python3 table.py argmax-{cur,new}-{1,2,3,4}.json
(cur: main before the change, new: with CUDA's key_bits=32 twins; medians over the
runs of each library; hdml's cold-L2 figure where the benchmark has one)."""
import collections
import json
import statistics
import sys

gbps = collections.defaultdict(list)   # (lib, op, dtype, case) -> hdml GB/s per run
share = collections.defaultdict(list)  # ... -> % of the run's copy bandwidth
ratio = collections.defaultdict(list)  # ... -> hdml / PyTorch
order = []
for path in sys.argv[1:]:
    lib = "new" if "-new-" in path else "cur"
    run = json.load(open(path))
    for row in run["rows"]:
        h, t = row["hdml"], row["torch"]
        hg, tg = h.get("cold_gbps") or h["warm_gbps"], t.get("cold_gbps") or t["warm_gbps"]
        key = (row["op"].split()[0], row["dtype"], row["case"])
        if key not in order:
            order.append(key)
        gbps[(lib,) + key].append(hg)
        share[(lib,) + key].append(100 * hg / run["copy_gbps"])
        ratio[(lib,) + key].append(hg / tg)

med = statistics.median
print("| operator | type | case | runs | before % of copy | after % of copy | after / before | after / PyTorch |")
print("|---|---|---|---|---|---|---|---|")
for key in sorted(order, key=lambda k: (k[1] != "f16", order.index(k))):
    cur, new = gbps[("cur",) + key], gbps[("new",) + key]
    print(f"| {key[0]} | {key[1]} | {key[2]} | {len(cur)}+{len(new)} | {med(share[('cur',) + key]):.0f}% | "
          f"{med(share[('new',) + key]):.0f}% | {med(new) / med(cur):.2f}x | {med(ratio[('new',) + key]):.2f}x |")
