#!/usr/bin/env python3
"""Outer-axis cumulative sums over 1 GiB at several column counts (issue 7):
where the column walk (staging=columns) beats the chunked scan, which sets
params/cuda.json's scan_columns_min_columns. Cold L2, CUDA events, median of
15, PyTorch's cumsum beside; every result is checked against PyTorch's.

Each library given is timed in turn on the same tensors; build one with
scan_columns_min_columns = 1 to time the walk at every count, and one with a
huge value to time the chunked scan:

    python3 bench/cuda/scan_columns.py <dir>/libhdml.so.0 [<other>/libhdml.so.0 ...]

A library path may end in @N to JIT its kernels with at most N registers per
thread (HL_CUDA_JIT_MAX_REGISTERS; Halide's default is 64).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/: hdml_ctypes
import torch  # noqa: E402
import gpu_bench as gb  # noqa: E402
from hdml_ctypes import Hdml  # noqa: E402


def main():
    specs = [arg.split("@") for arg in sys.argv[1:]]
    libs = [(spec[0], spec[1] if len(spec) > 1 else None, Hdml(spec[0], torch)) for spec in specs]
    timer = gb.Timer(15, 3)
    print(f"{torch.cuda.get_device_name(0)}: copy 1 GiB cold {gb.copy_gbps(timer, cold=True):.0f} GB/s")
    for dtype in (torch.float32, torch.int64):
        for columns in (1024, 2048, 4096, 8192, 16384, 32768, 131072):
            rows = (1 << 30) // dtype.itemsize // columns
            x = gb.scan_values(dtype, (rows, columns))
            expected = torch.cumsum(x, 0)
            out = torch.empty_like(x)
            torch_ms = timer.median_ms(lambda: torch.cumsum(x, 0, out=out), cold=True)
            line = f"{str(dtype)[6:]:8} {columns:6} columns x {rows:7} rows: torch {torch_ms:7.3f} ms"
            for path, registers, hdml in libs:
                if registers:
                    os.environ["HL_CUDA_JIT_MAX_REGISTERS"] = registers  # read when a kernel is first loaded
                else:
                    os.environ.pop("HL_CUDA_JIT_MAX_REGISTERS", None)
                out.zero_()
                run = hdml.scan(False, x, 0, out)
                run()
                ok = gb.close(out, expected, exact=not dtype.is_floating_point)
                ms = timer.median_ms(run, cold=True)
                name = os.path.basename(os.path.dirname(os.path.abspath(path))) + (f"@{registers}" if registers else "")
                line += f" | {name} {ms:.3f} ms {gb.gbps(2 * gb.nbytes(x), ms):.0f} GB/s{'' if ok else ' WRONG'}"
            print(line, flush=True)
            del x, expected, out
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
