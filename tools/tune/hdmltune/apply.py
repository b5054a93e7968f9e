"""apply: from a measurement log to a tuned profile (schedules/tuned/NAME.json:
the params format, only the numbers that differ from the defaults, plus
where and when they were measured) and a before/after table."""
import datetime
import json
import math

from . import log as tune_log

# A candidate must beat the defaults by this much in geomean over its family's
# cases, and lose no case: slower by more than NOISE in the median with every
# repeat slower than every repeat of the defaults.
MIN_GAIN = 1.02
NOISE = 0.97


def _family_of(names):
    families = {n.split(".", 1)[0] for n in names}
    return families.pop() if len(families) == 1 else None


def choose(records):
    """Per family, the best candidate that beats the defaults and loses no case
    (MIN_GAIN, NOISE): {family: (candidate dict, geomean gain, {case: (defaults, candidate)})},
    each of the last a log.medians entry."""
    med = tune_log.medians(records)
    cases_of = {}
    for (cand, case), _ in med.items():
        cases_of.setdefault(cand, set()).add(case)
    family_of_case = {r["case"]: r["family"] for r in records}
    base = ()
    best = {}
    for cand, cases in cases_of.items():
        if cand == base:
            continue
        common = [c for c in cases if (base, c) in med]
        if not common:
            continue
        family = family_of_case[common[0]]
        ratios = {c: med[(base, c)][0] / med[(cand, c)][0] for c in common}
        gain = math.exp(sum(math.log(x) for x in ratios.values()) / len(ratios))
        loses = [c for c in common if ratios[c] < NOISE and med[(cand, c)][2] > med[(base, c)][3]]
        if gain < MIN_GAIN or loses:
            continue
        if family not in best or gain > best[family][1]:
            table = {c: (med[(base, c)], med[(cand, c)]) for c in common}
            best[family] = (dict(cand), gain, table)
    return best


def profile(records, space, name):
    """The tuned profile (a dict) and the before/after table (markdown text)."""
    if not records:
        raise ValueError("the log holds no complete measurement")
    platform = records[0]["platform"]
    machine = records[0]["machine"]
    chosen = choose(records)
    out = {"platform": platform, "machine": machine, "date": datetime.date.today().isoformat()}
    rows = ["| family | case | defaults (ms) | %s (ms) | speed-up | repeats, defaults / %s (ms) |" % (name, name),
            "|---|---|---|---|---|---|"]
    for family in sorted(chosen):
        cand, gain, table = chosen[family]
        for n, v in sorted(cand.items()):
            scope, key = n.split(".", 1)
            if space is not None and space.defaults.get(n) == v:
                continue
            out.setdefault(scope, {})[key] = v
        for case in sorted(table):
            before, after = table[case]  # (median, bytes, fastest, slowest)
            rows.append("| %s | %s | %.4g | %.4g | %.2fx | %.4g–%.4g / %.4g–%.4g |"
                        % (family, case, before[0] * 1e3, after[0] * 1e3, before[0] / after[0],
                           before[2] * 1e3, before[3] * 1e3, after[2] * 1e3, after[3] * 1e3))
    return out, "\n".join(rows)


def write(profile_dict, path):
    with open(path, "w") as f:
        json.dump(profile_dict, f, indent=2, sort_keys=True)
        f.write("\n")
