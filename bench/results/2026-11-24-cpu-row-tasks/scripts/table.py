# Markdown table from xeon16-ab.jsonl (+ PyTorch lines): best of the rounds per library, PyTorch's best
# over its runs. Usage: table.py AB.jsonl THREADS TORCH.jsonl... (cases in corpus order)
import json, sys
ab, threads, torch_files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
best, order = {}, []
for line in open(ab):
    r = json.loads(line); x = r["r"]
    if r["threads"] != threads: continue
    if x["case"] not in order: order.append(x["case"])
    k = (x["case"], r["lib"]); best[k] = max(best.get(k, 0), x["bytes"] / min(x["seconds"]) / 1e9)
torch = {}
for f in torch_files:
    for line in open(f):
        r = json.loads(line)
        if r.get("threads") == threads and "gbps" in r: torch[r["case"]] = max(torch.get(r["case"], 0), r["gbps"])
print(f"| case ({threads} threads) | before | rows in tasks | + hdml's pool | PyTorch | hdml / before | hdml / PyTorch |")
print("|---|---|---|---|---|---|---|")
for c in order:
    old, mid, new = (best.get((c, v), 0) for v in ("old", "new:HDML_THREAD_POOL=halide", "new"))
    t = torch.get(c)
    print(f"| {c} | {old:.1f} | {mid:.1f} | {new:.1f} | {f'{t:.1f}' if t else 'n/a'} | {new / old:.2f}x | {f'{new / t:.2f}x' if t else 'n/a'} |")
