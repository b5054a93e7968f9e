"""measure: every candidate of a plan's DIR through the real runtime path
(hdml-tune-bench against the candidate's libhdml), candidates interleaved pass
after pass, each measurement appended to DIR/log.jsonl as it finishes. Needs
no compiler, Halide or CMake. A rerun skips the (candidate, pass) pairs the
log holds; Ctrl-C loses only the measurement in flight."""
import json
import os
import platform as host
import subprocess
import sys
import time

from . import log as tune_log


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %s, %d CPUs" % (host.node(), model, os.cpu_count() or 0)


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


def measure(out_dir, passes=3, repeats=3, min_seconds=0.05, deadline=None):
    """Measures DIR's candidates; returns the log's path. `deadline` (a time.time())
    stops later passes, never the first."""
    with open(os.path.join(out_dir, "manifest.json")) as f:
        manifest = json.load(f)
    log_path = os.path.join(out_dir, "log.jsonl")
    done = {(tune_log.candidate_key(r["candidate"]), r.get("pass")) for r in tune_log.read(log_path)}
    who = machine()
    work = []
    for p in range(passes):
        order = manifest["candidates"][p % len(manifest["candidates"]):] + manifest["candidates"][:p % len(manifest["candidates"])]
        for c in order:
            if (tune_log.candidate_key(c["candidate"]), p) not in done:
                work.append((p, c))
    progress = Progress(len(work))
    harness = os.path.join(out_dir, "bin", "hdml-tune-bench")
    for p, c in work:
        if deadline is not None and time.time() > deadline and p > 0:
            break  # past the deadline, but every candidate gets its first pass
        lib_path = [os.path.join(os.path.realpath(out_dir), c["id"])] + \
            [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
        env = dict(os.environ, LD_LIBRARY_PATH=":".join(lib_path))
        cmd = [harness, os.path.join(out_dir, "corpus.json"), "--repeats", str(repeats),
               "--min-seconds", str(min_seconds)] + sum((["--family", f] for f in manifest["families"]), [])
        result = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError("candidate %s: %s" % (c["id"], result.stderr.strip()))
        records = []
        for line in result.stdout.splitlines():
            r = json.loads(line)
            records.append({"platform": manifest["platform"], "machine": who, "family": r["family"],
                            "candidate": c["candidate"], "case": r["case"], "bytes": r["bytes"],
                            "seconds": r["seconds"], "pass": p})
        tune_log.append(log_path, *records)  # a candidate's pass lands whole, or (interrupted) not at all
        progress.step("%s pass %d" % (c["id"], p))
    return log_path
