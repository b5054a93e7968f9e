#!/usr/bin/env python3
"""GPU peer baselines for hdml's CUDA benchmarks (issue 7), on one GPU in one run.

Measures PyTorch's equivalent of every hdml operator on the shape corpus of
../shared/notes/performance.md section 5, plus a device-to-device copy as the
bandwidth reference, all with one timing method: CUDA events around each call,
warm-up calls first, median of the repeats. Large cases are also timed cold
(a 2x-L2-sized buffer is overwritten before each call, outside the timed span).

GB/s counts the minimal bytes: every input element read once plus every output
element written once (gather also counts its index bytes).

    python3 bench/cuda/torch_peers.py [--json out.json] [--repeats 20]
    python3 bench/cuda/torch_peers.py --table bench/cuda/h100_torch_peers.json

Prints a markdown table (GB/s warm, GB/s cold, % of the copy bandwidth). The hdml
column joins this table once hdml's CUDA device executes (the script is where it
goes: hdml binds torch tensors' device pointers on torch's stream).
"""
import argparse
import json
import statistics

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


def nbytes(*tensors):
    return sum(t.numel() * t.element_size() for t in tensors)


def cases():
    """(operator, case name, torch call, bytes moved) for the corpus."""
    f32 = dict(device="cuda", dtype=torch.float32)
    big = torch.rand(16384, 16384, **f32) + 0.5
    tiny_rows16 = torch.rand(1 << 24, 16, **f32) + 0.5
    tiny_rows64 = torch.rand(1 << 22, 64, **f32) + 0.5
    few_long_rows = torch.rand(64, 1 << 22, **f32) + 0.5
    few_long_cols = torch.rand(1 << 22, 64, **f32) + 0.5
    tiny_outer = torch.rand(16, 1 << 24, **f32) + 0.5
    krk = torch.rand(256, 1024, 1024, **f32) + 0.5
    odd = torch.rand(1000, 1003, **f32) + 0.5
    strided = big[:, ::2]
    small = {"[1,1000]": torch.rand(1, 1000, **f32), "[32,1024]": torch.rand(32, 1024, **f32),
             "[256,256]": torch.rand(256, 256, **f32)}

    def reduce_case(op_name, fn, x, dims, label):
        out = fn(x, dims)
        return (op_name, label, lambda: fn(x, dims), nbytes(x) + nbytes(out))

    reducers = {
        "REDUCE SUM (sum)": lambda x, d: torch.sum(x, dim=d),
        "REDUCE MAX (amax)": lambda x, d: torch.amax(x, dim=d),
        "REDUCE MIN (amin)": lambda x, d: torch.amin(x, dim=d),
        "REDUCE MULTIPLY (prod)": lambda x, d: torch.prod(x, dim=d[0]) if len(d) == 1 else torch.prod(x),
        "REDUCE AVERAGE (mean)": lambda x, d: torch.mean(x, dim=d),
        "REDUCE L2 (norm)": lambda x, d: torch.linalg.vector_norm(x, dim=d),
        "REDUCE LOG_SUM_EXP (logsumexp)": lambda x, d: torch.logsumexp(x, dim=d),
        "ARGMAX (argmax)": lambda x, d: torch.argmax(x, dim=d[0]) if len(d) == 1 else torch.argmax(x),
        "ARGMIN (argmin)": lambda x, d: torch.argmin(x, dim=d[0]) if len(d) == 1 else torch.argmin(x),
    }
    shapes = [
        (big, (1,), "[16K,16K] inner"), (big, (0,), "[16K,16K] outer"), (big, (0, 1), "[16K,16K] all"),
        (tiny_rows16, (1,), "[16M,16] inner"), (tiny_rows64, (1,), "[4M,64] inner"),
        (tiny_outer, (0,), "[16,16M] outer"), (few_long_rows, (1,), "[64,4M] inner"),
        (few_long_cols, (0,), "[4M,64] outer"), (krk, (1,), "[256,1024,1024] middle"),
        (odd, (1,), "[1000,1003] inner"), (strided, (1,), "[16K,16K][:, ::2] inner"),
    ] + [(x, (1,), name + " inner") for name, x in small.items()]
    for op_name, fn in reducers.items():
        for x, dims, label in shapes:
            yield reduce_case(op_name, fn, x, dims, label)

    # GATHER: index_select of rows, and torch.gather along the inner axis.
    rows = torch.randint(0, 16384, (16384,), device="cuda")
    yield ("GATHER (index_select)", "[16K,16K] rows, 16K random int64",
           lambda: torch.index_select(big, 0, rows), 2 * nbytes(big) + nbytes(rows))
    inner_idx = torch.randint(0, 16384, (16384, 4096), device="cuda")
    yield ("GATHER (gather)", "[16K,16K] inner axis, [16K,4K] int64",
           lambda: torch.gather(big, 1, inner_idx), nbytes(inner_idx) + 2 * inner_idx.numel() * 4)

    # Cumulative ops: inner, outer, tiny rows, long 1-D.
    line = torch.rand(1 << 28, **f32) * 1e-3 + 1.0
    for name, fn in (("CUMULATIVE_PRODUCT (cumprod)", torch.cumprod), ("CUMULATIVE_SUMMATION (cumsum)", torch.cumsum)):
        for x, dim, label in ((big, 1, "[16K,16K] inner"), (big, 0, "[16K,16K] outer"),
                              (tiny_rows16, 1, "[16M,16] inner"), (line, 0, "[2^28] 1-D")):
            yield (name, label, (lambda x=x, dim=dim, fn=fn: fn(x, dim)), 2 * nbytes(x))

    # SPLIT (uneven pieces copied out: clone, since an outer split is a view) and JOIN (cat).
    for dim, label in ((1, "inner"), (0, "outer")):
        yield ("SPLIT (split+clone)", f"[16K,16K] {label} 1000/2000/13384",
               lambda dim=dim: [p.clone() for p in torch.split(big, [1000, 2000, 13384], dim=dim)],
               2 * nbytes(big))
        parts = [p.contiguous() for p in torch.split(big, [1000, 2000, 13384], dim=dim)]
        yield ("JOIN (cat)", f"3 parts -> [16K,16K] {label}", lambda dim=dim, parts=parts: torch.cat(parts, dim=dim),
               2 * nbytes(big))
    parts64 = [p.contiguous() for p in torch.split(big, 256, dim=1)]
    yield ("SPLIT (split+clone)", "[16K,16K] inner 64 equal",
           lambda: [p.clone() for p in torch.split(big, 256, dim=1)], 2 * nbytes(big))
    yield ("JOIN (cat)", "64 parts -> [16K,16K] inner", lambda: torch.cat(parts64, dim=1), 2 * nbytes(big))


def fmt(x):
    return "—" if x is None else f"{x:.0f}" if x >= 10 else f"{x:.2f}"


def print_table(result):
    copy = result["copy_gbps"]
    print(f"GPU: {result['gpu']}; torch {result['torch']}, CUDA {result['cuda']}")
    print(f"D2D copy (1 GiB, read+write): {copy:.0f} GB/s\n")
    print("| operator (PyTorch call) | case | µs (warm) | GB/s warm | GB/s cold | % of copy bw |")
    print("|---|---|---|---|---|---|")
    for r in result["rows"]:
        best = r["cold_gbps"] or r["warm_gbps"]
        print(f"| {r['op']} | {r['case']} | {r['warm_ms'] * 1e3:.1f} | {fmt(r['warm_gbps'])} | "
              f"{fmt(r['cold_gbps'])} | {fmt(100 * best / copy)}% |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", help="write the measurements here")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--table", metavar="JSON", help="only print the table of an earlier run's JSON")
    args = parser.parse_args()
    if args.table:
        with open(args.table) as f:
            return print_table(json.load(f))

    timer = Timer(args.repeats, args.warmup)
    gpu = torch.cuda.get_device_name(0)
    src = torch.empty(1 << 28, dtype=torch.float32, device="cuda")  # 1 GiB
    dst = torch.empty_like(src)
    copy_ms = timer.median_ms(lambda: dst.copy_(src), cold=False)
    copy_gbps = gbps(2 * nbytes(src), copy_ms)
    rows = []
    for op, label, fn, moved in cases():
        warm = timer.median_ms(fn, cold=False, calls=1 if moved >= 64 * MiB else 50)
        cold = timer.median_ms(fn, cold=True) if moved >= 256 * MiB else None
        rows.append(dict(op=op, case=label, bytes=moved, warm_ms=warm, warm_gbps=gbps(moved, warm),
                         cold_ms=cold, cold_gbps=gbps(moved, cold) if cold else None))
        torch.cuda.empty_cache()

    result = dict(gpu=gpu, torch=torch.__version__, cuda=torch.version.cuda, copy_gbps=copy_gbps, rows=rows)
    print_table(result)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
