# Markdown table from an A/B log (ab.sh lines): best of the rounds per library, PyTorch's best over
# the given files; the last library is "now", the first "before".
# Usage: table.py AB THREADS LIB=NAME,LIB=NAME,... [TORCH.jsonl ...]
#   e.g. table.py xeon16-ab.jsonl 16 "old=before,new:HDML_THREAD_POOL=halide=rows in tasks,new=+ hdml's pool" xeon16-torch.jsonl
#        table.py xeon16-task-count-ab.jsonl 2 "old=before,def=tasks of 32 KiB,cur=now" xeon16-torch-late.jsonl
import json, sys
ab, threads, spec, torch_files = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
libs = [item.rsplit("=", 1) for item in spec.split(",")]
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
print(f"| case ({threads} threads) | " + " | ".join(name for _, name in libs) + " | PyTorch | now / before | now / PyTorch |")
print("|---" * (len(libs) + 4) + "|")
for c in order:
    v = [best.get((c, lib), 0) for lib, _ in libs]
    t = torch.get(c)
    cells = " | ".join(f"{x:.1f}" for x in v)
    print(f"| {c} | {cells} | {f'{t:.1f}' if t else 'n/a'} | {v[-1] / v[0]:.2f}x | {f'{v[-1] / t:.2f}x' if t else 'n/a'} |")
