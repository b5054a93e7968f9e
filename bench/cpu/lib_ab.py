#!/usr/bin/env python3
"""Paired A/B of hdml libraries on the CPU: each library in a process of its own, every corpus case built once in
each, the libraries timed in turn, call batch by call batch, the order rotated every repetition.

A machine whose memory bandwidth drifts (a shared VM moved 38-80 GB/s within minutes) swamps a comparison of
whole runs, or of rounds a case apart (device_run.sh ab); back-to-back batches of ~0.05 s see the same machine, so
the ratio of each repetition's pair is the measurement, and its spread is reported. A process a library (two
loaded in one process crashed in their first call), on tensors of the same shapes; one works at a time while the
others wait on a pipe. Processes of one library differ too (by up to ~9% on a 2-core VM):
name the baseline twice (def=X def2=X new=Y) to see that floor beside the comparison. A dispatch threshold
needs no rebuild: `--overlay NAME=FILE` runs that library with HDML_DISPATCH_X86/ARM naming FILE (a JSON
"dispatch" overlay, runtime/variants/thresholds.h), so the same library may be named twice, once overlaid.

    bench/cpu/lib_ab.py --threads 2 --cases 'reduce/sum/f32/inner$' \\
        def=build/runtime/libhdml.so.0 def2=build/runtime/libhdml.so.0 new=build/tune/<id>/libhdml.so.0 > ab.jsonl
    bench/cpu/lib_ab.py --summary ab.jsonl

One JSON line per case: seconds per call of every repetition, per library (the first is the baseline). A
library's pool workers spin ~200 us after its batch, into the start of the next library's batch only.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # bench/: hdml_ctypes
sys.path.insert(0, HERE)
from cpu_bench import build, seconds_per_call  # noqa: E402
from hdml_ctypes import Hdml  # noqa: E402


def worker(path, threads):
    """One library in a process of its own: builds the case it is sent, then times it on request, until stdin
    closes."""
    os.environ["HL_NUM_THREADS"] = str(threads)
    import torch
    torch.set_num_threads(threads)
    h = Hdml(path, torch, device="cpu")
    kept = None
    for line in sys.stdin:
        request = json.loads(line)
        if "case" in request:
            kept = None  # the previous case's tensors go first
            kept = build(torch, h, request["case"])  # fn keeps the inputs alive: hdml binds raw pointers
            kept[2]()  # warm: the first call faults pages in and starts the pool
            reply = {"bytes": kept[4]}
        else:
            reply = {"seconds": seconds_per_call(kept[2], request["min_seconds"])}
        print(json.dumps(reply), flush=True)


def measure(args):
    names, paths = zip(*(spec.split("=", 1) for spec in args.libraries))
    overlays = dict(spec.split("=", 1) for spec in args.overlay)
    unknown = set(overlays) - set(names)
    if unknown:
        sys.exit("--overlay names no library: %s" % ", ".join(sorted(unknown)))

    def environment(name):
        env = dict(os.environ)
        for platform in ("X86", "ARM"):
            env.pop("HDML_DISPATCH_" + platform, None)  # only the named library is overlaid
            if name in overlays:
                env["HDML_DISPATCH_" + platform] = os.path.abspath(overlays[name])
        return env

    workers = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", path, "--threads",
                                 str(args.threads)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                env=environment(name))
               for name, path in zip(names, paths)]

    def ask(w, request):
        w.stdin.write(json.dumps(request) + "\n")
        w.stdin.flush()
        return json.loads(w.stdout.readline())

    for case in json.load(open(args.corpus))["cases"]:
        if not re.search(args.cases, case["case"]):
            continue
        moved = [ask(w, {"case": case}) for w in workers][0]["bytes"]
        seconds = {name: [] for name in names}
        for rep in range(args.repeats):
            for k in range(len(workers)):
                i = (rep + k) % len(workers)  # each library first as often as the others
                seconds[names[i]].append(ask(workers[i], {"min_seconds": args.min_seconds})["seconds"])
        record = {"case": case["case"], "threads": args.threads, "bytes": moved, "seconds": seconds}
        if overlays:
            record["overlays"] = {name: open(path).read() for name, path in overlays.items()}
        print(json.dumps(record), flush=True)
    for w in workers:
        w.stdin.close()
        w.wait()


def summary(path):
    """Per case and library: GB/s (median) and the baseline's time over the library's, median and range over
    the repetitions (above 1: the library is faster)."""
    for line in open(path):
        r = json.loads(line)
        names = list(r["seconds"])
        base = r["seconds"][names[0]]
        cells = []
        for name in names:
            times = r["seconds"][name]
            gbs = r["bytes"] / statistics.median(times) / 1e9
            ratios = sorted(b / t for b, t in zip(base, times))
            cells.append("%s %.1f GB/s %.3fx (%.2f-%.2f)" % (name, gbs, statistics.median(ratios), ratios[0],
                                                             ratios[-1]))
        print("%-34s %2d thr  %s" % (r["case"], r["threads"], "  ".join(cells)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("libraries", nargs="*", help="NAME=path/to/libhdml.so.0, the baseline first")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--corpus", default=os.path.join(HERE, "corpus.json"))
    parser.add_argument("--cases", default="")
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--min-seconds", type=float, default=0.05)
    parser.add_argument("--overlay", action="append", default=[],
                        help="NAME=dispatch.json: run library NAME with this dispatch overlay (repeatable)")
    parser.add_argument("--summary", help="print a measured file's ratios instead")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # a library's process (measure starts them)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker, args.threads)
    if args.summary:
        return summary(args.summary)
    if len(args.libraries) < 2:
        parser.error("two libraries or more: NAME=path ...")
    measure(args)


if __name__ == "__main__":
    main()
