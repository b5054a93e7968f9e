"""Prints the A/B of one or more of this record's runs: python3 table.py FILE.jsonl ...
(cur: main before the change, new: the pool of the file's name; best time of each library
over its passes, the spread of its passes, and PyTorch's best time in the same runs)."""
import collections
import json
import sys

for path in sys.argv[1:]:
    hdml, torch = collections.defaultdict(list), collections.defaultdict(list)
    for line in open(path):
        r = json.loads(line)
        if not r["case"].startswith("roofline"):
            hdml[(r["case"], r["lib"])] += r["hdml"]
            torch[r["case"]] += r.get("torch", [])
    print(f"{path}\n\n| case | new / cur | cur ms | new ms | new / PyTorch | cur / PyTorch |\n|---|---|---|---|---|---|")
    rows = []
    for case in {c for c, _ in hdml}:
        cur, new = hdml[(case, "cur")], hdml[(case, "new")]
        best_torch = min(torch[case]) if torch[case] else float("nan")
        rows.append((min(cur) / min(new), case, cur, new, best_torch))
    for gain, case, cur, new, best_torch in sorted(rows):
        spread = lambda v: f"{min(v) * 1e3:.3f}–{max(v) * 1e3:.3f}"
        print(f"| {case} | {gain:.2f}x | {spread(cur)} | {spread(new)} | {best_torch / min(new):.2f}x | "
              f"{best_torch / min(cur):.2f}x |")
    print()
