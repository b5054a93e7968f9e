#!/usr/bin/env python3
"""hdml's CUDA benchmark: hdml and PyTorch on one GPU in one run (issue 7).

Measures every hdml operator and PyTorch's equivalent on the shape corpus of
../shared/notes/performance.md section 5, plus a device-to-device copy as the
bandwidth reference, all with one timing method on one stream: CUDA events
around each call, warm-up calls first, median of the repeats. Large cases are
also timed cold (a 2x-L2-sized buffer is overwritten before each call, outside
the timed span). hdml runs through its C API (hdml_ctypes.py) on PyTorch's own
context and stream, over PyTorch tensors' device memory, and each hdml result
is compared with PyTorch's before it is timed.

GB/s counts the minimal bytes: every input element read once plus every output
element written once (gather also counts its index bytes).

    python3 bench/cuda/gpu_bench.py --hdml <dir>/libhdml.so.0 [--json out.json] [--repeats 20] [--only REGEX]
                                    [--types f32,f16,i32]
    python3 bench/cuda/gpu_bench.py --table bench/results/2026-11-23-h100.json     # reprint a saved run
"""
import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/: hdml_ctypes
from hdml_ctypes import Hdml  # noqa: E402

try:
    import torch
except ImportError:  # --table needs no GPU
    torch = None

MiB = 1 << 20


def gbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e9


class Timer:
    def __init__(self, repeats, warmup):
        self.repeats = repeats
        self.warmup = warmup
        props = torch.cuda.get_device_properties(0)
        l2 = getattr(props, "L2_cache_size", 64 * MiB) or 64 * MiB
        self.flush_buffer = torch.empty(2 * l2 // 4 + 1, dtype=torch.float32, device="cuda")

    def once(self, fn):
        """One call's time in ms (also a warm-up)."""
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        return start.elapsed_time(stop)

    def median_ms(self, fn, cold, calls=1):
        """Median over the repeats of one call's time; `calls` back-to-back calls
        per timed span for small cases, whose single call is shorter than the
        host's launch overhead (this measures throughput, not latency)."""
        for _ in range(self.warmup):
            fn()
        times = []
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        for _ in range(self.repeats):
            if cold:
                self.flush_buffer.fill_(1.0)
            start.record()
            for _ in range(calls):
                fn()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop) / calls)
        return statistics.median(times)


def copy_gbps(timer, cold):
    """The bandwidth reference: a 1 GiB device-to-device copy, bytes read and
    written over its median time."""
    src = torch.empty(1 << 28, dtype=torch.float32, device="cuda")
    dst = torch.empty_like(src)
    ms = timer.median_ms(lambda: dst.copy_(src), cold=cold)
    return gbps(2 * nbytes(src), ms)


def scan_values(dtype, shape):
    """Inputs for the scan sweeps: floats near 1 (long products stay finite),
    small integers (exact sums)."""
    if dtype.is_floating_point:
        return torch.rand(shape, dtype=dtype, device="cuda") * 0.02 + 0.99
    return torch.randint(-100, 100, shape, dtype=dtype, device="cuda")


def nbytes(*tensors):
    return sum(t.numel() * t.element_size() for t in tensors)


class Case:
    """One shape of one operator in one element type (DTYPES): PyTorch's call,
    and hdml's (None where hdml's CUDA device lacks the operator) as a function
    of the Hdml wrapper that returns (run, check): run enqueues the operator,
    check compares its output with PyTorch's result (after a run)."""

    def __init__(self, op, dtype, label, moved, torch_fn, hdml=None):
        self.op, self.dtype, self.label, self.moved, self.torch_fn, self.hdml = op, dtype, label, moved, torch_fn, hdml


def close(a, b, exact=False):
    if exact:
        return bool(torch.equal(a, b))
    # ±inf counts as the type's largest finite value, so that a result which
    # overflows on one side and lands within rtol of the limit on the other
    # agrees: the [2^28] cumprod line overflows near element 177K, and in 6 of
    # 60 runs hdml's last finite product rounded to inf where PyTorch's was
    # 3.4027e38 (both finite elsewhere, within 8e-5 of each other).
    fmax = torch.finfo(a.dtype).max if a.is_floating_point() else None
    a, b = a.double(), b.double()
    if fmax is not None:
        a, b = a.clamp(-fmax, fmax), b.clamp(-fmax, fmax)
    return bool(torch.allclose(a, b, rtol=2e-3, atol=1e-5, equal_nan=True))


# The element types of the corpus: float32 (every case), float16 (every case:
# PyTorch accumulates float16 in float32 as hdml does) and int32 (the operators
# DirectML and PyTorch both have for it: SUM, MULTIPLY, MIN, MAX, ARGMAX/ARGMIN,
# scans, GATHER, SPLIT/JOIN; sums and products wrap in both).
DTYPES = ("f32", "f16", "i32")


def torch_dtype(name):
    return {"f32": torch.float32, "f16": torch.float16, "i32": torch.int32}[name]


def cases(dtypes=DTYPES):
    for name in dtypes:
        yield from cases_of(name)


def cases_of(type_name):
    """The corpus in one element type (the same element counts in every type)."""
    dtype = torch_dtype(type_name)
    floating = dtype.is_floating_point

    def values(*shape):
        if floating:
            return (torch.rand(*shape, device="cuda") + 0.5).to(dtype)
        return torch.randint(-3, 4, shape, dtype=dtype, device="cuda")

    big = values(16384, 16384)
    tiny_rows16 = values(1 << 24, 16)
    tiny_rows64 = values(1 << 22, 64)
    few_long_rows = values(64, 1 << 22)
    few_long_cols = values(1 << 22, 64)
    tiny_outer = values(16, 1 << 24)
    krk = values(256, 1024, 1024)
    odd = values(1000, 1003)
    strided = big[:, ::2]
    small = {"[1,1000]": values(1, 1000), "[32,1024]": values(32, 1024), "[256,256]": values(256, 256)}

    # Integer sums and products in the data type (PyTorch widens them to int64 by default).
    acc = {} if floating else dict(dtype=dtype)
    # name: (PyTorch call, hdml REDUCE function or ARGMAX/ARGMIN operator)
    reducers = {
        "REDUCE SUM (sum)": (lambda x, d: torch.sum(x, dim=d, **acc), "SUM"),
        "REDUCE MAX (amax)": (lambda x, d: torch.amax(x, dim=d), "MAX"),
        "REDUCE MIN (amin)": (lambda x, d: torch.amin(x, dim=d), "MIN"),
        "REDUCE MULTIPLY (prod)": (lambda x, d: torch.prod(x, dim=d[0], **acc) if len(d) == 1
                                   else torch.prod(x, **acc), "MULTIPLY"),
    }
    if floating:
        reducers.update({
            "REDUCE AVERAGE (mean)": (lambda x, d: torch.mean(x, dim=d), "AVERAGE"),
            "REDUCE L2 (norm)": (lambda x, d: torch.linalg.vector_norm(x, dim=d), "L2"),
            "REDUCE LOG_SUM_EXP (logsumexp)": (lambda x, d: torch.logsumexp(x, dim=d), "LOG_SUM_EXP"),
        })
    reducers.update({
        "ARGMAX (argmax)": (lambda x, d: torch.argmax(x, dim=d[0]) if len(d) == 1 else torch.argmax(x), "argmax"),
        "ARGMIN (argmin)": (lambda x, d: torch.argmin(x, dim=d[0]) if len(d) == 1 else torch.argmin(x), "argmin"),
    })
    shapes = [
        (big, (1,), "[16K,16K] inner"), (big, (0,), "[16K,16K] outer"), (big, (0, 1), "[16K,16K] all"),
        (tiny_rows16, (1,), "[16M,16] inner"), (tiny_rows64, (1,), "[4M,64] inner"),
        (tiny_outer, (0,), "[16,16M] outer"), (few_long_rows, (1,), "[64,4M] inner"),
        (few_long_cols, (0,), "[4M,64] outer"), (krk, (1,), "[256,1024,1024] middle"),
        (odd, (1,), "[1000,1003] inner"), (strided, (1,), "[16K,16K][:, ::2] inner"),
    ] + [(x, (1,), name + " inner") for name, x in small.items()]

    # float16 results are checked against PyTorch's float32 result rounded to
    # float16 (hdml accumulates float16 in float32; PyTorch's float16 cumsum
    # and logsumexp differ from that by more than rounding).
    def reference(fn, x, *args):
        return fn(x.float(), *args).to(dtype) if dtype == torch.float16 else fn(x, *args)

    def reduce_hdml(fn, function, x, dims):
        def make(h):
            out = torch.empty_like(fn(x, dims))
            if function in ("argmax", "argmin"):
                run = h.arg_reduce(function == "argmin", x, dims, out)
                return run, lambda: close(out, fn(x, dims), exact=True)
            run = h.reduce(function, x, dims, out)
            return run, lambda: close(out, reference(fn, x, dims), exact=not floating)
        return make

    for op_name, (fn, function) in reducers.items():
        for x, dims, label in shapes:
            moved = nbytes(x) + nbytes(fn(x, dims))
            yield Case(op_name, type_name, label, moved, lambda fn=fn, x=x, dims=dims: fn(x, dims),
                       reduce_hdml(fn, function, x, dims))

    # GATHER: index_select of rows, and along the inner axis (DML GATHER takes one index
    # list per axis, PyTorch's index_select; torch.gather is GATHER_ELEMENTS).
    def gather_hdml(x, idx, dim):
        def make(h):
            out = torch.index_select(x, dim, idx).clone().zero_()
            return h.gather(x, idx, dim, out), lambda: close(out, torch.index_select(x, dim, idx), True)
        return make

    rows = torch.randint(0, 16384, (16384,), device="cuda")
    yield Case("GATHER (index_select)", type_name, "[16K,16K] rows, 16K random int64", 2 * nbytes(big) + nbytes(rows),
               lambda: torch.index_select(big, 0, rows), gather_hdml(big, rows, 0))
    columns = torch.randint(0, 16384, (4096,), device="cuda")
    yield Case("GATHER (index_select)", type_name, "[16K,16K] inner axis, 4K random int64",
               2 * 16384 * 4096 * big.element_size() + nbytes(columns), lambda: torch.index_select(big, 1, columns),
               gather_hdml(big, columns, 1))

    # Cumulative ops: inner, outer, tiny rows, long 1-D (floats near 1: long products stay finite longer).
    line = (torch.rand(1 << 28, device="cuda") * 1e-3 + 1.0).to(dtype) if floating else values(1 << 28)

    def scan_hdml(fn, product, x, dim):
        def make(h):
            out = torch.empty_like(x)
            return h.scan(product, x, dim, out), lambda: close(out, reference(fn, x, dim), exact=not floating)
        return make

    for name, scan, product in (("CUMULATIVE_PRODUCT (cumprod)", torch.cumprod, True),
                                ("CUMULATIVE_SUMMATION (cumsum)", torch.cumsum, False)):
        fn = (lambda x, dim, scan=scan: scan(x, dim)) if floating else \
            (lambda x, dim, scan=scan: scan(x, dim, dtype=dtype))
        for x, dim, label in ((big, 1, "[16K,16K] inner"), (big, 0, "[16K,16K] outer"),
                              (tiny_rows16, 1, "[16M,16] inner"), (tiny_rows64, 1, "[4M,64] inner"),
                              (line, 0, "[2^28] 1-D")):
            yield Case(name, type_name, label, 2 * nbytes(x), lambda x=x, dim=dim, fn=fn: fn(x, dim),
                       scan_hdml(fn, product, x, dim))

    # SPLIT (uneven pieces copied out: clone, since an outer split is a view) and JOIN (cat).
    def split_hdml(sizes, dim):
        def make(h):
            pieces = [torch.empty_like(p, memory_format=torch.contiguous_format)
                      for p in torch.split(big, sizes, dim=dim)]
            expected = torch.split(big, sizes, dim=dim)
            return h.split(big, pieces, dim), lambda: all(close(p, e, True) for p, e in zip(pieces, expected))
        return make

    def join_hdml(parts, dim):
        def make(h):
            out = torch.empty_like(big)
            return h.join(parts, out, dim), lambda: close(out, torch.cat(parts, dim=dim), True)
        return make

    for dim, label in ((1, "inner"), (0, "outer")):
        sizes = [1000, 2000, 13384]
        yield Case("SPLIT (split+clone)", type_name, f"[16K,16K] {label} 1000/2000/13384", 2 * nbytes(big),
                   lambda dim=dim: [p.clone() for p in torch.split(big, sizes, dim=dim)], split_hdml(sizes, dim))
        parts = [p.contiguous() for p in torch.split(big, sizes, dim=dim)]
        yield Case("JOIN (cat)", type_name, f"3 parts -> [16K,16K] {label}", 2 * nbytes(big),
                   lambda dim=dim, parts=parts: torch.cat(parts, dim=dim), join_hdml(parts, dim))
    parts64 = [p.contiguous() for p in torch.split(big, 256, dim=1)]
    yield Case("SPLIT (split+clone)", type_name, "[16K,16K] inner 64 equal", 2 * nbytes(big),
               lambda: [p.clone() for p in torch.split(big, 256, dim=1)], split_hdml([256] * 64, 1))
    yield Case("JOIN (cat)", type_name, "64 parts -> [16K,16K] inner", 2 * nbytes(big),
               lambda: torch.cat(parts64, dim=1), join_hdml(parts64, 1))


def fmt(x):
    return "—" if x is None else f"{x:.0f}" if x >= 10 else f"{x:.2f}"


def print_table(result):
    copy = result["copy_gbps"]
    print(f"GPU: {result['gpu']}; torch {result['torch']}, CUDA {result['cuda']}; hdml {result.get('hdml', '—')}")
    print(f"D2D copy (1 GiB, read+write): {copy:.0f} GB/s\n")
    print("| operator (PyTorch call) | type | case | hdml GB/s | hdml % of copy | PyTorch GB/s | PyTorch % of copy "
          "| hdml / PyTorch |")
    print("|---|---|---|---|---|---|---|---|")
    ratios = {}  # type -> hdml / PyTorch of its cases
    for r in result["rows"]:
        dtype = r.get("dtype", "f32")  # runs without the field measured float32 only
        torch_gbps = r["torch"]["cold_gbps"] or r["torch"]["warm_gbps"]
        h = r.get("hdml")
        hdml_gbps = (h["cold_gbps"] or h["warm_gbps"]) if h and h.get("warm_gbps") else None
        note = "" if not h else (" (wrong result!)" if h.get("correct") is False else "")
        ratio = hdml_gbps / torch_gbps if hdml_gbps else None
        if ratio:
            ratios.setdefault(dtype, []).append(ratio)
        print(f"| {r['op']} | {dtype} | {r['case']} | {fmt(hdml_gbps)}{note} | "
              f"{fmt(100 * hdml_gbps / copy) + '%' if hdml_gbps else '—'} | {fmt(torch_gbps)} | "
              f"{fmt(100 * torch_gbps / copy)}% | {f'{ratio:.2f}x' if ratio else (h or {}).get('error', '—')} |")
    if ratios:
        print()
        for dtype, of_type in ratios.items():
            print(f"Geomean hdml / PyTorch, {dtype}: {statistics.geometric_mean(of_type):.3f}x over {len(of_type)} cases")
        every = [x for of_type in ratios.values() for x in of_type]
        print(f"Geomean hdml / PyTorch over {len(every)} cases: {statistics.geometric_mean(every):.3f}x")


def measure(timer, fn, moved, probe_ms):
    """Warm (and, for large cases, cold) GB/s of fn. Slow cases are timed less:
    a call over 200 ms is its own measurement, one over 50 ms the median of 3
    (slow kernels would otherwise take minutes)."""
    if probe_ms > 200:
        return dict(warm_ms=probe_ms, warm_gbps=gbps(moved, probe_ms), cold_ms=None, cold_gbps=None)
    if probe_ms > 50:
        ms = statistics.median([timer.once(fn) for _ in range(3)])
        return dict(warm_ms=ms, warm_gbps=gbps(moved, ms), cold_ms=None, cold_gbps=None)
    warm = timer.median_ms(fn, cold=False, calls=1 if moved >= 64 * MiB else 50)
    cold = timer.median_ms(fn, cold=True) if moved >= 256 * MiB else None
    return dict(warm_ms=warm, warm_gbps=gbps(moved, warm), cold_ms=cold, cold_gbps=gbps(moved, cold) if cold else None)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", help="write the measurements here")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--table", metavar="JSON", help="only print the table of an earlier run's JSON")
    parser.add_argument("--hdml", metavar="LIBHDML", help="path of libhdml.so.0 to measure beside PyTorch")
    parser.add_argument("--only", metavar="REGEX",
                        help="only the cases whose 'op type case' text matches, e.g. 'SUM f16 ' (a partial run)")
    parser.add_argument("--types", default=",".join(DTYPES),
                        help=f"element types to run, comma-separated (default {','.join(DTYPES)})")
    args = parser.parse_args()
    if args.table:
        with open(args.table) as f:
            return print_table(json.load(f))

    timer = Timer(args.repeats, args.warmup)
    hdml = Hdml(args.hdml, torch) if args.hdml else None
    gpu = torch.cuda.get_device_name(0)
    copy = copy_gbps(timer, cold=False)
    rows = []
    for case in cases(args.types.split(",")):
        if args.only and not re.search(args.only, f"{case.op} {case.dtype} {case.label}"):
            continue
        row = dict(op=case.op, dtype=case.dtype, case=case.label, bytes=case.moved)
        row["torch"] = measure(timer, case.torch_fn, case.moved, timer.once(case.torch_fn))
        if hdml and case.hdml:
            try:
                run, check = case.hdml(hdml)
                timer.once(run)  # the first call also JIT-compiles the kernel's PTX for this GPU
                probe = timer.once(run)
                row["hdml"] = measure(timer, run, case.moved, probe)
                row["hdml"]["correct"] = check()
            except RuntimeError as e:
                row["hdml"] = dict(error=str(e).split(":")[0][:60])
        rows.append(row)
        print(f"{case.op} {case.dtype} {case.label}: torch {row['torch']['warm_gbps']:.0f} GB/s"
              + (f", hdml {row['hdml'].get('warm_gbps', 0):.0f} GB/s ok={row['hdml'].get('correct')}"
                 if 'hdml' in row else ""), file=sys.stderr, flush=True)
        torch.cuda.empty_cache()

    result = dict(gpu=gpu, torch=torch.__version__, cuda=torch.version.cuda, copy_gbps=copy, rows=rows,
                  hdml=args.hdml or "not run")
    print_table(result)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
