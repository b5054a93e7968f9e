"""Same-run A/B of gpu_bench.py JSON files: `compare.py [--op join|split] ON_DIR [OFF_DIR]` reads
ON_DIR/<op>_on_<round>.json (a library with copy_parts or split_parts taken) and
OFF_DIR/<op>_off_<round>.json (OFF_DIR defaults to ON_DIR, else its parent: the same library under an
HDML_DISPATCH_CUDA overlay that turns the change off, here copy_parts_min_pieces = 0, a piece per launch;
in ../2026-11-28-gpu-join-alignment/, copy_sector_min_bytes = 0); <op> is join unless --op says split. Prints, per case, hdml's GB/s (median of the rounds, cold L2 where measured), on / off, and
on / PyTorch."""
import glob, json, os, statistics, sys


def gbps(m):
    return m["cold_gbps"] or m["warm_gbps"]


def load(pattern):
    rows = {}
    for path in sorted(glob.glob(pattern)):
        result = json.load(open(path))
        for r in result["rows"]:
            key = (r["op"], r.get("dtype", "f32"), r["case"])
            rows.setdefault(key, {"hdml": [], "torch": []})
            rows[key]["hdml"].append(gbps(r["hdml"]))
            rows[key]["torch"].append(gbps(r["torch"]))
    return rows, result["gpu"], result["copy_gbps"]


args = sys.argv[1:]
op = "join"
if args[:1] == ["--op"]:
    op, args = args[1], args[2:]
d = args[0]
off_dir = args[1] if len(args) > 1 else d if glob.glob(os.path.join(d, f"{op}_off_*.json")) else \
    os.path.dirname(os.path.normpath(d))
on, gpu, copy = load(os.path.join(d, f"{op}_on_*.json"))
off, _, _ = load(os.path.join(off_dir, f"{op}_off_*.json"))
print(f"{gpu}; copy {copy:.0f} GB/s; medians of {len(glob.glob(os.path.join(d, f'{op}_on_*.json')))} rounds\n")
print("| case | type | off GB/s | on GB/s | on % of copy | on / off | PyTorch GB/s | on / PyTorch |")
print("|---|---|---|---|---|---|---|---|")
for key in on:
    a, b = statistics.median(off[key]["hdml"]), statistics.median(on[key]["hdml"])
    t = statistics.median(on[key]["torch"] + off[key]["torch"])
    print(f"| {key[0]} {key[2]} | {key[1]} | {a:.0f} | {b:.0f} | {100 * b / copy:.0f}% | {b / a:.2f}x | {t:.0f} | "
          f"{b / t:.2f}x |")
