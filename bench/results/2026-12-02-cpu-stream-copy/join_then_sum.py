# JOIN of 4 float32 parts along axis 0, then SUM over the joined tensor, timed as a pair:
# python3 pipe.py LIB THREADS [MIB,...]  (HDML_DISPATCH_X86 chooses the copy); prints one JSON line per size.
import json, os, sys, time
sys.path.insert(0, 'bench')  # run from the repository root
os.environ["HL_NUM_THREADS"] = sys.argv[2]
import torch
from hdml_ctypes import Hdml
h = Hdml(sys.argv[1], torch, "cpu")
for mib in [int(m) for m in (sys.argv[3] if len(sys.argv) > 3 else "16,32,64,128").split(",")]:
    rows = mib * (1 << 20) // 4 // 1024
    parts = [torch.rand(rows // 4, 1024) for _ in range(4)]
    out = torch.empty(rows, 1024)
    total = torch.empty(1, 1)
    join = h.join(parts, out, 0)
    sum_ = h.reduce("SUM", out, (0, 1), total)
    def pair():
        join(); sum_()
    def best(fn):
        fn()
        times = []
        for _ in range(5):
            n, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < 0.2:
                fn(); n += 1
            times.append((time.perf_counter() - t0) / n)
        return min(times)
    print(json.dumps({"mib": mib, "threads": int(sys.argv[2]), "join": best(join), "sum": best(sum_), "pair": best(pair)}), flush=True)
