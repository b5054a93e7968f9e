# JOIN of 3 parts into [16K,16K] along the inner axis, pieces whose starts in the whole are or
# are not 32-byte (sector) aligned, hdml against torch.cat, cold L2 (`align.py LIB`).
import sys, torch
sys.path.insert(0, "bench")
sys.path.insert(0, "bench/cuda")
from hdml_ctypes import Hdml
from gpu_bench import Timer, gbps

h = Hdml(sys.argv[1], torch)
timer = Timer(repeats=20, warmup=3)
cases = [(torch.float16, (1000, 2000, 13384)), (torch.float16, (1024, 2048, 13312)), (torch.float16, (1008, 2000, 13376)),
         (torch.float32, (1000, 2000, 13384)), (torch.float32, (1004, 2000, 13380)), (torch.float32, (1002, 2000, 13382))]
print(f"{torch.cuda.get_device_name()}")
print("| type | parts | piece starts (bytes) | hdml GB/s | torch.cat GB/s | hdml / torch |")
print("|---|---|---|---|---|---|")
for dt, sizes in cases:
    big = torch.randn(16384, 16384, device="cuda").to(dt)
    parts = [p.contiguous() for p in torch.split(big, list(sizes), dim=1)]
    out = torch.empty_like(big)
    run = h.join(parts, out, 1)
    run()
    assert torch.equal(out, big)
    moved = 2 * big.numel() * big.element_size()
    a = gbps(moved, timer.median_ms(run, cold=True))
    b = gbps(moved, timer.median_ms(lambda: torch.cat(parts, dim=1, out=out), cold=True))
    starts = [0, sizes[0] * big.element_size(), (sizes[0] + sizes[1]) * big.element_size()]
    print(f"| {str(dt)[6:]} | {'/'.join(map(str, sizes))} | {', '.join(f'{s} ({s % 32})' for s in starts)} | {a:.0f} | {b:.0f} | {a / b:.2f}x |")
