#!/usr/bin/env python3
"""The CPU table of bench/README.md from cpu_bench.py's JSON lines:

    bench/cpu/table.py RUN.jsonl [RUN.jsonl ...]

Per thread count, per case: hdml's and PyTorch's GB/s (best round; a case measured in several files keeps its best
round), hdml's % of that thread count's roofline (best measurement: read bandwidth for reductions, copy for scans,
SPLIT and JOIN; none for GATHER), hdml / PyTorch (best against best, and the range of the rounds' ratios: each
round times both in turn) and the issue's goals: >= 80% of the roofline (LOG_SUM_EXP 60%, scans 70%) and >= 1.0x
PyTorch. A case whose result disagreed with PyTorch's is marked.
"""
import collections
import json
import math
import sys


def roofline_of(case):
    op = case.split("/")[0]
    return {"reduce": "read", "argmax": "read", "cumsum": "copy", "cumprod": "copy", "split": "copy",
            "join": "copy"}.get(op)


def goal_of(case):
    if case.startswith(("cumsum", "cumprod")):
        return 70
    if "/log_sum_exp/" in case:
        return 60
    return None if case.startswith("gather") else 80


def main():
    cases = collections.defaultdict(dict)  # threads -> case -> best line
    roof = collections.defaultdict(float)  # (threads, read|copy) -> GB/s
    for path in sys.argv[1:]:
        for text in open(path):
            if not text.strip():
                continue
            r = json.loads(text)
            if r["case"].startswith("roofline/"):
                kind = r["case"].split("/")[1]
                roof[(r["threads"], kind)] = max(roof[(r["threads"], kind)], r["bytes"] / min(r["seconds"]) / 1e9)
                continue
            best = cases[r["threads"]].get(r["case"])
            if best is None or min(r["hdml"]) < min(best["hdml"]):
                cases[r["threads"]][r["case"]] = r
    for threads in sorted(cases):
        read, copy = roof.get((threads, "read")), roof.get((threads, "copy"))
        print(f"\n{threads} threads: roofline read {read or 0:.1f} GB/s, copy {copy or 0:.1f} GB/s\n")
        print("| case | hdml GB/s | % of roofline | PyTorch GB/s | hdml / PyTorch | rounds | goal |")
        print("|---|---|---|---|---|---|---|")
        ratios, below, missed = [], 0, 0
        for name in sorted(cases[threads], key=lambda c: (c.split("/")[0], c)):
            r = cases[threads][name]
            h = r["bytes"] / min(r["hdml"]) / 1e9
            kind = roofline_of(name)
            bw = {"read": read, "copy": copy}.get(kind)
            pct = 100 * h / bw if bw else None
            goal, notes = goal_of(name), []
            if pct is not None and goal is not None and pct < goal:
                notes.append(f"< {goal}%")
            cells = [name, f"{h:.1f}", f"{pct:.0f}% {kind}" if pct is not None else "—"]
            if r.get("torch"):
                t = r["bytes"] / min(r["torch"]) / 1e9
                ratio = h / t
                per_round = [b / a for a, b in zip(r["hdml"], r["torch"])]
                ratios.append(ratio)
                if ratio < 1.0:
                    below += 1
                    notes.append("< 1.0x")
                cells += [f"{t:.1f}", f"{ratio:.2f}x", f"{min(per_round):.2f}–{max(per_round):.2f}x"]
            else:
                cells += ["n/a: " + r.get("torch_error", "not run")[:50], "—", "—"]
            remark = ""
            if r.get("agrees") is False and r.get("agrees_float32"):
                remark = " (PyTorch's float16 result differs: hdml's equals PyTorch's computed in float32)"
            elif r.get("agrees") is False:
                notes.append("result differs from PyTorch's")
            elif r.get("agrees_float32") is False:
                notes.append("result differs from PyTorch's in float32")
            missed += bool(notes)
            cells.append(("below: " + ", ".join(notes) if notes else "met") + remark)
            print("| " + " | ".join(cells) + " |")
        if ratios:
            geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
            print(f"\n{threads} threads: geomean hdml / PyTorch {geomean:.2f}x over {len(ratios)} cases, "
                  f"{below} below 1.0x; {missed} of {len(cases[threads])} cases miss a goal")


if __name__ == "__main__":
    main()
