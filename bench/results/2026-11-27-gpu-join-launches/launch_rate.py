# Host time per hdmlExecute (enqueue only) against GPU time per call, JOIN of 64 parts
# (`launch_rate.py LIB`), or SPLIT into 64 parts (`launch_rate.py LIB split`).
import sys, time, torch
sys.path.insert(0, "bench")
from hdml_ctypes import Hdml
h = Hdml(sys.argv[1], torch)
def measure(name, fn, n=50):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); t0 = time.perf_counter()
    for _ in range(n): fn()
    t1 = time.perf_counter(); e.record(); e.synchronize()
    print(f"{name:44} host {(t1 - t0) / n * 1e6:8.1f} us/call  gpu {s.elapsed_time(e) / n * 1e3:8.1f} us/call")


def join_rates():
    for rows, cols in ((16384, 16384), (64, 64 * 4), (1, 64)):
        big = torch.randn(rows, cols, device="cuda")
        parts = [p.contiguous() for p in torch.split(big, cols // 64, dim=1)]
        out = torch.empty_like(big)
        measure(f"hdml JOIN 64 parts -> [{rows},{cols}]", h.join(parts, out, 1))
        measure(f"torch.cat 64 parts -> [{rows},{cols}]", lambda: torch.cat(parts, dim=1, out=out))
        p3 = [p.contiguous() for p in torch.split(big, [cols // 4, cols // 4, cols // 2], dim=1)]
        measure(f"hdml JOIN 3 parts -> [{rows},{cols}]", h.join(p3, out, 1))


def split_rates():
    for rows, cols in ((16384, 16384), (64, 64 * 4), (1, 64)):
        big = torch.randn(rows, cols, device="cuda")
        parts = [torch.empty(rows, cols // 64, device="cuda") for _ in range(64)]
        measure(f"hdml SPLIT [{rows},{cols}] -> 64 parts", h.split(big, parts, 1))
        measure(f"torch.split+clone [{rows},{cols}] -> 64",
                lambda: [p.clone() for p in torch.split(big, cols // 64, dim=1)])


split_rates() if sys.argv[2:] == ["split"] else join_rates()
