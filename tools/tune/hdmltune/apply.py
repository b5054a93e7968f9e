"""apply: from a measurement log to a tuned profile (schedules/tuned/NAME.json:
the params format, only the numbers that differ from the defaults, plus
where and when they were measured) and a before/after table."""
import datetime
import json
import math

from . import log as tune_log
from .space import families_of, kernel_base, kernel_scope

# A candidate must beat the defaults by this much in geomean over the cases of
# the families it changes (a kernel's number: the cases calling that kernel), and
# lose none of them: slower by more than NOISE in the median with every repeat
# slower than every repeat of the defaults.
MIN_GAIN = 1.02
NOISE = 0.97
# A generator move a confirmation round rejected becomes a kernel move (confirmed
# in the next round) on each kernel whose cases all gained this much; a kernel
# move, judged on its kernel's cases alone, must gain this much to be taken.
KERNEL_GAIN = 1.05
MAX_KERNEL_MOVES = 8
# A profile's entries that are not numbers (the build skips the same ones).
PROFILE_METADATA = ("platform", "machine", "date", "notes")


def families_of_candidate(candidate):
    """The families whose cases a candidate (name -> value, or its key) changes."""
    items = candidate.items() if isinstance(candidate, dict) else candidate
    return sorted({f for n, _ in items for f in families_of(n)})


def judged(records):
    """The records apply judges: the latest boot's, and of those the latest
    confirmation round's where there is one. A search round's best is the fastest
    of dozens of noisy candidates, so its own timings flatter it; re-measured alone
    against the defaults, it is judged on timings that did not choose it. (A later
    confirmation round re-measures what an earlier one took.)"""
    records = tune_log.latest_boot(records)
    confirmed = [r for r in records if tune_log.stage(r) == "confirm"]
    if confirmed:
        return [r for r in confirmed if r.get("round") == confirmed[-1].get("round")]
    return records


def is_confirmation(records):
    """Whether the judged records (see judged) are a confirmation round's."""
    return any(tune_log.stage(r) == "confirm" for r in judged(records))


def kernel_only(cand):
    """Whether every number a candidate (a dict or its key) sets is one kernel's: a kernel move."""
    names = [n for n, _ in (cand.items() if isinstance(cand, dict) else cand)]
    return bool(names) and all(kernel_scope(n) for n in names)


def gain_bar(cand):
    """The geomean gain a candidate must reach to be taken."""
    return KERNEL_GAIN if kernel_only(cand) else MIN_GAIN


def searched(records):
    """The search rounds' records (what a confirmation round re-measures the choices of)."""
    return [r for r in records if tune_log.stage(r) == "search"]


def case_kernels(records):
    """{case: {kernel base}} from the defaults' records (what each case calls)."""
    out = {}
    for r in records:
        if not r["candidate"] and r.get("kernels"):
            out[r["case"]] = {kernel_base(k, r["platform"])[0] for k in r["kernels"].split()}
    return out


def judged_cases(cand, cases, family_of_case, kernels_of_case):
    """The cases a candidate (a key) is judged on: those of the families it changes,
    or, where every number it sets is one kernel's, the cases calling those kernels."""
    if kernel_only(cand):
        kernels = {kernel_scope(n)[0] for n, _ in cand}
        return sorted(c for c in cases if kernels & kernels_of_case.get(c, set()))
    families = families_of_candidate(cand)
    return sorted(c for c in cases if family_of_case[c] in families)


def group_of(cand):
    """The set of families a candidate competes in: one choice per group is kept.
    Kernel moves compete only with moves of the same kernels."""
    group = "+".join(families_of_candidate(cand))
    kernels = sorted({kernel_scope(n)[0] for n, _ in cand if kernel_scope(n)})
    return group + ("@" + ",".join(kernels) if kernels else "")


def verdicts(records):
    """Every candidate of the judged records (see judged) against the defaults, on
    the cases it is judged on (judged_cases): [(candidate dict, its group (group_of),
    geomean gain, the cases it loses, {case: (defaults, candidate)})], each of the
    last a log.medians entry. It loses a case slower than NOISE in the median with
    every repeat slower than every repeat of the defaults."""
    records = judged(records)
    med = tune_log.medians(records)
    family_of_case = {r["case"]: r["family"] for r in records}
    kernels_of_case = case_kernels(records)
    base = ()
    cases_of = {}
    for (cand, case), _ in med.items():
        cases_of.setdefault(cand, set()).add(case)
    out = []
    for cand, cases in sorted(cases_of.items()):
        common = [c for c in judged_cases(cand, cases, family_of_case, kernels_of_case) if (base, c) in med]
        if cand == base or not common:
            continue
        ratios = {c: med[(base, c)][0] / med[(cand, c)][0] for c in common}
        gain = math.exp(sum(math.log(x) for x in ratios.values()) / len(ratios))
        loses = [c for c in common if ratios[c] < NOISE and med[(cand, c)][2] > med[(base, c)][3]]
        out.append((dict(cand), group_of(cand), gain, loses, {c: (med[(base, c)], med[(cand, c)]) for c in common}))
    return out


def kernel_moves(records):
    """The generator moves of one number that a confirmation round rejected,
    split by kernel: for each kernel of that generator whose every case gained
    KERNEL_GAIN, the move on that kernel alone, {"<kernel>.<key>": value}; the
    largest gains first, at most MAX_KERNEL_MOVES; none without a confirmation
    round (a search's per-case timings are too noisy to split)."""
    if not is_confirmation(records):
        return []
    chosen = [entry[0] for entry in choose(records).values()]
    kernels_of_case = case_kernels(judged(records))
    moves = []
    for cand, _, _, _, table in verdicts(records):
        if len(cand) != 1 or cand in chosen:
            continue
        (name, value), = cand.items()
        scope, key = name.split(".", 1)
        if scope == "dispatch" or kernel_scope(name):
            continue
        ratio = {c: before[0] / after[0] for c, (before, after) in table.items()}
        cases_of_kernel = {}
        for c in table:
            for kernel in kernels_of_case.get(c, ()):
                if kernel_base(kernel, "")[1] == scope:
                    cases_of_kernel.setdefault(kernel, []).append(c)
        for kernel, cases in sorted(cases_of_kernel.items()):
            if all(ratio[c] >= KERNEL_GAIN for c in cases):
                moves.append((min(ratio[c] for c in cases), {"%s.%s" % (kernel, key): value}))
    moves.sort(key=lambda m: -m[0])
    return [m for _, m in moves[:MAX_KERNEL_MOVES]]


def choose(records):
    """The candidates that beat the defaults on the cases of every family they
    change (MIN_GAIN in geomean; a kernel move KERNEL_GAIN on its kernel's
    cases) and lose none of those cases (NOISE), the best per group (group_of):
    {"reduce+arg_reduce": (candidate dict, geomean gain, {case: (defaults, candidate)})}."""
    best = {}
    for cand, group, gain, loses, table in verdicts(records):
        if gain < gain_bar(cand) or loses or (group in best and gain <= best[group][1]):
            continue
        best[group] = (cand, gain, table)
    return best


def confirmation_table(records):
    """Markdown: every candidate of a confirmation round against the defaults,
    taken or not and why; "" where the judged records are a search's."""
    if not is_confirmation(records):
        return ""
    taken = [entry[0] for entry in choose(records).values()]
    rows = ["| candidate | case | defaults (ms) | candidate (ms) | speed-up | repeats, defaults / candidate (ms) |",
            "|---|---|---|---|---|---|"]
    for cand, _, gain, loses, table in verdicts(records):
        name = ", ".join("%s %s" % nv for nv in sorted(cand.items()))
        verdict = "taken" if cand in taken else ("loses %s" % ", ".join(loses) if loses else
                                                 "below the %d%% bar" % round((gain_bar(cand) - 1) * 100))
        for case in sorted(table):
            before, after = table[case]
            rows.append("| %s | %s | %.4g | %.4g | %.2fx | %.4g–%.4g / %.4g–%.4g |"
                        % (name, case, before[0] * 1e3, after[0] * 1e3, before[0] / after[0],
                           before[2] * 1e3, before[3] * 1e3, after[2] * 1e3, after[3] * 1e3))
        rows.append("| %s | **geomean** | | | **%.3fx** | %s |" % (name, gain, verdict))
    return "\n".join(rows)


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
    # The date the judged measurements were taken (logs before records had one: today).
    date = judged(records)[-1].get("date") or datetime.date.today().isoformat()
    out = {"platform": platform, "machine": machine, "date": date}
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
