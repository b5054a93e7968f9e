#!/usr/bin/env python3
"""hdml's CPU device against PyTorch's CPU kernels, in one process, on the same tensors (issue 28, item 6).

For each case of a corpus (corpus.json: 256 MiB inputs), hdml runs through its C API (../hdml_ctypes.py) over
PyTorch tensors' memory; its result is compared with PyTorch's, then the two are timed in turn, `--rounds`
times (each time the mean of calls repeated for at least --min-seconds), so that a drifting machine moves both.
The memory rooflines (cpu_roofline: plain C++ read and copy on the same threads) are measured before and after
the cases. One JSON line per case and per roofline measurement; table.py prints the table.

    HL_NUM_THREADS is set from --threads (hdml), torch.set_num_threads likewise (PyTorch):
    bench/cpu/cpu_bench.py --hdml build/runtime/libhdml.so.0 --roofline build/bench/cpu_roofline \\
        --threads 2 [--cases REGEX] [--rounds 3] >> run.jsonl
    bench/cpu/table.py run.jsonl

--scale K runs every case K times larger (its first dimension, SPLIT/JOIN pieces along it, the rows an embedding
GATHER moves) and the rooflines over K x 256 MiB: on a CPU whose last-level cache holds 256 MiB (the 16-core
Xeon's 300 MiB L3) the 256 MiB cases time that cache as much as memory.

GB/s count the minimal bytes: every input element read once plus every output element written once (GATHER:
the gathered rows read, the output written and the indices).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # bench/: hdml_ctypes
from hdml_ctypes import Hdml  # noqa: E402


def nbytes(*tensors):
    return sum(t.numel() * t.element_size() for t in tensors)


def close(torch, a, b):
    """Exact for integers and copies; floats within 2e-3 relative (summation orders differ), ±inf as the
    type's largest value (a sum that overflows on one side may land just below the limit on the other)."""
    if not a.is_floating_point():
        return bool(torch.equal(a, b))
    fmax = torch.finfo(a.dtype).max
    return bool(torch.allclose(a.double().clamp(-fmax, fmax), b.double().clamp(-fmax, fmax), rtol=2e-3, atol=1e-5,
                               equal_nan=True))


def reduce_call(torch, function):
    """PyTorch's call for a REDUCE function, as call(x, dims, keepdim=, out=) (MULTIPLY: one axis, as torch.prod
    takes; LOG_SUM and SUM_SQUARE have no out= form that does not allocate, so none here)."""
    def norm(order):
        return lambda x, dims, keepdim, out=None: torch.linalg.vector_norm(x, order, dims, keepdim, out=out)
    calls = {"SUM": torch.sum, "MAX": torch.amax, "MIN": torch.amin, "LOG_SUM_EXP": torch.logsumexp,
             "AVERAGE": torch.mean, "L1": norm(1), "L2": norm(2),
             "MULTIPLY": lambda x, dims, keepdim, out=None: torch.prod(x, dims[0], keepdim, out=out)}
    if function not in calls:
        raise ValueError("no PyTorch call for REDUCE function %s (one of %s)" % (function, ", ".join(calls)))
    return calls[function]


def build(torch, h, case):
    """(PyTorch's call, its outputs, hdml's run, hdml's outputs, bytes moved) for one corpus case. Both write
    into outputs allocated once (PyTorch's out= forms; SPLIT copies each view torch.split returns into its
    own tensor): a fresh 256 MiB result per call would time page faults, not kernels."""
    dtype = {"float32": torch.float32, "float16": torch.float16, "int32": torch.int32,
             "int64": torch.int64}[case.get("type", "float32")]
    sizes, op = case["sizes"], case["op"]

    def rand(s):
        if dtype.is_floating_point:
            return torch.rand(s, dtype=torch.float32).to(dtype)
        return torch.randint(-1000, 1000, s, dtype=dtype)
    if op == "reduce":
        x, dims, function = rand(sizes), tuple(case["axes"]), case["function"]
        kept = [1 if d in dims else s for d, s in enumerate(sizes)]
        if function == "ARGMAX":
            ours, theirs = torch.empty(kept, dtype=torch.int64), torch.empty(kept, dtype=torch.int64)
            fn = lambda: torch.argmax(x, dims[0], keepdim=True, out=theirs)  # noqa: E731
            return fn, [theirs], h.arg_reduce(False, x, dims, ours), [ours], nbytes(x, ours)
        ours, theirs = torch.empty(kept, dtype=dtype), torch.empty(kept, dtype=dtype)
        call = reduce_call(torch, function)
        fn = lambda: call(x, dims, keepdim=True, out=theirs)  # noqa: E731
        # float16: PyTorch may round intermediates (LOG_SUM_EXP's sum of exps) to float16, hdml keeps float32.
        fn.float32 = lambda: call(x.float(), dims, keepdim=True).to(dtype)
        return fn, [theirs], h.reduce(function, x, dims, ours), [ours], nbytes(x, ours)
    if op in ("cumsum", "cumprod"):
        x, axis = rand(sizes), case["axis"]
        ours, theirs, call = torch.empty_like(x), torch.empty_like(x), getattr(torch, op)
        fn = lambda: call(x, axis, out=theirs)  # noqa: E731
        return fn, [theirs], h.scan(op == "cumprod", x, axis, ours), [ours], 2 * nbytes(x)
    if op == "split":
        x, axis, parts = rand(sizes), case["axis"], case["parts"]
        ours, theirs = ([torch.empty_like(p, memory_format=torch.contiguous_format)
                         for p in torch.split(x, parts, axis)] for _ in range(2))
        fn = lambda: [t.copy_(p) for t, p in zip(theirs, torch.split(x, parts, axis))]  # noqa: E731
        return fn, theirs, h.split(x, ours, axis), ours, 2 * nbytes(x)
    if op == "join":
        axis = case["axis"]
        parts = [rand(sizes[:axis] + [n] + sizes[axis + 1:]) for n in case["parts"]]
        ours, theirs = torch.empty(sizes, dtype=dtype), torch.empty(sizes, dtype=dtype)
        fn = lambda: torch.cat(parts, axis, out=theirs)  # noqa: E731
        return fn, [theirs], h.join(parts, ours, axis), [ours], 2 * nbytes(ours)
    if op == "gather":
        x, axis = rand(sizes), case["axis"]
        index = torch.randint(0, sizes[axis], (case["indices"],), dtype=torch.int64)
        shape = sizes[:axis] + [case["indices"]] + sizes[axis + 1:]
        ours, theirs = torch.empty(shape, dtype=dtype), torch.empty(shape, dtype=dtype)
        fn = lambda: torch.index_select(x, axis, index, out=theirs)  # noqa: E731
        return fn, [theirs], h.gather(x, index, axis, ours), [ours], 2 * nbytes(ours) + nbytes(index)
    raise ValueError("unknown op " + op)


def seconds_per_call(fn, min_seconds):
    """Mean over calls repeated in doubling batches until at least min_seconds have passed."""
    start, calls, batch = time.perf_counter(), 0, 1
    while True:
        for _ in range(batch):
            fn()
        calls += batch
        batch *= 2
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / calls


def scaled(case, scale):
    """`case` with `scale` times the bytes: its first dimension (and the pieces along it), or for a GATHER along
    axis 0 the rows it moves (a larger table alone would move no more bytes)."""
    if scale == 1:
        return case
    case = dict(case)
    if case["op"] == "gather" and case["axis"] == 0:
        case["indices"] *= scale
        return case
    case["sizes"] = [case["sizes"][0] * scale] + case["sizes"][1:]
    if case["op"] in ("split", "join") and case["axis"] == 0:
        case["parts"] = [n * scale for n in case["parts"]]
    return case


def roofline(path, threads, when, scale):
    """cpu_roofline's read and copy lines over scale x 256 MiB, tagged."""
    result = subprocess.run([path, "--threads", str(threads), "--mib", str(256 * scale)], check=True,
                            capture_output=True, text=True)
    for line in result.stdout.splitlines():
        record = json.loads(line)
        record["when"] = when
        print(json.dumps(record), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hdml", required=True, help="libhdml.so.0")
    parser.add_argument("--roofline", required=True, help="cpu_roofline (build/bench/cpu_roofline)")
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--corpus", default=os.path.join(HERE, "corpus.json"))
    parser.add_argument("--cases", default="", help="a regex on the case names")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--min-seconds", type=float, default=0.1)
    parser.add_argument("--scale", type=int, default=1, help="cases and rooflines this many times larger")
    args = parser.parse_args()
    if args.scale < 1:
        parser.error("--scale must be at least 1")
    os.environ["HL_NUM_THREADS"] = str(args.threads)  # hdml's pool reads it when it starts
    import torch
    torch.set_num_threads(args.threads)
    h = Hdml(args.hdml, torch, device="cpu")
    roofline(args.roofline, args.threads, "before", args.scale)
    for case in json.load(open(args.corpus))["cases"]:
        if not re.search(args.cases, case["case"]):
            continue
        case = scaled(case, args.scale)
        line = {"case": case["case"], "threads": args.threads, "torch_version": torch.__version__}
        if args.scale > 1:
            line["scale"] = args.scale
        fn, expected, run, outputs, moved = build(torch, h, case)  # fn keeps the inputs alive: hdml binds raw pointers
        line["bytes"] = moved
        run()
        try:
            fn()
            line["agrees"] = all(close(torch, o, e) for o, e in zip(outputs, expected))
            if not line["agrees"] and hasattr(fn, "float32"):  # and with PyTorch's result computed in float32?
                line["agrees_float32"] = close(torch, outputs[0], fn.float32())
        except (RuntimeError, NotImplementedError) as e:  # no PyTorch kernel for this type on the CPU
            line["torch_error"] = str(e).splitlines()[0][:160]
            if hasattr(fn, "float32"):  # PyTorch 1.13 has no float16 logsumexp: check hdml in float32
                line["agrees_float32"] = close(torch, outputs[0], fn.float32())
        line["hdml"], line["torch"] = [], []
        for _ in range(args.rounds):  # in turn, so that both see the same machine
            line["hdml"].append(seconds_per_call(run, args.min_seconds))
            if "torch_error" not in line:
                line["torch"].append(seconds_per_call(fn, args.min_seconds))
        print(json.dumps(line), flush=True)
        del fn, expected, run, outputs
    roofline(args.roofline, args.threads, "after", args.scale)


if __name__ == "__main__":
    main()
