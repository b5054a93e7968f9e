"""One thread, one process, the same minutes: hdml's SUM/MAX over rows of 1024 float32 against PyTorch's and a
plain AVX-512 row sum (plain_row_sums.cpp, without and with a 2 KiB prefetch), each timed in turn 6 times.

    g++ -O2 -mavx512f -shared -fPIC plain_row_sums.cpp -o /tmp/librs.so
    /usr/bin/python3 one_thread_same_time.py LIBHDML ROWS     # from the repository root; ROWS 128, 1024, 65536
"""
import ctypes, os, sys, time, statistics
os.environ["HL_NUM_THREADS"] = "1"
sys.path.insert(0, "bench"); sys.path.insert(0, "bench/cpu")
import torch
torch.set_num_threads(1)
from hdml_ctypes import Hdml
from cpu_bench import build, seconds_per_call
rs = ctypes.CDLL(os.environ.get("LIBRS", "/tmp/librs.so"))
ROWS = int(sys.argv[2])
HDML = Hdml(sys.argv[1], torch, device="cpu")
for fn_name in ["SUM", "MAX"]:
    case = {"case": "x", "family": "reduce", "op": "reduce", "function": fn_name, "sizes": [ROWS, 1024], "axes": [1]}
    h = HDML
    built = {"hdml": build(torch, h, case)}
    x = torch.rand(ROWS, 1024); out = torch.empty(ROWS)
    runs = {"torch": built["hdml"][0], "hdml": built["hdml"][2]}
    if fn_name == "SUM":
        runs["plain"] = lambda: rs.row_sums(ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(out.data_ptr()), ROWS, 1024, 0)
        runs["plain_pf2048"] = lambda: rs.row_sums(ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(out.data_ptr()), ROWS, 1024, 2048)
    t = {k: [] for k in runs}
    for rep in range(6):
        for k, f in runs.items():
            f(); t[k].append(seconds_per_call(f, 0.1))
    for k in runs:
        print(fn_name, "%-13s %.1f GB/s" % (k, ROWS * 4096 / statistics.median(t[k]) / 1e9))
