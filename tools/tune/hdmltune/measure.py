"""measure: every candidate of a plan's DIR through the real runtime path
(hdml-tune-bench on the platform's device against the candidate's libhdml,
with its thresholds as the HDML_DISPATCH_<PLATFORM> overlay), candidates interleaved pass
after pass, each measurement appended to DIR/log.jsonl as it finishes. Needs
no compiler, Halide or CMake. A rerun skips the (candidate, pass) pairs the
log holds from this boot; Ctrl-C loses only the measurement in flight."""
import datetime
import json
import os
import platform as host
import shlex
import subprocess
import sys
import time

from . import log as tune_log
from .apply import families_of_candidate


def machine(device="cpu"):
    """This machine in words: host name, CPU model and count, and the GPU a
    GPU device times on."""
    model, arm_ids = "unknown CPU", {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
                # aarch64 Linux gives no model name: the implementer and part numbers say which core.
                if line.startswith(("CPU implementer", "CPU part")):
                    arm_ids.setdefault(line.split(":", 1)[0].strip(), line.split(":", 1)[1].strip())
    except OSError:
        pass
    if model == "unknown CPU" and arm_ids:
        model = "CPU implementer %s part %s" % (arm_ids.get("CPU implementer", "?"), arm_ids.get("CPU part", "?"))
    who = "%s, %s, %d CPUs" % (host.node(), model, os.cpu_count() or 0)
    if device == "cuda":
        try:
            gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader", "--id=0"],
                                 capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            gpu = ""
        who = "%s, %s" % (gpu or "unknown GPU", who)
    return who


class Progress:
    """A progress bar with ETA on a terminal; plain lines otherwise."""

    def __init__(self, total, stream=sys.stderr):
        self.total, self.done, self.start, self.stream = total, 0, time.time(), stream
        self.tty = stream.isatty()

    def step(self, text):
        self.done += 1
        elapsed = time.time() - self.start
        eta = elapsed / self.done * (self.total - self.done)
        line = "[%d/%d] %s (ETA %ds)" % (self.done, self.total, text, eta)
        if self.tty:
            width = 30
            bar = "#" * (width * self.done // self.total)
            self.stream.write("\r%-*s %s" % (width, bar, line[:100]))
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def todo(candidates, records, passes, boot, stage="search", round_id=None):
    """The (pass, candidate) pairs of a round (`stage`; a confirmation round also
    by its id) left to measure on this boot, candidates interleaved pass after
    pass, each pass in a rotated order."""
    done = {(tune_log.candidate_key(r["candidate"]), r.get("pass")) for r in records
            if r.get("boot") == boot and tune_log.stage(r) == stage and r.get("round") == round_id}
    work = []
    for p in range(passes):
        shift = p % len(candidates)
        for c in candidates[shift:] + candidates[:shift]:
            if (tune_log.candidate_key(c["candidate"]), p) not in done:
                work.append((p, c))
    return work


def measure(out_dir, passes=3, repeats=3, min_seconds=0.05, deadline=None):
    """Measures DIR's candidates; returns the log's path. `deadline` (a time.time())
    stops later passes, never the first."""
    with open(os.path.join(out_dir, "manifest.json")) as f:
        manifest = json.load(f)
    log_path = os.path.join(out_dir, "log.jsonl")
    boot = tune_log.boot_id()
    stage, round_id = manifest.get("stage", "search"), manifest.get("round")
    work = todo(manifest["candidates"], tune_log.read(log_path), passes, boot, stage, round_id)
    who = machine(manifest.get("device", "cpu"))
    progress = Progress(len(work))
    harness = os.path.join(out_dir, "bin", "hdml-tune-bench")
    # HDML_TUNE_RUNNER: a command prefix for the harness, e.g. "qemu-aarch64 -L /" to run an
    # arm DIR here (hdml's tests do: it proves the path, its timings say nothing).
    runner = shlex.split(os.environ.get("HDML_TUNE_RUNNER", ""))
    for p, c in work:
        if deadline is not None and time.time() > deadline and p > 0:
            break  # past the deadline, but every candidate gets its first pass
        lib_path = [os.path.join(os.path.realpath(out_dir), "lib", c["lib"])] + \
            [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
        env = dict(os.environ, LD_LIBRARY_PATH=":".join(lib_path))
        overlay = "HDML_DISPATCH_" + manifest["platform"].upper()
        env.pop(overlay, None)  # a candidate's thresholds are its own overlay, or the built-in ones
        # ... the params file's, not a CPU's "dispatch_by_cpu" rows: the space starts from the file's numbers.
        env["HDML_CPU_DEFAULTS"] = "none"
        if "dispatch" in c:
            env[overlay] = os.path.join(os.path.realpath(out_dir), c["dispatch"])
        # A candidate runs the cases of the families it changes; the defaults, all.
        families = [f for f in manifest["families"]
                    if not c["candidate"] or f in families_of_candidate(c["candidate"])] or manifest["families"]
        cmd = runner + [harness, os.path.join(out_dir, "corpus.json"), "--device", manifest["device"],
               "--repeats", str(repeats), "--min-seconds", str(min_seconds)] + \
            sum((["--family", f] for f in families), [])
        result = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError("candidate %s: %s" % (c["id"], result.stderr.strip()))
        records = []
        for line in result.stdout.splitlines():
            r = json.loads(line)
            records.append({"platform": manifest["platform"], "machine": who, "family": r["family"],
                            "candidate": c["candidate"], "case": r["case"], "bytes": r["bytes"],
                            "seconds": r["seconds"], "kernels": r["kernels"], "pass": p, "boot": boot,
                            "stage": stage, "date": datetime.date.today().isoformat(),
                            **({"round": round_id} if round_id else {})})
        tune_log.append(log_path, *records)  # a candidate's pass lands whole, or (interrupted) not at all
        progress.step("%s pass %d" % (c["id"], p))
    return log_path
