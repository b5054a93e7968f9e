"""apply: from a measurement log to a tuned profile (schedules/tuned/NAME.json:
the params format, only the numbers that differ from the defaults, plus
where and when they were measured) and a before/after table."""
import datetime
import json
import math

from . import log as tune_log
from .space import families_of

# A candidate must beat the defaults by this much in geomean over the cases of
# the families it changes, and lose none of them: slower by more than NOISE in the median with every
# repeat slower than every repeat of the defaults.
MIN_GAIN = 1.02
NOISE = 0.97


def families_of_candidate(candidate):
    """The families whose cases a candidate (name -> value, or its key) changes."""
    items = candidate.items() if isinstance(candidate, dict) else candidate
    return sorted({f for n, _ in items for f in families_of(n)})


def choose(records):
    """Over the latest boot's records, the candidates that beat the defaults on the cases of every family they
    change (MIN_GAIN in geomean) and lose none of those cases (NOISE), the best
    per set of families: {"reduce+arg_reduce": (candidate dict, geomean gain,
    {case: (defaults, candidate)})}, each of the last a log.medians entry."""
    records = tune_log.latest_boot(records)
    med = tune_log.medians(records)
    family_of_case = {r["case"]: r["family"] for r in records}
    base = ()
    cases_of = {}
    for (cand, case), _ in med.items():
        cases_of.setdefault(cand, set()).add(case)
    best = {}
    for cand, cases in cases_of.items():
        families = families_of_candidate(cand)
        common = sorted(c for c in cases if family_of_case[c] in families and (base, c) in med)
        if cand == base or not common:
            continue
        ratios = {c: med[(base, c)][0] / med[(cand, c)][0] for c in common}
        gain = math.exp(sum(math.log(x) for x in ratios.values()) / len(ratios))
        loses = [c for c in common if ratios[c] < NOISE and med[(cand, c)][2] > med[(base, c)][3]]
        group = "+".join(families)
        if gain < MIN_GAIN or loses or (group in best and gain <= best[group][1]):
            continue
        best[group] = (dict(cand), gain, {c: (med[(base, c)], med[(cand, c)]) for c in common})
    return best


def merged(chosen):
    """One assignment from the chosen candidates, the larger gains first; a number
    another chosen candidate already set to a different value is left out."""
    out = {}
    for cand, _, _ in sorted(chosen.values(), key=lambda entry: -entry[1]):
        for n, v in cand.items():
            out.setdefault(n, v)
    return out


def profile(records, space, name):
    """The tuned profile (a dict) and the before/after table (markdown text)."""
    if not records:
        raise ValueError("the log holds no complete measurement")
    platform = records[-1]["platform"]
    machine = records[-1]["machine"]
    chosen = choose(records)
    out = {"platform": platform, "machine": machine, "date": datetime.date.today().isoformat()}
    for n, v in sorted(merged(chosen).items()):
        if space is not None and space.defaults.get(n) == v:
            continue
        scope, key = n.split(".", 1)
        out.setdefault(scope, {})[key] = v
    rows = ["| families | case | defaults (ms) | %s (ms) | speed-up | repeats, defaults / %s (ms) |" % (name, name),
            "|---|---|---|---|---|---|"]
    for group in sorted(chosen):
        _, _, table = chosen[group]
        for case in sorted(table):
            before, after = table[case]  # (median, bytes, fastest, slowest)
            rows.append("| %s | %s | %.4g | %.4g | %.2fx | %.4g–%.4g / %.4g–%.4g |"
                        % (group, case, before[0] * 1e3, after[0] * 1e3, before[0] / after[0],
                           before[2] * 1e3, before[3] * 1e3, after[2] * 1e3, after[3] * 1e3))
    return out, "\n".join(rows)


def write(profile_dict, path):
    with open(path, "w") as f:
        json.dump(profile_dict, f, indent=2, sort_keys=True)
        f.write("\n")
