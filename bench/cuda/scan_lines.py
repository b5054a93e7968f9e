#!/usr/bin/env python3
"""Inner-axis cumulative sums at several line lengths and line counts (issue 7):
where the line walk (staging=line_walk: a block per line, one pass over the
input) beats the kernel it stands in for (the staged kernel for long lines,
the lines or chunked kernels for short ones), which sets params/cuda.json's
scan_line_walk_min_line and scan_line_walk_min_lines. Cold L2, CUDA events,
median of 15, PyTorch's cumsum beside; every result is checked against
PyTorch's.

Both kernels run from one library: the walk as an inclusive scan into another
tensor, the other kernel as an exclusive scan in place, which the runtime never
gives the walk (it would read elements it has already overwritten). Build the
library with both thresholds at 1 to time the walk at every shape:

    python3 bench/cuda/scan_lines.py <dir>/libhdml.so.0
"""
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/: hdml_ctypes
import torch  # noqa: E402
import gpu_bench as gb  # noqa: E402
from hdml_ctypes import Hdml  # noqa: E402

GiB_ELEMENTS = 1 << 28  # float32 elements in 1 GiB


def shapes(dtype):
    """(lines, line): 1 GiB at each line length, then fewer lines of 16K and of 256K."""
    total = GiB_ELEMENTS * 4 // dtype.itemsize
    for line in (40, 64, 128, 256, 512, 1024, 2048, 4096, 16384, 65536, 262144, 1 << 20):
        yield total // line, line
    for lines in (128, 256, 512, 1024, 2048, 4096):
        yield lines, 16384
    for lines in (64, 128, 256, 512):
        yield lines, 262144


def main():
    hdml = Hdml(sys.argv[1], torch)
    timer = gb.Timer(15, 3)
    print(f"{torch.cuda.get_device_name(0)}: copy 1 GiB cold {gb.copy_gbps(timer, cold=True):.0f} GB/s")
    for dtype in (torch.float32, torch.int64):
        for lines, line in shapes(dtype):
            x = gb.scan_values(dtype, (lines, line))
            exact = not dtype.is_floating_point
            expected = torch.cumsum(x, 1)
            out = torch.empty_like(x)
            traffic = 2 * gb.nbytes(x)
            torch_ms = timer.median_ms(lambda: torch.cumsum(x, 1, out=out), cold=True)
            row = f"{str(dtype)[6:]:8} {lines:8} lines x {line:8}: torch {torch_ms:7.3f} ms"
            out.zero_()
            walk = hdml.scan(False, x, 1, out)
            walk()
            ok = gb.close(out, expected, exact)
            ms = timer.median_ms(walk, cold=True)
            row += f" | walk {ms:7.3f} ms {gb.gbps(traffic, ms):5.0f} GB/s{'' if ok else ' WRONG'}"
            in_place = x.clone()
            other = hdml.scan(False, in_place, 1, in_place, exclusive=True)
            other()
            ok = gb.close(in_place, expected - x, exact)
            ms = timer.median_ms(other, cold=True)  # in place: its values drift, its traffic does not
            row += f" | other (exclusive, in place) {ms:7.3f} ms {gb.gbps(traffic, ms):5.0f} GB/s{'' if ok else ' WRONG'}"
            print(row, flush=True)
            del x, expected, out, in_place
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
