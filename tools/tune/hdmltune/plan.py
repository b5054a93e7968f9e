"""plan: a round of candidates around a start point (coordinate descent: each
number of the chosen families one value up or down), packed into DIR with a
manifest, the corpus and the timing harness.

A candidate's generator numbers are built by the host build's generator into a
libhdml of its own, on only the kernels the corpus calls that the numbers
change (never a full rebuild); its run-time thresholds travel as an
HDML_DISPATCH_<PLATFORM> overlay file, over the library of its generator
numbers. Which kernels each case calls comes from the harness on the host
(x86) or, for a platform measured elsewhere (cuda), from the defaults' first
measurement in DIR's log: until then a plan packs the defaults and threshold
moves only."""
import hashlib
import json
import os
import platform as host
import shutil
import subprocess

from . import apply as tune_apply
from .space import generator_name, kernel_base

# The platforms plan builds candidates for (x86 and cuda in a host build, arm
# in an aarch64 cross build whose generator is the host build's), and whether
# this machine runs them natively (`local` tunes only those).
PLANNED = ("x86", "arm", "cuda")
RUNS_HERE = {"x86": host.machine() in ("x86_64", "AMD64"), "arm": host.machine() in ("aarch64", "arm64"),
             "cuda": False}


def build_platforms(build):
    """The platforms a build directory builds (its CMakeCache's HDML_PLATFORMS)."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("HDML_PLATFORMS:"):
                    return line.split("=", 1)[1].strip().split(";")
    except OSError:
        pass
    return []


def harness_runner(platform):
    """The command prefix that runs a build's binaries of `platform` on this
    machine: none for its own CPU, qemu-aarch64 for an arm cross build (as that
    build's ctest does); None where they cannot run here (cuda: no GPU assumed)."""
    if RUNS_HERE.get(platform):
        return []
    if platform == "arm":
        qemu = shutil.which("qemu-aarch64")
        if not qemu:
            raise ValueError("planning arm candidates on %s needs qemu-aarch64 (Debian's qemu-user) to list the "
                             "kernels each case calls" % host.machine())
        return [qemu, "-L", "/"]
    return None


def harness_kernels(build, corpus, families, space, runner=()):
    """{case: [(kernel base, generator)]} from the build's harness (--kernels), run
    through `runner` (an emulator's command prefix, or none)."""
    harness = os.path.join(build, "tools", "tune", "hdml-tune-bench")
    cmd = list(runner) + [harness, corpus, "--kernels", "--device", space.device] + \
        sum((["--family", f] for f in families), [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    cases = {}
    for line in out.splitlines():
        r = json.loads(line)
        cases[r["case"]] = [kernel_base(k, space.platform) for k in r["kernels"].split()]
    return cases


def logged_kernels(records, corpus, families, platform):
    """The same from the defaults' records in a measurement log, or None while a
    case of `families` has none (not measured on the target yet)."""
    with open(corpus) as f:
        wanted = [c["case"] for c in json.load(f)["cases"] if c["family"] in families]
    seen = {r["case"]: r["kernels"] for r in records if not r["candidate"] and "kernels" in r}
    if any(case not in seen for case in wanted):
        return None
    return {case: [kernel_base(k, platform) for k in seen[case].split()] for case in wanted}


def candidate_id(candidate):
    if not candidate:
        return "defaults"
    text = json.dumps(sorted(candidate.items()))
    return "c" + hashlib.sha1(text.encode()).hexdigest()[:10]


def split_candidate(candidate):
    """(generator numbers, run-time thresholds) of a candidate."""
    generators = {n: v for n, v in candidate.items() if not n.startswith("dispatch.")}
    thresholds = {n.split(".", 1)[1]: v for n, v in candidate.items() if n.startswith("dispatch.")}
    return generators, thresholds


def kernel_entries(candidate, cases):
    """The kernel-scoped numbers a candidate builds: each generator number it
    changes, on every corpus kernel of that generator; a kernel's number, on
    that kernel."""
    entries = {}
    for name, value in candidate.items():
        scope, key = name.split(".", 1)
        for kernels in cases.values():
            for base, generator in kernels:
                if generator == scope or base == scope:
                    entries.setdefault(base, {})[key] = value
    return entries


def pack(candidates, cases):
    """One library per distinct set of generator numbers ({lib id: kernel
    entries}; the defaults' built alike), the manifest's entries, and each
    candidate's thresholds as an overlay file ({path in DIR: thresholds})."""
    libraries, entries, overlays = {}, [], {}
    for c in candidates:
        generators, thresholds = split_candidate(c)
        lib_id = candidate_id(generators)
        libraries[lib_id] = kernel_entries(generators, cases)
        entry = {"id": candidate_id(c), "candidate": c, "lib": lib_id}
        if thresholds:
            entry["dispatch"] = "dispatch/%s.json" % entry["id"]
            overlays[entry["dispatch"]] = thresholds
        entries.append(entry)
    return libraries, entries, overlays


def build_libraries(build, libraries, platform, out_dir):
    """Links a libhdml per generator-number set ({lib id: kernel entries}) in the
    host build and copies each to DIR/lib/<id>/."""
    spec = {"platform": platform, "candidates": [{"id": i, "kernels": k} for i, k in sorted(libraries.items())]}
    spec_path = os.path.realpath(os.path.join(out_dir, "candidates.json"))
    with open(spec_path, "w") as f:
        json.dump(spec, f, indent=1, sort_keys=True)
    try:
        configure = subprocess.run(["cmake", "-DHDML_TUNE_CANDIDATES=" + spec_path, build], capture_output=True, text=True)
        if configure.returncode != 0:
            raise RuntimeError("configuring %s with the candidates failed: %s" % (build, configure.stderr.strip()[-2000:]))
        subprocess.run(["cmake", "--build", build, "--target", "hdml_tune_candidates"], check=True)
    finally:  # leave the host build as it was
        subprocess.run(["cmake", "-DHDML_TUNE_CANDIDATES=", build], check=True, capture_output=True)
    for lib_id in libraries:
        lib_dir = os.path.join(out_dir, "lib", lib_id)
        os.makedirs(lib_dir, exist_ok=True)
        shutil.copyfile(os.path.join(build, "tune", lib_id, "libhdml.so.0"), os.path.join(lib_dir, "libhdml.so.0"))


def confirmation(records):
    """A confirmation round's candidates. After a search: the defaults, the
    search's choice for each set of families and their merge where there are
    several. After a confirmation round (the latest boot's): the defaults, what
    it took, and the kernel moves of the generator moves it rejected
    (tune_apply.kernel_moves), to be confirmed in turn."""
    candidates = [{}]
    if tune_apply.is_confirmation(records):
        moves = tune_apply.kernel_moves(records)
        if not moves:
            raise ValueError("nothing more to confirm: the confirmation round rejected no move that gained on "
                             "one kernel's cases")
        more = [entry[0] for entry in tune_apply.choose(records).values()] + moves
    else:
        chosen = tune_apply.choose(tune_apply.searched(records))
        if not chosen:
            raise ValueError("nothing to confirm: no candidate in the log beat the current numbers")
        more = [c for c, _, _ in sorted(chosen.values(), key=lambda entry: -entry[1])] + [tune_apply.merged(chosen)]
    for candidate in more:
        if candidate not in candidates:
            candidates.append(candidate)
    return candidates


def profile_candidate(path, space):
    """A tuned profile's numbers as a candidate (name -> value), checked against the space."""
    with open(path) as f:
        profile = json.load(f)
    if profile.get("platform") != space.platform:
        raise ValueError("%s is a profile for %s, not %s" % (path, profile.get("platform"), space.platform))
    candidate = {}
    for scope, entries in profile.items():
        if scope in tune_apply.PROFILE_METADATA:
            continue
        for key, value in entries.items():
            name = "%s.%s" % (scope, key)
            if value not in space.values.get(generator_name(name), ()):
                raise ValueError("%s: %s = %s is not a value of the space" % (path, name, value))
            candidate[name] = value
    if not space.key(candidate):
        raise ValueError("nothing to confirm: %s holds no number that differs from the current ones" % path)
    return dict(space.key(candidate))  # (a kernel's number is kept: its current value may be its own)


def plan(space, start, families, build, source_corpus, out_dir, log=print, records=(), thresholds=True,
         confirm=False):
    """Writes DIR (manifest.json, corpus.json, bin/, lib/<id>/libhdml.so.0,
    dispatch/<id>.json) for the candidates around `start` (`records`: DIR's
    log so far; `thresholds`: whether threshold moves are candidates), or with
    `confirm` for a confirmation round: of the choices in `records` (True) or of
    one candidate (a dict, e.g. a profile's numbers); returns them."""
    if space.platform not in PLANNED:
        raise ValueError("plan builds %s candidates; %s is not planned yet" % (", ".join(PLANNED), space.platform))
    built = build_platforms(build)
    if space.platform not in built:
        raise ValueError("%s builds %s, not %s: plan --platform %s needs --build %s"
                         % (build, ";".join(built) or "nothing (no CMakeCache.txt)", space.platform, space.platform,
                            "an aarch64 cross build (README: \"Building for ARM\")" if space.platform == "arm"
                            else "a host build with it in HDML_PLATFORMS"))
    os.makedirs(out_dir, exist_ok=True)
    for stale in ("lib", "dispatch"):  # the last round's; the log keeps its measurements
        shutil.rmtree(os.path.join(out_dir, stale), ignore_errors=True)
    corpus = os.path.join(out_dir, "corpus.json")
    shutil.copyfile(source_corpus, corpus)
    runner = harness_runner(space.platform)
    if runner is not None:
        cases = harness_kernels(build, corpus, families, space, runner)
    else:
        cases = logged_kernels(records, corpus, families, space.platform)
    if confirm and cases is None:
        raise ValueError("nothing to confirm: the log holds no measurement of the defaults on the %s device"
                         % space.platform)
    if cases is None:
        # Thresholds need no kernels built: they are measured from the start.
        log("plan: which kernels each case calls on the %s device is not known yet: this round holds the "
            "defaults and threshold moves only; run `hdml-tune measure DIR` there, then plan again" % space.platform)
        names = [n for n in space.names(families) if n.startswith("dispatch.")]
        # Generator numbers cannot be built yet either, so not even the start's.
        start = {n: v for n, v in start.items() if n.startswith("dispatch.")}
    else:
        # Only numbers of generators whose kernels the corpus calls can be measured.
        called = {g for kernels in cases.values() for _, g in kernels}
        for family in families:
            if family not in called:
                log("plan: no corpus case calls a %s kernel; its numbers are left as they are" % family)
        names = [n for n in space.names(families) if n.split(".", 1)[0] in called or n.startswith("dispatch.")]
    if not thresholds:  # --no-thresholds: a round of generator numbers only
        names = [n for n in names if not n.startswith("dispatch.")]
    if isinstance(confirm, dict):
        candidates = [{}, confirm]
    elif confirm:
        candidates = confirmation(records)
    else:
        candidates = [{}] + ([dict(space.key(start))] if space.key(start) else [])
        for moved in space.neighbours(start, names):
            if moved not in candidates:
                candidates.append(moved)
    libraries, entries, overlays = pack(candidates, cases or {})
    for path, moved in overlays.items():
        os.makedirs(os.path.join(out_dir, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(out_dir, path), "w") as f:
            json.dump({"dispatch": moved}, f, indent=1, sort_keys=True)
    if confirm:
        log("plan: a confirmation round: the defaults and %d candidate(s) to measure again (%d libraries; %s)"
            % (len(candidates) - 1, len(libraries), ", ".join(families)))
    else:
        log("plan: %d candidates (%d libraries) around %s (%s)"
            % (len(candidates), len(libraries), space.key(start) or "the current numbers", ", ".join(families)))
    build_libraries(build, libraries, space.platform, out_dir)
    os.makedirs(os.path.join(out_dir, "bin"), exist_ok=True)
    shutil.copy2(os.path.join(build, "tools", "tune", "hdml-tune-bench"), os.path.join(out_dir, "bin"))
    manifest = {"platform": space.platform, "device": space.device, "families": families, "candidates": entries,
                "stage": "confirm" if confirm else "search"}
    if confirm:  # its own round: the defaults are measured again beside its candidates, not pooled with a past round's
        manifest["round"] = "confirm-" + hashlib.sha1(json.dumps([e["id"] for e in entries]).encode()).hexdigest()[:10]
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    return candidates
