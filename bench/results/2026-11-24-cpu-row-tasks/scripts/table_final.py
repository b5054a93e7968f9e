# Markdown table of the final A/B (xeon16-task-count-ab.jsonl or vm-task-count-ab.jsonl): libraries
# old (9a940d1), def (rows in tasks of 32 KiB, hdml's pool), cur (+ task_count), best of rounds;
# PyTorch from the given files (best). Usage: table_final.py AB THREADS [TORCH...] [--cases regex]
import json, re, sys
args = [a for a in sys.argv[1:] if not a.startswith("--cases=")]
pattern = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--cases=")), ".")
ab, threads, torch_files = args[0], int(args[1]), args[2:]
best, order = {}, []
for line in open(ab):
    r = json.loads(line); x = r["r"]
    if r["threads"] != threads or not re.search(pattern, x["case"]): continue
    if x["case"] not in order: order.append(x["case"])
    k = (x["case"], r["lib"]); best[k] = max(best.get(k, 0), x["bytes"] / min(x["seconds"]) / 1e9)
torch = {}
for f in torch_files:
    for line in open(f):
        r = json.loads(line)
        if r.get("threads") == threads and "gbps" in r: torch[r["case"]] = max(torch.get(r["case"], 0), r["gbps"])
print(f"| case ({threads} threads) | before | tasks of 32 KiB | now | PyTorch | now / before | now / PyTorch |")
print("|---|---|---|---|---|---|---|")
for c in order:
    o, d, n = (best.get((c, v), 0) for v in ("old", "def", "cur"))
    t = torch.get(c)
    print(f"| {c} | {o:.1f} | {d:.1f} | {n:.1f} | {f'{t:.1f}' if t else 'n/a'} | {n / o:.2f}x | {f'{n / t:.2f}x' if t else 'n/a'} |")
