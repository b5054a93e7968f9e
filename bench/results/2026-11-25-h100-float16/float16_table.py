#!/usr/bin/env python3
"""The float16 table of ../2026-11-25-h100-float16.md from the raw runs beside this
file: per case, the median % of copy bandwidth of each library's runs (before:
main at b071958; native: CUDA's cvt for float16 conversions; words: and float16
rows read as 32-bit words (commit 459ee0e); columns: and the outer layout's
columns in pairs of a word), float32's (every library's all-types runs), and
the final (columns) library's median ratio to PyTorch float16. The
rejected-lse-columns runs had LOG_SUM_EXP's column-pair kernel too (not built
in the end): they count as columns runs for every other operator, whose
kernels are the same.

    python3 bench/results/2026-11-25-h100-float16/float16_table.py
"""
import glob
import json
import os
import statistics as st

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path, dtype):
    run = json.load(open(path))
    cases = {}
    for row in run["rows"]:
        h = row.get("hdml") or {}
        hdml = h.get("cold_gbps") or h.get("warm_gbps")
        if row.get("dtype", "f32") != dtype or not hdml:
            continue
        torch = row["torch"]["cold_gbps"] or row["torch"]["warm_gbps"]
        cases[(row["op"], row["case"])] = (100 * hdml / run["copy_gbps"], hdml / torch)
    return cases


def runs(prefix, dtype="f16"):
    return [load(p, dtype) for p in sorted(glob.glob(os.path.join(HERE, prefix + "*.json")))]


def median(of_runs, case, field):
    return st.median(r[case][field] for r in of_runs if case in r)


before, native, words, final = runs("before-"), runs("native-"), runs("words-"), runs("columns-")
rejected = runs("rejected-lse-columns-")
float32 = [load(p, "f32") for p in sorted(glob.glob(os.path.join(HERE, "*-all-types.json"))) if "rejected" not in p]
print("| operator | case | float32 % of copy | float16 before | + cvt | + words | + column pairs | float16 / PyTorch |")
print("|---|---|---|---|---|---|---|---|")
ratios_before, ratios_now = [], []
for case in final[0]:
    columns = final + ([] if "LOG_SUM_EXP" in case[0] else rejected)
    ratios_before.append(median(before, case, 1))
    ratios_now.append(median(columns, case, 1))
    print(f"| {case[0]} | {case[1]} | {median(float32, case, 0):.0f}% | {median(before, case, 0):.0f}% | "
          f"{median(native, case, 0):.0f}% | {median(words, case, 0):.0f}% | {median(columns, case, 0):.0f}% | "
          f"{ratios_now[-1]:.2f}x |")
print(f"\nfloat16 geomean hdml / PyTorch: {st.geometric_mean(ratios_before):.3f}x before, "
      f"{st.geometric_mean(ratios_now):.3f}x now over {len(ratios_now)} cases")
